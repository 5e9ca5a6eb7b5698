/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/spec.h"
#include "shim/fd.h"
#include "shim/filesystem/rootfs.h"
#include "shim/hooks.h"
#include "shim/init.h"
#include "shim/log.h"
#include "shim/namespaces.h"
#include "shim/network/loopback.h"
#include "shim/process.h"
#include "shim/procfs.h"
#include "shim/store.h"
#include "shim/sync.h"
#include "shim/syscalls.h"
#include "shim/sysctl.h"
#include "shim/terminal.h"

#define KEY_POSSESSOR_ALL 0x3f000000u	/* view, read, write, search, link, setattr */

/*
 * A session keyring of the container's own, named "_ses.ID" as runc names
 * it, so that keys the runtime's caller holds (or another container made)
 * are out of reach. Possessor permissions only: another process of the
 * same user can neither search nor join it by name. A kernel without
 * keyrings (ENOSYS) runs the container without one, as with runc.
 */
static int join_session_keyring(const char *id, struct shim_error *err)
{
	char name[1100];
	long key;

	snprintf(name, sizeof(name), "_ses.%s", id);
	key = sys_keyctl(SHIM_KEYCTL_JOIN_SESSION_KEYRING, (unsigned long)name, 0, 0, 0);
	if (key < 0 && errno == ENOSYS)
		return 0;
	if (key < 0)
		return shim_fail_errno(err, "joining a new session keyring %s", name);
	if (sys_keyctl(SHIM_KEYCTL_SETPERM, (unsigned long)key, KEY_POSSESSOR_ALL, 0, 0) < 0)
		return shim_fail_errno(err, "setting the permissions of session keyring %s", name);
	return 0;
}

/* Hooks that need the init to stop before pivot_root, or to know its PID
 * (as does the state a seccomp agent gets). */
bool init_needs_handshake(const struct oci_spec *s)
{
	const struct oci_hooks *h = &s->hooks;

	return hooks_any(h, HOOK_PRESTART) || hooks_any(h, HOOK_CREATE_RUNTIME) ||
	       hooks_any(h, HOOK_CREATE_CONTAINER) || hooks_any(h, HOOK_START_CONTAINER) ||
	       (s->seccomp.present && oci_seccomp_uses_notify(&s->seccomp));
}

static int init_run_hooks(struct init_ctx *c, enum oci_hook_kind kind, const char *status,
			  int fd_dir, struct shim_error *err)
{
	_cleanup_free_ char *state = NULL;

	if (!hooks_any(&c->spec->hooks, kind))
		return 0;
	state = hooks_state_json(c->spec, c->id, c->host_pid, status, c->bundle, err);
	return state ? hooks_run(&c->spec->hooks, kind, state, fd_dir, err) : -1;
}

/* Between the mounts and pivot_root: the runtime's hooks, then ours. */
static int init_before_pivot(struct init_ctx *c, struct shim_error *err)
{
	struct sync_msg msg;
	int r;

	if (!init_needs_handshake(c->spec))
		return 0;
	if (sync_send(c->sync_fd, SYNC_HOOKS, NULL) < 0)
		return shim_fail_errno(err, "asking the runtime to run the hooks");
	r = sync_recv(c->sync_fd, &msg, err);
	if (r <= 0 || msg.type != SYNC_CONTINUE)
		return r < 0 ? -1 : shim_fail(err, EPROTO, "no go-ahead from the runtime after its hooks");
	c->host_pid = msg.pid;
	return init_run_hooks(c, HOOK_CREATE_CONTAINER, "creating", -1, err);
}

