/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/filesystem/rootfs_walk.h: paths inside the container's rootfs, resolved from
 * its root fd and never out of it (openat2 RESOLVE_IN_ROOT, no magic
 * link), and made where missing.
 *
 * The rootfs is the container's: any part of a path may be a symlink
 * (absolute, relative, with "..", dangling, in a loop) and may be swapped
 * while the runtime walks it. Every lookup starts at the root fd, and
 * every part the walk makes is made in the folder fd it holds, so neither
 * a link nor a rename leads a lookup or a new entry out of the root.
 */
#ifndef SHIM_ROOTFS_WALK_H
#define SHIM_ROOTFS_WALK_H

#include <stdbool.h>

#include "oci/base/error.h"

/* Open path inside the tree rooted at root_fd (".." and symlinks stay in). */
int rootfs_open(int root_fd, const char *path, int flags, struct shim_error *err);

/* The same lookup, -1 with the syscall's errno alone: for a path that may
 * well be missing (ENOENT is then no error, and no message is made). */
int rootfs_lookup(int root_fd, const char *path, int flags);

/* mkdir -p path inside root_fd's tree; with as_file the last part is an
 * empty file (0644; folders 0755, less the umask). A dangling symlink on
 * the way is followed inside the root, and its target made, as runc and
 * crun do for mount destinations. Returns an O_PATH fd of the whole. */
int rootfs_make_path(int root_fd, const char *path, bool as_file, struct shim_error *err);


/* The container's /dev/null, reached from root without following any
 * link and checked to be the null device (char 1:3), opened with flags.
 * A planted link or node (CVE-2025-31133) fails, err naming why (errnum
 * ENOENT when there is none). */
int rootfs_open_null(int root, int flags, struct shim_error *err);

#endif
