/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/process.h: the init's last steps, in the container's root.
 *
 * process_prepare() runs before the init reports ready, so that what a user
 * gets wrong (a cwd outside the root, a program not found, a seccomp
 * profile libseccomp refuses) fails `create` with a clear error.
 * process_exec() runs after `start`: limits, umask, then unshare(CLONE_FILES)
 * and close_range(3 + N, ~0U), so that only 0, 1, 2 and the N preserved fds
 * reach the program; then capabilities and user, no_new_privs and the
 * seccomp filter (shim/seccomp.h says where it goes), and execve.
 */
#ifndef SHIM_PROCESS_H
#define SHIM_PROCESS_H

#include <limits.h>
#include <stdbool.h>

#include "oci/base/error.h"
#include "oci/spec.h"
#include "oci/state.h"

struct seccomp_program;

struct process_plan {
	char exe[PATH_MAX];	/* args[0] resolved in $PATH */
	char **env;		/* process.env plus HOME when it is missing */
	struct seccomp_program *seccomp;	/* the built filter, NULL for none */
	bool has_agent;		/* SCMP_ACT_NOTIFY: agent_fd is connected to it */
	int agent_fd;
	char *agent_message;	/* what goes with the notify fd */
	bool cwd_must_exist;	/* set by the caller: in the runtime's own mount
				 * namespace nothing is created on the host */
	bool cwd_as_user;	/* process.cwd refused us (EACCES, EPERM): it
				 * and the program are found again as
				 * process.user, once privileges are dropped */
	bool privileges_dropped;	/* by process_drop_privileges */
	bool files_private;	/* our fd table unshared already */
	bool signals_known;	/* signals_set was read (process_prepare) */
	uint64_t signals_set;	/* the signals not at SIG_DFL (bit n-1 for
				 * n): the exec resets them, all 64 when
				 * they are not known */
	bool has_fd_dir;	/* our /proc/self/fd on the runtime's procfs */
	int fd_dir;		/* (shim/procfs.h), for fd_close_from: the init
				 * keeps it when it lets go; an exec opens it
				 * where the kernel lacks close_range */
};

/* The plan's fd folder for fd_close_from, or -1 when it has none. */
static inline int process_fd_dir(const struct process_plan *plan)
{
	return plan->has_fd_dir ? plan->fd_dir : -1;
}

int process_prepare(const struct oci_process *p, const struct oci_seccomp *seccomp,
		    struct process_plan *plan, struct shim_error *err);

/* SCMP_ACT_NOTIFY: once the filter loads, its notify fd goes to agent_fd
 * with the container process state (runtime-spec ContainerProcessState:
 * st, whose pid is the process's as the host sees it, and metadata). */
int process_plan_agent(struct process_plan *plan, int agent_fd, const struct oci_state_view *st,
		       const char *metadata, struct shim_error *err);

/* process.oomScoreAdj on ourselves, through the procfs handle. */
int process_set_oom_score_adj(const struct oci_process *p, struct shim_error *err);

/* The init's drop at create, before it reports ready, as runc's and
 * crun's: the seccomp filter if it needs CAP_SYS_ADMIN (no
 * noNewPrivileges), the bounding set, the user, the capabilities,
 * no_new_privs. An ID or a capability set the kernel refuses fails create;
 * the wait for start and the startContainer hooks run as process.user
 * with its capabilities. process_exec then does the rest. */
int process_drop_privileges(const struct oci_process *p, struct process_plan *plan,
			    struct shim_error *err);

/* The filter, if not loaded yet (with noNewPrivileges it waits for the
 * exec, to be as late as it can): before startContainer hooks, which run
 * under it as with runc and crun. */
int process_load_filter(struct process_plan *plan, struct shim_error *err);

/* linux.memoryPolicy for this process and what it execs. */
int process_set_mempolicy(const struct oci_memory_policy *m, struct shim_error *err);

/* Pin ourselves to the CPUs of list ("0-3,7"; NULL: nothing to do), whose
 * bits oci/ parsed into mask: process.execCPUAffinity.initial first thing
 * in the child, .final right before exec. field names it in errors. */
int process_set_cpus(const char *list, const unsigned long *mask, const char *field,
		     struct shim_error *err);

/* process.rlimits on pid (0: ourselves). The init sets its own once set
 * up, still root, or, in a user namespace, the runtime sets them while it
 * waits for its ID maps: never once it is process.user, whose limits a
 * runtime without CAP_SYS_RESOURCE may not set. A limit the kernel refuses
 * fails create, named. exec's child sets its own before its exec. */
int process_set_rlimits(pid_t pid, const struct oci_process *p, struct shim_error *err);

/* Returns only on failure. */
int process_exec(const struct oci_process *p, struct process_plan *plan,
		 unsigned int preserve_fds, struct shim_error *err);

#endif
