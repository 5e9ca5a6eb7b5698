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
#include "shim/cleanup.h"
#include "shim/clone.h"
#include "shim/container.h"
#include "shim/fd.h"
#include "shim/namespaces.h"
#include "shim/pidfd.h"
#include "shim/process.h"
#include "shim/rootfs.h"
#include "shim/store.h"
#include "shim/sync.h"
#include "shim/sysctl.h"
#include "shim/syscalls.h"

#define DELETE_WAIT_MS 10000

static const int forwarded_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH,
};

/* --- the init, in the child --- */

struct init_ctx {
	const struct oci_spec *spec;
	const char *rootfs, *bundle;
	struct ns_join *joins;
	int sync_fd;		/* the init's end */
	int runtime_sync_fd;	/* the runtime's end: closed in the child */
	int dir_fd;		/* the state folder, for exec.fifo */
	unsigned int preserve_fds;
};

static int init_setup(struct init_ctx *c, struct process_plan *plan, struct shim_error *err)
{
	umask(0);
	if (ns_enter(c->joins, false, err) < 0)
		return -1;
	if (c->spec->hostname && *c->spec->hostname &&
	    sethostname(c->spec->hostname, strlen(c->spec->hostname)) < 0)
		return shim_fail_errno(err, "hostname: sethostname");
	if (rootfs_setup(c->spec, c->rootfs, c->bundle, err) < 0 ||
	    sysctl_apply(c->spec->sysctl, err) < 0 ||
	    process_prepare(&c->spec->process, plan, err) < 0)
		return -1;
	return rootfs_finish(c->spec, err);
}

/* Blocks until `start` opens the fifo for reading. */
static int wait_for_start(struct init_ctx *c, struct shim_error *err)
{
	_cleanup_close_ int fifo = openat(c->dir_fd, STORE_FIFO, O_WRONLY | O_CLOEXEC);

	if (fifo < 0)
		return shim_fail_errno(err, "waiting for start: open exec.fifo");
	if (write(fifo, "0", 1) != 1)
		return shim_fail_errno(err, "waiting for start: write exec.fifo");
	return 0;
}

static int init_main(void *arg)
{
	struct init_ctx *c = arg;
	struct shim_error err = { 0 };
	struct process_plan plan = { 0 };
	char text[2048];

	c->runtime_sync_fd = safe_close(c->runtime_sync_fd);
	if (init_setup(c, &plan, &err) < 0) {
		sync_send(c->sync_fd, SYNC_ERROR, &err);
		return 1;
	}
	if (sync_send(c->sync_fd, SYNC_READY, NULL) < 0)
		return 1;
	c->sync_fd = safe_close(c->sync_fd);
	if (wait_for_start(c, &err) == 0)
		process_exec(&c->spec->process, &plan, c->preserve_fds, &err);
	/* Past ready nobody listens on the socket: stderr is all there is. */
	dprintf(STDERR_FILENO, "shim: container init: %s\n", shim_error_text(&err, text, sizeof(text)));
	return 127;
}

/* --- create, in the runtime --- */

static char *now_rfc3339(void)
{
	struct timespec ts;
	struct tm tm;
	char date[32], *out = NULL;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	if (asprintf(&out, "%s.%09ldZ", date, ts.tv_nsec) < 0)
		return NULL;
	return out;
}

