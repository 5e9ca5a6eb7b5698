/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/userns_join.h: a user namespace joined by path (linux.namespaces
 * {"type": "user", "path": ...}), as Kubernetes pods with hostUsers: false
 * and podman pods sharing one need.
 *
 * The container's other new namespaces must belong to that user namespace,
 * so they are made by a process already in it: the clean helper
 * (shim/clean_clone.h, container.c's enter_joined) joins it and clones the
 * init with CLONE_PARENT, so the init is still the runtime's own child
 * while its namespaces are owned by the joined one. The namespace's ID
 * maps are read (a helper in it reads
 * its /proc/self/uid_map, host IDs as its parent namespace sees them):
 * config mappings that differ are refused by name, absent ones are taken
 * from the namespace (the state folder's exec.fifo is given to its root).
 */
#ifndef SHIM_USERNS_JOIN_H
#define SHIM_USERNS_JOIN_H

#include <stdint.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "oci/spec.h"

/* Check spec's mappings against the namespace at user_fd, or fill them. */
int userns_join_mappings(struct oci_spec *spec, int user_fd, struct shim_error *err);

#endif
