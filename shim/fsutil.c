/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shim/cleanup.h"
#include "shim/fsutil.h"

int mkdir_p(const char *path, mode_t parent_mode, mode_t mode, struct shim_error *err)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return shim_fail(err, ENAMETOOLONG, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, parent_mode) < 0 && errno != EEXIST)
			return shim_fail_errno(err, "mkdir %s", buf);
		*p = '/';
	}
	if (mkdir(buf, mode) < 0 && errno != EEXIST)
		return shim_fail_errno(err, "mkdir %s", buf);
	return 0;
}

int write_all(int fd, const char *text)
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

int write_text_file(const char *path, const char *text, struct shim_error *err)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write_all(fd, text) < 0)
		return shim_fail_errno(err, "writing %s", path);
	return 0;
}

char *read_small_file(const char *path, size_t max, size_t *len, struct shim_error *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf;
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st) < 0) {
		shim_fail_errno(err, "%s", path);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		shim_fail(err, S_ISREG(st.st_mode) ? EFBIG : EINVAL, "%s", path);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		shim_fail(err, ENOMEM, "%s", path);
		return NULL;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}
