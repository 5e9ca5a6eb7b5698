/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/images/layer.c: unpack a layer tar with libarchive's reader, but make every
 * file ourselves, relative to folder fds resolved with openat2
 * RESOLVE_IN_ROOT: an image is untrusted input, and a symlink it holds
 * ("etc -> /etc", "x -> ../../..") must resolve inside the rootfs, never on
 * the host. Paths holding ".." are refused outright.
 *
 * Two passes over the tar: the whiteouts of a layer hide what the layers
 * below hold, not what the layer itself adds, so they are all applied
 * before the first entry is made.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/fsutil.h"
#include "shim/images/layer.h"
#include "shim/syscalls.h"

#define WHITEOUT ".wh."
#define OPAQUE ".wh..wh..opq"

static void archive_freep(struct archive **a)
{
	if (*a)
		archive_read_free(*a);
}
#define _cleanup_archive_ __attribute__((cleanup(archive_freep)))

/* "./a//b/./c/" -> "a/b/c"; "" for the root itself; ".." refused. */
static int clean_path(const char *in, char *out, size_t len, struct shim_error *err)
{
	size_t n = 0;

	while (*in) {
		size_t part = strcspn(in, "/");

		if (part == 2 && in[0] == '.' && in[1] == '.')
			return shim_fail(err, 0, "\"..\" in the path");
		if (part && !(part == 1 && in[0] == '.')) {
			if (n + part + 2 > len)
				return shim_fail(err, ENAMETOOLONG, "path");
			if (n)
				out[n++] = '/';
			memcpy(out + n, in, part);
			n += part;
		}
		in += part;
		in += strspn(in, "/");
	}
	out[n] = '\0';
	return 0;
}

/* Split "a/b/c" into parent "a/b" (in place) and returns "c". */
static char *split_last(char *path)
{
	char *slash = strrchr(path, '/');

	if (!slash) {
		memmove(path + 1, path, strlen(path) + 1);
		path[0] = '\0';
		return path + 1;
	}
	*slash = '\0';
	return slash + 1;
}

/* An O_PATH fd of folder path (clean, relative) inside the root; with
 * create, missing folders are made (0755, root-owned, as tar does). */
static int open_dir_in_root(int rootfd, const char *path, bool create, struct shim_error *err)
{
	const uint64_t resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
	char parent[PATH_MAX], *name;
	int fd, pfd;

	fd = openat2_retry(rootfd, *path ? path : ".", O_PATH | O_DIRECTORY, resolve);
	if (fd >= 0 || errno != ENOENT || !create)
		return fd >= 0 ? fd : shim_fail_errno(err, "open folder /%s in the rootfs", path);
	if (path_format(parent, sizeof(parent), err, "%s", path) < 0)
		return -1;
	name = split_last(parent);
	pfd = open_dir_in_root(rootfd, parent, true, err);
	if (pfd < 0)
		return -1;
	if (mkdirat(pfd, name, 0755) < 0 && errno != EEXIST) {
		safe_close(pfd);
		return shim_fail_errno(err, "mkdir /%s in the rootfs", path);
	}
	safe_close(pfd);
	fd = openat2_retry(rootfd, path, O_PATH | O_DIRECTORY, resolve);
	return fd >= 0 ? fd : shim_fail_errno(err, "open folder /%s in the rootfs", path);
}

/* ".wh.NAME": remove NAME below; ".wh..wh..opq": empty the folder. */
static int apply_whiteout(int rootfd, char *path, struct shim_error *err)
{
	char *name = split_last(path);
	const char *target = name + strlen(WHITEOUT);
	_cleanup_close_ int dir = -1;

	/* ".wh.", ".wh.." and ".wh..." hide no file: they would empty the
	 * folder, or the one above the rootfs */
	if (strcmp(name, OPAQUE) != 0 &&
	    (!*target || strcmp(target, ".") == 0 || strcmp(target, "..") == 0))
		return shim_fail(err, EINVAL, "whiteout %s names no file", name);
	dir = open_dir_in_root(rootfd, path, false, err);
	if (dir < 0 && err->errnum == ENOENT)
		return 0;	/* nothing below to hide */
	if (dir < 0)
		return -1;
	if (strcmp(name, OPAQUE) == 0)
		return empty_dir_at(dir, ".", err);
	return remove_tree_at(dir, name + strlen(WHITEOUT), err);
}

