/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/clean_clone.h"
#include "shim/fd.h"
#include "shim/log.h"
#include "shim/pidfd.h"
#include "shim/procfs.h"
#include "shim/syscalls.h"

/* What the helper sends back: the child's PID, or its error. */
struct reply {
	pid_t pid;
	struct shim_error err;
};

struct helper {
	const struct clean_clone *job;
	int out;		/* the reply pipe's write end */
};

/* The child's first act: let go of the reply pipe, the one fd of the
 * helper's it does not need. */
static int child_entry(void *arg)
{
	const struct helper *h = arg;

	close(h->out);
	return h->job->fn(h->job->arg);
}

/* Every fd but 0-2, those below job->first, job->keep, out and the
 * --debug log. Without close_range the fd folder is read,
 * on the runtime's procfs handle: both closed before anything is joined. */
static int close_all_but_kept(const struct helper *h, struct shim_error *err)
{
	const struct clean_clone *j = h->job;
	int keep[FD_MAX_KEEP], n = 0, dir = -1, log;

	for (size_t i = 0; i < CLEAN_CLONE_MAX_KEEP; i++)
		if (j->keep[i] >= 0)
			keep[n++] = j->keep[i];
	for (size_t i = 0; i < j->n_more; i++) {
		if (j->more_keep[i] < 0)
			continue;
		if (n == FD_MAX_KEEP - 2)
			return shim_fail(err, E2BIG, "more than %d fds to hand over",
					 FD_MAX_KEEP - 2);
		keep[n++] = j->more_keep[i];
	}
	keep[n++] = h->out;
	if ((log = log_release()) >= 0)
		keep[n++] = log;
	if (!fd_have_close_range()) {
		dir = procfs_open_self("fd", O_RDONLY | O_DIRECTORY, err);
		if (dir < 0)
			return shim_error_wrap(err, "our fd folder");
	}
	/* the handle is of the runtime's PID namespace: never taken inside */
	procfs_release();
	if (fd_close_sparing(dir, j->first, keep, (size_t)n, err) < 0) {
		safe_close(dir);
		return -1;
	}
	safe_close(dir);
	return 0;
}

static int helper_main(void *arg)
{
	const struct helper *h = arg;
	const struct clean_clone *j = h->job;
	struct reply r = { .pid = -1 };
	int pidfd = -1;

	/* inherited by the child: nobody without CAP_SYS_PTRACE over the
	 * host's user namespace may ptrace it or open its /proc files */
	if (!j->dumpable && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		shim_fail_errno(&r.err, "prctl(PR_SET_DUMPABLE)");
	else if (close_all_but_kept(h, &r.err) < 0)
		shim_error_wrap(&r.err, "closing the runtime's fds before entering the container");
	else if (j->enter && j->enter(j->arg, &r.err) < 0)
		;
	else {
		r.pid = clone_with_pidfd(j->ns_flags | CLONE_PARENT, -1, child_entry, arg, &pidfd,
					 &r.err);
		if (r.pid > 0)
			close(pidfd);
	}
	return write(h->out, &r, sizeof(r)) == (ssize_t)sizeof(r) && r.pid > 0 ? 0 : 1;
}

static ssize_t read_reply(int fd, struct reply *r)
{
	size_t got = 0;
	ssize_t n = 0;

	while (got < sizeof(*r) && (n = read(fd, (char *)r + got, sizeof(*r) - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* The PID must name a child of ours: anything else (a reply forged
 * through the pipe) is refused before it is waited on or signalled. */
static int open_child(pid_t pid, int *pidfd, struct shim_error *err)
{
	siginfo_t info = { 0 };

	*pidfd = sys_pidfd_open(pid, 0);
	if (*pidfd < 0)
		return shim_fail_errno(err, "pidfd_open(%d) of the process cloned into the container",
				       (int)pid);
	if (waitid((idtype_t)P_PIDFD, (id_t)*pidfd, &info, WEXITED | WNOHANG | WNOWAIT) < 0) {
		*pidfd = safe_close(*pidfd);
		return shim_fail(err, EPROTO, "the helper named %d, which is no child of ours",
				 (int)pid);
	}
	return 0;
}

pid_t clean_clone(const struct clean_clone *job, int *pidfd, struct shim_error *err)
{
	struct helper h = { .job = job };
	struct reply r = { .pid = -1 };
	int pipefd[2], helper_fd = -1, status = -1;
	ssize_t n;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return shim_fail_errno(err, "a pipe for the helper that clones into the container");
	h.out = pipefd[1];
	if (clone_with_pidfd(0, job->cgroup_fd, helper_main, &h, &helper_fd, err) < 0) {
		fd_close_pair(pipefd);
		return -1;
	}
	close(pipefd[1]);
	n = read_reply(pipefd[0], &r);
	close(pipefd[0]);
	pidfd_reap(helper_fd, &status, NULL);
	close(helper_fd);
	if (n != (ssize_t)sizeof(r))
		return shim_fail(err, EPROTO, "the helper that clones into the container exited "
				 "(status %d) without a word", status);
	if (r.pid <= 0) {
		*err = r.err;
		return -1;
	}
	/* a child of ours we could not hold sees its sync socket close */
	return open_child(r.pid, pidfd, err) < 0 ? -1 : r.pid;
}
