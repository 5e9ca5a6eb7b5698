/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/base/strv.h"
#include "oci/json.h"
#include "shim/fsutil.h"
#include "shim/images/passwd.h"
#include "shim/store.h"
#include "shim/syscalls.h"

int store_check_id(const char *id, struct shim_error *err)
{
	size_t n = strlen(id);

	if (n == 0 || n > 1024 || id[0] == '.')
		return shim_fail(err, 0, "invalid container ID format: \"%s\"", id);
	for (const char *p = id; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_+-.", *p))
			return shim_fail(err, 0, "invalid container ID format: \"%s\"", id);
	return 0;
}

/* ROOT itself, as the caller named it (the admin's path: links followed),
 * made with the folders above it when missing: on a host's first create. */
static int open_or_make_root(const char *root, struct shim_error *err)
{
	int fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT) {
		if (mkdir_p(root, 0711, 0700, err) < 0)
			return shim_error_wrap(err, "--root");
		fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	if (fd < 0)
		shim_fail_errno(err, "--root %s", root);
	return fd;
}

/* ROOT/ID, never through a link: a symlink planted there is refused. */
static int open_beneath(int root_fd, const char *name)
{
	return openat2_retry(root_fd, name, O_PATH | O_DIRECTORY,
			     RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
}

int store_create(const char *root, const char *id, struct shim_error *err)
{
	_cleanup_close_ int root_fd = -1;
	int fd;

	if (store_check_id(id, err) < 0)
		return -1;
	root_fd = open_or_make_root(root, err);
	if (root_fd < 0)
		return -1;
	if (mkdirat(root_fd, id, 0700) < 0) {
		if (errno == EEXIST)
			return shim_fail(err, 0, "container \"%s\" already exists", id);
		return shim_fail_errno(err, "mkdir %s/%s", root, id);
	}
	fd = open_beneath(root_fd, id);
	if (fd < 0) {
		shim_fail_errno(err, "open %s/%s", root, id);
		unlinkat(root_fd, id, AT_REMOVEDIR);
	}
	return fd;
}

int store_open(const char *root, const char *id, struct shim_error *err)
{
	_cleanup_close_ int root_fd = -1;
	int fd;

	if (store_check_id(id, err) < 0)
		return -1;
	root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0 && errno == ENOENT)
		return shim_fail(err, 0, "container \"%s\" does not exist", id);
	if (root_fd < 0)
		return shim_fail_errno(err, "--root %s", root);
	fd = open_beneath(root_fd, id);
	if (fd < 0 && errno == ENOENT)
		return shim_fail(err, 0, "container \"%s\" does not exist", id);
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR || errno == EXDEV))
		return shim_fail(err, errno, "container \"%s\": %s/%s is not a folder of the "
				 "runtime's (a link or a file), refusing it", id, root, id);
	if (fd < 0)
		return shim_fail_errno(err, "open %s/%s", root, id);
	return fd;
}

int write_file_at(int dir_fd, const char *name, const char *text, struct shim_error *err)
{
	_cleanup_close_ int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
					O_CLOEXEC, 0644);

	if (fd < 0 || write_all(fd, text) < 0)
		return shim_fail_errno(err, "write %s", name);
	return 0;
}

char *store_read_record(int dir_fd, const char *name, size_t max, struct shim_error *err)
{
	_cleanup_close_ int fd = -1;

	if (dir_fd < 0) {
		shim_fail(err, ENOENT, "%s: no state folder", name);
		return NULL;
	}
	fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		shim_fail_errno(err, "open %s", name);
		return NULL;
	}
	return read_small_fd(fd, name, max, NULL, err);
}

int file_stage_at(int dir_fd, const char *name, const char *text, struct staged_file *out,
		  struct shim_error *err)
{
	char tmp[sizeof(out->tmp)];
	_cleanup_close_ int fd = -1;

