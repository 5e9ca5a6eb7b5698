/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "shim/clone.h"
#include "shim/pidfd.h"
#include "shim/syscalls.h"

/*
 * Without CLONE_INTO_CGROUP the child moves itself, before it runs anything
 * else, and only then makes its cgroup namespace, so that the namespace's
 * root is the container's folder and not the runtime's.
 */
static int join_cgroup(int cgroup_fd, uint64_t ns_flags)
{
	int fd = openat(cgroup_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, "0", 1) != 1)
		return -1;
	close(fd);
	if ((ns_flags & CLONE_NEWCGROUP) && unshare(CLONE_NEWCGROUP) < 0)
		return -1;
	return 0;
}

static pid_t clone_fallback(uint64_t ns_flags, int cgroup_fd, int *pidfd, struct shim_error *err)
{
	uint64_t flags = ns_flags;
	pid_t pid;

	if (ns_flags & CLONE_NEWTIME)
		return shim_fail(err, ENOSYS, "a time namespace needs clone3 (Linux 5.8)");
	if (cgroup_fd >= 0)
		flags &= ~(uint64_t)CLONE_NEWCGROUP;
	pid = sys_clone_forklike((unsigned long)flags | SIGCHLD);
	if (pid == 0 && cgroup_fd >= 0 && join_cgroup(cgroup_fd, ns_flags) < 0) {
		char text[SHIM_ERRNO_TEXT_MAX];

		dprintf(STDERR_FILENO, "shim: joining the container's cgroup: %s\n",
			shim_errno_text(errno, text, sizeof(text)));
		_exit(127);
	}
	if (pid <= 0)
		return pid == 0 ? 0 : shim_fail_errno(err, "clone");
	*pidfd = sys_pidfd_open(pid, 0);
	if (*pidfd < 0) {
		int saved = errno;

		kill(pid, SIGKILL);
		return shim_fail(err, saved, "pidfd_open(%d) after clone", (int)pid);
	}
	return pid;
}

pid_t clone_with_pidfd(uint64_t ns_flags, int cgroup_fd, clone_fn fn, void *arg, int *pidfd,
		       struct shim_error *err)
{
	int fd = -1;
	struct shim_clone_args args = {
		.flags = ns_flags | CLONE_PIDFD,
		.pidfd = (uint64_t)(uintptr_t)&fd,
		.exit_signal = SIGCHLD,
	};
	/* CLONE_ARGS_SIZE_VER0: what every kernel with clone3 takes */
	size_t size = offsetof(struct shim_clone_args, set_tid);
	pid_t pid;

	/* a sibling takes our parent's exit signal; clone3 wants none given */
	if (ns_flags & CLONE_PARENT)
		args.exit_signal = 0;
	if (cgroup_fd >= 0) {
		args.flags |= CLONE_INTO_CGROUP;
		args.cgroup = (uint64_t)cgroup_fd;
		size = sizeof(args);	/* VER2 */
	}
	pid = sys_clone3(&args, size);
	/* E2BIG: a clone3 older than CLONE_INTO_CGROUP (5.7) */
	if (pid < 0 && (errno == ENOSYS || (errno == E2BIG && cgroup_fd >= 0)))
		pid = clone_fallback(ns_flags, cgroup_fd, &fd, err);
	else if (pid < 0)
		return shim_fail_errno(err, "clone3");
	if (pid == 0)
		_exit(fn(arg));
	if (pid > 0)
		*pidfd = fd;
	return pid;
}

struct helper_call {
	helper_fn fn;
	void *arg;
	int out;
};

static int run_helper(void *arg)
{
	struct helper_call *h = arg;

	return h->fn(h->arg, h->out);
}

/* Read what the helper writes to pipefd[0] (its write end closed here
 * first), reap it by pidfd; both fds closed. */
static ssize_t collect_helper(int pipefd[2], int pidfd, void *buf, size_t len, int *status,
			      struct shim_error *err)
{
	size_t got = 0;
	ssize_t n = 0;

	close(pipefd[1]);
	while (got < len && (n = read(pipefd[0], (char *)buf + got, len - got)) > 0)
		got += (size_t)n;
	close(pipefd[0]);
	if (pidfd_reap(pidfd, status, err) < 0) {
		close(pidfd);
		return -1;
	}
	close(pidfd);
	return (ssize_t)got;
}

ssize_t clone_helper_output(helper_fn fn, void *arg, void *buf, size_t len, int *status,
			    struct shim_error *err)
{
	struct helper_call h = { fn, arg, -1 };
	int pipefd[2], pidfd = -1;

	*status = -1;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return shim_fail_errno(err, "pipe for a helper");
	h.out = pipefd[1];
	if (clone_with_pidfd(0, -1, run_helper, &h, &pidfd, err) < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	return collect_helper(pipefd, pidfd, buf, len, status, err);
}
