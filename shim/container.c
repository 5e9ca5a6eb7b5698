/* SPDX-License-Identifier: GPL-2.0-or-later */
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

#include "oci/spec.h"
#include "shim/bundle.h"
#include "shim/caps.h"
#include "shim/checkpoint.h"
#include "shim/cgroup.h"
#include "shim/cgroup_v1.h"
#include "shim/bind_sources.h"
#include "oci/cleanup.h"
#include "oci/strv.h"
#include "shim/inherited_mounts.h"
#include "shim/init_clone.h"
#include "shim/clone.h"
#include "shim/container.h"
#include "shim/fd.h"
#include "shim/fsutil.h"
#include "shim/hooks.h"
#include "shim/idmap.h"
#include "shim/init.h"
#include "shim/log.h"
#include "shim/lsm.h"
#include "shim/namespaces.h"
#include "shim/netdev.h"
#include "shim/notify.h"
#include "shim/pidfd.h"
#include "shim/process.h"
#include "shim/procfs.h"
#include "shim/rootfs.h"
#include "shim/resctrl.h"
#include "shim/rootless.h"
#include "shim/seccomp.h"
#include "shim/signals.h"
#include "shim/spawn.h"
#include "shim/store.h"
#include "shim/sync.h"
#include "shim/systemd.h"
#include "shim/sysctl.h"
#include "shim/syscalls.h"
#include "shim/terminal.h"
#include "shim/userns_join.h"
#include "shim/utc.h"

#define DELETE_WAIT_MS 10000