	out->dir_fd = dir_fd;
	out->name = name;
	out->tmp[0] = '\0';	/* nothing staged until the file is written */
	/* O_EXCL | O_NOFOLLOW: a link or file planted under a name we might
	 * pick is never written through; pick another name then. */
	for (int i = 0; fd < 0 && i < 100; i++) {
		if (snprintf(tmp, sizeof(tmp), ".%.200s.%d.%08x", name, (int)getpid(),
			     (unsigned)random()) >= (int)sizeof(tmp))
			return shim_fail(err, ENAMETOOLONG, "%s", name);
		fd = openat(dir_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			return shim_fail_errno(err, "create a temporary file for %s", name);
	}
	if (fd < 0)
		return shim_fail(err, EEXIST, "create a temporary file for %s", name);
	/* no fsync, as runc: state lives on a tmpfs (/run) and no container
	 * outlives a host crash; the rename alone makes it whole or absent */
	if (write_all(fd, text) < 0) {
		shim_fail_errno(err, "write %s", name);
		unlinkat(dir_fd, tmp, 0);
		return -1;
	}
	memcpy(out->tmp, tmp, sizeof(tmp));
	return 0;
}

int staged_file_commit(struct staged_file *f, struct shim_error *err)
{
	/* rename replaces a link at name itself, never what it points to */
	if (renameat(f->dir_fd, f->tmp, f->dir_fd, f->name) < 0) {
		shim_fail_errno(err, "rename %s to %s", f->tmp, f->name);
		staged_file_drop(f);
		return -1;
	}
	f->tmp[0] = '\0';
	return 0;
}

void staged_file_drop(struct staged_file *f)
{
	if (f->tmp[0])
		unlinkat(f->dir_fd, f->tmp, 0);
	f->tmp[0] = '\0';
}

int write_file_atomic_at(int dir_fd, const char *name, const char *text, struct shim_error *err)
{
	struct staged_file f;

	if (file_stage_at(dir_fd, name, text, &f, err) < 0)
		return -1;
	return staged_file_commit(&f, err);
}

int write_file_atomic(const char *path, const char *text, struct shim_error *err)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	_cleanup_close_ int dir_fd = -1;

	if (!*name)
		return shim_fail(err, EISDIR, "%s: not a file name", path);
	if (snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
		     slash ? (slash == path ? "/" : path) : ".") >= (int)sizeof(dir))
		return shim_fail(err, ENAMETOOLONG, "%s", path);
	dir_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0)
		return shim_fail_errno(err, "open folder %s", dir);
	if (write_file_atomic_at(dir_fd, name, text, err) < 0)
		return shim_error_wrap(err, "%s", path);
	return 0;
}

int store_stage_state(int dir_fd, const struct oci_state_view *st, struct staged_file *out,
		      struct shim_error *err)
{
	_cleanup_free_ char *json = oci_state_to_json(st, true, false, err);

	out->tmp[0] = '\0';
	if (!json)
		return -1;
	/* The folder by its fd, so a renamed --root cannot redirect us. */
	return file_stage_at(dir_fd, "state.json", json, out, err);
}

int store_write_state(int dir_fd, const struct oci_state_view *st, struct shim_error *err)
{
	struct staged_file f;

	if (store_stage_state(dir_fd, st, &f, err) < 0)
		return -1;
	return staged_file_commit(&f, err);
}

#define STATE_MAX (1 << 20)

struct oci_state *store_read_state(int dir_fd, const char *id, struct shim_error *err)
{
	_cleanup_free_ char *text = NULL;
	_cleanup_close_ int fd = openat(dir_fd, "state.json", O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
					O_CLOEXEC);
	struct oci_state *st;
	size_t len;

	if (fd < 0 && errno == ENOENT) {
		shim_fail(err, ENOENT, "container \"%s\" is incomplete: state.json", id);
		return NULL;
	}
	text = fd < 0 ? NULL : read_small_fd(fd, "state.json", STATE_MAX, &len, err);
	if (!text) {
		if (fd < 0)
			shim_fail_errno(err, "container \"%s\": state.json", id);
		else
			shim_error_wrap(err, "container \"%s\"", id);
		return NULL;
	}
	st = oci_state_parse(text, len, err);
	if (!st)
		shim_error_wrap(err, "container \"%s\": state.json", id);
	return st;
}

