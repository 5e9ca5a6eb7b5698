/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "oci/base/cleanup.h"
#include "shim/fd.h"
#include "shim/pidfd.h"
#include "shim/syscalls.h"

int proc_start_time(pid_t pid, unsigned long long *out, struct shim_error *err)
{
	char path[64], buf[1024], *p, *end = NULL;
	unsigned long long t;
	ssize_t n;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return shim_fail_errno(err, "open %s", path);
	n = read(fd, buf, sizeof(buf) - 1);
	safe_close(fd);
	if (n <= 0)
		return shim_fail(err, n < 0 ? errno : EIO, "read %s", path);
	buf[n] = '\0';
	/* comm (field 2) may hold spaces and ')': fields count from the last ')' */
	p = strrchr(buf, ')');
	if (!p)
		return shim_fail(err, EINVAL, "parse %s", path);
	for (field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	/* strtoull, not sscanf: scanf's machinery is a costly first call */
	errno = 0;
	t = p ? strtoull(p + 1, &end, 10) : 0;
	if (!p || end == p + 1 || errno != 0)
		return shim_fail(err, EINVAL, "parse %s: no start time", path);
	*out = t;
	return 0;
}

int pidfd_open_verified(pid_t pid, unsigned long long start_time, int *fd,
			struct shim_error *err)
{
	unsigned long long now;

	*fd = -1;
	if (pid <= 0)
		return 0;
	*fd = sys_pidfd_open(pid, 0);
	if (*fd < 0) {
		*fd = -1;
		/* EINVAL: the number lives on only as a session or group ID
		 * (the init led its session and is gone; a child stayed) */
		return errno == ESRCH || errno == EINVAL ? 0
			: shim_fail_errno(err, "pidfd_open(%d)", (int)pid);
	}
	/* The pidfd pins what the PID names now; if that is not the process
	 * that started at start_time, the container's init is gone. */
	if (proc_start_time(pid, &now, NULL) < 0 || now != start_time) {
		safe_close(*fd);
		*fd = -1;
		return 0;
	}
	return 1;
}

bool pidfd_exited(int pidfd)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLIN | POLLHUP));
}

int pidfd_wait_exit(int pidfd, int timeout_ms, struct shim_error *err)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };
	int r;

	do
		r = poll(&p, 1, timeout_ms);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return shim_fail_errno(err, "poll pidfd");
	return r;
}

int pidfd_signal(int pidfd, int sig, struct shim_error *err)
{
	if (sys_pidfd_send_signal(pidfd, sig, NULL, 0) < 0)
		return shim_fail_errno(err, "pidfd_send_signal(%s)", strsignal(sig));
	return 0;
}

int pidfd_reap(int pidfd, int *status, struct shim_error *err)
{
	siginfo_t info = { 0 };

	while (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WEXITED) < 0)
		if (errno != EINTR)
			return shim_fail_errno(err, "waitid(P_PIDFD)");
	*status = info.si_code == CLD_EXITED ? info.si_status : 128 + info.si_status;
	return 0;
}

void pidfd_describe_exit(int pidfd, char *buf, size_t len)
{
	siginfo_t info = { 0 };

	if (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WEXITED | WNOHANG | WNOWAIT) < 0)
		snprintf(buf, len, "its status is not ours to see");
	else if (info.si_pid == 0)
		snprintf(buf, len, "it has not exited");
	else if (info.si_code == CLD_EXITED)
		snprintf(buf, len, "exit status %d", info.si_status);
	else
		snprintf(buf, len, "killed by signal %d (%s)", info.si_status,
			 strsignal(info.si_status));
}

int pidfd_send_to_socket(const char *socket_path, int pidfd, struct shim_error *err)
{
	_cleanup_close_ int s = fd_connect_unix(socket_path, "--pidfd-socket", err);

	if (s < 0)
		return -1;
	if (fd_send(s, pidfd, err) < 0)
		return shim_error_wrap(err, "--pidfd-socket %s", socket_path);
	return 0;
}

/* For a child of ours that must not live on: SIGKILL, then reap it. */
void pidfd_kill_and_reap(int pidfd)
{
	int status;

	pidfd_signal(pidfd, SIGKILL, NULL);
	pidfd_reap(pidfd, &status, NULL);
}
