/* SPDX-License-Identifier: GPL-2.0-or-later */
/* create, in the runtime (shim/container.h); the verbs after it are in
 * container_verbs.c, what a container holds on the host in holdings.c. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/base/strv.h"
#include "oci/base/utc.h"
#include "oci/spec.h"
#include "shim/bundle.h"
#include "shim/caps.h"
#include "shim/cgroups/cgroup.h"
#include "shim/cgroups/cgroup_v1.h"
#include "shim/cgroups/resctrl.h"
#include "shim/cgroups/systemd.h"
#include "shim/clone.h"
#include "shim/container.h"
#include "shim/criu/restore.h"
#include "shim/fd.h"
#include "shim/filesystem/bind_sources.h"
#include "shim/filesystem/idmap.h"
#include "shim/filesystem/inherited_mounts.h"
#include "shim/filesystem/rootfs.h"
#include "shim/fsutil.h"
#include "shim/holdings.h"
#include "shim/hooks.h"
#include "shim/init.h"
#include "shim/init_clone.h"
#include "shim/log.h"
#include "shim/lsm.h"
#include "shim/namespaces.h"
#include "shim/network/netdev.h"
#include "shim/notify.h"
#include "shim/pidfd.h"
#include "shim/process.h"
#include "shim/procfs.h"
#include "shim/rootless.h"
#include "shim/seccomp.h"
#include "shim/signals.h"
#include "shim/spawn.h"
#include "shim/store.h"
#include "shim/sync.h"
#include "shim/syscalls.h"
#include "shim/sysctl.h"
#include "shim/terminal.h"
#include "shim/userns_join.h"


/* What create has made by the time it clones the init. */
struct create_ctx {
	const struct create_opts *o;
	const struct bundle *b;
	int dir_fd;		/* the state folder */
	int lock_fd;		/* its lock, held until create returns */
	struct holdings *held;	/* the cgroup the init is cloned into, a v1 host's
				 * folders, the resctrl groups, systemd's scope
				 * (its holder goes after the clone) */
	struct oci_state **recorded;	/* the state last written, for the caller */
	const char *created;	/* state.json's "created": the same in each
				 * one create writes, "" for none */
	bool zero_pids;		/* pids.limit 0: written once the init is in */
	const struct mount_snapshot *mounts;	/* no mount namespace: the table
						 * before the clone, or NULL */
};

/* --- create, in the runtime --- */

/* One clock read a create: each state.json it writes has the same time. */
static void now_rfc3339(char *date, size_t len)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (utc_format(date, len, &ts, 9) < 0)
		date[0] = '\0';
}

/* state.json: "creating" with pid 0 before the clone (so that a delete -f
 * after a create killed midway finds the cgroup), "created" with the init's
 * PID and start time once it is ready. stage_state writes and syncs it
 * beside state.json; the rename makes it state.json. */
static int stage_state(const struct create_ctx *cc, pid_t pid, struct oci_state **kept,
		       struct staged_file *out, struct shim_error *err)
{
	const struct bundle *b = cc->b;
	struct oci_state_view st = {
		.oci_version = b->spec->oci_version,
		.id = cc->o->id,
		.pid = pid,
		.status = pid ? "created" : "creating",
		.bundle = b->path,
		.rootfs = b->rootfs,
		.created = cc->created[0] ? cc->created : NULL,
		.owner = "",
		.annotations = b->spec->annotations,
		.cgroup_path = cc->held->cgroup_rel[0] ? cc->held->cgroup_rel : NULL,
		.has_poststart = hooks_any(&b->spec->hooks, HOOK_POSTSTART),
		.has_poststop = hooks_any(&b->spec->hooks, HOOK_POSTSTOP),
	};

	out->tmp[0] = '\0';
	if ((pid && proc_start_time(pid, &st.init_start_time, err) < 0) ||
	    store_stage_state(cc->dir_fd, &st, out, err) < 0)
		return -1;
	/* what was written, kept so that create's caller need not read it back */
	if (kept) {
		oci_state_free(*kept);
		*kept = oci_state_from_view(&st, err);
		if (!*kept) {
			staged_file_drop(out);
			return -1;
		}
	}
	return 0;
}

static int record_state(const struct create_ctx *cc, pid_t pid, struct oci_state **kept,
			struct shim_error *err)
{
	struct staged_file f;

	if (stage_state(cc, pid, kept, &f, err) < 0)
		return -1;
	return staged_file_commit(&f, err);
}

