/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/filesystem/masks.h"
#include "shim/filesystem/mount.h"
#include "shim/filesystem/rootfs_walk.h"
#include "shim/fsutil.h"
#include "shim/syscalls.h"

/* What follows destination in clean (both cleaned), "" for the mount
 * point itself; NULL when clean is not at or below destination. */
static const char *below(const char *destination, const char *clean)
{
	char dest[PATH_MAX];
	size_t n;

	if (!path_clean(destination, dest, sizeof(dest)))
		return NULL;
	if (strcmp(dest, "/") == 0)
		return clean + 1;
	n = strlen(dest);
	if (strncmp(clean, dest, n) != 0 || (clean[n] != '/' && clean[n] != '\0'))
		return NULL;
	return clean + n + (clean[n] == '/');
}

/* A listed path that does not exist: nothing to do, so no message is
 * formatted for it (most of the default lists are missing somewhere). */
static int not_there(struct shim_error *err)
{
	err->errnum = ENOENT;
	strcpy(err->msg, "does not exist");
	return -1;
}

/* An O_PATH fd of path (shim/filesystem/masks.h says from where), or -1 (errnum
 * ENOENT when it does not exist). */
static int open_listed(int root, const struct oci_spec *spec, const struct rootfs_anchors *a,
		       const char *path, struct shim_error *err)
{
	char clean[PATH_MAX];
	int fd;

	if (!path_clean(path, clean, sizeof(clean)))
		return shim_fail(err, ENAMETOOLONG, "too long");
	for (size_t i = spec->n_mounts; i-- > 0;) {
		const char *rest = below(spec->mounts[i].destination, clean);

		if (!rest)
			continue;
		if (i >= a->n || a->fd[i] < 0)
			break;
		fd = openat2_retry(a->fd[i], *rest ? rest : ".", O_PATH,
				   RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS);
		if (fd < 0 && errno == ENOENT)
			return not_there(err);
		if (fd < 0)
			return shim_fail_errno(err, "open %s beneath the mount of mounts[%zu]",
					       *rest ? rest : ".", i);
		return fd;
	}
	fd = rootfs_lookup(root, path, O_PATH);
	if (fd < 0 && errno == ENOENT)
		return not_there(err);
	if (fd < 0)
		return shim_fail_errno(err, "open %s in the rootfs", path);
	return fd;
}

/* What masked paths are covered with, made at the first one that needs
 * it and cloned for each: the container's /dev/null (checked) for files,
 * bound read-only at the first file and cloned from there (a clone keeps
 * the read-only flag); for folders one empty read-only tmpfs, shared as
 * runc shares it (attached at the first folder: a detached mount cannot
 * be cloned). */
struct masks {
	int null, tmpfs;
	const char *label;
};

static int mask_folder(int target, struct masks *m, struct shim_error *err)
{
	struct mount_opts ro = { .attr_set = MOUNT_ATTR_RDONLY };
	_cleanup_close_ int mnt = -1;

	if (m->tmpfs < 0) {
		m->tmpfs = mount_new_fs("tmpfs", "tmpfs", &ro, m->label, err);
		return m->tmpfs < 0 ? -1 : mount_attach(m->tmpfs, target, "", err);
	}
	mnt = mount_clone_tree(m->tmpfs, "", false, err);
	return mnt < 0 ? -1 : mount_attach(mnt, target, "", err);
}

static int mask_file(int root, int target, struct masks *m, struct shim_error *err)
{
	_cleanup_close_ int null = -1, mnt = -1;

	if (m->null >= 0) {
		mnt = mount_clone_tree(m->null, "", false, err);
		return mnt < 0 ? -1 : mount_attach(mnt, target, "", err);
	}
	null = rootfs_open_null(root, O_PATH, err);
	if (null < 0)
		return shim_error_wrap(err, "refusing to bind it over the path");
	mnt = mount_clone_tree(null, "", false, err);
	if (mnt < 0 || mount_set_attrs(mnt, "", MOUNT_ATTR_RDONLY, 0, false, err) < 0 ||
	    mount_attach(mnt, target, "", err) < 0)
		return -1;
	m->null = TAKE_FD(mnt);	/* attached: the next files clone it */
	return 0;
}

static int mask_path(int root, int target, struct masks *m, struct shim_error *err)
{
	struct stat st;

	if (fstat(target, &st) < 0)
		return shim_fail_errno(err, "stat");
	return S_ISDIR(st.st_mode) ? mask_folder(target, m, err) : mask_file(root, target, m, err);
}

static int readonly_path(int target, struct shim_error *err)
{
	_cleanup_close_ int mnt = mount_clone_tree(target, "", true, err);

	if (mnt < 0 || mount_set_attrs(mnt, "", MOUNT_ATTR_RDONLY, 0, true, err) < 0)
		return -1;
	return mount_attach(mnt, target, "", err);
}

static int apply_masked(int root, const struct oci_spec *spec, const struct rootfs_anchors *a,
			struct shim_error *err)
{
	struct masks m = { .null = -1, .tmpfs = -1, .label = spec->mount_label };
	int r = 0;

	for (size_t i = 0; r == 0 && spec->masked_paths && spec->masked_paths[i]; i++) {
		const char *path = spec->masked_paths[i];
		_cleanup_close_ int target = open_listed(root, spec, a, path, err);

		if (target < 0 && err->errnum == ENOENT)
			continue;
		if (target < 0 || mask_path(root, target, &m, err) < 0)
			r = shim_error_wrap(err, "maskedPaths: %s", path);
	}
	safe_close(m.null);
	safe_close(m.tmpfs);
	return r;
}

static int apply_readonly(int root, const struct oci_spec *spec, const struct rootfs_anchors *a,
			  struct shim_error *err)
{
	for (size_t i = 0; spec->readonly_paths && spec->readonly_paths[i]; i++) {
		const char *path = spec->readonly_paths[i];
		_cleanup_close_ int target = open_listed(root, spec, a, path, err);

		if (target < 0 && err->errnum == ENOENT)
			continue;
		if (target < 0 || readonly_path(target, err) < 0)
			return shim_error_wrap(err, "readonlyPaths: %s", path);
	}
	return 0;
}

int masks_apply(int root, const struct oci_spec *spec, const struct rootfs_anchors *anchors,
		struct shim_error *err)
{
	if (apply_masked(root, spec, anchors, err) < 0)
		return -1;
	return apply_readonly(root, spec, anchors, err);
}

void rootfs_anchors_release(struct rootfs_anchors *a)
{
	for (size_t i = 0; i < a->n; i++)
		safe_close(a->fd[i]);
	free(a->fd);
	a->fd = NULL;
	a->n = 0;
}
