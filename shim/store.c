/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/json.h"
#include "shim/cleanup.h"
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

static int make_root(const char *root, struct shim_error *err)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", root) >= (int)sizeof(buf))
		return shim_fail(err, ENAMETOOLONG, "--root %s", root);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0711) < 0 && errno != EEXIST)
			return shim_fail_errno(err, "--root: mkdir %s", buf);
		*p = '/';
	}
	if (mkdir(buf, 0700) < 0 && errno != EEXIST)
		return shim_fail_errno(err, "--root: mkdir %s", buf);
	return 0;
}

int store_create(const char *root, const char *id, struct shim_error *err)
{
	char path[PATH_MAX];
	int fd;

	if (store_check_id(id, err) < 0 || make_root(root, err) < 0)
		return -1;
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

static int write_all(int fd, const char *text)
{
	size_t len = strlen(text);

	while (len) {
		ssize_t n = write(fd, text, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		text += n;
		len -= (size_t)n;
	}
	return 0;
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

struct oci_state *store_read_state(int dir_fd, const char *id, struct shim_error *err)
{
	_cleanup_close_ int fd = openat(dir_fd, "state.json", O_RDONLY | O_CLOEXEC);
	char buf[65536];
	ssize_t n;
	struct oci_state *st;

	if (fd < 0) {
		if (errno == ENOENT)
			shim_fail(err, ENOENT, "container \"%s\" is incomplete: state.json", id);
		else
			shim_fail_errno(err, "container \"%s\": open state.json", id);
		return NULL;
	}
	n = read(fd, buf, sizeof(buf));
	if (n < 0) {
		shim_fail_errno(err, "container \"%s\": read state.json", id);
		return NULL;
	}
	st = oci_state_parse(buf, (size_t)n, err);
	if (!st)
		shim_error_wrap(err, "container \"%s\": state.json", id);
	return st;
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
