/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/filesystem/mount.h: mounts made only with the new mount API. A mount is built
 * detached (fsopen/fsconfig/fsmount for a new filesystem, open_tree with
 * OPEN_TREE_CLONE for a bind), given its attributes with mount_setattr, and
 * attached with move_mount. Every function returns a detached-mount fd or 0,
 * and -1 with err naming what failed. There is no mount(2) fallback: a
 * kernel without the API (before 5.2; mount_setattr 5.12) gets a clear error.
 */
#ifndef SHIM_MOUNT_H
#define SHIM_MOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "oci/base/error.h"
#include "oci/mount_options.h"

/* A new filesystem of type, with source and o's parameters and attributes,
 * and label (linux.mountLabel, or NULL) as its SELinux context= option.
 * The kernel's own fs_context log, when it has one, joins the error. */
int mount_new_fs(const char *type, const char *source, const struct mount_opts *o,
		 const char *label, struct shim_error *err);

/* A detached copy of the mount at dfd/path (and, recursive, below it). */
int mount_clone_tree(int dfd, const char *path, bool recursive, struct shim_error *err);

/* Set and clear MOUNT_ATTR_* and propagation on a mount fd or a path. */
int mount_set_attrs(int dfd, const char *path, uint64_t set, uint64_t clr,
		    bool recursive, struct shim_error *err);
int mount_set_propagation(int dfd, const char *path, uint64_t propagation,
			  bool recursive, struct shim_error *err);

/* Make a detached mount idmapped (5.12) by the user namespace userns_fd. */
int mount_set_idmap(int mnt_fd, int userns_fd, bool recursive, struct shim_error *err);

/* Attach a detached mount on dfd/path ("" with dfd: on dfd itself). */
int mount_attach(int mnt_fd, int dfd, const char *path, struct shim_error *err);

#endif
