/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/cgroups/cgroup.h"
#include "shim/cgroups/cgroup_v1.h"
#include "shim/cgroups/resctrl.h"
#include "shim/clean_clone.h"
#include "shim/exec.h"
#include "shim/fd.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/namespaces.h"
#include "shim/pidfd.h"
#include "shim/process.h"
#include "shim/procfs.h"
#include "shim/seccomp.h"
#include "shim/spawn.h"
#include "shim/store.h"
#include "shim/sync.h"
#include "shim/syscalls.h"
#include "shim/terminal.h"

/* The init's namespaces that are not ours, split by when they are joined. */
struct ns_plan {
	int for_children;	/* CLONE_NEWPID | CLONE_NEWTIME: joined by the runtime */
	int for_self;		/* the rest: joined by the child */
};

static bool same_ns(pid_t pid, const char *name)
{
	char theirs[64], ours[64];
	struct stat a, b;

	snprintf(theirs, sizeof(theirs), "/proc/%d/ns/%s", (int)pid, name);
	snprintf(ours, sizeof(ours), "/proc/self/ns/%s", name);
	/* a kernel without that kind: nothing to join */
	if (stat(theirs, &a) < 0 || stat(ours, &b) < 0)
		return true;
	return a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

static void plan_namespaces(pid_t pid, struct ns_plan *p)
{
	p->for_children = p->for_self = 0;
	for (int t = 0; t < OCI_NS_COUNT; t++) {
		int flag = (int)ns_flag_of((enum oci_ns_type)t);

		if (same_ns(pid, ns_proc_name((enum oci_ns_type)t)))
			continue;
		if (flag == CLONE_NEWPID || flag == CLONE_NEWTIME)
			p->for_children |= flag;
		else
			p->for_self |= flag;
	}
}

struct exec_ctx {
	const struct exec_opts *o;
	int init_pidfd;		/* whose namespaces the helper joins; -1 once it has */
	pid_t init_pid;
	int ns_flags;		/* the init's namespaces the child is born in */
	int sync_fd;
	int console_fd;		/* the child's end of the terminal socket, or -1 */
	bool late_cgroup;	/* moved into the (frozen) cgroup after READY */
	bool hold;		/* waits after READY until the runtime says go on */
	const struct cgroup_v1 *v1;	/* a cgroup v1 host: the container's folders */
	int agent_fd;		/* SCMP_ACT_NOTIFY: connected to listenerPath, or -1 */
	int wait_fifo;		/* --exec-wait-fifo, O_PATH, or -1 */
	struct oci_state_view state;	/* the container's, for the agent */
};

/* SCMP_ACT_NOTIFY: the agent gets the container's state with our PID as
 * the host sees it, which the runtime sends first thing. */
static int plan_agent(struct exec_ctx *x, struct process_plan *plan, struct shim_error *err)
{
	struct sync_msg msg;

	if (sync_expect(x->sync_fd, SYNC_CONTINUE, &msg, err) < 0)
		return shim_error_wrap(err, "exec: waiting for our PID");
	x->state.pid = msg.pid;
	return process_plan_agent(plan, x->agent_fd, &x->state, x->o->seccomp->listener_metadata,
				  err);
}

/* The child is born in the container's namespaces and cgroup, holding
 * only the sync socket, its console socket, the agent's socket and the
 * wait FIFO (shim/clean_clone.h), non-dumpable: what it opens from here
 * on (its procfs handle, its fd folder) is of the container's PID
 * namespace. */
static int child_setup(struct exec_ctx *x, struct process_plan *plan, struct shim_error *err)
{
	/* as runc's: every process it starts leads a session of its own */
	if (setsid() < 0)
		return shim_fail_errno(err, "exec: setsid");
	if (process_set_cpus(x->o->process->cpus_initial, x->o->process->cpus_initial_mask,
			     "process.execCPUAffinity.initial", err) < 0)
		return -1;
	/* the procfs handle oomScoreAdj is written through (shim/procfs.h) */
	if (x->o->process->has_oom_score_adj && procfs_fd(err) < 0)
		return shim_error_wrap(err, "process.oomScoreAdj");
	/* without close_range the fds are closed as our fd folder lists
	 * them, and --exec-wait-fifo is opened for writing through it */
	if (!fd_have_close_range() || x->wait_fifo >= 0) {
		plan->fd_dir = procfs_open_self("fd", O_RDONLY | O_DIRECTORY, err);
		if (plan->fd_dir < 0)
			return shim_error_wrap(err, "exec: our fd folder");
		plan->has_fd_dir = true;
	}
	/* in the container's user namespace, act as its root until set_user */
	if ((x->ns_flags & CLONE_NEWUSER) && (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0))
		return shim_fail_errno(err, "exec: becoming root of the container's user namespace");
	/* joining the mount namespace moved us to its root: the container's;
	 * a container in the runtime's own has nothing made on the host */
	plan->cwd_must_exist = !(x->ns_flags & CLONE_NEWNS);
	if (process_prepare(x->o->process, x->o->seccomp, plan, err) < 0 ||
	    (x->agent_fd >= 0 && plan_agent(x, plan, err) < 0) ||
	    (x->o->memory_policy && process_set_mempolicy(x->o->memory_policy, err) < 0))
		return -1;
	if (x->console_fd >= 0 && terminal_setup(x->console_fd, x->o->process, false, err) < 0)
		return -1;
	x->console_fd = safe_close(x->console_fd);
	return 0;
}

/* --exec-wait-fifo: blocks until someone opens the FIFO for reading, then
 * writes one byte, as `start` finds in exec.fifo. */
static int wait_for_reader(struct exec_ctx *x, const struct process_plan *plan,
			   struct shim_error *err)
{
	log_debug("exec: waiting for a reader of --exec-wait-fifo before the exec");
	if (sync_fifo_await_reader(plan->fd_dir, x->wait_fifo, err) < 0)
		return shim_error_wrap(err, "--exec-wait-fifo");
	x->wait_fifo = safe_close(x->wait_fifo);
	return 0;
}

static int exec_child(void *arg)
{
	struct exec_ctx *x = arg;
	struct shim_error err = { 0 };
	struct process_plan plan = { 0 };
	struct sync_msg msg;
	char text[2048];

	if (sync_report_setup(x->sync_fd, child_setup(x, &plan, &err), &err) < 0)
		return 127;
	/* wait until the runtime has put us in the container's resctrl group,
	 * or moved us into its frozen cgroup (we stop there until resumed) */
	if (x->hold && sync_expect(x->sync_fd, SYNC_CONTINUE, &msg, &err) < 0)
		return 127;
	x->sync_fd = safe_close(x->sync_fd);
	if (x->wait_fifo < 0 || wait_for_reader(x, &plan, &err) == 0)
		process_exec(x->o->process, &plan, x->o->preserve_fds, &err);
	dprintf(STDERR_FILENO, "shim: exec: %s\n", shim_error_text(&err, text, sizeof(text)));
	return 127;
}

/* The cgroup the process goes into: the container's, or --cgroup below it
 * (resolved beneath it, no link followed). */
static int exec_cgroup(struct container *c, const struct exec_opts *o, struct shim_error *err)
{
	const char *path = o->cgroup, *colon;
	int fd;

	/* a cgroup v1 host: the sub folders are joined after the others */
	if (c->cgroup_fd < 0)
		return path && !cgroup_v1_is_open(&c->v1)
			       ? shim_fail(err, ENOENT, "exec --cgroup %s: container %s has no cgroup",
					   path, c->id) : -1;
	if (!path)
		return fcntl(c->cgroup_fd, F_DUPFD_CLOEXEC, 0);
	/* cgroup v2 has one hierarchy: a "CONTROLLER:" prefix names no other */
	if ((colon = strchr(path, ':')))
		path = colon + 1;
	while (*path == '/')
		path++;
	fd = openat2_retry(c->cgroup_fd, *path ? path : ".", O_RDONLY | O_DIRECTORY,
			   RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
	if (fd < 0 && errno == EXDEV)
		return shim_fail(err, EXDEV, "exec --cgroup %s: bad sub cgroup path: it leads out of "
				 "the container's cgroup", o->cgroup);
	if (fd < 0)
		return shim_fail_errno(err, "exec --cgroup %s: adding pid to cgroups: opening %s below "
				       "the container's cgroup", o->cgroup, *path ? path : ".");
	return fd;
}

/* The init's own cgroup, when the container's has controllers enabled for
 * folders below it (no process may join it then: clone3 says EBUSY), as
 * runc falls back. Checked to be below the container's. */
static int init_cgroup(struct container *c, struct shim_error *err)
{
	char path[PATH_MAX];

	if (cgroup_of_pid(c->state->pid, path, sizeof(path), err) < 0)
		return shim_error_wrap(err, "exec: the container's cgroup takes no process and its "
				       "init's cgroup is unknown");
	if (!cgroup_is_below(path, c->state->cgroup_path))
		return shim_fail(err, EBUSY, "exec: the init's cgroup %s is not the container's", path);
	return cgroup_open(path, err);
}

/* A container in the runtime's mount namespace is chrooted in its
 * root.path (shim/filesystem/rootfs.h rootfs_chroot): its process goes where the
 * init's root is, looked at while the init is known to be alive. */
static int enter_init_root(const struct exec_ctx *x, struct shim_error *err)
{
	char path[64];
	_cleanup_close_ int root = -1;
	struct stat ours, theirs;

	snprintf(path, sizeof(path), "/proc/%d/root", (int)x->init_pid);
	root = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0 || pidfd_exited(x->init_pidfd))
		return shim_fail(err, root < 0 ? errno : ESRCH, "exec: the init's root (%s)", path);
	if (fstat(root, &theirs) < 0 || stat("/", &ours) < 0)
		return shim_fail_errno(err, "exec: the init's root");
	if (theirs.st_dev == ours.st_dev && theirs.st_ino == ours.st_ino)
		return 0;
	if (fchdir(root) < 0 || chroot(".") < 0 || chdir("/") < 0)
		return shim_fail_errno(err, "exec: chroot to the init's root");
	return 0;
}

static int enter_container(void *arg, struct shim_error *err)
{
	struct exec_ctx *x = arg;

	if (x->ns_flags && setns(x->init_pidfd, x->ns_flags) < 0)
		return shim_fail_errno(err, "exec: joining the container's namespaces (0x%x)",
				       x->ns_flags);
	if (!(x->ns_flags & CLONE_NEWNS) && enter_init_root(x, err) < 0)
		return -1;
	x->init_pidfd = safe_close(x->init_pidfd);
	return 0;
}

/* The child, born clean (shim/clean_clone.h) in the container's cgroup
 * (or its init's, as below) and in every namespace of the init's that is
 * not ours. */
static pid_t clone_clean(struct exec_ctx *x, int cgroup_fd, int *pidfd, struct shim_error *err)
{
	struct clean_clone job = {
		.cgroup_fd = x->late_cgroup ? -1 : cgroup_fd, .first = 3 + x->o->preserve_fds,
		.keep = { x->sync_fd, x->console_fd, x->agent_fd, x->wait_fifo, x->init_pidfd,
			  -1, -1, -1 },
		.enter = enter_container, .fn = exec_child, .arg = x,
	};

	return clean_clone(&job, pidfd, err);
}

static pid_t clone_child(struct container *c, const struct exec_opts *o, struct exec_ctx *x,
			 int *target, int *pidfd, struct shim_error *err)
{
	pid_t pid = clone_clean(x, *target, pidfd, err);

	/* --cgroup is taken as asked: no fallback (runc's words) */
	if (pid < 0 && o->cgroup && !x->late_cgroup)
		return shim_error_wrap(err, "exec --cgroup %s: adding pid to cgroups", o->cgroup);
	if (pid >= 0 || err->errnum != EBUSY || o->cgroup || *target < 0)
		return pid;
	safe_close(*target);
	*target = init_cgroup(c, err);
	if (*target < 0)
		return -1;
	log_debug("exec: the container's cgroup has controllers on; into its init's cgroup");
	return clone_clean(x, *target, pidfd, err);
}

/* --ignore-paused: the process joins the frozen cgroup once it is ready. */
static int enter_late(int target, pid_t pid, struct shim_error *err)
{
	char text[16];
	_cleanup_close_ int fd = openat(target, "cgroup.procs", O_WRONLY | O_CLOEXEC);

	snprintf(text, sizeof(text), "%d", (int)pid);
	if (fd < 0 || write_all(fd, text) < 0)
		return shim_fail_errno(err, "exec: moving %d into the paused container's cgroup", (int)pid);
	return 0;
}

/* The container's resctrl group (linux.intelRdt), which the process joins
 * (a child of the runtime is in the runtime's group otherwise), and with
 * enableMonitoring its monitoring group in *monitor. */
static int open_rdt_group(const struct container *c, const struct exec_opts *o, int *monitor,
			  struct shim_error *err)
{
	_cleanup_close_ int root = -1, group = -1;
	const char *name;

	if (!o->intel_rdt || !o->intel_rdt->present)
		return -1;
	root = resctrl_open_root(err);
	if (root < 0)
		return shim_error_wrap(err, "exec");
	name = resctrl_group_name(o->intel_rdt, c->id);
	group = openat(root, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (group < 0)
		return shim_fail_errno(err, "exec: the container's resctrl group \"%s\"", name);
	if (o->intel_rdt->enable_monitoring &&
	    (*monitor = resctrl_open_monitor(group, c->id, err)) < 0)
		return shim_error_wrap(err, "exec");
	return TAKE_FD(group);
}

/* After READY: into the v1 folders, the resctrl group and the paused
 * cgroup, then go on. */
static int settle(const struct exec_ctx *x, int sync_fd, const int rdt[2], int target, pid_t pid,
		  struct shim_error *err)
{
	if (cgroup_v1_is_open(x->v1) && cgroup_v1_enter(x->v1, pid, err) < 0)
		return shim_error_wrap(err, "exec");
	if (cgroup_v1_is_open(x->v1) && x->o->cgroup &&
	    cgroup_v1_enter_sub(x->v1, x->o->cgroup, pid, err) < 0)
		return -1;
	if (rdt[0] >= 0 && resctrl_add_task(rdt[0], rdt[1], pid, err) < 0)
		return shim_error_wrap(err, "exec");
	if (x->late_cgroup && target >= 0 && enter_late(target, pid, err) < 0)
		return -1;
	if (x->hold && sync_send_continue(sync_fd, pid) < 0)
		return shim_fail_errno(err, "exec: telling the process to go on");
	return 0;
}

static int clone_exec_child(struct container *c, const struct exec_opts *o, int wait_fifo,
			    int *pidfd, int *master, struct shim_error *err)
{
	struct ns_plan ns;
	struct exec_ctx x = { .o = o, .init_pidfd = c->pidfd, .init_pid = c->state->pid,
			      .late_cgroup = c->status == STATUS_PAUSED, .agent_fd = -1,
			      .wait_fifo = wait_fifo };
	struct spawn sp;
	_cleanup_close_ int target = -1, agent = -1, rdt_group = -1, rdt_monitor = -1;
	int r = -1;

	plan_namespaces(c->state->pid, &ns);
	/* PID and time namespaces apply to the helper's children: its child
	 * is born in all of them (a rootless caller joins the user namespace
	 * in the same setns, which the others then need) */
	x.ns_flags = ns.for_self | ns.for_children;
	log_debug("exec in %s: a helper joins the namespaces of its init %d (0x%x) holding only "
		  "the fds the process needs, and clones it", c->id, (int)c->state->pid,
		  x.ns_flags);
	target = exec_cgroup(c, o, err);
	if (target < 0 && o->cgroup && !cgroup_v1_is_open(&c->v1))
		return -1;
	rdt_group = open_rdt_group(c, o, &rdt_monitor, err);
	if (rdt_group < 0 && o->intel_rdt && o->intel_rdt->present)
		return -1;
	/* a cgroup v1 host: its folders, joined before the command runs */
	x.v1 = &c->v1;
	x.hold = x.late_cgroup || rdt_group >= 0 || cgroup_v1_is_open(&c->v1);
	if (o->seccomp && o->seccomp->present && oci_seccomp_uses_notify(o->seccomp)) {
		agent = seccomp_agent_connect(o->seccomp, err);
		if (agent < 0)
			return shim_error_wrap(err, "exec");
		x.agent_fd = agent;
		x.state = oci_state_view(c->state);
		x.state.status = "running";
	}
	if (spawn_open(&sp, o->process->terminal, o->console_socket, err) < 0)
		return -1;
	x.sync_fd = sp.child_sync;
	x.console_fd = sp.child_console;
	sp.pid = clone_child(c, o, &x, &target, &sp.pidfd, err);
	spawn_cloned(&sp);
	agent = safe_close(agent);	/* the child's now */
	if (sp.pid > 0) {
		r = x.agent_fd >= 0 && sync_send_continue(sp.runtime_sync, sp.pid) < 0
			    ? shim_fail_errno(err, "exec: telling the process its PID") : 0;
		if (r == 0)
			r = sync_await_ready(sp.runtime_sync, err);
		if (r == 0)
			r = settle(&x, sp.runtime_sync, (int[2]){ rdt_group, rdt_monitor }, target,
				   sp.pid, err);
		if (r == 0)
			r = spawn_hand_over(&sp, o->pid_file, master, err);
		if (r < 0)
			spawn_abort(&sp);
		else
			*pidfd = TAKE_FD(sp.pidfd);
	}
	spawn_close(&sp);
	return r;
}

/* --exec-wait-fifo: the caller's FIFO, held O_PATH until the child opens
 * it for writing (runc's words in the errors). */
static int open_wait_fifo(const char *path, struct shim_error *err)
{
	_cleanup_close_ int fd = open(path, O_PATH | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return shim_fail_errno(err, "exec: --exec-wait-fifo: failed to open exec wait fifo %s",
				       path);
	if (fstat(fd, &st) < 0)
		return shim_fail_errno(err, "exec: --exec-wait-fifo: stat %s", path);
	if (!S_ISFIFO(st.st_mode))
		return shim_fail(err, 0, "exec: --exec-wait-fifo: %s is not a fifo", path);
	return TAKE_FD(fd);
}

int container_exec(struct container *c, const struct exec_opts *o, struct shim_error *err)
{
	_cleanup_close_ int pidfd = -1, master = -1, wait_fifo = -1;
	int status;

	if (c->status == STATUS_PAUSED && !o->ignore_paused)
		return shim_fail(err, 0, "exec: cannot exec in a paused container %s "
				 "(--ignore-paused: exec anyway, the process stopped until resume)",
				 c->id);
	if (c->status != STATUS_RUNNING && c->status != STATUS_CREATED &&
	    c->status != STATUS_PAUSED)
		return shim_fail(err, 0, "exec: container %s is %s", c->id,
				 container_status_name(c->status));
	if (o->process->terminal && o->detach && !o->console_socket)
		return shim_fail(err, 0, "exec: --tty with --detach needs --console-socket");
	if (o->console_socket && !o->process->terminal)
		return shim_fail(err, 0, "exec: --console-socket needs --tty (or process.terminal)");
	if (fd_check_preserved(o->preserve_fds, err) < 0)
		return -1;
	if (o->wait_fifo && (wait_fifo = open_wait_fifo(o->wait_fifo, err)) < 0)
		return -1;
	if (!o->detach)
		container_block_forwarded_signals();
	if (clone_exec_child(c, o, wait_fifo, &pidfd, &master, err) < 0)
		return -1;
	if (o->pidfd_socket && pidfd_send_to_socket(o->pidfd_socket, pidfd, err) < 0) {
		pidfd_kill_and_reap(pidfd);
		return -1;
	}
	if (o->detach)
		return 0;
	if (master >= 0 ? terminal_proxy(master, pidfd, &status, err) < 0
			: container_wait(pidfd, &status, err) < 0)
		return -1;
	return status;
}