static int send_pidfd(const char *socket_path, int pidfd, struct shim_error *err)
{
	_cleanup_close_ int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char byte = 0, cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	if (strlen(socket_path) >= sizeof(addr.sun_path))
		return shim_fail(err, ENAMETOOLONG, "--pidfd-socket %s", socket_path);
	strcpy(addr.sun_path, socket_path);
	if (s < 0 || connect(s, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		return shim_fail_errno(err, "--pidfd-socket: connect %s", socket_path);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &pidfd, sizeof(int));
	if (sendmsg(s, &msg, MSG_NOSIGNAL) < 0)
		return shim_fail_errno(err, "--pidfd-socket: send to %s", socket_path);
	return 0;
}

static int record_state(int dir_fd, const struct create_opts *o, const struct bundle *b,
			pid_t pid, struct shim_error *err)
{
	struct oci_state st = {
		.oci_version = b->spec->oci_version,
		.id = (char *)o->id,
		.pid = pid,
		.status = "created",
		.bundle = b->path,
		.rootfs = b->rootfs,
		.owner = "",
		.annotations = b->spec->annotations,
	};
	_cleanup_free_ char *created = now_rfc3339();
	char pid_text[16];

	st.created = created;
	if (proc_start_time(pid, &st.init_start_time, err) < 0 ||
	    store_write_state(dir_fd, &st, err) < 0)
		return -1;
	snprintf(pid_text, sizeof(pid_text), "%d", (int)pid);
	if (o->pid_file && write_file_atomic(o->pid_file, pid_text, err) < 0)
		return shim_error_wrap(err, "--pid-file");
	return 0;
}

/* For an init of ours that must not live on: SIGKILL, then reap it. */
static void kill_and_reap(int pidfd)
{
	int status;

	pidfd_signal(pidfd, SIGKILL, NULL);
	pidfd_reap(pidfd, &status, NULL);
}

/* Wait for the init's word: 0 ready, -1 with its error (or its death). */
static int await_ready(int sync_fd, struct shim_error *err)
{
	struct sync_msg msg;
	int r = sync_recv(sync_fd, &msg, err);

	if (r < 0)
		return -1;
	if (r == 0)
		return shim_fail(err, 0, "the container's init exited during setup");
	if (msg.type == SYNC_ERROR) {
		*err = msg.error;
		return -1;
	}
	return 0;
}

static int check_supported(const struct create_opts *o, const struct bundle *b,
			   struct shim_error *err)
{
	if (!b->spec->has_process)
		return shim_fail(err, 0, "process: missing from %s/config.json", b->path);
	if (b->spec->process.terminal)
		return shim_fail(err, ENOTSUP, "process.terminal: terminals are not supported yet "
				 "(set it to false)");
	if (o->console_socket)
		return shim_fail(err, ENOTSUP, "--console-socket: terminals are not supported yet");
	/* Better refused than silently skipped: both are a promise to the user. */
	if (b->spec->has_seccomp)
		return shim_fail(err, ENOTSUP, "linux.seccomp: seccomp is not supported yet");
	if (b->spec->has_hooks)
		return shim_fail(err, ENOTSUP, "hooks: hooks are not supported yet");
	if (ns_check_supported(b->spec, err) < 0)
		return -1;
	return fd_check_preserved(o->preserve_fds, err);
}

static int spawn_init(const struct create_opts *o, const struct bundle *b, int dir_fd,
		      int *pidfd, struct shim_error *err)
{
	struct ns_join joins;
	int sync[2];
	struct init_ctx ctx = {
		.spec = b->spec, .rootfs = b->rootfs, .bundle = b->path,
		.joins = &joins, .dir_fd = dir_fd, .preserve_fds = o->preserve_fds,
	};
	pid_t pid;
	int r = -1;

	if (ns_open_joins(b->spec, &joins, err) < 0)
		return -1;
	if (ns_enter(&joins, true, err) < 0 || sync_pair(sync, err) < 0) {
		ns_close_joins(&joins);
		return -1;
	}
	ctx.runtime_sync_fd = sync[0];
	ctx.sync_fd = sync[1];
	pid = clone_with_pidfd(ns_clone_flags(b->spec), init_main, &ctx, pidfd, err);
	safe_close(sync[1]);
	ns_close_joins(&joins);
	if (pid > 0) {
		r = await_ready(sync[0], err);
		if (r == 0)
			r = record_state(dir_fd, o, b, pid, err);
		if (r < 0) {
			kill_and_reap(*pidfd);
			*pidfd = safe_close(*pidfd);
		}
	}
	safe_close(sync[0]);
	return r;
}

int container_create(const struct create_opts *o, int *pidfd_out, struct shim_error *err)
{
	struct bundle b = { 0 };
	_cleanup_close_ int dir_fd = -1;
	int pidfd = -1;

	if (store_check_id(o->id, err) < 0 || bundle_load(o->bundle, &b, err) < 0)
		return -1;
	if (check_supported(o, &b, err) < 0)
		goto fail;
	dir_fd = store_create(o->root, o->id, err);
	if (dir_fd < 0)
		goto fail;
	if (mkfifoat(dir_fd, STORE_FIFO, 0600) < 0) {
		shim_fail_errno(err, "mkfifo %s/%s/%s", o->root, o->id, STORE_FIFO);
		goto fail_remove;
	}
	if (spawn_init(o, &b, dir_fd, &pidfd, err) < 0)
		goto fail_remove;
	if (o->pidfd_socket && send_pidfd(o->pidfd_socket, pidfd, err) < 0) {
		kill_and_reap(pidfd);
		goto fail_remove;
	}
	if (pidfd_out)
		*pidfd_out = pidfd;
	else
		safe_close(pidfd);
	bundle_release(&b);
	return 0;

fail_remove:
	safe_close(pidfd);
	store_remove(o->root, o->id, NULL);
fail:
	bundle_release(&b);
	return -1;
}

/* --- the other verbs --- */

int container_load(const char *root, const char *id, struct container *c, struct shim_error *err)
{
	memset(c, 0, sizeof(*c));
	c->pidfd = -1;
	c->dir_fd = store_open(root, id, err);
	if (c->dir_fd < 0)
		return -1;
	c->state = store_read_state(c->dir_fd, id, err);
	if (!c->state) {
		c->dir_fd = safe_close(c->dir_fd);
		return -1;
	}
	c->id = c->state->id;
	c->pidfd = pidfd_open_verified(c->state->pid, c->state->init_start_time, err);
	if (c->pidfd < 0 && errno != ESRCH) {
		container_release(c);
		return -1;
	}
	if (c->pidfd < 0 || pidfd_exited(c->pidfd))
		c->status = STATUS_STOPPED;
	else if (faccessat(c->dir_fd, STORE_FIFO, F_OK, 0) == 0)
		c->status = STATUS_CREATED;
	else
		c->status = STATUS_RUNNING;
	free(c->state->status);
	c->state->status = strdup(c->status == STATUS_CREATED   ? "created"
				  : c->status == STATUS_RUNNING ? "running"
								: "stopped");
	if (c->status == STATUS_STOPPED)
		c->state->pid = 0;
	return 0;
}

void container_release(struct container *c)
{
	c->dir_fd = safe_close(c->dir_fd);
	c->pidfd = safe_close(c->pidfd);
	oci_state_free(c->state);
	c->state = NULL;
}

int container_start(struct container *c, struct shim_error *err)
{
	_cleanup_close_ int fifo = -1;
	struct pollfd p[2];
	char byte;

	if (c->status == STATUS_STOPPED)
		return shim_fail(err, 0, "cannot start a container that has stopped");
	if (c->status == STATUS_RUNNING)
		return shim_fail(err, 0, "cannot start an already running container");
	/* Non-blocking, so an init that died first cannot hang us; its own
	 * blocking open for writing returns as soon as this one exists. */
	fifo = openat(c->dir_fd, STORE_FIFO, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fifo < 0)
		return shim_fail_errno(err, "start: open exec.fifo");
	p[0] = (struct pollfd){ .fd = fifo, .events = POLLIN };
	p[1] = (struct pollfd){ .fd = c->pidfd, .events = POLLIN };
	while (poll(p, 2, -1) < 0)
		if (errno != EINTR)
			return shim_fail_errno(err, "start: poll");
	if (!(p[0].revents & POLLIN) || read(fifo, &byte, 1) != 1)
		return shim_fail(err, 0, "container \"%s\": the init exited before start", c->id);
	if (unlinkat(c->dir_fd, STORE_FIFO, 0) < 0)
		return shim_fail_errno(err, "start: remove exec.fifo");
	c->status = STATUS_RUNNING;
	return 0;
}

static bool same_pid_ns(pid_t pid, const struct stat *ns)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
	return stat(path, &st) == 0 && st.st_ino == ns->st_ino && st.st_dev == ns->st_dev;
}

