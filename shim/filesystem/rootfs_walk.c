/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/filesystem/rootfs_walk.h"
#include "shim/fsutil.h"
#include "shim/procfs.h"
#include "shim/syscalls.h"

#define WALK_MAX_LINKS 40	/* dangling links followed, as the kernel's MAXSYMLINKS */

int rootfs_lookup(int root_fd, const char *path, int flags)
{
	return openat2_retry(root_fd, path, flags, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
}

/* A lookup of path failed (errno): said, naming openat2 where the kernel
 * lacks it. */
static int lookup_failed(const char *path, struct shim_error *err)
{
	if (errno == ENOSYS)
		return shim_fail(err, ENOSYS, "open %s in the rootfs: openat2 is missing (Linux has "
				 "it from 5.6)", path);
	return shim_fail_errno(err, "open %s in the rootfs", path);
}

int rootfs_open(int root_fd, const char *path, int flags, struct shim_error *err)
{
	int fd = rootfs_lookup(root_fd, path, flags);

	return fd < 0 ? lookup_failed(path, err) : fd;
}

/* One walk of rootfs_make_path: its own copy of the path, which a dangling
 * link met on the way replaces with the link's target and the rest. */
struct walk {
	int root_fd;
	bool as_file;
	bool whole_missing;	/* path as a whole was just looked up: missing */
	char path[PATH_MAX];	/* absolute, inside the root */
};

/* What a step of the walk came to. */
enum walk_result {
	WALK_OPENED,	/* the fd out-parameter holds it */
	WALK_FAILED,	/* err says why */
	WALK_RELINKED,	/* a dangling link: w->path is now its target, walk again */
};

/* A part of the path looked up from the root. */
enum lookup { LOOKUP_FOUND, LOOKUP_MISSING, LOOKUP_FAILED };

static enum lookup look_up(int root_fd, const char *path, int *fd, struct shim_error *err)
{
	*fd = rootfs_lookup(root_fd, path, O_PATH);
	if (*fd >= 0)
		return LOOKUP_FOUND;
	if (errno == ENOENT)
		return LOOKUP_MISSING;
	lookup_failed(path, err);
	return LOOKUP_FAILED;
}

/* name made in dir (the folder the walk holds): 0, or the errno of the
 * failure (EEXIST or ELOOP: something is there, a dangling link perhaps). */
static int create_entry(int dir, const char *name, bool as_file)
{
	_cleanup_close_ int real = -1, file = -1;

	if (!as_file)
		return mkdirat(dir, name, 0755) < 0 ? errno : 0;
	/* openat(O_CREAT) needs a real folder fd; the walk's is O_PATH.
	 * O_NOFOLLOW: a link there fails with ELOOP, never followed */
	real = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (real < 0)
		return errno;
	file = openat(real, name, O_CREAT | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644);
	return file < 0 ? errno : 0;
}

/* The entry at the end of prefix (name, in dir, its parent open): when it
 * is a symlink of the image (never a procfs magic link, whatever it
 * names), w->path becomes its target, relative to the parent, followed by
 * what was left of w->path. 1 when relinked, 0 when no link is there. */
static int follow_dangling(struct walk *w, int dir, const char *prefix, const char *name,
			   struct shim_error *err)
{
	const char *rest = w->path + strlen(prefix);
	int parent_len = (int)(name - 1 - prefix);
	char target[PATH_MAX], joined[PATH_MAX];
	struct stat st;
	ssize_t n;
	int len;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISLNK(st.st_mode) ||
	    procfs_is(dir) || (n = readlinkat(dir, name, target, sizeof(target) - 1)) < 0)
		return 0;
	target[n] = '\0';
	if (target[0] == '/')
		len = snprintf(joined, sizeof(joined), "%s%s", target, rest);
	else
		len = snprintf(joined, sizeof(joined), "%.*s/%s%s", parent_len, prefix, target, rest);
	if (len < 0 || (size_t)len >= sizeof(w->path))
		return shim_fail(err, ENAMETOOLONG, "%s -> %s: the path it leads to is too long",
				 prefix, target);
	memcpy(w->path, joined, (size_t)len + 1);
	return 1;
}

