/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "shim/fd.h"
#include "shim/syscalls.h"

int fd_close_from_proc(unsigned int first, struct shim_error *err)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (!d)
		return shim_fail_errno(err, "closing fds: opendir /proc/self/fd");
	while ((e = readdir(d))) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);

		if (*end || e->d_name[0] == '.' || fd < (long)first || fd == dirfd(d))
			continue;
		close((int)fd);
	}
	closedir(d);
	return 0;
}

int fd_close_from(unsigned int first, struct shim_error *err)
{
	if (sys_close_range(first, ~0U, 0) == 0)
		return 0;
	if (errno != ENOSYS)
		return shim_fail_errno(err, "close_range(%u, ~0U)", first);
	return fd_close_from_proc(first, err);
}

int fd_check_preserved(unsigned int n, struct shim_error *err)
{
	for (unsigned int fd = 3; fd < 3 + n; fd++)
		if (fcntl((int)fd, F_GETFD) < 0)
			return shim_fail_errno(err, "--preserve-fds %u: fd %u is not open", n, fd);
	return 0;
}

int fd_pass_preserved(unsigned int n, struct shim_error *err)
{
	for (unsigned int fd = 3; fd < 3 + n; fd++) {
		int flags = fcntl((int)fd, F_GETFD);

		if (flags < 0 || fcntl((int)fd, F_SETFD, flags & ~FD_CLOEXEC) < 0)
			return shim_fail_errno(err, "--preserve-fds: fd %u", fd);
	}
	return 0;
}