int store_lock(int dir_fd, const char *id, struct shim_error *err)
{
	int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return shim_fail_errno(err, "container %s: open its state folder", id);
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;

		safe_close(fd);
		if (e == EWOULDBLOCK)
			return shim_fail(err, EWOULDBLOCK, "container %s is busy (being created or "
					 "deleted)", id);
		return shim_fail(err, e, "container %s: lock its state folder", id);
	}
	return fd;
}

bool store_has(const char *root, const char *id)
{
	char path[PATH_MAX];
	struct stat st;

	/* too long to look at: cannot be told */
	if (path_format(path, sizeof(path), NULL, "%s/%s", root, id) < 0)
		return true;
	return lstat(path, &st) == 0 || errno != ENOENT;
}

/* ROOT/ID emptied through dir_fd (the folder open), then removed. */
static int remove_folder(int root_fd, int dir_fd, const char *root, const char *id,
			 struct shim_error *err)
{
	if (empty_dir_at(dir_fd, ".", err) < 0)
		return shim_error_wrap(err, "%s/%s", root, id);
	if (unlinkat(root_fd, id, AT_REMOVEDIR) < 0 && errno != ENOENT)
		return shim_fail_errno(err, "rmdir %s/%s", root, id);
	return 0;
}

int store_remove(const char *root, const char *id, struct shim_error *err)
{
	_cleanup_close_ int root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC), fd = -1;

	if (root_fd < 0)
		return errno == ENOENT ? 0 : shim_fail_errno(err, "--root %s", root);
	fd = open_beneath(root_fd, id);
	if (fd < 0 && errno == ENOENT)
		return 0;
	/* not a folder of ours (a link planted at ROOT/ID): remove the link
	 * itself, never what it points to */
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR || errno == EXDEV)) {
		if (unlinkat(root_fd, id, 0) < 0 && errno != ENOENT)
			return shim_fail_errno(err, "remove %s/%s", root, id);
		return 0;
	}
	if (fd < 0)
		return shim_fail_errno(err, "open %s/%s", root, id);
	return remove_folder(root_fd, fd, root, id, err);
}

int store_remove_open(const char *root, const char *id, int dir_fd, struct shim_error *err)
{
	_cleanup_close_ int root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (root_fd < 0)
		return shim_fail_errno(err, "--root %s", root);
	return remove_folder(root_fd, dir_fd, root, id, err);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **store_list(const char *root, struct shim_error *err)
{
	DIR *d = opendir(root);
	struct dirent *e;
	char **ids;
	size_t n = 0, cap = 16;

	if (!d && errno != ENOENT) {
		shim_fail_errno(err, "--root: opendir %s", root);
		return NULL;
	}
	ids = calloc(cap, sizeof(*ids));
	while (ids && d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || store_check_id(e->d_name, NULL) < 0)
			continue;
		if (n + 2 > cap) {
			char **more = reallocarray(ids, 2 * cap, sizeof(*ids));

			if (!more) {
				strv_free(ids);
				ids = NULL;
				break;
			}
			ids = more;
			cap *= 2;
		}
		/* out of memory: no list at all, never one with a hole */
		if (!(ids[n] = strdup(e->d_name))) {
			strv_free(ids);
			ids = NULL;
			break;
		}
		ids[++n] = NULL;
	}
	if (d)
		closedir(d);
	if (!ids) {
		shim_fail(err, ENOMEM, "listing %s", root);
		return NULL;
	}
	qsort(ids, n, sizeof(*ids), cmp_str);
	return ids;
}

/* The host /etc/passwd name of the state folder's owner, "#UID" without one.
 * list asks it for every container, nearly always of one owner: the last
 * owner's name is kept, so /etc/passwd is read once for a run of them. */
void store_owner_name(int dir_fd, char *name, size_t len)
{
	static uid_t last_uid = (uid_t)-1;
	static char last_name[256];
	_cleanup_close_ int root = -1;
	struct stat st;

	name[0] = '\0';
	if (fstat(dir_fd, &st) < 0)
		return;
	if (st.st_uid != last_uid || !last_name[0]) {
		root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (root < 0 || !passwd_user_name(root, st.st_uid, last_name, sizeof(last_name)))
			snprintf(last_name, sizeof(last_name), "#%u", (unsigned)st.st_uid);
		last_uid = st.st_uid;
	}
	snprintf(name, len, "%s", last_name);
}
