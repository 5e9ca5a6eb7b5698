/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "shim/clone.h"
#include "shim/syscalls.h"

static pid_t clone_fallback(uint64_t ns_flags, int *pidfd, struct shim_error *err)
{
	pid_t pid;

	if (ns_flags & CLONE_NEWTIME)
		return shim_fail(err, ENOSYS, "a time namespace needs clone3 (Linux 5.8)");
	pid = sys_clone_forklike((unsigned long)ns_flags | SIGCHLD);
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

pid_t clone_with_pidfd(uint64_t ns_flags, clone_fn fn, void *arg, int *pidfd,
		       struct shim_error *err)
{
	int fd = -1;
	struct shim_clone_args args = {
		.flags = ns_flags | CLONE_PIDFD,
		.pidfd = (uint64_t)(uintptr_t)&fd,
		.exit_signal = SIGCHLD,
	};
	pid_t pid;

	/* CLONE_ARGS_SIZE_VER0: what every kernel with clone3 takes */
	pid = sys_clone3(&args, offsetof(struct shim_clone_args, set_tid));
	if (pid < 0 && errno == ENOSYS)
		pid = clone_fallback(ns_flags, &fd, err);
	else if (pid < 0)
		return shim_fail_errno(err, "clone3");
	if (pid == 0)
		_exit(fn(arg));
	if (pid > 0)
		*pidfd = fd;
	return pid;
}
