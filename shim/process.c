/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/idlist.h"
#include "shim/caps.h"
#include "shim/fd.h"
#include "shim/filesystem/rootfs.h"
#include "shim/fsutil.h"
#include "shim/images/passwd.h"
#include "shim/log.h"
#include "shim/lsm.h"
#include "shim/process.h"
#include "shim/procfs.h"
#include "shim/seccomp.h"
#include "shim/signals.h"
#include "shim/syscalls.h"

#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

static const char *env_get(char *const *env, const char *name)
{
	size_t len = strlen(name);

	for (; env && *env; env++)
		if (strncmp(*env, name, len) == 0 && (*env)[len] == '=')
			return *env + len + 1;
	return NULL;
}

/*
 * chdir to process.cwd, made and resolved inside the container's root only:
 * every part is opened with openat2(RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS)
 * from "/" (the container's, past pivot_root or setns), and a missing part
 * is created in the folder fd just opened. The runtime's own fds are still
 * open here, so a cwd such as /proc/self/fd/N/../x must never reach them
 * (CVE-2024-21626): /proc/self/fd/N is a magic link, which is refused
 * before anything is created. getcwd() stays as a second check: the kernel
 * reports a cwd outside the root as "(unreachable)".
 */
static int enter_cwd(const char *cwd, bool must_exist, struct shim_error *err)
{
	_cleanup_close_ int root = -1, dir = -1;
	char now[PATH_MAX];

	/* the root itself (most configs): nothing to resolve */
	if (strcmp(cwd, "/") == 0)
		return chdir("/") < 0 ? shim_fail_errno(err, "process.cwd: chdir /") : 0;
	root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return shim_fail_errno(err, "process.cwd: open /");
	dir = must_exist ? rootfs_open(root, cwd, O_PATH | O_DIRECTORY, err)
			 : rootfs_make_path(root, cwd, false, err);
	if (dir < 0)
		return shim_error_wrap(err, "process.cwd %s", cwd);
	if (fchdir(dir) < 0)
		return shim_fail_errno(err, "process.cwd: chdir %s", cwd);
	if (!getcwd(now, sizeof(now)) || now[0] != '/')
		return shim_fail(err, 0, "process.cwd: %s is outside the container's root", cwd);
	return 0;
}

/* A regular file we may execute. The path is resolved once (a link in it,
 * /bin/sh -> busybox, is read once: on a network or 9p root, each read
 * is a round trip); faccessat2 (5.8) asks about the file that was found. */
static bool is_executable(const char *path)
{
	_cleanup_close_ int fd = open(path, O_PATH | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	if (faccessat(fd, "", X_OK, AT_EMPTY_PATH) == 0)
		return true;
	return (errno == EINVAL || errno == ENOSYS) && access(path, X_OK) == 0;
}

static int find_exe(const char *name, char *const *env, char *out, size_t len,
		    struct shim_error *err)
{
	const char *path = env_get(env, "PATH");
	char dirs[4096], *save = NULL;

	if (strchr(name, '/')) {
		if (!is_executable(name))
			return shim_fail(err, 0, "exec: \"%s\": no such executable file", name);
		return path_format(out, len, err, "%s", name) < 0 ? shim_error_wrap(err, "exec") : 0;
	}
	if (path_format(dirs, sizeof(dirs), err, "%s", path ? path : DEFAULT_PATH) < 0)
		return shim_error_wrap(err, "exec: $PATH");
	/* a candidate too long to be a path is no candidate */
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save))
		if (path_format(out, len, NULL, "%s/%s", *d ? d : ".", name) == 0 &&
		    is_executable(out))
			return 0;
	return shim_fail(err, 0, "exec: \"%s\": executable file not found in $PATH", name);
}

/* HOME from the container's /etc/passwd, as runc sets it; "/" otherwise
 * (a home too long for a path stays "/"). */
static void home_of(uid_t uid, char *out, size_t len)
{
	_cleanup_close_ int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (root < 0 || !passwd_user_home(root, uid, out, len))
		snprintf(out, len, "/");
}

static int build_env(const struct oci_process *p, struct process_plan *plan,
		     struct shim_error *err)
{
	size_t n = 0;
	char home[PATH_MAX];