/* The init stopped before pivot_root: prestart and createRuntime, here. */
static int runtime_hooks(int sync_fd, const struct create_opts *o, const struct bundle *b,
			 pid_t pid, struct shim_error *err)
{
	const struct oci_hooks *h = &b->spec->hooks;
	_cleanup_free_ char *state = NULL;
	struct sync_msg msg;

	if (!init_needs_handshake(b->spec))
		return 0;
	if (sync_expect(sync_fd, SYNC_HOOKS, &msg, err) < 0)
		return -1;
	log_debug("running the prestart and createRuntime hooks");
	state = hooks_state_json(b->spec, o->id, pid, "creating", b->path, err);
	if (!state || hooks_run(h, HOOK_PRESTART, state, -1, err) < 0 ||
	    hooks_run(h, HOOK_CREATE_RUNTIME, state, -1, err) < 0)
		return -1;
	if (sync_send_continue(sync_fd, pid) < 0)
		return shim_fail_errno(err, "telling the init to go on");
	return 0;
}

/* Socket activation: the container's process is told of its fds as
 * runc tells it (LISTEN_FDS, and LISTEN_PID=1), what the config said of
 * them replaced. */
static int add_listen_env(struct oci_process *p, unsigned int n, struct shim_error *err)
{
	char fds[32];

	snprintf(fds, sizeof(fds), "LISTEN_FDS=%u", n);
	if (strv_env_set(&p->env, fds) < 0 || strv_env_set(&p->env, "LISTEN_PID=1") < 0)
		return shim_fail(err, ENOMEM, "process.env");
	return 0;
}

static int check_supported(const struct create_opts *o, const struct bundle *b,
			   struct shim_error *err)
{
	if (!b->spec->has_process)
		return shim_fail(err, 0, "process: missing from %s/config.json", b->path);
	if (b->spec->process.terminal && !o->console_socket && !o->terminal_proxy)
		return shim_fail(err, 0, "process.terminal: needs --console-socket (or `run` in the "
				 "foreground, which copies the terminal itself)");
	if (o->console_socket && !b->spec->process.terminal)
		return shim_fail(err, 0, "--console-socket: the config's process.terminal is false");
	if (rootless_check(b->spec, o->systemd_cgroup, err) < 0)
		return -1;
	/* cgroup v1 knobs (memory.swappiness, network, ...) where v2 is used */
	if ((o->systemd_cgroup || !cgroup_v1_host()) &&
	    oci_resources_refuse_v1_only(&b->spec->resources, err) < 0)
		return -1;
	if (ns_check_supported(b->spec, err) < 0 || sysctl_check(b->spec, err) < 0 ||
	    lsm_check(&b->spec->process, b->spec->mount_label, err) < 0)
		return -1;
	return fd_check_passed(o->listen_fds, o->preserve_fds, err);
}

/* The runtime's side of the init's setup, from its ID maps to its pty. */
/* A new user namespace: its ID maps, and the bind sources the init might
 * not reach as the container's root, cloned by the runtime. */
static int feed_user_ns(int sync_fd, const struct bundle *b, pid_t pid, int pidfd,
			const int *prepared, struct shim_error *err)
{
	if (ns_new_user(b->spec)) {
		/* without CAP_SETUID: only its own IDs, or newuidmap's */
		if ((geteuid() != 0 ? rootless_write_id_maps(pid, b->spec, err)
				    : ns_write_id_maps(pid, b->spec, err)) < 0)
			return -1;
		log_debug("uid_map and gid_map of %d written", (int)pid);
	}
	if (bind_sources_send(pidfd, b->spec, b->path, prepared, sync_fd, err) < 0)
		return -1;
	/* its rlimits while it waits, still the host's root: in its user
	 * namespace only the runtime's CAP_SYS_RESOURCE may raise them */
	if (process_set_rlimits(pid, &b->spec->process, err) < 0)
		return -1;
	if (sync_send_continue(sync_fd, pid) < 0)
		return shim_fail_errno(err, "telling the init its ID maps are written");
	return 0;
}

/* pids.limit 0 (runtime-spec 1.3: a limit of 0): a clone into a cgroup
 * at its limit is refused, so create writes "max" first and this once the
 * init is in and set up (moving a process in is never refused). */
static bool hold_back_zero_pids(struct oci_resources *r)
{
	const struct cgroup_setting *s = oci_resources_find(r, "pids.max");

	return s && strcmp(s->value, "0") == 0 &&
	       oci_resources_replace(r, "pids.max", "max", NULL) == 0;
}

