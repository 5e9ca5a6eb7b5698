/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/filesystem/masks.h: linux.maskedPaths and linux.readonlyPaths, applied by the
 * init past pivot_root (step 6 of shim/filesystem/rootfs.h).
 *
 * A path below a proc or sysfs mount of the config (the last mounts[]
 * entry whose destination holds it) is opened beneath that mount's own fd
 * (RESOLVE_BENEATH, no magic links): the name of the folder it sits on
 * plays no part, so a process sharing the rootfs that renames /proc and
 * puts a link there cannot send the masks to a decoy. Any other path is
 * resolved from the container's root (RESOLVE_IN_ROOT). A path that does
 * not exist is skipped, as runc does.
 *
 * A masked file is covered by a read-only bind of the container's own
 * /dev/null (checked to be char 1:3), a masked folder by one empty
 * read-only tmpfs; a read-only path is bound on itself read-only,
 * recursively.
 */
#ifndef SHIM_MASKS_H
#define SHIM_MASKS_H

#include "oci/base/error.h"
#include "oci/spec.h"
#include <stddef.h>

/*
 * The proc and sysfs mounts the init made, held by their mount fds from
 * step 3 to step 6 of shim/filesystem/rootfs.h: the masked and read-only paths below them are found
 * from these fds, not by a path from the root, which a process sharing
 * the rootfs could reroute between the two steps (rename the folder a
 * mount sits on, put a link in its place: the mask would cover what the
 * link names and the real /proc/kcore stay open).
 * fd[i] is mounts[i]'s mount when it is a proc or sysfs, else -1.
 */
struct rootfs_anchors {
	size_t n;
	int *fd;
};

/* Closes the fds and frees the array (a cleanup attribute's signature). */
void rootfs_anchors_release(struct rootfs_anchors *a);

/* root: an O_PATH fd of the container's root. */
int masks_apply(int root, const struct oci_spec *spec, const struct rootfs_anchors *anchors,
		struct shim_error *err);

#endif
