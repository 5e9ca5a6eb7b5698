/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "shim/cleanup.h"
#include "shim/sysctl.h"

int sysctl_apply(char *const *kv, struct shim_error *err)
{
	for (; kv && kv[0] && kv[1]; kv += 2) {
		char path[PATH_MAX];
		size_t len = strlen(kv[1]);
		_cleanup_close_ int fd = -1;

		snprintf(path, sizeof(path), "/proc/sys/%s", kv[0]);
		for (char *p = path + strlen("/proc/sys/"); *p; p++)
			if (*p == '.')
				*p = '/';
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, kv[1], len) != (ssize_t)len)
			return shim_fail_errno(err, "linux.sysctl.%s: writing %s", kv[0], path);
	}
	return 0;
}
