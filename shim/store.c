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

#include "oci/json.h"
#include "shim/cleanup.h"
#include "shim/fsutil.h"
#include "shim/store.h"

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

int store_create(const char *root, const char *id, struct shim_error *err)
{
	char path[PATH_MAX];
	int fd;

	if (store_check_id(id, err) < 0)
		return -1;
	if (mkdir_p(root, 0711, 0700, err) < 0)
		return shim_error_wrap(err, "--root");
	snprintf(path, sizeof(path), "%s/%s", root, id);
	if (mkdir(path, 0700) < 0) {
		if (errno == EEXIST)
			return shim_fail(err, 0, "container \"%s\" already exists", id);
		return shim_fail_errno(err, "mkdir %s", path);
	}
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		shim_fail_errno(err, "open %s", path);
		rmdir(path);
	}
	return fd;
}

int store_open(const char *root, const char *id, struct shim_error *err)
{
	char path[PATH_MAX];
	int fd;

	if (store_check_id(id, err) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", root, id);
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return shim_fail(err, 0, "container \"%s\" does not exist", id);
	if (fd < 0)
		return shim_fail_errno(err, "open %s", path);
	return fd;
}

int write_file_atomic(const char *path, const char *text, struct shim_error *err)
{
	char tmp[PATH_MAX];
	_cleanup_close_ int fd = -1;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= (int)sizeof(tmp))
		return shim_fail(err, ENAMETOOLONG, "%s", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return shim_fail_errno(err, "open %s", tmp);
	if (write_all(fd, text) < 0 || fsync(fd) < 0) {
		shim_fail_errno(err, "write %s", tmp);
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		shim_fail_errno(err, "rename %s to %s", tmp, path);
		unlink(tmp);
		return -1;
	}
	return 0;
}

int store_write_state(int dir_fd, const struct oci_state *st, struct shim_error *err)
{
	_cleanup_free_ char *json = oci_state_to_json(st, true, false, err);
	char path[64];

	if (!json)
		return -1;
	/* The folder by its fd, so a renamed --root cannot redirect us. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d/state.json", dir_fd);
	return write_file_atomic(path, json, err);
}

#define STATE_MAX (1 << 20)

struct oci_state *store_read_state(int dir_fd, const char *id, struct shim_error *err)
{
	_cleanup_free_ char *text = NULL;
	char path[64];
	struct oci_state *st;
	size_t len;

	snprintf(path, sizeof(path), "/proc/self/fd/%d/state.json", dir_fd);
	text = read_small_file(path, STATE_MAX, &len, err);
	if (!text) {
		if (err && err->errnum == ENOENT)
			shim_fail(err, ENOENT, "container \"%s\" is incomplete: state.json", id);
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
			shim_fail(err, 0, "container %s is busy (being created or deleted)", id);
		else
			shim_fail(err, e, "container %s: lock its state folder", id);
		errno = e;	/* callers tell busy from broken by it */
		return -1;
	}
	return fd;
}

bool store_has(const char *root, const char *id)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, id);
	return lstat(path, &st) == 0 || errno != ENOENT;
}

int store_remove(const char *root, const char *id, struct shim_error *err)
{
	char path[PATH_MAX];
	_cleanup_close_ int fd = -1;
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "%s/%s", root, id);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : shim_fail_errno(err, "open %s", path);
	d = fdopendir(TAKE_FD(fd));
	if (!d)
		return shim_fail_errno(err, "opendir %s", path);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	if (rmdir(path) < 0 && errno != ENOENT)
		return shim_fail_errno(err, "rmdir %s", path);
	return 0;
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
			char **more = realloc(ids, 2 * cap * sizeof(*ids));

			if (!more)
				break;
			ids = more;
			cap *= 2;
		}
		ids[n] = strdup(e->d_name);
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