/* --all: every process in the init's PID namespace, each through a pidfd. */
static int kill_all(struct container *c, int sig, struct shim_error *err)
{
	char path[64];
	struct stat ns;
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)c->state->pid);
	if (stat(path, &ns) < 0)
		return shim_fail_errno(err, "kill --all: %s", path);
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

int container_kill(struct container *c, int sig, bool all, struct shim_error *err)
{
	if (c->status == STATUS_STOPPED)
		return shim_fail(err, 0, "container not running");
	if (all)
		return kill_all(c, sig, err);
	return pidfd_signal(c->pidfd, sig, err);
}

int container_delete(const char *root, struct container *c, bool force, struct shim_error *err)
{
	if (c->status == STATUS_RUNNING && !force)
		return shim_fail(err, 0, "cannot delete container %s that is not stopped: running", c->id);
	if (c->status != STATUS_STOPPED) {
		int r;

		if (pidfd_signal(c->pidfd, SIGKILL, err) < 0)
			return -1;
		r = pidfd_wait_exit(c->pidfd, DELETE_WAIT_MS, err);
		if (r <= 0)
			return r < 0 ? -1 : shim_fail(err, ETIMEDOUT, "container %s: init did not exit after SIGKILL", c->id);
	}
	return store_remove(root, c->id, err);
}

void container_block_forwarded_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(forwarded_signals) / sizeof(forwarded_signals[0]); i++)
		sigaddset(&set, forwarded_signals[i]);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

int container_wait(int pidfd, int *status, struct shim_error *err)
{
	sigset_t set;
	_cleanup_close_ int sfd = -1;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(forwarded_signals) / sizeof(forwarded_signals[0]); i++)
		sigaddset(&set, forwarded_signals[i]);
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
