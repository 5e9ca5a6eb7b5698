/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/filesystem/idmap.h: mounts with the "idmap" / "ridmap" option.
 *
 * Idmapping a mount needs privilege over the filesystem's user namespace
 * (the host's), which an init in a new user namespace no longer has; so
 * the runtime, before the init exists, clones each such source
 * (open_tree(OPEN_TREE_CLONE)) and idmaps the detached copy with
 * mount_setattr(MOUNT_ATTR_IDMAP) by a user namespace made for its
 * mappings (a child that only waits, whose /proc/PID/ns/user is kept).
 * The init then only attaches the copy at its destination.
 */
#ifndef SHIM_IDMAP_H
#define SHIM_IDMAP_H

#include "oci/base/error.h"
#include "oci/spec.h"

/* trees[i] is a detached idmapped copy for mounts[i] with idmap, else -1
 * (malloc'd array of spec->n_mounts, or NULL when no mount asks). */
int idmap_prepare(const struct oci_spec *spec, const char *bundle, int **trees,
		  struct shim_error *err);

void idmap_release(int *trees, size_t n);

#endif
