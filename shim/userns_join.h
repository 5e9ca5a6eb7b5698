/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/userns_join.h: a user namespace joined by path (linux.namespaces
 * {"type": "user", "path": ...}), as Kubernetes pods with hostUsers: false
 * and podman pods sharing one need.
 *
 * The container's other new namespaces must belong to that user namespace,
 * so they are made by a process already in it: a helper forked from the
 * runtime joins it (setns) and clones the init with CLONE_PARENT, so the
 * init is still the runtime's own child (held by a pidfd_open of an
 * unreaped child of ours: no PID reuse race) while its namespaces are owned
 * by the joined one. The namespace's ID maps are read (a helper in it reads
 * its /proc/self/uid_map, host IDs as its parent namespace sees them):
 * config mappings that differ are refused by name, absent ones are taken
 * from the namespace (the state folder's exec.fifo is given to its root).
 */
#ifndef SHIM_USERNS_JOIN_H
#define SHIM_USERNS_JOIN_H

#include <stdint.h>
#include <sys/types.h>

#include "oci/spec.h"
#include "shim/clone.h"
#include "oci/error.h"

/* Check spec's mappings against the namespace at user_fd, or fill them. */
int userns_join_mappings(struct oci_spec *spec, int user_fd, struct shim_error *err);

/* A clone_with_pidfd from inside a user namespace joined by path. */
struct clone_job {
	int user_fd;		/* the user namespace */
	uint64_t ns_flags;	/* the namespaces made inside it */
	int cgroup_fd;		/* the cgroup the child starts in, or -1 */
	clone_fn fn;
	void *arg;
};

/* clone_with_pidfd(job's flags, cgroup, fn, arg), from inside job's user
 * namespace, with CLONE_PARENT: the child is still the caller's. */
pid_t userns_join_clone(const struct clone_job *job, int *pidfd, struct shim_error *err);

#endif