/* What create has made by the time it clones the init. */
struct create_ctx {
	const struct create_opts *o;
	const struct bundle *b;
	int dir_fd;		/* the state folder */
	int lock_fd;		/* its lock, held until create returns */
	int cgroup_fd;		/* the cgroup the init is cloned into, or -1 */
	const char *cgroup_rel;	/* its path below /sys/fs/cgroup, or "" */
	int rdt_group;		/* linux.intelRdt: the resctrl group, or -1 */
	int rdt_monitor;	/* its enableMonitoring group, or -1 */
	const struct cgroup_v1 *v1;	/* a cgroup v1 host: the container's folders */
	struct systemd_scope *scope;	/* --systemd-cgroup: its holder goes after the clone */
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
		.cgroup_path = cc->cgroup_rel[0] ? cc->cgroup_rel : NULL,
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
	if (cc->cgroup_fd >= 0)
		r = cgroup_apply(cc->cgroup_fd, cc->cgroup_rel, &late, err);
	if (r == 0 && cgroup_v1_is_open(cc->v1))
		r = cgroup_v1_apply(cc->v1, &late, err);
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
	systemd_scope_drop_holder(cc->scope);
	/* a cgroup v1 host: into the devices folder, long before the init can
	 * run the container's command (it waits for start) */
	if (cgroup_v1_is_open(cc->v1) && cgroup_v1_enter(cc->v1, sp->pid, err) < 0)
		return -1;
	if (cc->rdt_group >= 0 && resctrl_add_task(cc->rdt_group, cc->rdt_monitor, sp->pid, err) < 0)
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
		.cgroup_v1 = cgroup_v1_is_open(cc->v1) ? cc->v1 : NULL,
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
	sp.pid = init_clone(b, &joins, cc->cgroup_fd, &ctx, &sp.pidfd, err);
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
		.cgroup_fd = cc->cgroup_fd, .v1 = cc->v1, .console_socket = o->console_socket,
		.master = o->terminal_proxy ? master : NULL,
		.cgroup_rel = cc->cgroup_rel[0] ? cc->cgroup_rel
			      : cgroup_v1_is_open(cc->v1) ? cc->v1->rel : "",
	};
	pid_t pid;

	if (!root)
		return shim_fail_errno(err, "--root: %s", o->root);
	if (path_format(state_dir, sizeof(state_dir), err, "%s/%s", root, o->id) < 0 ||
	    checkpoint_restore_init(o->restore, &t, &pid, pidfd, err) < 0)
		return -1;
	systemd_scope_drop_holder(cc->scope);
	snprintf(text, sizeof(text), "%d", (int)pid);
	if ((cc->rdt_group >= 0 && resctrl_add_task(cc->rdt_group, cc->rdt_monitor, pid, err) < 0) ||
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

/* Rootless, the cgroup could not be made: may the container do without?
 * (shim/rootless.h) */
static bool cgroup_not_needed(const struct create_opts *o, const struct oci_spec *s,
			      struct shim_error *err)
{
	char text[1200];

	if (!rootless_cgroup_optional(s, err))
		return false;
	log_debug("rootless: container %s runs in no cgroup of its own (%s)", o->id,
		  shim_error_text(err, text, sizeof(text)));
	memset(err, 0, sizeof(*err));
	return true;
}

/*
 * The container's cgroup folder, made and filled before the init exists. A
 * host without cgroup v2 gets none, which only a config asking for no
 * limits accepts (its device rules then go unenforced: said as a warning).
 */
static int make_cgroup(const struct create_opts *o, const struct oci_spec *s, char *rel,
		       size_t len, int *fd, struct shim_error *err)
{
	*fd = -1;
	rel[0] = '\0';
	if (!cgroup2_mounted()) {
		if (cgroup_v1_host())
			return 0;	/* the v1 folders: make_cgroup_v1 */
		if (s->cgroups_path || oci_resources_first_path(&s->resources))
			return shim_fail(err, ENOTSUP, "%s: needs cgroup v2 mounted at %s, or cgroup v1 "
					 "hierarchies there", oci_resources_first_path(&s->resources)
					 ?: "linux.cgroupsPath", CGROUP_ROOT);
		log_warn("no cgroup v2 at %s: container %s runs without a cgroup%s", CGROUP_ROOT,
			 o->id, s->resources.has_devices ? " and its device rules are not applied" : "");
		return 0;
	}
	if (s->cgroups_path && strchr(s->cgroups_path, ':'))
		return shim_fail(err, EINVAL, "linux.cgroupsPath: \"%s\" is a systemd "
				 "slice:prefix:name, which needs --systemd-cgroup", s->cgroups_path);
	if (cgroup_resolve(s->cgroups_path, o->id, rel, len, err) < 0)
		return -1;
	*fd = cgroup_create(rel, &s->resources, err);
	if (*fd >= 0)
		return 0;
	rel[0] = '\0';
	return cgroup_not_needed(o, s, err) ? 0 : -1;
}

/* A cgroup v1 host: a folder in each hierarchy, recorded in
 * ROOT/ID/cgroup-v1 for delete (shim/cgroup_v1.h). */
static int make_cgroup_v1(const struct create_opts *o, const struct oci_spec *s, int dir_fd,
			  struct cgroup_v1 *v1, struct shim_error *err)
{
	_cleanup_free_ char *record = NULL;

	if (o->systemd_cgroup || !cgroup_v1_host())
		return 0;
	if (cgroup_v1_check(&s->resources, err) < 0 ||
	    cgroup_v1_resolve(s->cgroups_path, o->id, v1, err) < 0)
		return -1;
	record = cgroup_v1_record_text(v1);
	if (!record)
		return shim_fail(err, ENOMEM, "%s", STORE_CGROUP_V1);
	if (write_file_at(dir_fd, STORE_CGROUP_V1, record, err) < 0)
		return -1;
	if (cgroup_v1_create(&s->resources, v1, err) == 0)
		return 0;
	/* not ours to remove: create took back what it made, and folders
	 * it found with processes in them are another container's */
	unlinkat(dir_fd, STORE_CGROUP_V1, 0);
	return cgroup_not_needed(o, s, err) ? 0 : -1;
}

/* The folders ROOT/ID/cgroup-v1 names go; a failure is only said. */
static void remove_cgroup_v1(int dir_fd, const char *id)
{
	struct shim_error err = { 0 };
	struct cgroup_v1 cg;
	char text[1200];

	if (cgroup_v1_read_record(dir_fd, &cg, &err) < 0)
		return;
	if (cgroup_v1_destroy(&cg, &err) < 0)
		log_warn("container %s: %s", id, shim_error_text(&err, text, sizeof(text)));
}

/* --systemd-cgroup: the container's cgroup is a transient scope, started
 * with a holder in it (shim/systemd.h), its resources then written as with
 * cgroupfs. */
static int make_systemd_cgroup(const struct create_opts *o, const struct oci_spec *s,
			       struct systemd_scope *scope, int *fd, struct shim_error *err)
{
	char description[320];

	*fd = -1;
	if (!cgroup2_mounted())
		return shim_fail(err, ENOTSUP, "--systemd-cgroup: needs cgroup v2 mounted at %s",
				 CGROUP_ROOT);
	if (systemd_scope_names(s->cgroups_path, o->id, scope, err) < 0)
		return -1;
	snprintf(description, sizeof(description), "shim container %s", o->id);
	if (systemd_scope_start(scope, description, &s->resources, err) < 0)
		return -1;
	*fd = cgroup_open(scope->rel, err);
	if (*fd < 0 || cgroup_apply(*fd, scope->rel, &s->resources, err) < 0)
		return -1;
	return 0;
}

/* The unit ROOT/ID/systemd-unit names is stopped; a failure is only said. */
static void stop_systemd_unit(int dir_fd, const char *id)
{
	struct shim_error err = { 0 };
	_cleanup_free_ char *unit = store_read_record(dir_fd, STORE_SYSTEMD_UNIT, NAME_MAX + 1, &err);
	char text[1200];

	size_t n = unit ? strlen(unit) : 0;

	/* create names a scope of its own: a record naming anything else (a
	 * host's service) is not stopped */
	if (n && (n < 7 || strcmp(unit + n - 6, ".scope") != 0 || strchr(unit, '/'))) {
		log_warn("container %s: %s: \"%s\" is no scope shim made; not stopped", id,
			 STORE_SYSTEMD_UNIT, unit);
		return;
	}
	if (n && systemd_unit_stop(unit, &err) < 0)
		log_warn("container %s: %s", id, shim_error_text(&err, text, sizeof(text)));
}

/* What create made of linux.intelRdt: the group, its monitoring group. */
struct rdt_made {
	int group, monitor;	/* fds, or -1 */
	bool group_made, monitor_made;
};

/* linux.intelRdt: the container's resctrl group, made or joined, and with
 * enableMonitoring its own monitoring group; what delete must remove is
 * named in ROOT/ID (a group made for the container alone; the group
 * whose mon_groups/ID is the container's). */
static int make_rdt_group(const struct create_opts *o, const struct oci_spec *s, int dir_fd,
			  struct rdt_made *m, struct shim_error *err)
{
	const struct oci_intel_rdt *rdt = &s->intel_rdt;
	_cleanup_close_ int root = -1;

	if (!rdt->present)
		return 0;
	root = resctrl_open_root(err);
	if (root < 0)
		return -1;
	m->group = resctrl_prepare(root, rdt, o->id, &m->group_made, err);
	if (m->group < 0)
		return -1;
	if (!rdt->clos_id && write_file_at(dir_fd, STORE_RESCTRL, o->id, err) < 0)
		return -1;
	if (!rdt->enable_monitoring)
		return 0;
	/* recorded first: a failure from here on removes it */
	if (write_file_at(dir_fd, STORE_RESCTRL_MONITOR, resctrl_group_name(rdt, o->id), err) < 0)
		return -1;
	m->monitor = resctrl_make_monitor(m->group, o->id, &m->monitor_made, err);
	return m->monitor < 0 ? -1 : 0;
}

/* After a failed create: what it made goes (a group made goes with its
 * monitoring groups). */
static void rdt_remove_made(const struct rdt_made *m, const struct oci_intel_rdt *rdt,
			    const char *id)
{
	struct shim_error err = { 0 };
	_cleanup_close_ int root = -1;

	if (!m->group_made && !m->monitor_made)
		return;
	root = resctrl_open_root(&err);
	if (root >= 0 && m->monitor_made)
		resctrl_remove_monitor(root, resctrl_group_name(rdt, id), id, &err);
	if (root >= 0 && m->group_made)
		resctrl_remove(root, resctrl_group_name(rdt, id), &err);
}

static bool group_name_valid(const char *name)
{
	return name && *name && !strchr(name, '/') && strcmp(name, "..") != 0 &&
	       strcmp(name, ".") != 0;
}

/* The resctrl groups ROOT/ID names go: the container's monitoring group,
 * then a group made for it alone; a failure is only said. */
static void remove_rdt_group(int dir_fd, const char *id)
{
	struct shim_error err = { 0 };
	_cleanup_close_ int root = -1;
	_cleanup_free_ char *name = store_read_record(dir_fd, STORE_RESCTRL, NAME_MAX + 1, &err);
	_cleanup_free_ char *monitored = store_read_record(dir_fd, STORE_RESCTRL_MONITOR,
							   NAME_MAX + 1, &err);
	char text[1200];
	int r = 0;

	if (!group_name_valid(name) && !group_name_valid(monitored))
		return;
	root = resctrl_open_root(&err);
	if (root < 0)
		r = -1;
	if (r == 0 && group_name_valid(monitored))
		r = resctrl_remove_monitor(root, monitored, id, &err);
	if (r == 0 && group_name_valid(name))
		r = resctrl_remove(root, name, &err);
	if (r < 0)
		log_warn("container %s: %s", id, shim_error_text(&err, text, sizeof(text)));
}

/* The interfaces lent to the container go home; a failure is only said
 * (the namespace hold is gone either way: nothing a retry could mend). */
static void give_back_net_devices(int dir_fd, const char *id)
{
	struct shim_error err = { 0 };
	char text[1200];

	if (dir_fd >= 0 && netdev_move_back(dir_fd, &err) < 0)
		log_warn("container %s: %s", id, shim_error_text(&err, text, sizeof(text)));
}

/* No mount namespace: the mounts its init made in the runtime's go; a
 * failure is only said. */
static void remove_inherited_mounts(int dir_fd, const char *id)
{
	struct shim_error err = { 0 };
	char text[1200];

	if (dir_fd >= 0 && inherited_mounts_remove(dir_fd, &err) < 0)
		log_warn("container %s: %s", id, shim_error_text(&err, text, sizeof(text)));
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

/* A cgroup v1 host: the folders ROOT/ID/cgroup-v1 names, if any. */
static void load_cgroup_v1(struct container *c)
{
	struct shim_error none = { 0 };

	cgroup_v1_open_recorded(c->dir_fd, &c->v1, &none);
}

/* The optional records create wrote (RECORD_*), for its hand_back. */
static unsigned records_made(const struct create_ctx *cc)
{
	const struct oci_spec *s = cc->b->spec;

	return (s->n_net_devices ? RECORD_NETNS : 0) | (cc->mounts ? RECORD_INHERITED_MOUNTS : 0) |
	       (cgroup_v1_is_open(cc->v1) ? RECORD_CGROUP_V1 : 0) |
	       (cc->scope->unit[0] ? RECORD_SYSTEMD_UNIT : 0) |
	       (s->intel_rdt.present && (!s->intel_rdt.clos_id || s->intel_rdt.enable_monitoring)
		? RECORD_RESCTRL : 0);
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

static int hand_back(struct container *c, const struct create_ctx *cc, int *dir_fd,
		     int *cgroup_fd, int *pidfd, struct shim_error *err)
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
	c->cgroup_fd = TAKE_FD(*cgroup_fd);
	c->pidfd = TAKE_FD(*pidfd);
	/* a restored init runs on (its exec.fifo is gone); a new one waits */
	c->status = cc->o->restore ? STATUS_RUNNING : STATUS_CREATED;
	c->records = records_made(cc);
	/* no folders made, no record to look for */
	if (c->records & RECORD_CGROUP_V1)
		load_cgroup_v1(c);
	return 0;
}

int container_create(const struct create_opts *o, struct container *out, int *master_out,
		     struct shim_error *err)
{
	struct bundle b = { 0 };
	_cleanup_close_ int dir_fd = -1, lock_fd = -1, cgroup_fd = -1;
	_cleanup_cgroup_v1_ struct cgroup_v1 v1 = CGROUP_V1_NONE;
	char cgroup_rel[PATH_MAX] = "", created[48];
	struct create_ctx cc;
	struct oci_state *recorded = NULL;
	int pidfd = -1;
	struct rdt_made rdt = { .group = -1, .monitor = -1 };
	struct mount_snapshot snap __attribute__((cleanup(mount_snapshot_release))) = { 0 };
	bool zero_pids = false;
	struct systemd_scope scope = { .holder_pidfd = -1 };

	if (master_out)
		*master_out = -1;
	if (store_check_id(o->id, err) < 0 || bundle_load(o->bundle, &b, err) < 0)
		return -1;
	log_debug("create %s: bundle %s, rootfs %s, %zu mounts, %zu namespaces", o->id, b.path,
		  b.rootfs, b.spec->n_mounts, b.spec->n_namespaces);
	if (check_supported(o, &b, err) < 0 || settle_joined_user_ns(b.spec, err) < 0 ||
	    (o->listen_fds && add_listen_env(&b.spec->process, o->listen_fds, err) < 0))
		goto fail;
	if (o->listen_fds)
		log_debug("socket activation: fds 3 to %u go to the container (LISTEN_FDS)",
			  2 + o->listen_fds);
	/* only without the host's root: --rootless true alone keeps the program */
	if (rootless_unprivileged() && b.spec->resources.has_devices) {
		log_debug("rootless: no device program (linux.resources.devices): the container's "
			  "user namespace makes and mounts no device node");
		b.spec->resources.has_devices = false;
	}
	caps_warn_unknown(&b.spec->process.caps);
	cgroup_warn_ignored(&b.spec->resources);
	zero_pids = hold_back_zero_pids(&b.spec->resources);
	dir_fd = store_create(o->root, o->id, err);
	if (dir_fd < 0)
		goto fail;
	/* held until create returns: the folder is "creating" meanwhile */
	lock_fd = store_lock(dir_fd, o->id, err);
	if (lock_fd < 0)
		goto fail_remove;
	if (make_exec_fifo(dir_fd, err) < 0) {
		shim_error_wrap(err, "%s/%s", o->root, o->id);
		goto fail_remove;
	}
	/* the init writes it as the user namespace's root */
	if (ns_has_user(b.spec) && fchown_to_ns_root(dir_fd, b.spec, err) < 0)
		goto fail_remove;
	log_debug("state folder %s/%s made and locked", o->root, o->id);
	if (notify_asked() && prepare_notify(o, dir_fd, b.spec, err) < 0)
		goto fail_remove;
	if (o->systemd_cgroup) {
		int r = make_systemd_cgroup(o, b.spec, &scope, &cgroup_fd, err);

		/* recorded first: a failure from here on stops the unit */
		if (scope.unit[0] && write_file_at(dir_fd, STORE_SYSTEMD_UNIT, scope.unit, err) < 0)
			r = -1;
		snprintf(cgroup_rel, sizeof(cgroup_rel), "%s", scope.rel);
		if (r < 0)
			goto fail_remove;
	} else if (make_cgroup(o, b.spec, cgroup_rel, sizeof(cgroup_rel), &cgroup_fd, err) < 0) {
		goto fail_remove;
	}
	if (cgroup_rel[0])
		log_debug("cgroup %s: %zu settings written%s", cgroup_rel, b.spec->resources.n_settings,
			  b.spec->resources.has_devices ? ", device program attached" : "");
	if (make_cgroup_v1(o, b.spec, dir_fd, &v1, err) < 0 ||
	    make_rdt_group(o, b.spec, dir_fd, &rdt, err) < 0)
		goto fail_remove;
	/* no mount namespace: the mounts the init makes are the host's */
	if (!ns_has_mount(b.spec) && b.spec->n_mounts &&
	    inherited_mounts_snapshot(b.rootfs, &snap, err) < 0)
		goto fail_remove;
	now_rfc3339(created, sizeof(created));
	cc = (struct create_ctx){ .o = o, .b = &b, .dir_fd = dir_fd, .lock_fd = lock_fd,
				  .cgroup_fd = cgroup_fd, .cgroup_rel = cgroup_rel,
				  .rdt_group = rdt.group, .rdt_monitor = rdt.monitor, .v1 = &v1, .scope = &scope,
				  .recorded = &recorded, .created = created, .zero_pids = zero_pids,
				  .mounts = snap.root ? &snap : NULL };
	/* a second record of the cgroup, apart from state.json: a delete -f
	 * finds it even when state.json is lost or corrupt */
	if ((cgroup_rel[0] && write_file_at(dir_fd, STORE_CGROUP, cgroup_rel, err) < 0) ||
	    write_file_at(dir_fd, STORE_CONFIG, b.text, err) < 0 ||
	    record_state(&cc, 0, NULL, err) < 0)
		goto fail_remove;
	if ((o->restore ? restore_init(&cc, &pidfd, master_out, err)
			: spawn_init(&cc, &pidfd, master_out, err)) < 0) {
		poststop_after_failure(o, &b);
		goto fail_remove;
	}
	if ((o->pidfd_socket && pidfd_send_to_socket(o->pidfd_socket, pidfd, err) < 0) ||
	    (out && hand_back(out, &cc, &dir_fd, &cgroup_fd, &pidfd, err) < 0)) {
		pidfd_kill_and_reap(pidfd);
		goto fail_remove;
	}
	safe_close(pidfd);
	safe_close(rdt.group);
	safe_close(rdt.monitor);
	oci_state_free(recorded);
	bundle_release(&b);
	return 0;

fail_remove:
	safe_close(pidfd);
	if (master_out)
		*master_out = safe_close(*master_out);
	give_back_net_devices(dir_fd, o->id);
	inherited_mounts_undo(&snap);
	systemd_scope_drop_holder(&scope);
	if (cgroup_rel[0])
		cgroup_destroy(cgroup_rel, NULL);
	remove_cgroup_v1(dir_fd, o->id);
	stop_systemd_unit(dir_fd, o->id);
	/* a closID group too, when create made it */
	rdt_remove_made(&rdt, &b.spec->intel_rdt, o->id);
	safe_close(rdt.group);
	safe_close(rdt.monitor);
	store_remove(o->root, o->id, NULL);
fail:
	oci_state_free(recorded);
	bundle_release(&b);
	return -1;
}

/* --- the other verbs --- */

/* state.json without an init: is its create still running (it holds the
 * folder's lock) or did it die midway (kill -9, a crash)? */
static bool creator_alive(int dir_fd, const char *id)
{
	struct shim_error err = { 0 };
	int lock = store_lock(dir_fd, id, &err);
	bool busy = lock < 0 && err.errnum == EWOULDBLOCK;

	safe_close(lock);
	return busy;
}

int container_load(const char *root, const char *id, struct container *c, struct shim_error *err)
{
	memset(c, 0, sizeof(*c));
	c->pidfd = -1;
	c->cgroup_fd = -1;
	c->records = RECORDS_ANY;
	cgroup_v1_init(&c->v1);
	c->dir_fd = store_open(root, id, err);
	if (c->dir_fd < 0)
		return -1;
	c->state = store_read_state(c->dir_fd, id, err);
	if (!c->state) {
		c->dir_fd = safe_close(c->dir_fd);
		return -1;
	}
	c->id = c->state->id;
	/* a rewritten record must not lead a kill or an rmdir out of the
	 * container's cgroup: refused by name; delete -f still removes it */
	if (c->state->cgroup_path &&
	    cgroup_check_record(c->state->cgroup_path, "state.json shim.cgroupPath", err) < 0) {
		shim_error_wrap(err, "container %s", id);
		container_release(c);
		return -1;
	}
	if (c->state->pid == 0) {
		c->status = creator_alive(c->dir_fd, id) ? STATUS_CREATING : STATUS_STOPPED;
	} else {
		int alive = pidfd_open_verified(c->state->pid, c->state->init_start_time,
						&c->pidfd, err);

		if (alive < 0) {
			container_release(c);
			return -1;
		}
		if (!alive || pidfd_exited(c->pidfd))
			c->status = STATUS_STOPPED;
		else if (faccessat(c->dir_fd, STORE_FIFO, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			c->status = STATUS_CREATED;
		else
			c->status = STATUS_RUNNING;
	}
	if (c->state->cgroup_path) {
		c->cgroup_fd = cgroup_open(c->state->cgroup_path, NULL);
		if ((c->status == STATUS_CREATED || c->status == STATUS_RUNNING) &&
		    cgroup_is_frozen(c->cgroup_fd) == 1)
			c->status = STATUS_PAUSED;
	} else {
		load_cgroup_v1(c);
		if ((c->status == STATUS_CREATED || c->status == STATUS_RUNNING) &&
		    cgroup_v1_is_frozen(&c->v1) == 1)
			c->status = STATUS_PAUSED;
	}
	free(c->state->status);
	c->state->status = strdup(container_status_name(c->status));
	if (c->status == STATUS_STOPPED)
		c->state->pid = 0;
	return 0;
}

const char *container_status_name(enum container_status s)
{
	static const char *const names[] = {
		[STATUS_CREATED] = "created", [STATUS_RUNNING] = "running",
		[STATUS_PAUSED] = "paused", [STATUS_STOPPED] = "stopped",
		[STATUS_CREATING] = "creating",
	};

	return names[s];
}

void container_release(struct container *c)
{
	c->dir_fd = safe_close(c->dir_fd);
	c->cgroup_fd = safe_close(c->cgroup_fd);
	cgroup_v1_close(&c->v1);
	c->pidfd = safe_close(c->pidfd);
	oci_state_free(c->state);
	c->state = NULL;
}

/* The config for the poststop hooks; false (warned) without it. */
static bool load_for_hooks(const struct container *c, enum oci_hook_kind kind, struct bundle *b)
{
	struct shim_error err = { 0 };
	char text[2048];

	if (bundle_load_saved(c->dir_fd, c->state->bundle, b, &err) == 0)
		return true;
	log_warn("hooks.%s not run: %s", oci_hook_kind_name(kind),
		 shim_error_text(&err, text, sizeof(text)));
	return false;
}

/* poststop, from the config create saved; failures warn. */
static void run_post_hooks(const struct container *c, const struct bundle *b,
			   enum oci_hook_kind kind, const char *status)
{
	struct shim_error err = { 0 };
	_cleanup_free_ char *state = hooks_state_json(b->spec, c->id, c->state->pid, status,
						      b->path, &err);
	char text[2048];

	if (!state)
		log_warn("hooks.%s not run: %s", oci_hook_kind_name(kind),
			 shim_error_text(&err, text, sizeof(text)));
	else
		hooks_run_warn(&b->spec->hooks, kind, state);
}

static int kill_all(struct container *c, int sig, struct shim_error *err);

/* The poststart hooks (runtime-spec 1.3, runc): the first that fails ends
 * them, and the container is stopped (killed, its init reaped) and start
 * fails naming the hook; delete undoes the rest. */
static int run_poststart(struct container *c, struct shim_error *err)
{
	struct shim_error ignored = { 0 };
	struct bundle b = { 0 };
	_cleanup_free_ char *state = NULL;
	int r = -1;

	if (bundle_load_saved(c->dir_fd, c->state->bundle, &b, err) == 0 &&
	    (state = hooks_state_json(b.spec, c->id, c->state->pid, "running", b.path, err)))
		r = hooks_run(&b.spec->hooks, HOOK_POSTSTART, state, -1, err);
	bundle_release(&b);
	if (r == 0)
		return 0;
	log_debug("start %s: a poststart hook failed: the container is stopped", c->id);
	if (kill_all(c, SIGKILL, &ignored) < 0)
		pidfd_signal(c->pidfd, SIGKILL, &ignored);
	pidfd_wait_exit(c->pidfd, DELETE_WAIT_MS, &ignored);
	c->status = STATUS_STOPPED;
	return shim_error_wrap(err, "start: container %s stopped", c->id);
}

int container_start(struct container *c, bool notify, struct shim_error *err)
{
	_cleanup_close_ int fifo = -1, notify_fd = -1;
	unsigned events[2] = { 0, 0 };
	int taken;

	if (c->status == STATUS_STOPPED)
		return shim_fail(err, 0, "cannot start a container that has stopped");
	if (c->status == STATUS_RUNNING || c->status == STATUS_PAUSED ||
	    c->status == STATUS_CREATING)
		return shim_fail(err, 0, "cannot start an already %s container",
				 container_status_name(c->status));
	/* listening before the container's process runs */
	if (notify && notify_asked() && notify_listen(c->dir_fd, &notify_fd, err) < 0)
		return -1;
	/* Non-blocking, so an init that died first cannot hang us; its own
	 * blocking open for writing returns as soon as this one exists. */
	fifo = openat(c->dir_fd, STORE_FIFO, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fifo < 0)
		return shim_fail_errno(err, "start: open exec.fifo");
	taken = sync_fifo_take(fifo, c->pidfd, events, err);
	if (taken < 0)
		return -1;
	if (taken == 0) {
		char how[96];

		pidfd_describe_exit(c->pidfd, how, sizeof(how));
		return shim_fail(err, 0, "container \"%s\": the init exited before start (%s; "
				 "exec.fifo events 0x%x, init 0x%x)", c->id, how, events[0], events[1]);
	}
	if (unlinkat(c->dir_fd, STORE_FIFO, 0) < 0)
		return shim_fail_errno(err, "start: remove exec.fifo");
	log_debug("start %s: the init %d goes on to exec", c->id, (int)c->state->pid);
	c->status = STATUS_RUNNING;
	if (c->state->has_poststart && run_poststart(c, err) < 0)
		return -1;
	if (notify_fd >= 0)
		return notify_until_ready(notify_fd, c->pidfd, c->state->pid, err);
	return 0;
}

static bool same_pid_ns(pid_t pid, const struct stat *ns)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
	return stat(path, &st) == 0 && st.st_ino == ns->st_ino && st.st_dev == ns->st_dev;
}

/* Without a cgroup: every process in the init's PID namespace, provided it
 * is not the runtime's own one. Each goes through a pidfd. */
static int kill_pid_ns(struct container *c, int sig, struct shim_error *err)
{
	char path[64];
	struct stat ns, ours;
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)c->state->pid);
	if (stat(path, &ns) < 0 || stat("/proc/self/ns/pid", &ours) < 0)
		return shim_fail_errno(err, "kill --all: %s", path);
	if (ns.st_ino == ours.st_ino && ns.st_dev == ours.st_dev)
		return shim_fail(err, EPERM, "kill --all: container %s has neither a cgroup nor a PID "
				 "namespace of its own: its processes cannot be told from the host's",
				 c->id);
	d = opendir("/proc");
	if (!d)
		return shim_fail_errno(err, "kill --all: opendir /proc");
	while ((e = readdir(d))) {
		pid_t pid = (pid_t)atoi(e->d_name);
		int fd;

		if (pid <= 0 || pid == c->state->pid || !same_pid_ns(pid, &ns))
			continue;
		fd = sys_pidfd_open(pid, 0);
		/* The pidfd pins the process: check again that it is ours. */
		if (fd >= 0 && same_pid_ns(pid, &ns))
			pidfd_signal(fd, sig, NULL);
		safe_close(fd);
	}
	closedir(d);
	return pidfd_signal(c->pidfd, sig, err);
}

/* --all: what is in the container's cgroup (the init among it); without
 * one, its own PID namespace; without either, refused. Also after the init
 * exited: containerd kills what a pod's container left with it. */
static int kill_all(struct container *c, int sig, struct shim_error *err)
{
	if (c->cgroup_fd >= 0) {
		if (cgroup_signal_all(c->cgroup_fd, c->state->cgroup_path, sig, err) < 0)
			return shim_error_wrap(err, "kill --all");
		return 0;
	}
	if (cgroup_v1_is_open(&c->v1))
		return cgroup_v1_signal_all(&c->v1, sig);
	if (c->status == STATUS_STOPPED)
		return shim_fail(err, 0, "container not running");
	return kill_pid_ns(c, sig, err);
}

int container_kill(struct container *c, int sig, bool all, struct shim_error *err)
{
	if (c->status == STATUS_CREATING)
		return shim_fail(err, 0, "container %s is being created", c->id);
	if (all)
		return kill_all(c, sig, err);
	if (c->status == STATUS_STOPPED)
		return shim_fail(err, 0, "container not running");
	return pidfd_signal(c->pidfd, sig, err);
}

int container_delete(const char *root, struct container *c, bool force, struct shim_error *err)
{
	_cleanup_close_ int lock = -1;
	struct bundle b = { 0 };
	bool hooks;

	if (c->status == STATUS_CREATING)
		return shim_fail(err, EBUSY, "container %s is being created", c->id);
	/* one delete at a time; a create that took the ID again waits */
	lock = store_lock(c->dir_fd, c->id, err);
	if (lock < 0)
		return -1;
	if ((c->status == STATUS_RUNNING || c->status == STATUS_PAUSED) && !force)
		return shim_fail(err, 0, "cannot delete container %s that is not stopped: %s", c->id,
				 container_status_name(c->status));
	if (c->status != STATUS_STOPPED && c->pidfd >= 0) {
		int r;

		if (pidfd_signal(c->pidfd, SIGKILL, err) < 0)
			return -1;
		/* a v1 freezer holds even a killed task: thawed, it dies at once */
		if (cgroup_v1_is_frozen(&c->v1) == 1 && cgroup_v1_freeze(&c->v1, false, err) < 0)
			return shim_error_wrap(err, "delete");
		r = pidfd_wait_exit(c->pidfd, DELETE_WAIT_MS, err);
		if (r <= 0)
			return r < 0 ? -1 : shim_fail(err, ETIMEDOUT, "container %s: init did not exit after SIGKILL", c->id);
	}
	log_debug("delete %s: the init is gone; removing its cgroup and state", c->id);
	if (c->records & RECORD_NETNS)
		give_back_net_devices(c->dir_fd, c->id);
	if (c->records & RECORD_INHERITED_MOUNTS)
		remove_inherited_mounts(c->dir_fd, c->id);
	/* what is left in the folder (processes that joined it) dies with it */
	if (c->state->cgroup_path && cgroup_destroy(c->state->cgroup_path, err) < 0)
		return shim_error_wrap(err, "container %s", c->id);
	if (c->records & RECORD_CGROUP_V1)
		remove_cgroup_v1(c->dir_fd, c->id);
	if (c->records & RECORD_SYSTEMD_UNIT)
		stop_systemd_unit(c->dir_fd, c->id);
	if (c->records & RECORD_RESCTRL)
		remove_rdt_group(c->dir_fd, c->id);
	/* the poststop hooks' config, read before its folder goes */
	hooks = c->state->has_poststop && load_for_hooks(c, HOOK_POSTSTOP, &b);
	if (store_remove_open(root, c->id, c->dir_fd, err) < 0) {
		bundle_release(&b);
		return -1;
	}
	if (hooks)
		run_post_hooks(c, &b, HOOK_POSTSTOP, "stopped");
	bundle_release(&b);
	log_debug("delete %s: cgroup and state folder removed", c->id);
	return 0;
}

int container_remove_broken(const char *root, const char *id, struct shim_error *err)
{
	_cleanup_close_ int dir = store_open(root, id, NULL);
	_cleanup_free_ char *rel = store_read_record(dir, STORE_CGROUP, PATH_MAX, NULL);
	/* what is left in its cgroup (the init among it) dies with it */
	if (rel && cgroup_check_record(rel, STORE_CGROUP, NULL) == 0 && cgroup_destroy(rel, err) < 0)
		return shim_error_wrap(err, "container %s", id);
	give_back_net_devices(dir, id);
	remove_inherited_mounts(dir, id);
	remove_cgroup_v1(dir, id);
	stop_systemd_unit(dir, id);
	remove_rdt_group(dir, id);
	return store_remove(root, id, err);
}

void container_block_forwarded_signals(void)
{
	sigset_t set;

	signals_forwarded(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

int container_wait(int pidfd, int *status, struct shim_error *err)
{
	sigset_t set;
	_cleanup_close_ int sfd = -1;

	signals_forwarded(&set);
	sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (sfd < 0)
		return shim_fail_errno(err, "signalfd");
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = pidfd, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};
		struct signalfd_siginfo si;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return shim_fail_errno(err, "poll");
		}
		if (p[0].revents)
			return pidfd_reap(pidfd, status, err);
		if (read(sfd, &si, sizeof(si)) == sizeof(si))
			pidfd_signal(pidfd, (int)si.ssi_signo, NULL);
	}
}