	while (p->env && p->env[n])
		n++;
	plan->env = calloc(n + 2, sizeof(char *));
	if (!plan->env)
		return shim_fail(err, ENOMEM, "process.env");
	memcpy(plan->env, p->env ? p->env : (char *[]){ NULL }, n * sizeof(char *));
	if (!env_get(p->env, "HOME")) {
		home_of(p->user.uid, home, sizeof(home));
		if (asprintf(&plan->env[n], "HOME=%s", home) < 0)
			return shim_fail(err, ENOMEM, "process.env");
	}
	return 0;
}

int process_set_cpus(const char *list, const unsigned long *mask, const char *field,
		     struct shim_error *err)
{
	cpu_set_t set;

	if (!list)
		return 0;
	_Static_assert(sizeof(set) == IDLIST_WORDS * sizeof(*mask), "a CPU list is a cpu_set_t");
	memcpy(&set, mask, sizeof(set));
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return shim_fail_errno(err, "%s \"%s\": sched_setaffinity", field, list);
	return 0;
}

int process_set_mempolicy(const struct oci_memory_policy *m, struct shim_error *err)
{
	bool nodes = m->has_nodes;

	if (!m->present)
		return 0;
	/* maxnode counts bits, one past the last the kernel reads */
	if (sys_set_mempolicy(m->mode | (int)m->flags, nodes ? m->nodes_mask : NULL,
			      nodes ? IDLIST_MAX + 1 : 0) < 0)
		return shim_fail_errno(err, "linux.memoryPolicy: set_mempolicy(%d, \"%s\")", m->mode,
				       nodes ? m->nodes : "");
	return 0;
}

/* Before READY, so that a class the kernel refuses fails create. */
static int set_io_priority(const struct oci_process *p, struct shim_error *err)
{
	if (!p->has_io_priority)
		return 0;
	if (sys_ioprio_set(SHIM_IOPRIO_WHO_PROCESS, 0,
			   p->io_class << SHIM_IOPRIO_CLASS_SHIFT | p->io_priority) < 0)
		return shim_fail_errno(err, "process.ioPriority: ioprio_set");
	return 0;
}

/* process.scheduler, before READY: a policy the kernel refuses fails create. */
static int set_scheduler(const struct oci_process *p, struct shim_error *err)
{
	struct shim_sched_attr attr = {
		.size = sizeof(attr), .sched_policy = p->sched.policy, .sched_flags = p->sched.flags,
		.sched_nice = p->sched.nice, .sched_priority = p->sched.priority,
		.sched_runtime = p->sched.runtime, .sched_deadline = p->sched.deadline,
		.sched_period = p->sched.period,
	};

	if (p->has_scheduler && sys_sched_setattr(0, &attr, 0) < 0)
		return shim_fail_errno(err, "process.scheduler: sched_setattr");
	return 0;
}

/*
 * The signals not at SIG_DFL, from our status file on the procfs handle:
 * SigIgn, what the runtime's caller left ignored (as nohup does), which
 * would survive the exec, and SigCgt, which the runtime never catches
 * (it reads its signals from a signalfd) but is read all the same. One
 * read instead of a sigaction for each of the 64 signals.
 */
static void note_signals_set(struct process_plan *plan)
{
	char status[4096];
	uint64_t ignored, caught;
	struct shim_error err = { 0 };
	_cleanup_close_ int fd = procfs_open_self("status", O_RDONLY, &err);
	ssize_t n = fd < 0 ? -1 : read(fd, status, sizeof(status) - 1);

	plan->signals_known = false;
	if (n <= 0)
		return;
	status[n] = '\0';
	if (signals_status_mask(status, "SigIgn", &ignored) < 0 ||
	    signals_status_mask(status, "SigCgt", &caught) < 0)
		return;
	plan->signals_set = ignored | caught;
	plan->signals_known = true;
}

int process_prepare(const struct oci_process *p, const struct oci_seccomp *seccomp,
		    struct process_plan *plan, struct shim_error *err)
{
	if (set_io_priority(p, err) < 0 || set_scheduler(p, err) < 0)
		return -1;
	if (enter_cwd(p->cwd, plan->cwd_must_exist, err) < 0) {
		/* as runc: a folder only process.user may enter (its group
		 * unmapped in our user namespace, a root-squashed share) is
		 * entered again once we are that user */
		if (err->errnum != EACCES && err->errnum != EPERM)
			return -1;
		log_debug("%s; entering it again as process.user", err->msg);
		plan->cwd_as_user = true;
	}
	if (build_env(p, plan, err) < 0)
		return -1;
	note_signals_set(plan);
	/* the program is found from the cwd (a relative args[0]) */
	if (!plan->cwd_as_user) {
		if (find_exe(p->args[0], plan->env, plan->exe, sizeof(plan->exe), err) < 0)
			return -1;
		log_debug("cwd %s; the program is %s", p->cwd, plan->exe);
	}
	/* now, so that create fails on a label the kernel refuses; the labels
	 * wait for the execve (startContainer hooks, exec'd after start, run
	 * under them too, as with runc) */
	if (lsm_set_exec_labels(p, err) < 0)
		return -1;
	return seccomp ? seccomp_build(seccomp, &plan->seccomp, err) : 0;
}

