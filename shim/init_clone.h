/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/init_clone.h: how create clones the container's init.
 *
 * Into new namespaces only, the init is cloned from the runtime itself:
 * PID 1 of a PID namespace nobody else is in yet, seen by no other
 * container while it holds the runtime's fds, which it lets go of before
 * it takes process.user's credentials (shim/init.c).
 *
 * Into a PID or user namespace joined by path (a Kubernetes pod's), it is
 * born clean instead (shim/clean_clone.h): a helper the containers cannot
 * name joins every namespace the config names by path (the PID one as the
 * host's root, then the user one, then the others) and clones it with only
 * its sockets, exec.fifo and the detached trees the runtime made. Where it
 * can, the helper also stages the rootfs (shim/filesystem/rootfs.h rootfs_stage): the
 * init then never has a way to the host's files while it is visible.
 */
#ifndef SHIM_INIT_CLONE_H
#define SHIM_INIT_CLONE_H

#include <stdbool.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "shim/bundle.h"
#include "shim/init.h"
#include "shim/namespaces.h"

/* Is the init born clean (a PID or user namespace joined by path)? Then
 * the runtime joins no PID namespace itself: the helper does. */
bool init_born_clean(const struct ns_join *joins);

/* Clone the init (init_main(ctx)) into the config's namespaces, joins
 * those given by path, into cgroup_fd; its pidfd in *pidfd. */
pid_t init_clone(const struct bundle *b, struct ns_join *joins, int cgroup_fd,
		 struct init_ctx *ctx, int *pidfd, struct shim_error *err);

#endif
