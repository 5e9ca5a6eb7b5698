/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/exec.h: one more process in a running container.
 *
 * The runtime joins the init's PID (and time) namespace for its children
 * through the init's pidfd, then clone3(CLONE_PIDFD | CLONE_INTO_CGROUP)
 * starts the new process in the container's cgroup, held by a pidfd. The
 * child makes itself non-dumpable (so nothing in the container can reach
 * the runtime through /proc/PID/exe), joins the other namespaces with one
 * setns(pidfd, ...), and then takes the init's own path: cwd check, PATH
 * lookup, report ready; with --exec-wait-fifo, a wait for a reader of
 * that FIFO (opened for writing through the child's fd folder on the
 * runtime's procfs, as the init opens exec.fifo); limits, capabilities,
 * user, no_new_privs, unshare(CLONE_FILES), close_range, execve.
 */
#ifndef SHIM_EXEC_H
#define SHIM_EXEC_H

#include <stdbool.h>

#include "oci/base/error.h"
#include "oci/spec.h"
#include "shim/container.h"

struct exec_opts {
	const struct oci_process *process;
	const struct oci_seccomp *seccomp;	/* the container's linux.seccomp */
	const struct oci_memory_policy *memory_policy;	/* its linux.memoryPolicy */
	const struct oci_intel_rdt *intel_rdt;	/* its linux.intelRdt, or NULL */
	const char *pid_file;		/* --pid-file or NULL */
	const char *pidfd_socket;	/* --pidfd-socket or NULL */
	const char *console_socket;	/* --console-socket or NULL */
	unsigned int preserve_fds;
	bool detach;
	const char *cgroup;		/* --cgroup [CONTROLLER:]PATH, below the container's */
	bool ignore_paused;		/* --ignore-paused */
	const char *wait_fifo;		/* --exec-wait-fifo: the process waits for a
					 * reader of this FIFO right before its exec */
};

/* Foreground: the process's exit status (128 + signal if killed). Detached:
 * 0 once it is running. -1 with err filled on failure. */
int container_exec(struct container *c, const struct exec_opts *o, struct shim_error *err);

#endif
