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
#include <unistd.h>

#include "oci/base/error.h"

/* Runs in the child; its return value is the child's exit status. */
typedef int (*clone_fn)(void *arg);

/* Fork-like: the child runs fn(arg) and exits. Returns the child's pid
 * and its pidfd in *pidfd, or -1 with err. */
pid_t clone_with_pidfd(uint64_t ns_flags, int cgroup_fd, clone_fn fn, void *arg, int *pidfd,
		       struct shim_error *err);

/* Runs in a helper child with the write end of a pipe. */
typedef int (*helper_fn)(void *arg, int out);

/* Run fn(arg, out) in a fork-like child, read what it writes to out (up
 * to len bytes, until it exits), reap it. Returns the byte count and the
 * child's shell-style status in *status, or -1 with err. */
ssize_t clone_helper_output(helper_fn fn, void *arg, void *buf, size_t len, int *status,
			    struct shim_error *err);

#endif