/* A bind source the runtime cloned for mounts[index]. */
static int keep_bind_source(struct init_ctx *c, int index, int tree, struct shim_error *err)
{
	size_t n = c->spec->n_mounts;

	if (index < 0 || (size_t)index >= n || (c->prepared && c->prepared[index] >= 0)) {
		close(tree);
		return shim_fail(err, EPROTO, "a bind source for mounts[%d], which needs none", index);
	}
	if (!c->prepared) {
		c->prepared = malloc(n * sizeof(int));
		if (!c->prepared) {
			close(tree);
			return shim_fail(err, ENOMEM, "bind sources");
		}
		for (size_t i = 0; i < n; i++)
			c->prepared[i] = -1;
	}
	c->prepared[index] = tree;
	return 0;
}

/* SYNC_CONTINUE, after the bind sources the runtime cloned, if any. */
static int await_id_maps(struct init_ctx *c, struct shim_error *err)
{
	struct sync_msg msg;

	for (;;) {
		if (sync_expect_either(c->sync_fd, SYNC_CONTINUE, SYNC_MOUNT_FD, &msg, err) < 0)
			return -1;
		if (msg.type == SYNC_CONTINUE)
			break;
		if (keep_bind_source(c, msg.pid, msg.fd, err) < 0)
			return -1;
	}
	c->host_pid = msg.pid;
	return 0;
}

/* In a new user namespace: wait until the runtime has written our ID maps,
 * then become the namespace's root for the setup. */
static int init_enter_user_ns(struct init_ctx *c, struct shim_error *err)
{
	if (await_id_maps(c, err) < 0)
		return shim_error_wrap(err, "waiting for the ID maps");
	if (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0)
		return shim_fail_errno(err, "linux.uidMappings: becoming root of the user namespace "
				       "(is container ID 0 mapped?)");
	return 0;
}

/* The seccomp agent gets the notify fd with this, once the filter loads. */
static int plan_agent(struct init_ctx *c, struct process_plan *plan, struct shim_error *err)
{
	struct oci_state_view st = {
		.oci_version = c->spec->oci_version, .id = c->id, .pid = c->host_pid,
		.status = "creating", .bundle = c->bundle, .rootfs = c->rootfs,
		.annotations = c->spec->annotations,
	};

	return process_plan_agent(plan, c->agent_fd, &st, c->spec->seccomp.listener_metadata, err);
}

/* As the user namespace's root the init may no longer reach the bundle:
 * say so rather than fail later on a bare EACCES. */
static int rootfs_reachable(struct init_ctx *c, struct shim_error *err)
{
	uid_t uid = 0;
	gid_t gid = 0;

	if (!ns_has_user(c->spec) || access(c->rootfs, X_OK) == 0)
		return 0;
	ns_root_host_ids(c->spec, &uid, &gid);
	return shim_fail_errno(err, "root.path: %s is out of reach of the container's root (host "
			       "uid %u): every folder above it must be searchable by it", c->rootfs,
			       (unsigned)uid);
}

/* Before it takes process.user's credentials, the init lets go of what it
 * holds of the runtime's (the state folder, the cgroup folder, the procfs
 * handle, the --log file, bind sources: all the runtime had open at the
 * clone): it then waits for start as any process of the container's may,
 * and one with the same credentials may ptrace it, as with runc. It keeps
 * 0-2 and the preserved fds, the sync socket (for READY), exec.fifo, its
 * own fd folder (to reopen the fifo), the seccomp agent's socket and, with
 * --debug, the --log file. */
static int let_go(struct init_ctx *c, struct process_plan *plan, struct shim_error *err)
{
	int keep[5] = { c->sync_fd, c->fifo_fd, -1, plan->has_agent ? plan->agent_fd : -1, -1 };
	int dir = procfs_open_self("fd", O_RDONLY | O_DIRECTORY, err);

	if (dir < 0)
		return shim_error_wrap(err, "the init's fd folder");
	keep[2] = dir;
	log_debug("init: closing the runtime's fds but exec.fifo's, then dropping privileges "
		  "to process.user");
	procfs_release();
	keep[4] = log_release();
	if (fd_close_sparing(dir, 3 + c->preserve_fds, keep, 5, err) < 0)
		return shim_error_wrap(err, "closing the runtime's fds");
	free(c->prepared);
	c->prepared = NULL;
	plan->fd_dir = dir;
	plan->has_fd_dir = true;
	return 0;
}