static int set_times(int fd, const char *name, struct archive_entry *e, int flags)
{
	struct timespec ts[2] = {
		{ archive_entry_mtime(e), archive_entry_mtime_nsec(e) },
		{ archive_entry_mtime(e), archive_entry_mtime_nsec(e) },
	};

	return name ? utimensat(fd, name, ts, flags) : futimens(fd, ts);
}

/* The entry's owner as IDs fchown takes: a negative one, or one past
 * 2^32 - 2 (-1 means "leave as is" to chown, and a wider one would wrap,
 * 2^32 becoming root), is refused with EOVERFLOW. */
static int entry_owner(struct archive_entry *e, uid_t *uid, gid_t *gid)
{
	la_int64_t u = archive_entry_uid(e), g = archive_entry_gid(e);

	if (u < 0 || g < 0 || u >= (la_int64_t)UINT32_MAX || g >= (la_int64_t)UINT32_MAX) {
		errno = EOVERFLOW;
		return -1;
	}
	*uid = (uid_t)u;
	*gid = (gid_t)g;
	return 0;
}

/* Owner, then mode (chown clears set-id bits), xattrs, times, on an fd. */
static int set_meta_fd(int fd, struct archive_entry *e)
{
	const char *key;
	const void *value;
	size_t size;
	uid_t uid;
	gid_t gid;

	if (entry_owner(e, &uid, &gid) < 0 || fchown(fd, uid, gid) < 0 ||
	    fchmod(fd, archive_entry_perm(e)) < 0)
		return -1;
	archive_entry_xattr_reset(e);
	while (archive_entry_xattr_next(e, &key, &value, &size) == ARCHIVE_OK)
		if (fsetxattr(fd, key, value, size, 0) < 0)
			return -1;
	return set_times(fd, NULL, e, 0);
}

static int make_file(struct archive *a, int dir, const char *name, struct archive_entry *e)
{
	_cleanup_close_ int fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
					O_CLOEXEC, 0600);
	const void *buf;
	size_t size;
	la_int64_t off;
	int r;

	if (fd < 0)
		return -1;
	while ((r = archive_read_data_block(a, &buf, &size, &off)) == ARCHIVE_OK)
		for (size_t done = 0; done < size;) {
			ssize_t n = pwrite(fd, (const char *)buf + done, size - done,
					   off + (la_int64_t)done);

			if (n < 0 && errno != EINTR)
				return -1;
			done += n > 0 ? (size_t)n : 0;
		}
	if (r != ARCHIVE_EOF) {
		errno = EIO;
		return -1;
	}
	if (ftruncate(fd, archive_entry_size(e)) < 0)
		return -1;
	return set_meta_fd(fd, e);
}

static int make_dir(int dir, const char *name, struct archive_entry *e)
{
	_cleanup_close_ int fd = -1;
	struct stat st;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode) &&
	    unlinkat(dir, name, 0) < 0)
		return -1;
	if (mkdirat(dir, name, 0700) < 0 && errno != EEXIST)
		return -1;
	fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -1 : set_meta_fd(fd, e);
}

static int make_link(int rootfd, int dir, const char *name, const char *target,
		     struct shim_error *err)
{
	char path[PATH_MAX], *tname;
	_cleanup_close_ int tdir = -1;

	if (clean_path(target, path, sizeof(path), err) < 0)
		return shim_error_wrap(err, "hard link to %s", target);
	tname = split_last(path);
	tdir = open_dir_in_root(rootfd, path, false, err);
	if (tdir < 0)
		return shim_error_wrap(err, "hard link to %s", target);
	if (linkat(tdir, tname, dir, name, 0) < 0)
		return shim_fail_errno(err, "hard link to %s", target);
	return 0;
}

/* A symlink, device or fifo: made, then owned and timed without following. */
static int make_node(int dir, const char *name, struct archive_entry *e)
{
	mode_t type = archive_entry_filetype(e);
	uid_t uid;
	gid_t gid;

	if (entry_owner(e, &uid, &gid) < 0)
		return -1;
	if (type == AE_IFLNK) {
		if (symlinkat(archive_entry_symlink(e), dir, name) < 0)
			return -1;
	} else if (mknodat(dir, name, type | archive_entry_perm(e), archive_entry_rdev(e)) < 0 ||
		   fchmodat(dir, name, archive_entry_perm(e), 0) < 0) {
		return -1;
	}
	if (fchownat(dir, name, uid, gid, AT_SYMLINK_NOFOLLOW) < 0)
		return -1;
	return set_times(dir, name, e, AT_SYMLINK_NOFOLLOW);
}

