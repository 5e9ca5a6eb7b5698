/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/filesystem/inherited_mounts.h: the mounts of a container without a mount
 * namespace of its own.
 *
 * The runtime-spec has such a container inherit the runtime's namespace
 * and still get its mounts: its init makes them there, below root.path
 * (shim/filesystem/rootfs.h rootfs_mount_inherited). runc and crun leave them in the
 * host's mount table for ever; shim takes them away again. Before the init
 * is cloned, the runtime notes every mount ID the table holds; once the
 * init is set up, each mount below root.path that was not there is one of
 * the container's, written to ROOT/ID/mounts ("ID PATH" a line, PATH
 * escaped as mountinfo escapes it) under the root.path it was made in.
 * delete, a failed create and the removal of a broken container unmount
 * them deepest first, each reached from root.path without following a
 * link and unmounted only while it is still the mount of that ID.
 */
#ifndef SHIM_INHERITED_MOUNTS_H
#define SHIM_INHERITED_MOUNTS_H

#include <stddef.h>

#include "oci/base/error.h"

/* The state folder's record of the mounts to remove at delete. */
#define STORE_INHERITED_MOUNTS "mounts"

/* The mount table as create found it, and root.path's real path. */
struct mount_snapshot {
	char *root;		/* root.path, resolved; NULL: nothing taken */
	int *ids;
	size_t n;
};

/* Note the mount IDs of the runtime's mount namespace, for rootfs. */
int inherited_mounts_snapshot(const char *rootfs, struct mount_snapshot *s,
			      struct shim_error *err);

/* Write the mounts below s->root that s does not hold to the record. */
int inherited_mounts_record(int dir_fd, const struct mount_snapshot *s, struct shim_error *err);

/* A failed create: unmount what s does not hold below s->root. */
void inherited_mounts_undo(const struct mount_snapshot *s);

/* delete: unmount what the record names; none recorded is fine. A mount
 * that is gone, or is another one now, is left (and said). */
int inherited_mounts_remove(int dir_fd, struct shim_error *err);

void mount_snapshot_release(struct mount_snapshot *s);

#endif
