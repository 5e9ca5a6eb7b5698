/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "shim/log.h"
#include "shim/procfs.h"
#include "shim/sysctl.h"

static const char *const ipc_keys[] = {
	"kernel.msgmax", "kernel.msgmnb", "kernel.msgmni", "kernel.sem", "kernel.shmall",
	"kernel.shmmax", "kernel.shmmni", "kernel.shm_rmid_forced", NULL,
};

static bool is_ipc_key(const char *key)
{
	if (strncmp(key, "fs.mqueue.", strlen("fs.mqueue.")) == 0)
		return true;
	for (size_t i = 0; ipc_keys[i]; i++)
		if (strcmp(key, ipc_keys[i]) == 0)
			return true;
	return false;
}

/* The config gives the container its own namespace of this type: a new
 * one, or one joined by path that is not the runtime's. */
static bool owns_ns(const struct oci_spec *spec, enum oci_ns_type type, const char *proc_name)
{
	const struct oci_namespace *ns = oci_spec_namespace(spec, type);
	char ours[64];
	struct stat a, b;

	if (!ns)
		return false;
	if (!ns->path)
		return true;
	snprintf(ours, sizeof(ours), "/proc/self/ns/%s", proc_name);
	if (stat(ns->path, &a) < 0 || stat(ours, &b) < 0)
		return false;
	return a.st_ino != b.st_ino || a.st_dev != b.st_dev;
}

static int check_key(const struct oci_spec *spec, const char *key, struct shim_error *err)
{
	/* as runc: the hostname field says it; domainname has a sysctl only */
	if (strcmp(key, "kernel.hostname") == 0)
		return shim_fail(err, EPERM, "linux.sysctl.%s: refused: set hostname in the config "
				 "instead", key);
	if (strcmp(key, "kernel.domainname") == 0) {
		if (!owns_ns(spec, OCI_NS_UTS, "uts"))
			return shim_fail(err, EPERM, "linux.sysctl.%s: needs a UTS namespace of the "
					 "container's own (it would change the host's)", key);
		return 0;
	}
	if (is_ipc_key(key)) {
		if (!owns_ns(spec, OCI_NS_IPC, "ipc"))
			return shim_fail(err, EPERM, "linux.sysctl.%s: needs an IPC namespace of the "
					 "container's own (it would change the host's)", key);
		return 0;
	}
	if (strncmp(key, "net.", 4) == 0) {
		if (!owns_ns(spec, OCI_NS_NETWORK, "net"))
			return shim_fail(err, EPERM, "linux.sysctl.%s: needs a network namespace of the "
					 "container's own (it would change the host's)", key);
		return 0;
	}
	return shim_fail(err, EPERM, "linux.sysctl.%s: not namespaced: setting it would change "
			 "the host", key);
}

int sysctl_check(const struct oci_spec *spec, struct shim_error *err)
{
	for (char *const *kv = spec->sysctl; kv && kv[0] && kv[1]; kv += 2)
		if (check_key(spec, kv[0], err) < 0)
			return -1;
	return 0;
}

int sysctl_apply(char *const *kv, struct shim_error *err)
{
	for (; kv && kv[0] && kv[1]; kv += 2) {
		char path[PATH_MAX];

		if (snprintf(path, sizeof(path), "sys/%s", kv[0]) >= (int)sizeof(path))
			return shim_fail(err, ENAMETOOLONG, "linux.sysctl.%s", kv[0]);
		for (char *p = path + strlen("sys/"); *p; p++)
			if (*p == '.')
				*p = '/';
		log_debug("init: linux.sysctl %s = %s", kv[0], kv[1]);
		if (procfs_write(path, kv[1], err) < 0)
			return shim_error_wrap(err, "linux.sysctl.%s", kv[0]);
	}
	return 0;
}