static int write_zero_pids(const struct create_ctx *cc, struct shim_error *err)
{
	struct oci_resources late = { 0 };
	int r = 0;

	if (!cc->zero_pids)
		return 0;
	if (oci_resources_add(&late, "pids.max", "0", "linux.resources.pids.limit", err) < 0)
		return -1;
	if (cc->held->cgroup_fd >= 0)
		r = cgroup_apply(cc->held->cgroup_fd, cc->held->cgroup_rel, &late, err);
	if (r == 0 && cgroup_v1_is_open(&cc->held->v1))
		r = cgroup_v1_apply(&cc->held->v1, &late, err);
	oci_resources_release(&late);
	if (r == 0)
		log_debug("pids.max 0 written, the init in its cgroup");
	return r;
}

static int after_clone(struct spawn *sp, const struct create_ctx *cc, int *master,
		       struct shim_error *err)
{
	const struct create_opts *o = cc->o;
	const struct bundle *b = cc->b;
	struct staged_file created;

	/* the init is in the scope: it no longer needs a holder */
	systemd_scope_drop_holder(&cc->held->scope);
	/* a cgroup v1 host: into the devices folder, long before the init can
	 * run the container's command (it waits for start) */
	if (cgroup_v1_is_open(&cc->held->v1) && cgroup_v1_enter(&cc->held->v1, sp->pid, err) < 0)
		return -1;
	if (cc->held->rdt_group >= 0 &&
	    resctrl_add_task(cc->held->rdt_group, cc->held->rdt_monitor, sp->pid, err) < 0)
		return -1;
	/* "created" written and synced while the init sets itself up (on
	 * another CPU, where there is one): once it is ready, only the rename
	 * that makes it state.json stands between it and start */
	if (stage_state(cc, sp->pid, cc->recorded, &created, err) < 0)
		return -1;
	if (runtime_hooks(sp->runtime_sync, o, b, sp->pid, err) < 0 ||
	    sync_await_ready(sp->runtime_sync, err) < 0)
		goto drop;
	log_debug("init %d ready: its setup is done, it waits on exec.fifo", (int)sp->pid);
	if (write_zero_pids(cc, err) < 0 ||
	    (cc->mounts && inherited_mounts_record(cc->dir_fd, cc->mounts, err) < 0) ||
	    netdev_move_in(b->spec, sp->pid, cc->dir_fd, err) < 0)
		goto drop;
	if (staged_file_commit(&created, err) < 0)
		return -1;
	log_debug("state.json written: created");
	return spawn_hand_over(sp, o->pid_file, master, err);
drop:
	staged_file_drop(&created);
	return -1;
}

/* SCMP_ACT_NOTIFY: the agent's socket, connected here on the host. */
static int connect_agent(const struct oci_spec *s, int *fd, struct shim_error *err)
{
	*fd = -1;
	if (!s->seccomp.present || !oci_seccomp_uses_notify(&s->seccomp))
		return 0;
	*fd = seccomp_agent_connect(&s->seccomp, err);
	return *fd < 0 ? -1 : 0;
}

