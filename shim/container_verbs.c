/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verbs after create (shim/container.h): load, start, kill, delete. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/bundle.h"
#include "shim/cgroups/cgroup.h"
#include "shim/cgroups/cgroup_v1.h"
#include "shim/container.h"
#include "shim/holdings.h"
#include "shim/hooks.h"
#include "shim/log.h"
#include "shim/notify.h"
#include "shim/pidfd.h"
#include "shim/signals.h"
#include "shim/store.h"
#include "shim/sync.h"
#include "shim/syscalls.h"

#define DELETE_WAIT_MS 10000

/* A cgroup v1 host: the folders ROOT/ID/cgroup-v1 names, if any. */
static void load_cgroup_v1(struct container *c)
{
	struct shim_error none = { 0 };

	cgroup_v1_open_recorded(c->dir_fd, &c->v1, &none);
}

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
	/* poststart after the startContainer hooks: the init holds the
	 * fifo open through them, until its exec */
	if (c->state->has_poststart &&
	    (sync_fifo_await_exec(fifo, c->pidfd, err) < 0 || run_poststart(c, err) < 0))
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
	if (holdings_undo(&(const struct holdings_undo){ .dir_fd = c->dir_fd, .id = c->id,
							 .records = c->records,
							 .cgroup_rel = c->state->cgroup_path },
			  err) < 0)
		return -1;
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
	const struct holdings_undo u = {
		.dir_fd = dir, .id = id, .records = RECORDS_ANY,
		/* what is left in its cgroup (the init among it) dies with it */
		.cgroup_rel = rel && cgroup_check_record(rel, STORE_CGROUP, NULL) == 0 ? rel : NULL,
	};

	if (holdings_undo(&u, err) < 0)
		return -1;
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
