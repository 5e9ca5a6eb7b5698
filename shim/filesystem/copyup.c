/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/filesystem/copyup.h"

/* The path of an entry, for messages: where/name, cut if it must be. */
struct walk {
	char path[PATH_MAX];
	unsigned int depth;
};

static int fail_at(const struct walk *w, const char *what, struct shim_error *err)
{
	return shim_fail_errno(err, "tmpcopyup: %s: %s", w->path, what);
}

/* owner, then mode: a chown may clear the set-id bits the mode brings */
static int set_owner_mode(int fd, const struct stat *st)
{
	if (fchown(fd, st->st_uid, st->st_gid) < 0)
		return -1;
	return fchmod(fd, st->st_mode & 07777);
}

static int copy_file(int src, int dst, const char *name, const struct stat *st,
		     const struct walk *w, struct shim_error *err)
{
	_cleanup_close_ int in = openat(src, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	_cleanup_close_ int out = -1;
	struct stat now;
	off_t left;

	if (in < 0 || fstat(in, &now) < 0)
		return fail_at(w, "open", err);
	if (!S_ISREG(now.st_mode) || now.st_ino != st->st_ino || now.st_dev != st->st_dev)
		return shim_fail(err, EAGAIN, "tmpcopyup: %s: changed while it was copied", w->path);
	out = openat(dst, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0)
		return fail_at(w, "create", err);
	for (left = now.st_size; left > 0;) {
		ssize_t n = sendfile(out, in, NULL, (size_t)left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail_at(w, "copy", err);
		if (n == 0)
			break;	/* it shrank meanwhile: what was there is copied */
		left -= n;
	}
	if (set_owner_mode(out, &now) < 0)
		return fail_at(w, "owner and mode", err);
	return 0;
}

static int copy_link(int src, int dst, const char *name, const struct stat *st,
		     const struct walk *w, struct shim_error *err)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(src, name, target, sizeof(target) - 1);

	if (n < 0)
		return fail_at(w, "readlink", err);
	target[n] = '\0';
	if (symlinkat(target, dst, name) < 0)
		return fail_at(w, "symlink", err);
	if (fchownat(dst, name, st->st_uid, st->st_gid, AT_SYMLINK_NOFOLLOW) < 0)
		return fail_at(w, "owner", err);
	return 0;
}

/* A FIFO, socket or device node: made, never opened. mknod takes the
 * whole mode (the init's umask is 0); the chown after it may clear the
 * set-id bits, so those are set again. */
static int copy_node(int dst, const char *name, const struct stat *st, const struct walk *w,
		     struct shim_error *err)
{
	if (mknodat(dst, name, st->st_mode & (S_IFMT | 07777), st->st_rdev) < 0)
		return fail_at(w, "mknod", err);
	if (fchownat(dst, name, st->st_uid, st->st_gid, AT_SYMLINK_NOFOLLOW) < 0)
		return fail_at(w, "owner", err);
	if ((st->st_mode & (S_ISUID | S_ISGID)) && fchmodat(dst, name, st->st_mode & 07777, 0) < 0)
		return fail_at(w, "mode", err);
	return 0;
}

static int copy_folder(int src, int dst, struct walk *w, struct shim_error *err);

static int copy_subfolder(int src, int dst, const char *name, const struct stat *st,
			  struct walk *w, struct shim_error *err)
{
	_cleanup_close_ int from = -1, to = -1;

	if (w->depth >= COPYUP_MAX_DEPTH)
		return shim_fail(err, ELOOP, "tmpcopyup: %s: more than %d folders deep", w->path,
				 COPYUP_MAX_DEPTH);
	from = openat(src, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (from < 0)
		return fail_at(w, "open", err);
	if (mkdirat(dst, name, 0700) < 0)
		return fail_at(w, "mkdir", err);
	to = openat(dst, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (to < 0)
		return fail_at(w, "open the copy", err);
	w->depth++;
	if (copy_folder(from, to, w, err) < 0)
		return -1;
	w->depth--;
	if (set_owner_mode(to, st) < 0)
		return fail_at(w, "owner and mode", err);
	return 0;
}

static int copy_entry(int src, int dst, const char *name, struct walk *w, struct shim_error *err)
{
	struct stat st;

	if (fstatat(src, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return fail_at(w, "stat", err);
	switch (st.st_mode & S_IFMT) {
	case S_IFDIR:
		return copy_subfolder(src, dst, name, &st, w, err);
	case S_IFREG:
		return copy_file(src, dst, name, &st, w, err);
	case S_IFLNK:
		return copy_link(src, dst, name, &st, w, err);
	default:
		return copy_node(dst, name, &st, w, err);
	}
}

static int copy_folder(int src, int dst, struct walk *w, struct shim_error *err)
{
	int list = fcntl(src, F_DUPFD_CLOEXEC, 0);
	size_t len = strlen(w->path);
	DIR *d = list < 0 ? NULL : fdopendir(list);
	struct dirent *e;
	int r = 0;

	if (!d) {
		safe_close(list);
		return fail_at(w, "list", err);
	}
	while (r == 0 && (errno = 0, e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(w->path + len, sizeof(w->path) - len, "/%s", e->d_name);
		r = copy_entry(src, dst, e->d_name, w, err);
		w->path[len] = '\0';
	}
	if (r == 0 && errno)
		r = fail_at(w, "list", err);
	closedir(d);
	return r;
}

int copyup_tree(int src, int dst, const char *where, struct shim_error *err)
{
	struct walk w = { .depth = 0 };

	snprintf(w.path, sizeof(w.path), "%s", strcmp(where, "/") == 0 ? "" : where);
	return copy_folder(src, dst, &w, err);
}
