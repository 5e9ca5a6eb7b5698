/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/criu/restore.h: `restore`, a create (shim/container.h) whose init is not
 * cloned but brought back by CRIU (shim/criu/criu.h) into the container's new
 * cgroup, as our child (rst_sibling), held by a pidfd like any init;
 * external mounts bound from their sources in the config, stdio pipes
 * handed over by what descriptors.json names. A failed restore removes
 * what the create made.
 */
#ifndef SHIM_RESTORE_H
#define SHIM_RESTORE_H

#include <stdbool.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "shim/criu/criu_common.h"

struct bundle;
struct cgroup_v1;

struct restore_opts {
	struct criu_flags f;
	unsigned int empty_ns;		/* CLONE_NEWNET: a new, empty network namespace */
	const char *lsm_profile, *lsm_mount_context;
};

/* What a restoring create has made, for the restore itself. */
struct restore_target {
	const char *id;
	const struct bundle *b;
	int dir_fd;			/* the state folder */
	const char *state_dir;		/* its path (CRIU's root is bound below it) */
	int cgroup_fd;			/* the container's cgroup v2 folder, or -1 */
	const char *cgroup_rel;		/* below /sys/fs/cgroup (v2 or v1), or "" */
	const struct cgroup_v1 *v1;	/* a v1 host's folders, or NULL */
	const char *console_socket;	/* the pty master goes there */
	int *master;			/* or here (run-like foreground), if not NULL */
};

/* Bring the init back; *pid and *pidfd are it (our child). */
int checkpoint_restore_init(const struct restore_opts *o, const struct restore_target *t,
			    pid_t *pid, int *pidfd, struct shim_error *err);

#endif
