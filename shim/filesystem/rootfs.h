/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/filesystem/rootfs.h: the container's filesystem view, built by its init inside
 * its new mount namespace:
 *
 *   1. everything below / becomes a slave, so nothing propagates back;
 *   2. the rootfs is bind-mounted on itself (pivot_root needs a mount);
 *   3. each config mount is made and attached at its destination, resolved
 *      inside the rootfs (openat2 RESOLVE_IN_ROOT: a symlink cannot lead
 *      out), creating what is missing;
 *   4. /dev, when the config mounts a fresh one, gets the default devices;
 *   5. (the init runs the createRuntime and createContainer hooks between
 *      rootfs_mount_all and rootfs_enter) pivot_root(".", ".") and the old
 *      root is detached; or, with --no-pivot (a rootfs on ramfs, where
 *      pivot_root is refused), the host's procfs and sysfs mounts are
 *      detached or covered, the rootfs moved onto / and chroot'ed into: less
 *      safe, since the host's tree stays in the namespace under the chroot
 *      (a process with CAP_SYS_CHROOT can climb out), as with runc;
 *   6. (rootfs_finish, once the init wrote its sysctls and made its cwd)
 *      maskedPaths and readonlyPaths (shim/filesystem/masks.h), a read-only root,
 *      rootfsPropagation.
 */
#ifndef SHIM_ROOTFS_H
#define SHIM_ROOTFS_H

#include "oci/base/error.h"
#include "oci/spec.h"
#include "shim/filesystem/masks.h"
#include "shim/filesystem/rootfs_walk.h"

#include <stdbool.h>
#include <stddef.h>

struct cgroup_v1;

/* Where the mounts come from: rootfs and bundle are absolute host paths;
 * prepared (may be NULL) holds per mount the tree the runtime made, or -1:
 * idmapped copies (shim/filesystem/idmap.h), bind sources it cloned
 * (shim/filesystem/bind_sources.h); cgroup_v1, on a cgroup v1 host, the container's
 * folders, else NULL. */
struct rootfs_inputs {
	const char *rootfs, *bundle;
	const int *prepared;
	const struct cgroup_v1 *cgroup_v1;
};

/* Steps 1 to 4; returns an O_PATH fd of the rootfs, or -1; fills anchors.
 * in->rootfs NULL: staged (rootfs_stage), the rootfs is already "/" and
 * steps 1 and 2 are done. */
int rootfs_mount_all(const struct oci_spec *spec, const struct rootfs_inputs *in,
		     struct rootfs_anchors *anchors, struct shim_error *err);

/* Without a mount namespace of the container's own: the config's mounts
 * (and a fresh /dev's nodes) made in the runtime's namespace below
 * in->rootfs, found from it as in steps 3 and 4 (masked and read-only
 * paths are refused at create: shim/namespaces.c). The runtime finds and
 * removes them (shim/filesystem/inherited_mounts.h). */
int rootfs_mount_inherited(const struct oci_spec *spec, const struct rootfs_inputs *in,
			   struct shim_error *err);

/* Step 5: root_fd becomes the process's root and cwd (and is closed);
 * rootfs NULL: staged, it is already. */
int rootfs_enter(int root_fd, const char *rootfs, bool no_pivot, struct shim_error *err);

/*
 * For an init born where another container's processes see it (a PID
 * namespace joined by path): steps 1, 2 and 5 done first, by the helper it
 * is cloned from (shim/clean_clone.h), which the container cannot name.
 * Every bind source not prepared yet (prepared[i] < 0: n_mounts entries)
 * is cloned as a detached tree, the rootfs too; then a mount namespace of
 * our own whose root is the rootfs, the host's tree detached. The init,
 * cloned from there, never has a way to the host's files: no folder fd, no
 * /proc/PID/root or cwd. Only where nothing else of the host is needed
 * (see container.c's init_staged).
 */
int rootfs_stage(const struct oci_spec *spec, const char *rootfs, const char *bundle,
		 int *prepared, bool no_pivot, struct shim_error *err);

/* Without a mount namespace of the container's own: rootfs (a host path)
 * becomes the root and the cwd by chroot, as nothing is mounted. */
int rootfs_chroot(const char *rootfs, struct shim_error *err);

/* Read what the mounts need to know of the host (is cgroup2 at
 * /sys/fs/cgroup?) while its tree is there: kept for later calls. */
void rootfs_probe_host(void);

/* Step 6, after sysctls (written through /proc/sys, which readonlyPaths
 * usually covers) and process_prepare() (which may create the cwd). */
int rootfs_finish(const struct oci_spec *spec, const struct rootfs_anchors *anchors,
		  struct shim_error *err);


#endif
