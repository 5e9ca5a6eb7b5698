/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/lsm.h"
#include "shim/procfs.h"

/* As runc tells: the module says it is enabled and its policy interface
 * (securityfs) is there. */
bool lsm_apparmor_enabled(void)
{
	char c = 0;
	int fd = open("/sys/module/apparmor/parameters/enabled", O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return false;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c == 'Y' && stat("/sys/kernel/security/apparmor", &st) == 0;
}

bool lsm_selinux_enabled(void)
{
	struct stat st;

	return stat("/sys/fs/selinux/enforce", &st) == 0;
}

static bool given(const char *label)
{
	return label && *label;
}

int lsm_check(const struct oci_process *p, const char *mount_label, struct shim_error *err)
{
	if (given(p->apparmor_profile) && !lsm_apparmor_enabled())
		return shim_fail(err, ENOTSUP, "process.apparmorProfile: \"%s\" asked for, but "
				 "AppArmor is not enabled on this host", p->apparmor_profile);
	if (given(p->selinux_label) && !lsm_selinux_enabled())
		return shim_fail(err, ENOTSUP, "process.selinuxLabel: \"%s\" asked for, but "
				 "SELinux is not enabled on this host", p->selinux_label);
	if (given(mount_label) && !lsm_selinux_enabled())
		return shim_fail(err, ENOTSUP, "linux.mountLabel: \"%s\" asked for, but "
				 "SELinux is not enabled on this host", mount_label);
	return 0;
}

/* attr/apparmor/exec (5.8); where opening it says ENOENT, the kernel has
 * only the shared attr/exec. (A write can say ENOENT too: no such
 * profile, which is an error.) */
static int set_apparmor(const char *profile, struct shim_error *err)
{
	_cleanup_close_ int fd = procfs_open_self("attr/apparmor/exec", O_WRONLY, err);
	char text[4096];

	if (fd < 0 && err->errnum == ENOENT)
		fd = procfs_open_self("attr/exec", O_WRONLY, err);
	if (fd < 0 || path_format(text, sizeof(text), err, "exec %s", profile) < 0)
		return shim_error_wrap(err, "process.apparmorProfile");
	if (write_all(fd, text) < 0)
		return shim_fail_errno(err, "process.apparmorProfile: \"%s\"", profile);
	return 0;
}

int lsm_set_exec_labels(const struct oci_process *p, struct shim_error *err)
{
	if (given(p->apparmor_profile)) {
		if (set_apparmor(p->apparmor_profile, err) < 0)
			return -1;
		log_debug("AppArmor profile %s set for the exec", p->apparmor_profile);
	}
	if (given(p->selinux_label) && procfs_write_self("attr/exec", p->selinux_label, err) < 0)
		return shim_error_wrap(err, "process.selinuxLabel: \"%s\"", p->selinux_label);
	return 0;
}
