/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/init.h: the container's init, in the child the runtime cloned into
 * the new namespaces: it sets itself up (user namespace, mounts, hooks'
 * handshake, pivot, sysctls, the pty) and drops its privileges to
 * process.user's (shim/process.h), reports ready or the error over the
 * sync socket (shim/sync.h), then waits on exec.fifo for `start`, runs the
 * startContainer hooks and execs the container's process. Everything on the
 * runtime's side of the socket is in shim/container.c.
 */
#ifndef SHIM_INIT_H
#define SHIM_INIT_H

#include <stdbool.h>
#include <sys/types.h>

#include "oci/spec.h"
#include "shim/namespaces.h"

/* What the runtime hands the init across the clone. */
struct init_ctx {
	const struct oci_spec *spec;
	const char *id, *rootfs, *bundle;
	pid_t host_pid;		/* from SYNC_CONTINUE; 0 without hooks */
	struct ns_join *joins;
	int sync_fd;		/* the init's end */
	int runtime_sync_fd;	/* the runtime's end: closed in the child */
	int lock_fd;		/* the runtime's lock on it: closed in the child */
	int fifo_fd;		/* exec.fifo, O_PATH: reopened by /proc/self/fd, so
				 * an init that is no longer host root needs no
				 * access to the state folder */
	int console_fd;		/* where the pty master goes; -1 without a terminal */
	int *prepared;		/* per mount: a tree the runtime made (an idmapped
				 * copy, a bind source it cloned), else -1; or NULL */
	int agent_fd;		/* connected to linux.seccomp.listenerPath, or -1 */
	const struct cgroup_v1 *cgroup_v1;	/* a cgroup v1 host: the container's folders, or NULL */
	unsigned int preserve_fds;
	bool new_keyring;	/* a session keyring of its own (not --no-new-keyring) */
	bool no_pivot;		/* --no-pivot: move the rootfs onto / and chroot */
	bool staged;		/* born with the rootfs as its root (rootfs_stage) */
	bool oom_score_adj_set;	/* inherited from the helper that cloned it */
};

/* The clone's entry point; arg is a struct init_ctx. Exits non-zero when
 * setup or the exec failed (the error went to the runtime or stderr). */
int init_main(void *arg);

/* Whether the init stops between its mounts and pivot_root for the
 * runtime's hooks (and to learn its host PID): hooks or a seccomp agent. */
bool init_needs_handshake(const struct oci_spec *s);

#endif
