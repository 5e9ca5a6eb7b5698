/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/criu/checkpoint.h: `checkpoint` through CRIU (shim/criu/criu.h), as runc does
 * it; `restore` is in shim/criu/restore.h:
 *
 *   checkpoint  the running (or paused) container's process tree dumped to
 *               an image folder: its bind mounts named as external (CRIU
 *               only records where they were), the init's stdio written to
 *               descriptors.json; then, unless --leave-running or
 *               --pre-dump, the container is gone (CRIU killed it) and is
 *               deleted. A failed dump leaves it running.
 *   restore     a create (shim/container.h) whose init is not cloned but
 *               brought back by CRIU into the container's new cgroup, as
 *               our child (rst_sibling), held by a pidfd like any init;
 *               external mounts bound from their sources in the config,
 *               stdio pipes handed over by what descriptors.json names. A
 *               failed restore removes what the create made.
 */
#ifndef SHIM_CHECKPOINT_H
#define SHIM_CHECKPOINT_H

#include <stdbool.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "shim/criu/criu_common.h"

struct container;

struct checkpoint_opts {
	struct criu_flags f;
	const char *parent_path;	/* relative to the image folder */
	bool leave_running, pre_dump;
};

int container_checkpoint(const char *root, struct container *c, const struct checkpoint_opts *o,
			 struct shim_error *err);

#endif
