/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/clone.h: start the container's init in its new namespaces, held by
 * a pidfd from the first instant: clone3(CLONE_PIDFD), or, on a kernel
 * without clone3, clone() then pidfd_open() (the child cannot exit and be
 * replaced before pidfd_open: it is ours and unreaped). With cgroup_fd >= 0
 * the child starts in that cgroup folder (CLONE_INTO_CGROUP, or it moves
 * itself first on kernels without it).
 */
#ifndef SHIM_CLONE_H
#define SHIM_CLONE_H

#include <stdint.h>
#include <sys/types.h>

#include "shim/error.h"

/* Runs in the child; its return value is the child's exit status. */
typedef int (*clone_fn)(void *arg);

/* Fork-like: the child runs fn(arg) and exits. Returns the child's pid
 * and its pidfd in *pidfd, or -1 with err. */
pid_t clone_with_pidfd(uint64_t ns_flags, int cgroup_fd, clone_fn fn, void *arg, int *pidfd,
		       struct shim_error *err);

#endif
