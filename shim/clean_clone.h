/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/clean_clone.h: a child that enters the container's namespaces
 * holding only the fds it needs there (CVE-2016-9962 class).
 *
 * A plain clone copies the runtime's whole fd table: the state folder, the
 * container's cgroup folders, the runtime's procfs handle. A child cloned
 * into the container's PID namespace is visible there from its first
 * instant, and a container process with CAP_SYS_PTRACE opens
 * /proc/PID/fd/N of it and climbs out with "..". So the child is never
 * cloned from the runtime itself:
 *
 *   runtime   clones a helper (in the runtime's PID namespace, where the
 *             container cannot name it), born in the container's cgroup
 *   helper    non-dumpable; closes every fd but 0-2, the preserved ones
 *             and job->keep (at most FD_MAX_KEEP in all); job->enter joins
 *             the container's namespaces (the PID namespace for its
 *             children) and closes what only that needed; clones the
 *             child as the runtime's (CLONE_PARENT);
 *             sends its PID back and exits
 *   child     born with the helper's few fds, in the helper's cgroup and
 *             namespaces, non-dumpable; runs job->fn(job->arg)
 *
 * The runtime opens the child's pidfd with pidfd_open (its own unreaped
 * child: the PID cannot be reused) and checks that it is its child.
 */
#ifndef SHIM_CLEAN_CLONE_H
#define SHIM_CLEAN_CLONE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "shim/clone.h"

#define CLEAN_CLONE_MAX_KEEP 8

struct clean_clone {
	int cgroup_fd;		/* the cgroup the child starts in, or -1: the runtime's */
	uint64_t ns_flags;	/* new namespaces for the child itself */
	unsigned int first;	/* 3 + the preserved fds: those below stay */
	int keep[CLEAN_CLONE_MAX_KEEP];	/* the fds the child needs; -1 for none */
	const int *more_keep;	/* n_more more of them (detached trees), or NULL */
	size_t n_more;
	bool dumpable;		/* leave the child dumpable (an init that makes a new
				 * user namespace writes its own /proc files as
				 * that namespace's root) */
	/* In the helper, once only the kept fds are left: join the
	 * container's namespaces (the PID namespace for its children), then
	 * close the fds that only this needed and mark them -1 in arg, which
	 * the child sees as the helper left it. */
	int (*enter)(void *arg, struct shim_error *err);
	clone_fn fn;
	void *arg;
};

/* Start job->fn(job->arg) in a child born as above. Returns its PID and
 * its pidfd in *pidfd, or -1 with err (the helper's own error when it
 * failed, errno included: EBUSY from a cgroup that takes no process). */
pid_t clean_clone(const struct clean_clone *job, int *pidfd, struct shim_error *err);

#endif