/* The init's first steps: a session of its own, its CPUs, the time and
 * user namespaces, the namespaces joined from inside, lo up, the memory
 * policy and keyring. */
static int init_enter(struct init_ctx *c, struct shim_error *err)
{
	/* as runc's: a session of its own, whether it gets a terminal or not
	 * (CRIU refuses to dump a tree whose session leader is outside) */
	if (setsid() < 0)
		return shim_fail_errno(err, "init: setsid");
	if (process_set_cpus(c->spec->process.cpus_initial, c->spec->process.cpus_initial_mask,
			     "process.execCPUAffinity.initial", err) < 0)
		return -1;
	/* still the host's root in a user namespace (its ID maps may not be
	 * written yet), which owns our files where we are non-dumpable */
	if (c->spec->has_time_offsets && ns_new_time(c->spec, err) < 0)
		return -1;
	if (ns_has_user(c->spec) && init_enter_user_ns(c, err) < 0)
		return -1;
	if (rootfs_reachable(c, err) < 0)
		return -1;
	log_debug("init: setting up in its namespaces");
	umask(0);
	if (ns_enter(c->joins, false, err) < 0 || loopback_up(c->spec, err) < 0 ||
	    process_set_mempolicy(&c->spec->memory_policy, err) < 0)
		return -1;
	if (c->new_keyring && join_session_keyring(c->id, err) < 0)
		return -1;
	/* before any mount of the container's: the handle sysctls and
	 * oomScoreAdj are written, and exec.fifo reopened, through */
	if (procfs_fd(err) < 0)
		return shim_error_wrap(err, "the runtime's procfs handle");
	return 0;
}

/* hostname, domainname, personality. */
static int init_identity(const struct init_ctx *c, struct shim_error *err)
{
	const struct oci_spec *s = c->spec;

	if (s->hostname && *s->hostname && sethostname(s->hostname, strlen(s->hostname)) < 0)
		return shim_fail_errno(err, "hostname: sethostname");
	if (s->domainname && *s->domainname &&
	    setdomainname(s->domainname, strlen(s->domainname)) < 0)
		return shim_fail_errno(err, "domainname: setdomainname");
	if (s->has_personality && personality(s->personality) < 0)
		return shim_fail_errno(err, "linux.personality: personality");
	return 0;
}