/* One entry (not a whiteout) at path (clean, not the root). */
static int make_entry(struct archive *a, int rootfd, char *path, struct archive_entry *e,
		      struct shim_error *err)
{
	mode_t type = archive_entry_filetype(e);
	_cleanup_close_ int dir = -1;
	char *name = split_last(path);
	uid_t uid;
	gid_t gid;
	int r;

	if (entry_owner(e, &uid, &gid) < 0)
		return shim_fail(err, EOVERFLOW, "owner %lld:%lld is not a uid:gid (0 to 4294967294)",
				 (long long)archive_entry_uid(e), (long long)archive_entry_gid(e));
	dir = open_dir_in_root(rootfd, path, true, err);
	if (dir < 0)
		return -1;
	if (type == AE_IFDIR)
		return make_dir(dir, name, e) < 0 ? shim_fail_errno(err, "folder") : 0;
	if (remove_tree_at(dir, name, err) < 0)
		return -1;
	if (archive_entry_hardlink(e))
		return make_link(rootfd, dir, name, archive_entry_hardlink(e), err);
	if (type == AE_IFREG)
		r = make_file(a, dir, name, e);
	else if (type == AE_IFLNK || type == AE_IFCHR || type == AE_IFBLK || type == AE_IFIFO)
		r = make_node(dir, name, e);
	else
		return shim_fail(err, 0, "file type 0%o is not supported", (unsigned)type);
	return r < 0 ? shim_fail_errno(err, "write") : 0;
}

static int is_whiteout(const char *path)
{
	const char *base = strrchr(path, '/');

	return strncmp(base ? base + 1 : path, WHITEOUT, strlen(WHITEOUT)) == 0;
}

/* A reader of the layer at fd, rewound, decompressed by any filter: as a
 * tar, or raw (the uncompressed bytes as one entry). NULL with err. */
static struct archive *open_layer(int fd, const char *what, bool raw, struct shim_error *err)
{
	struct archive *a = archive_read_new();

	if (!a) {
		shim_fail(err, ENOMEM, "%s", what);
		return NULL;
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		shim_fail_errno(err, "%s: rewind", what);
		archive_read_free(a);
		return NULL;
	}
	archive_read_support_filter_all(a);
	if (raw) {
		archive_read_support_format_raw(a);
	} else {
		archive_read_support_format_tar(a);
		archive_read_support_format_gnutar(a);
	}
	if (archive_read_open_fd(a, fd, 1 << 16) != ARCHIVE_OK) {
		shim_fail(err, 0, "%s: %s", what, archive_error_string(a));
		archive_read_free(a);
		return NULL;
	}
	return a;
}

/* One pass over the tar: whiteouts only, or everything else. */
static int layer_pass(int rootfd, int fd, const char *what, bool whiteouts,
		      struct shim_error *err)
{
	_cleanup_archive_ struct archive *a = open_layer(fd, what, false, err);
	struct archive_entry *e;
	int r;

	if (!a)
		return -1;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		char path[PATH_MAX];

		if (clean_path(archive_entry_pathname(e), path, sizeof(path), err) < 0)
			return shim_error_wrap(err, "%s: entry %s", what, archive_entry_pathname(e));
		if (!path[0] || is_whiteout(path) != whiteouts)
			continue;
		if ((whiteouts ? apply_whiteout(rootfd, path, err)
			       : make_entry(a, rootfd, path, e, err)) < 0)
			return shim_error_wrap(err, "%s: entry %s", what, archive_entry_pathname(e));
	}
	if (r != ARCHIVE_EOF)
		return shim_fail(err, 0, "%s: %s", what, archive_error_string(a));
	return 0;
}

int layer_apply(int rootfd, int fd, const char *what, struct shim_error *err)
{
	if (layer_pass(rootfd, fd, what, true, err) < 0)
		return -1;
	return layer_pass(rootfd, fd, what, false, err);
}

int layer_uncompressed(int fd, const char *what, void (*sink)(void *, const void *, size_t),
		       void *arg, struct shim_error *err)
{
	_cleanup_archive_ struct archive *a = open_layer(fd, what, true, err);
	struct archive_entry *e;
	char buf[1 << 16];
	la_ssize_t n;

	if (!a)
		return -1;
	if (archive_read_next_header(a, &e) != ARCHIVE_OK)
		return shim_fail(err, 0, "%s: %s", what, archive_error_string(a));
	while ((n = archive_read_data(a, buf, sizeof(buf))) > 0)
		sink(arg, buf, (size_t)n);
	if (n < 0)
		return shim_fail(err, 0, "%s: %s", what, archive_error_string(a));
	return 0;
}