static int set_user(const struct oci_user *u, struct shim_error *err)
{
	/* EPERM for none: a user namespace whose setgroups is "deny" (a
	 * rootless caller's own gid mapped alone) keeps the groups it has */
	if (setgroups(u->n_additional_gids, u->additional_gids) < 0 &&
	    (errno != EPERM || u->n_additional_gids))
		return shim_fail_errno(err, "process.user.additionalGids: setgroups%s",
				       errno == EPERM ? " (denied in this user namespace: a "
				       "rootless container maps more gids with newgidmap)" : "");
	if (setresgid(u->gid, u->gid, u->gid) < 0)
		return shim_fail_errno(err, "process.user.gid: setgid %u", (unsigned)u->gid);
	if (setresuid(u->uid, u->uid, u->uid) < 0)
		return shim_fail_errno(err, "process.user.uid: setuid %u", (unsigned)u->uid);
	return 0;
}

int process_set_oom_score_adj(const struct oci_process *p, struct shim_error *err)
{
	char text[16];

	if (!p->has_oom_score_adj)
		return 0;
	snprintf(text, sizeof(text), "%d", p->oom_score_adj);
	if (procfs_write_self("oom_score_adj", text, err) < 0)
		return shim_error_wrap(err, "process.oomScoreAdj");
	return 0;
}

/* What the runtime changed for itself, or inherited, must not reach the
 * program: every signal at SIG_DFL, none blocked. */