static int init_setup(struct init_ctx *c, struct process_plan *plan, struct shim_error *err)
{
	bool own_mounts = ns_has_mount(c->spec);
	_cleanup_close_ int root_fd = -1;
	struct rootfs_anchors anchors __attribute__((cleanup(rootfs_anchors_release))) = { 0 };
	struct rootfs_inputs in;

	if (init_enter(c, err) < 0 || init_identity(c, err) < 0)
		return -1;
	/* without a mount namespace of its own, the config's mounts are made
	 * in the runtime's (the host's) below root.path, which the runtime
	 * removes again; nothing else is. prepared: what the runtime sent
	 * while we waited for the maps */
	in = (struct rootfs_inputs){ .rootfs = c->staged ? NULL : c->rootfs, .bundle = c->bundle,
				     .prepared = c->prepared, .cgroup_v1 = c->cgroup_v1 };
	if (own_mounts) {
		root_fd = rootfs_mount_all(c->spec, &in, &anchors, err);
		if (root_fd < 0)
			return -1;
	} else if (c->spec->n_mounts && rootfs_mount_inherited(c->spec, &in, err) < 0) {
		return -1;
	}
	if (init_before_pivot(c, err) < 0)
		return -1;
	if (own_mounts &&
	    rootfs_enter(TAKE_FD(root_fd), c->staged ? NULL : c->rootfs, c->no_pivot, err) < 0)
		return -1;
	/* in the runtime's mount namespace: chrooted in root.path */
	if (!own_mounts && rootfs_chroot(c->rootfs, err) < 0)
		return -1;
	plan->cwd_must_exist = !own_mounts;
	if (sysctl_apply(c->spec->sysctl, err) < 0 ||
	    process_prepare(&c->spec->process, &c->spec->seccomp, plan, err) < 0)
		return -1;
	if (c->agent_fd >= 0 && plan_agent(c, plan, err) < 0)
		return -1;
	if (c->console_fd >= 0 &&
	    terminal_setup(c->console_fd, &c->spec->process, own_mounts, err) < 0)
		return -1;
	c->console_fd = safe_close(c->console_fd);
	if (own_mounts && rootfs_finish(c->spec, &anchors, err) < 0)
		return -1;
	rootfs_anchors_release(&anchors);
	if ((!c->oom_score_adj_set && process_set_oom_score_adj(&c->spec->process, err) < 0) ||
	    let_go(c, plan, err) < 0)
		return -1;
	/* once set up (a small RLIMIT_NOFILE or FSIZE would fail the mounts
	 * or a copy-up), still root: a runtime without CAP_SYS_RESOURCE may
	 * not set process.user's limits; in a user namespace the runtime set
	 * them while we waited for the ID maps */
	if (!ns_has_user(c->spec) && process_set_rlimits(0, &c->spec->process, err) < 0)
		return -1;
	return process_drop_privileges(&c->spec->process, plan, err);
}

/* Blocks until `start` opens the fifo for reading; *out is the fifo open
 * for writing. The O_PATH fd is reopened through the init's own fd folder
 * on the runtime's procfs, never the container's /proc (the fifo is
 * writable by all, as process.user may be anyone). */
static int wait_for_start(struct init_ctx *c, const struct process_plan *plan, int *out,
			  struct shim_error *err)
{
	*out = sync_fifo_open_writer(plan->fd_dir, c->fifo_fd, err);
	if (*out < 0)
		return shim_error_wrap(err, "waiting for start: exec.fifo");
	return 0;
}

/* startContainer hooks run under the container's seccomp filter, as with
 * runc and crun: loaded now where noNewPrivileges kept it for the exec. */
static int run_start_hooks(struct init_ctx *c, struct process_plan *plan, struct shim_error *err)
{
	if (!hooks_any(&c->spec->hooks, HOOK_START_CONTAINER))
		return 0;
	if (process_load_filter(plan, err) < 0)
		return -1;
	return init_run_hooks(c, HOOK_START_CONTAINER, "created",
			      process_fd_dir(plan), err);
}

int init_main(void *arg)
{
	struct init_ctx *c = arg;
	struct shim_error err = { 0 };
	struct process_plan plan = { 0 };
	char text[2048];
	int fifo = -1;

	c->runtime_sync_fd = safe_close(c->runtime_sync_fd);
	/* or the folder would stay locked, "creating", until start */
	c->lock_fd = safe_close(c->lock_fd);
	if (sync_report_setup(c->sync_fd, init_setup(c, &plan, &err), &err) < 0)
		return 1;
	c->sync_fd = safe_close(c->sync_fd);
	/* the fifo stays open for writing through the startContainer hooks
	 * until the exec closes it: start waits for that before its
	 * poststart hooks, which the spec orders after them */
	if (wait_for_start(c, &plan, &fifo, &err) == 0 && sync_fifo_signal(fifo, &err) == 0 &&
	    run_start_hooks(c, &plan, &err) == 0)
		process_exec(&c->spec->process, &plan, c->preserve_fds, &err);
	/* Past ready nobody listens on the socket: stderr is all there is. */
	dprintf(STDERR_FILENO, "shim: container init: %s\n", shim_error_text(&err, text, sizeof(text)));
	return 127;
}

