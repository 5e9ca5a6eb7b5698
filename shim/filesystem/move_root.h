/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/filesystem/move_root.h: `--no-pivot`, for a rootfs where pivot_root is refused
 * (on the initramfs, ramfs: the root mount cannot be pivoted away).
 *
 * As runc does: every procfs and sysfs mount of the host left in the init's
 * mount namespace is detached, or, where it is locked to its parent (a user
 * namespace), covered by an empty read-only tmpfs, so that the container
 * can neither reach them nor use them to pass the kernel's "a full proc is
 * already visible" test for mounting its own; then the rootfs mount is
 * moved onto / (move_mount) and the init chroots into it. Less safe than
 * pivot_root: the host's tree stays in the namespace under the chroot, and
 * a process with CAP_SYS_CHROOT can climb out of a chroot.
 */
#ifndef SHIM_MOVE_ROOT_H
#define SHIM_MOVE_ROOT_H

#include "oci/base/error.h"

/* root_fd: the rootfs mount (bound on itself at rootfs, a host path). */
int move_root(int root_fd, const char *rootfs, struct shim_error *err);

#endif