static int spawn_init(const struct create_ctx *cc, int *pidfd, int *master, struct shim_error *err)
{
	const struct create_opts *o = cc->o;
	const struct bundle *b = cc->b;
	struct ns_join joins;
	struct spawn sp = { .runtime_sync = -1, .child_sync = -1, .runtime_console = -1,
			    .child_console = -1, .pidfd = -1 };
	int *idmapped = NULL;
	struct init_ctx ctx = {
		.spec = b->spec, .id = o->id, .rootfs = b->rootfs, .bundle = b->path,
		.joins = &joins, .lock_fd = cc->lock_fd,
		.preserve_fds = o->listen_fds + o->preserve_fds, .new_keyring = !o->no_new_keyring,
		.no_pivot = o->no_pivot,
		.fifo_fd = -1, .agent_fd = -1,
		.cgroup_v1 = cgroup_v1_is_open(&cc->held->v1) ? &cc->held->v1 : NULL,
	};
	int r = -1;

	if (ns_open_joins(b->spec, &joins, err) < 0)
		return -1;
	if (spawn_open(&sp, b->spec->process.terminal, o->console_socket, err) < 0 ||
	    (!init_born_clean(&joins) && ns_enter(&joins, true, err) < 0) ||
	    idmap_prepare(b->spec, b->path, &idmapped, err) < 0 ||
	    connect_agent(b->spec, &ctx.agent_fd, err) < 0)
		goto out;
	ctx.fifo_fd = openat(cc->dir_fd, STORE_FIFO, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (ctx.fifo_fd < 0) {
		shim_fail_errno(err, "open %s", STORE_FIFO);
		goto out;
	}
	ctx.runtime_sync_fd = sp.runtime_sync;
	ctx.sync_fd = sp.child_sync;
	ctx.console_fd = sp.child_console;
	ctx.prepared = idmapped;
	sp.pid = init_clone(b, &joins, cc->held->cgroup_fd, &ctx, &sp.pidfd, err);
	safe_close(ctx.fifo_fd);
	spawn_cloned(&sp);
	if (sp.pid > 0) {
		r = ns_has_user(b->spec)
			    ? feed_user_ns(sp.runtime_sync, b, sp.pid, sp.pidfd, idmapped, err) : 0;
		if (r == 0)
			r = after_clone(&sp, cc, master, err);
		if (r < 0)
			spawn_abort(&sp);
		else
			*pidfd = TAKE_FD(sp.pidfd);
	}
out:
	safe_close(ctx.agent_fd);
	idmap_release(idmapped, b->spec->n_mounts);
	ns_close_joins(&joins);
	spawn_close(&sp);
	return r;
}

/* `restore`: the init comes back from CRIU's image into what create made
 * (state folder, cgroup, resctrl group), then is recorded as a cloned one
 * is. It never waits for start: the container is running. */
static int restore_init(const struct create_ctx *cc, int *pidfd, int *master,
			struct shim_error *err)
{
	const struct create_opts *o = cc->o;
	char state_dir[PATH_MAX], text[16];
	_cleanup_free_ char *root = realpath(o->root, NULL);
	struct restore_target t = {
		.id = o->id, .b = cc->b, .dir_fd = cc->dir_fd, .state_dir = state_dir,
		.cgroup_fd = cc->held->cgroup_fd, .v1 = &cc->held->v1,
		.console_socket = o->console_socket,
		.master = o->terminal_proxy ? master : NULL,
		.cgroup_rel = cc->held->cgroup_rel[0] ? cc->held->cgroup_rel
			      : cgroup_v1_is_open(&cc->held->v1) ? cc->held->v1.rel : "",
	};
	pid_t pid;

	if (!root)
		return shim_fail_errno(err, "--root: %s", o->root);
	if (path_format(state_dir, sizeof(state_dir), err, "%s/%s", root, o->id) < 0 ||
	    checkpoint_restore_init(o->restore, &t, &pid, pidfd, err) < 0)
		return -1;
	systemd_scope_drop_holder(&cc->held->scope);
	snprintf(text, sizeof(text), "%d", (int)pid);
	if ((cc->held->rdt_group >= 0 &&
	     resctrl_add_task(cc->held->rdt_group, cc->held->rdt_monitor, pid, err) < 0) ||
	    write_zero_pids(cc, err) < 0 ||
	    (unlinkat(cc->dir_fd, STORE_FIFO, 0) < 0 &&
	     shim_fail_errno(err, "remove %s", STORE_FIFO) < 0) ||
	    record_state(cc, pid, cc->recorded, err) < 0 ||
	    (o->pid_file && write_file_atomic(o->pid_file, text, err) < 0)) {
		pidfd_kill_and_reap(*pidfd);
		*pidfd = -1;
		return -1;
	}
	log_debug("state.json written: running (restored)");
	return 0;
}

/* A user namespace joined by path: its maps are checked against the
 * config's, or become them (shim/userns_join.h). */
static int settle_joined_user_ns(struct oci_spec *spec, struct shim_error *err)
{
	const struct oci_namespace *user = oci_spec_namespace(spec, OCI_NS_USER);
	_cleanup_close_ int fd = -1;

	if (!user || !user->path)
		return 0;
	fd = open(user->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return shim_fail_errno(err, "linux.namespaces: user: open %s", user->path);
	if (userns_join_mappings(spec, fd, err) < 0)
		return -1;
	log_debug("joining the user namespace %s: its maps are the container's", user->path);
	return 0;
}

/* Writable by all, as runc makes it: the init opens it for writing as
 * process.user, whoever that is (its privileges are dropped at create);
 * the folder it is in is the runtime's alone. */
static int make_exec_fifo(int dir_fd, struct shim_error *err)
{
	mode_t mask = umask(0);
	int r = mkfifoat(dir_fd, STORE_FIFO, 0622);

	umask(mask);
	return r < 0 ? shim_fail_errno(err, "mkfifo %s", STORE_FIFO) : 0;
}

static int fchown_to_ns_root(int dir_fd, const struct oci_spec *s, struct shim_error *err)
{
	uid_t uid;
	gid_t gid;

	if (ns_root_host_ids(s, &uid, &gid) < 0)
		return shim_fail(err, EINVAL, "linux.uidMappings: container ID 0 is not mapped");
	if (fchownat(dir_fd, STORE_FIFO, uid, gid, AT_SYMLINK_NOFOLLOW) < 0)
		return shim_fail_errno(err, "chown %s", STORE_FIFO);
	return 0;
}

/* A create that failed (a hook, say) still ends as a delete would: with
 * the poststop hooks, as the runtime-spec asks. */
static void poststop_after_failure(const struct create_opts *o, const struct bundle *b)
{
	struct shim_error err = { 0 };
	_cleanup_free_ char *state = NULL;

	if (!hooks_any(&b->spec->hooks, HOOK_POSTSTOP))
		return;
	state = hooks_state_json(b->spec, o->id, 0, "stopped", b->path, &err);
	if (state)
		hooks_run_warn(&b->spec->hooks, HOOK_POSTSTOP, state);
}

/* What create made, as container_load would find it, from what create
 * holds: the state folder, the cgroup, the init's pidfd (no PID looked up
 * again), and state.json as just written. */
/* NOTIFY_SOCKET: the folder, mount and env of shim/notify.h, in the
 * state folder by its real path (the init binds it by path). */
static int prepare_notify(const struct create_opts *o, int dir_fd, struct oci_spec *spec,
			  struct shim_error *err)
{
	_cleanup_free_ char *root = realpath(o->root, NULL);
	char state_dir[PATH_MAX];

	if (!root)
		return shim_fail_errno(err, "NOTIFY_SOCKET: --root %s", o->root);
	if (path_format(state_dir, sizeof(state_dir), err, "%s/%s", root, o->id) < 0)
		return shim_error_wrap(err, "NOTIFY_SOCKET");
	return notify_prepare(dir_fd, state_dir, spec, err);
}

static int hand_back(struct container *c, const struct create_ctx *cc, int *dir_fd, int *pidfd,
		     struct shim_error *err)
{
	memset(c, 0, sizeof(*c));
	cgroup_v1_init(&c->v1);
	c->state = *cc->recorded ? *cc->recorded : store_read_state(*dir_fd, cc->o->id, err);
	*cc->recorded = NULL;
	if (!c->state) {
		c->dir_fd = c->cgroup_fd = c->pidfd = -1;
		return -1;
	}
	c->id = c->state->id;
	c->dir_fd = TAKE_FD(*dir_fd);
	c->cgroup_fd = TAKE_FD(cc->held->cgroup_fd);
	c->pidfd = TAKE_FD(*pidfd);
	/* a restored init runs on (its exec.fifo is gone); a new one waits */
	c->status = cc->o->restore ? STATUS_RUNNING : STATUS_CREATED;
	c->records = holdings_records(cc->held, cc->b->spec, cc->mounts != NULL);
	/* no folders made, no record to look for */
	if (c->records & RECORD_CGROUP_V1)
		cgroup_v1_open_recorded(c->dir_fd, &c->v1, &(struct shim_error){ 0 });
	return 0;
}

/* What the config asks that is checked or settled before anything is
 * made. *zero_pids: pids.limit 0, written once the init is in. */
static int settle_config(const struct create_opts *o, struct bundle *b, bool *zero_pids,
			 struct shim_error *err)
{
	if (check_supported(o, b, err) < 0 || settle_joined_user_ns(b->spec, err) < 0 ||
	    (o->listen_fds && add_listen_env(&b->spec->process, o->listen_fds, err) < 0))
		return -1;
	if (o->listen_fds)
		log_debug("socket activation: fds 3 to %u go to the container (LISTEN_FDS)",
			  2 + o->listen_fds);
	/* only without the host's root: --rootless true alone keeps the program */
	if (rootless_unprivileged() && b->spec->resources.has_devices) {
		log_debug("rootless: no device program (linux.resources.devices): the container's "
			  "user namespace makes and mounts no device node");
		b->spec->resources.has_devices = false;
	}
	caps_warn_unknown(&b->spec->process.caps);
	cgroup_warn_ignored(&b->spec->resources);
	*zero_pids = hold_back_zero_pids(&b->spec->resources);
	return 0;
}

/* The state folder just made: locked (*lock_fd, held until create
 * returns: it is "creating" meanwhile), exec.fifo in it, and
 * NOTIFY_SOCKET's folder. */
static int fill_state_folder(const struct create_opts *o, struct oci_spec *spec, int dir_fd,
			     int *lock_fd, struct shim_error *err)
{
	*lock_fd = store_lock(dir_fd, o->id, err);
	if (*lock_fd < 0)
		return -1;
	if (make_exec_fifo(dir_fd, err) < 0)
		return shim_error_wrap(err, "%s/%s", o->root, o->id);
	/* the init writes it as the user namespace's root */
	if (ns_has_user(spec) && fchown_to_ns_root(dir_fd, spec, err) < 0)
		return -1;
	log_debug("state folder %s/%s made and locked", o->root, o->id);
	return notify_asked() ? prepare_notify(o, dir_fd, spec, err) : 0;
}

/* The init cloned (or restored) and handed over: its pidfd to
 * --pidfd-socket, the container to out. */
static int start_init(const struct create_ctx *cc, struct container *out, int *dir_fd,
		      int *master_out, struct shim_error *err)
{
	const struct create_opts *o = cc->o;
	_cleanup_close_ int pidfd = -1;

	if ((o->restore ? restore_init(cc, &pidfd, master_out, err)
			: spawn_init(cc, &pidfd, master_out, err)) < 0) {
		poststop_after_failure(o, cc->b);
		return -1;
	}
	if ((o->pidfd_socket && pidfd_send_to_socket(o->pidfd_socket, pidfd, err) < 0) ||
	    (out && hand_back(out, cc, dir_fd, &pidfd, err) < 0)) {
		pidfd_kill_and_reap(pidfd);
		return -1;
	}
	return 0;
}

int container_create(const struct create_opts *o, struct container *out, int *master_out,
		     struct shim_error *err)
{
	struct bundle b = { 0 };
	_cleanup_close_ int dir_fd = -1, lock_fd = -1;
	struct holdings held;
	char created[48];
	struct create_ctx cc;
	struct oci_state *recorded = NULL;
	struct mount_snapshot snap __attribute__((cleanup(mount_snapshot_release))) = { 0 };
	bool zero_pids = false;

	holdings_init(&held);
	if (master_out)
		*master_out = -1;
	if (store_check_id(o->id, err) < 0 || bundle_load(o->bundle, &b, err) < 0)
		return -1;
	log_debug("create %s: bundle %s, rootfs %s, %zu mounts, %zu namespaces", o->id, b.path,
		  b.rootfs, b.spec->n_mounts, b.spec->n_namespaces);
	if (settle_config(o, &b, &zero_pids, err) < 0)
		goto fail;
	/* an ID taken already fails here, and its folder is not ours */
	dir_fd = store_create(o->root, o->id, err);
	if (dir_fd < 0)
		goto fail;
	if (fill_state_folder(o, b.spec, dir_fd, &lock_fd, err) < 0 ||
	    holdings_make(&held, o->id, o->systemd_cgroup, b.spec, dir_fd, err) < 0)
		goto fail_remove;
	/* no mount namespace: the mounts the init makes are the host's */
	if (!ns_has_mount(b.spec) && b.spec->n_mounts &&
	    inherited_mounts_snapshot(b.rootfs, &snap, err) < 0)
		goto fail_remove;
	now_rfc3339(created, sizeof(created));
	cc = (struct create_ctx){ .o = o, .b = &b, .dir_fd = dir_fd, .lock_fd = lock_fd,
				  .held = &held, .recorded = &recorded, .created = created,
				  .zero_pids = zero_pids, .mounts = snap.root ? &snap : NULL };
	if (write_file_at(dir_fd, STORE_CONFIG, b.text, err) < 0 ||
	    record_state(&cc, 0, NULL, err) < 0 || start_init(&cc, out, &dir_fd, master_out, err) < 0)
		goto fail_remove;
	holdings_release(&held);
	oci_state_free(recorded);
	bundle_release(&b);
	return 0;

fail_remove:
	if (master_out)
		*master_out = safe_close(*master_out);
	holdings_undo(&(const struct holdings_undo){
			      .dir_fd = dir_fd, .id = o->id, .cgroup_rel = held.cgroup_rel,
			      .records = RECORDS_ANY & ~(unsigned)RECORD_INHERITED_MOUNTS,
			      .made = &held, .mounts = &snap },
		      NULL);
	holdings_release(&held);
	store_remove(o->root, o->id, NULL);
fail:
	oci_state_free(recorded);
	bundle_release(&b);
	return -1;
}
