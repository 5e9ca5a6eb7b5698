/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "shim/fsutil.h"
#include "shim/sysctl.h"

int sysctl_apply(char *const *kv, struct shim_error *err)
{
	for (; kv && kv[0] && kv[1]; kv += 2) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "/proc/sys/%s", kv[0]);
		for (char *p = path + strlen("/proc/sys/"); *p; p++)
			if (*p == '.')
				*p = '/';
		if (write_text_file(path, kv[1], err) < 0)
			return shim_error_wrap(err, "linux.sysctl.%s", kv[0]);
	}
	return 0;
}