static void reset_signals(const struct process_plan *plan)
{
	sigset_t none;

	for (int sig = 1; sig < NSIG; sig++)
		if (!plan->signals_known || (plan->signals_set >> (sig - 1) & 1))
			signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

int process_plan_agent(struct process_plan *plan, int agent_fd, const struct oci_state_view *st,
		       const char *metadata, struct shim_error *err)
{
	plan->agent_message = oci_process_state_to_json(st, metadata, err);
	if (!plan->agent_message)
		return -1;
	plan->has_agent = true;
	plan->agent_fd = agent_fd;
	return 0;
}

/* The agent's socket, if any, moves to fd first (just above what the
 * program keeps) and survives close_range until the filter is loaded.
 * Returns the first fd to close. */
static unsigned int keep_agent_fd(struct process_plan *plan, unsigned int first,
				  struct shim_error *err)
{
	if (!plan->has_agent)
		return first;
	/* our fd folder, for close's fallback, moves out of the agent's way */
	if (plan->has_fd_dir && plan->fd_dir == (int)first) {
		int moved = fcntl(plan->fd_dir, F_DUPFD_CLOEXEC, (int)first + 1);

		if (moved >= 0) {
			close(plan->fd_dir);
			plan->fd_dir = moved;
		} else {
			plan->has_fd_dir = false;
		}
	}
	if (plan->agent_fd != (int)first && dup3(plan->agent_fd, (int)first, O_CLOEXEC) < 0) {
		shim_fail_errno(err, "linux.seccomp.listenerPath: keeping the agent's socket");
		plan->has_agent = false;	/* the filter then fails to reach it */
		return first;
	}
	plan->agent_fd = (int)first;
	return first + 1;
}

static int install_seccomp(struct process_plan *plan, struct shim_error *err)
{
	int r;

	if (!plan->seccomp)
		return 0;
	if (plan->agent_message && !plan->has_agent)
		return shim_fail(err, EBADF, "linux.seccomp.listenerPath: the agent's socket is gone");
	r = seccomp_install(TAKE_PTR(plan->seccomp), plan->has_agent ? plan->agent_fd : -1,
			    plan->agent_message, err);
	if (plan->has_agent)
		close(plan->agent_fd);
	plan->has_agent = false;
	return r;
}

int process_set_rlimits(pid_t pid, const struct oci_process *p, struct shim_error *err)
{
	for (size_t i = 0; i < p->n_rlimits; i++) {
		struct rlimit rl = { .rlim_cur = p->rlimits[i].soft, .rlim_max = p->rlimits[i].hard };

		if (prlimit(pid, (__rlimit_resource_t)p->rlimits[i].resource, &rl, NULL) < 0)
			return shim_fail_errno(err, "process.rlimits[%zu]: setrlimit", i);
	}
	return 0;
}

/* process.cwd, and the program, where only process.user may reach them
 * (process_prepare found neither): now that we are that user. */
static int enter_cwd_as_user(const struct oci_process *p, struct process_plan *plan,
			     struct shim_error *err)
{
	if (!plan->cwd_as_user)
		return 0;
	if (enter_cwd(p->cwd, plan->cwd_must_exist, err) < 0 ||
	    find_exe(p->args[0], plan->env, plan->exe, sizeof(plan->exe), err) < 0)
		return -1;
	plan->cwd_as_user = false;
	log_debug("cwd %s, entered as process.user; the program is %s", p->cwd, plan->exe);
	return 0;
}

/* Without no_new_privs a filter needs CAP_SYS_ADMIN: it is loaded while
 * we have it, and the steps after it must pass it, as with runc. */
static int drop_privileges(const struct oci_process *p, struct process_plan *plan,
			   struct shim_error *err)
{
	if (!p->no_new_privileges && install_seccomp(plan, err) < 0)
		return -1;
	if (caps_drop_bounding(&p->caps, err) < 0 || set_user(&p->user, err) < 0 ||
	    caps_set(&p->caps, err) < 0)
		return -1;
	if (p->no_new_privileges && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return shim_fail_errno(err, "process.noNewPrivileges");
	plan->privileges_dropped = true;
	return enter_cwd_as_user(p, plan, err);
}

int process_drop_privileges(const struct oci_process *p, struct process_plan *plan,
			    struct shim_error *err)
{
	/* a filter loading before the exec (now, or before startContainer
	 * hooks): the fd table is made ours first, as it may refuse unshare */
	if (plan->seccomp) {
		if (unshare(CLONE_FILES) < 0)
			return shim_fail_errno(err, "unshare(CLONE_FILES)");
		plan->files_private = true;
	}
	return drop_privileges(p, plan, err);
}

int process_load_filter(struct process_plan *plan, struct shim_error *err)
{
	return install_seccomp(plan, err);
}

int process_exec(const struct oci_process *p, struct process_plan *plan,
		 unsigned int preserve_fds, struct shim_error *err)
{
	/* an init did these at create; the runtime set its rlimits */
	if (!plan->privileges_dropped) {
		if (process_set_rlimits(0, p, err) < 0)
			return -1;
		if (process_set_oom_score_adj(p, err) < 0)
			return -1;
	}
	umask(p->user.has_umask ? p->user.umask : 0022);
	if (fd_pass_preserved(preserve_fds, err) < 0)
		return -1;
	log_debug("closing every fd above %u, %sexec %s", 2 + preserve_fds,
		  plan->privileges_dropped ? "" : "dropping privileges, ",
		  plan->exe[0] ? plan->exe : p->args[0]);
	if (process_set_cpus(p->cpus_final, p->cpus_final_mask, "process.execCPUAffinity.final",
			     err) < 0)
		return -1;
	reset_signals(plan);
	/* What is open now is all the program gets, and only 0, 1, 2 and the
	 * preserved ones stay; what opens a file from here on closes it. */
	if (!plan->files_private && unshare(CLONE_FILES) < 0)
		return shim_fail_errno(err, "unshare(CLONE_FILES)");
	/* where close_range fails (the kernel lacks it, the filter loaded at
	 * create refuses it), the fds are listed from our own fd folder; the
	 * agent's socket moves first, and may move that folder */
	unsigned int first = keep_agent_fd(plan, 3 + preserve_fds, err);

	if (fd_close_from(process_fd_dir(plan), first, err) < 0)
		return -1;
	if (!plan->privileges_dropped && drop_privileges(p, plan, err) < 0)
		return -1;
	if (install_seccomp(plan, err) < 0)
		return -1;
	execve(plan->exe, p->args, plan->env);
	return shim_fail_errno(err, "exec %s", plan->exe);
}
