/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/fsutil.h"
#include "shim/syscalls.h"

bool path_clean(const char *path, char *out, size_t len)
{
	size_t used = 0;

	for (const char *p = path; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (used > 0 && out[--used] != '/')
				;
		} else if (n && !(n == 1 && p[0] == '.')) {
			if (used + 1 + n + 1 > len)
				return false;
			out[used++] = '/';
			memcpy(out + used, p, n);
			used += n;
		}
		p += n + (p[n] == '/');
	}
	if (used == 0)
		out[used++] = '/';
	out[used] = '\0';
	return true;
}

int path_format(char *buf, size_t len, struct shim_error *err, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		return shim_fail(err, ENAMETOOLONG, "%.64s...: longer than %zu bytes", buf,
				 len - 1);
	return 0;
}

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

int write_all_bytes(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int write_all(int fd, const char *text)
{
	return write_all_bytes(fd, text, strlen(text));
}

/* Grow buf to hold at least want + 1 bytes; false when out of memory. */
static bool grow(char **buf, size_t *cap, size_t want)
{
	char *bigger;

	if (want + 1 <= *cap)
		return true;
	*cap = want + 1 > *cap * 2 ? want + 1 : *cap * 2;
	bigger = realloc(*buf, *cap);
	if (!bigger)
		return false;
	*buf = bigger;
	return true;
}

/* Read to EOF, at most max bytes; hint: the size fstat gave (/proc and
 * /sys files say they are 0 bytes long, pipes too), read up to and no
 * further (a file growing meanwhile is read as it was). */
static char *read_bounded(int fd, const char *what, size_t max, size_t hint, size_t *len,
			  struct shim_error *err)
{
	char *buf = NULL;
	size_t got = 0, cap = 0;

	for (;;) {
		ssize_t n;

		if (!grow(&buf, &cap, got + (hint > got ? hint - got : 4096))) {
			free(buf);
			shim_fail(err, ENOMEM, "%s", what);
			return NULL;
		}
		n = read(fd, buf + got, cap - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			shim_fail_errno(err, "reading %s", what);
			return NULL;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		if (got > max) {
			free(buf);
			shim_fail(err, EFBIG, "%s: more than %zu bytes", what, max);
			return NULL;
		}
		/* all fstat said there was: no read more to see the end */
		if (hint && got == hint)
			break;
	}
	buf[got] = '\0';
	if (len)
		*len = got;
	return buf;
}

char *read_small_fd(int fd, const char *what, size_t max, size_t *len, struct shim_error *err)
{
	struct stat st;

	if (fstat(fd, &st) < 0) {
		shim_fail_errno(err, "%s", what);
		return NULL;
	}
	/* a FIFO, a device (/dev/zero) or a folder is no file to read whole */
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		shim_fail(err, S_ISREG(st.st_mode) ? EFBIG : EINVAL, "%s%s", what,
			  S_ISREG(st.st_mode) ? "" : ": not a regular file");
		return NULL;
	}
	return read_bounded(fd, what, max, (size_t)st.st_size, len, err);
}

char *read_small_stream(int fd, const char *what, size_t max, size_t *len, struct shim_error *err)
{
	struct stat st;

	if (fstat(fd, &st) < 0) {
		shim_fail_errno(err, "%s", what);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) {
		shim_fail(err, EINVAL, "%s: not a file or a pipe", what);
		return NULL;
	}
	return read_bounded(fd, what, max, S_ISREG(st.st_mode) ? (size_t)st.st_size : 0, len, err);
}

char *read_small_file(const char *path, size_t max, size_t *len, struct shim_error *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		shim_fail_errno(err, "%s", path);
		return NULL;
	}
	return read_small_fd(fd, path, max, len, err);
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && strcmp(s + n - m, end) == 0;
}

/* realpath, then the folder it names opened: the older way, where the
 * kernel (or valgrind) has no openat2. */
