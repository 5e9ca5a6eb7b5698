/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>

#include "shim/cleanup.h"
#include "shim/namespaces.h"
#include "shim/syscalls.h"

static const uint64_t ns_flag[OCI_NS_COUNT] = {
	[OCI_NS_PID] = CLONE_NEWPID,	[OCI_NS_NETWORK] = CLONE_NEWNET,
	[OCI_NS_MOUNT] = CLONE_NEWNS,	[OCI_NS_IPC] = CLONE_NEWIPC,
	[OCI_NS_UTS] = CLONE_NEWUTS,	[OCI_NS_USER] = CLONE_NEWUSER,
	[OCI_NS_CGROUP] = CLONE_NEWCGROUP, [OCI_NS_TIME] = CLONE_NEWTIME,
};

uint64_t ns_clone_flags(const struct oci_spec *spec)
{
	uint64_t flags = 0;

	for (size_t i = 0; i < spec->n_namespaces; i++)
		if (!spec->namespaces[i].path)
			flags |= ns_flag[spec->namespaces[i].type];
	return flags;
}

int ns_check_supported(const struct oci_spec *spec, struct shim_error *err)
{
	if (!oci_spec_namespace(spec, OCI_NS_MOUNT))
		return shim_fail(err, 0, "linux.namespaces: a mount namespace is required "
				 "(the rootfs is set up in it)");
	if (oci_spec_namespace(spec, OCI_NS_USER))
		return shim_fail(err, ENOTSUP, "linux.namespaces: user namespaces are not supported yet");
	return 0;
}

int ns_open_joins(const struct oci_spec *spec, struct ns_join *j, struct shim_error *err)
{
	for (int t = 0; t < OCI_NS_COUNT; t++)
		j->fd[t] = -1;
	for (size_t i = 0; i < spec->n_namespaces; i++) {
		const struct oci_namespace *ns = &spec->namespaces[i];

		if (!ns->path)
			continue;
		j->fd[ns->type] = open(ns->path, O_RDONLY | O_CLOEXEC);
		if (j->fd[ns->type] < 0) {
			shim_fail_errno(err, "linux.namespaces[%zu].path: open %s", i, ns->path);
			ns_close_joins(j);
			return -1;
		}
	}
	return 0;
}

int ns_enter(struct ns_join *j, bool pid_only, struct shim_error *err)
{
	for (int t = 0; t < OCI_NS_COUNT; t++) {
		if (j->fd[t] < 0 || (t == OCI_NS_PID) != pid_only)
			continue;
		if (setns(j->fd[t], (int)ns_flag[t]) < 0)
			return shim_fail_errno(err, "joining the %s namespace", oci_ns_type_name(t));
	}
	return 0;
}

void ns_close_joins(struct ns_join *j)
{
	for (int t = 0; t < OCI_NS_COUNT; t++)
		j->fd[t] = safe_close(j->fd[t]);
}