/* prefix, the part of w->path up to a part found missing, made in dir and
 * opened (*fd), or a dangling link there followed (WALK_RELINKED). Made
 * first: a link there is looked at only when that fails. */
static enum walk_result make_missing(struct walk *w, int dir, const char *prefix, bool last,
				     int *fd, struct shim_error *err)
{
	const char *name = strrchr(prefix, '/') + 1;
	int e = create_entry(dir, name, w->as_file && last), r;

	if (e != 0 && e != EEXIST && e != ELOOP) {
		shim_fail(err, e, "creating %s in the rootfs", prefix);
		return WALK_FAILED;
	}
	if (e != 0) {
		r = follow_dangling(w, dir, prefix, name, err);
		if (r != 0)
			return r < 0 ? WALK_FAILED : WALK_RELINKED;
		/* not a link: made by someone else meanwhile */
	}
	*fd = rootfs_open(w->root_fd, prefix, O_PATH, err);
	return *fd < 0 ? WALK_FAILED : WALK_OPENED;
}

/* One walk of w->path, /a, /a/b, ..., each part looked up from the root,
 * each missing one made in the folder the walk holds. */
static enum walk_result walk_once(struct walk *w, int *fd, struct shim_error *err)
{
	_cleanup_close_ int dir = -1;	/* the part walked, below the root */
	size_t len = strlen(w->path);

	for (size_t end = 1; end <= len; end++) {
		bool last = end == len;
		char prefix[PATH_MAX];
		enum lookup found;
		int part = -1;

		if (!last && w->path[end] != '/')
			continue;
		memcpy(prefix, w->path, end);
		prefix[end] = '\0';
		found = last && w->whole_missing ? LOOKUP_MISSING
						 : look_up(w->root_fd, prefix, &part, err);
		if (found == LOOKUP_FAILED)
			return WALK_FAILED;
		if (found == LOOKUP_MISSING) {
			enum walk_result r = make_missing(w, dir >= 0 ? dir : w->root_fd, prefix,
							  last, &part, err);

			if (r != WALK_OPENED)
				return r;
		}
		if (last) {
			*fd = part;
			return WALK_OPENED;
		}
		safe_close(dir);
		dir = part;
	}
	return WALK_FAILED;	/* not reached: the path is never empty */
}

int rootfs_make_path(int root_fd, const char *path, bool as_file, struct shim_error *err)
{
	struct walk w = { .root_fd = root_fd, .as_file = as_file };
	int fd = -1, len;

	if (!path[0])
		return shim_fail(err, EINVAL, "an empty path in the rootfs");
	len = snprintf(w.path, sizeof(w.path), "%s%s", path[0] == '/' ? "" : "/", path);
	if (len < 0 || (size_t)len >= sizeof(w.path))
		return shim_fail(err, ENAMETOOLONG, "%s", path);
	/* Most paths are there already: one resolution, as the walk would
	 * end. Otherwise (missing, or an error the walk will name) the walk. */
	fd = rootfs_lookup(root_fd, w.path, O_PATH);
	if (fd >= 0)
		return fd;
	w.whole_missing = errno == ENOENT;
	for (int links = 0;; links++) {
		if (links > WALK_MAX_LINKS)
			return shim_fail(err, ELOOP, "%s: too many links", path);
		switch (walk_once(&w, &fd, err)) {
		case WALK_OPENED:
			return fd;
		case WALK_FAILED:
			return -1;
		case WALK_RELINKED:
			w.whole_missing = false;
			break;
		}
	}
}

int rootfs_open_null(int root, int flags, struct shim_error *err)
{
	int fd = openat2_retry(root, "/dev/null", flags,
			       RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
	struct stat st;

	if (fd < 0)
		return shim_fail_errno(err, "open /dev/null without following links");
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) || st.st_rdev != makedev(1, 3)) {
		close(fd);
		return shim_fail(err, EPERM, "/dev/null in the container is not the null device "
				 "(char 1:3)");
	}
	return fd;
}