static char *real_dir_by_realpath(const char *path, int *fd, const char *what,
				  struct shim_error *err)
{
	char *real = realpath(path, NULL);
	int dir = real ? open(real, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;

	if (dir < 0) {
		shim_fail_errno(err, "%s: %s", what, path);
		free(real);
		return NULL;
	}
	if (fd)
		*fd = dir;
	else
		close(dir);
	return real;
}

/* /proc/self/fd names a removed folder "NAME (deleted)"; a folder may also
 * be called so: its link count tells */
static bool dir_removed(int dir)
{
	struct stat st;

	return fstat(dir, &st) == 0 && st.st_nlink == 0;
}

bool path_is_plain_absolute(const char *path)
{
	char clean[PATH_MAX];

	return path[0] == '/' && path_clean(path, clean, sizeof(clean)) && strcmp(clean, path) == 0;
}

/* A plain absolute path opened without meeting a symlink on the way is
 * the folder's real name as it is: no need to ask procfs for it (engines
 * pass such paths; the first look into /proc/self is the costly one).
 * 1 with *dir open, 0 to take the general way, -1 on an error. */
static int open_plain(const char *path, int *dir, const char *what, struct shim_error *err)
{
	if (!path_is_plain_absolute(path))
		return 0;
	*dir = openat2_retry(AT_FDCWD, path, O_PATH | O_DIRECTORY, RESOLVE_NO_SYMLINKS);
	if (*dir >= 0)
		return 1;
	if (errno == ELOOP || errno == ENOSYS)	/* a link on the way; no openat2 */
		return 0;
	shim_fail_errno(err, "%s: %s", what, path);
	return -1;
}

char *real_dir_open(const char *path, int *fd, const char *what, struct shim_error *err)
{
	char link[32], name[PATH_MAX];
	_cleanup_close_ int dir = -1;
	ssize_t n;
	char *real;
	int plain = open_plain(path, &dir, what, err);

	if (plain < 0)
		return NULL;
	if (plain > 0) {
		real = strdup(path);
		if (!real)
			shim_fail(err, ENOMEM, "%s: %s", what, path);
		else if (fd)
			*fd = TAKE_FD(dir);
		return real;
	}
	/* no magic link: /proc/self/fd/N would name one of the runtime's own
	 * fds (the bundle's, once open) */
	dir = openat2_retry(AT_FDCWD, path, O_PATH | O_DIRECTORY, RESOLVE_NO_MAGICLINKS);
	if (dir < 0 && errno == ENOSYS)	/* no openat2 (valgrind): realpath's way */
		return real_dir_by_realpath(path, fd, what, err);
	if (dir < 0) {
		shim_fail_errno(err, "%s: %s", what, path);
		return NULL;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dir);
	n = readlink(link, name, sizeof(name));
	/* no /proc, or a folder out of our root: realpath's way, whose name
	 * and fd agree (the name is opened) */
	if (n <= 0 || (size_t)n >= sizeof(name) || name[0] != '/')
		return real_dir_by_realpath(path, fd, what, err);
	name[n] = '\0';
	if (ends_with(name, " (deleted)") && dir_removed(dir)) {
		shim_fail(err, ENOENT, "%s: %s: removed while it was opened", what, path);
		return NULL;
	}
	real = strdup(name);
	if (!real) {
		shim_fail(err, ENOMEM, "%s: %s", what, path);
		return NULL;
	}
	if (fd)
		*fd = TAKE_FD(dir);
	return real;
}

int openat2_retry(int dirfd, const char *path, int flags, uint64_t resolve)
{
	struct shim_open_how how = { .flags = (uint64_t)(flags | O_CLOEXEC), .resolve = resolve };

	for (int i = 0;; i++) {
		int fd = sys_openat2(dirfd, path, &how, sizeof(how));

		if (fd >= 0 || errno != EAGAIN || i == OPENAT2_RETRIES)
			return fd;
	}
}

char *read_file_in_root(int root_fd, const char *path, size_t max, size_t *len,
			struct shim_error *err)
{
	/* O_NONBLOCK: opening a FIFO the container planted must not hang */
	_cleanup_close_ int fd = openat2_retry(root_fd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY,
					       RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);

	if (fd < 0) {
		shim_fail_errno(err, "open %s in the rootfs", path);
		return NULL;
	}
	return read_small_fd(fd, path, max, len, err);
}

/* Remove everything in the folder dirfd/name (not the folder itself).
 * getdents64 itself, not a DIR: no fstat and fcntl calls to set one up. */
int empty_dir_at(int dir, const char *name, struct shim_error *err)
{
	_cleanup_close_ int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					O_CLOEXEC);
	char buf[2048] __attribute__((aligned(8)));
	ssize_t n;

	if (fd < 0)
		return shim_fail_errno(err, "open folder %s", name);
	while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t at = 0; at < n;) {
			struct dirent64 *e = (struct dirent64 *)(buf + at);

			at += e->d_reclen;
			if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
			    remove_tree_at(fd, e->d_name, err) < 0)
				return -1;
		}
	}
	if (n < 0)
		return shim_fail_errno(err, "read folder %s", name);
	return 0;
}

/* rm -rf dirfd/name, never following a symlink; absent is fine. */
int remove_tree_at(int dir, const char *name, struct shim_error *err)
{
	if (unlinkat(dir, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR)
		return shim_fail_errno(err, "remove %s", name);
	if (empty_dir_at(dir, name, err) < 0)
		return -1;
	if (unlinkat(dir, name, AT_REMOVEDIR) < 0)
		return shim_fail_errno(err, "remove folder %s", name);
	return 0;
}
