/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>

#include "oci/base/cleanup.h"
#include "shim/fsutil.h"
#include "shim/namespaces.h"
#include "shim/procfs.h"
#include "shim/syscalls.h"

static const uint64_t ns_flag[OCI_NS_COUNT] = {
	[OCI_NS_PID] = CLONE_NEWPID,	[OCI_NS_NETWORK] = CLONE_NEWNET,
	[OCI_NS_MOUNT] = CLONE_NEWNS,	[OCI_NS_IPC] = CLONE_NEWIPC,
	[OCI_NS_UTS] = CLONE_NEWUTS,	[OCI_NS_USER] = CLONE_NEWUSER,
	[OCI_NS_CGROUP] = CLONE_NEWCGROUP, [OCI_NS_TIME] = CLONE_NEWTIME,
};

/* The name of each kind under /proc/PID/ns/. */
static const char *const ns_proc_names[OCI_NS_COUNT] = {
	[OCI_NS_PID] = "pid",	[OCI_NS_NETWORK] = "net",
	[OCI_NS_MOUNT] = "mnt",	[OCI_NS_IPC] = "ipc",
	[OCI_NS_UTS] = "uts",	[OCI_NS_USER] = "user",
	[OCI_NS_CGROUP] = "cgroup", [OCI_NS_TIME] = "time",
};

uint64_t ns_flag_of(enum oci_ns_type type)
{
	return ns_flag[type];
}

const char *ns_proc_name(enum oci_ns_type type)
{
	return ns_proc_names[type];
}

uint64_t ns_clone_flags(const struct oci_spec *spec)
{
	uint64_t flags = 0;

	for (size_t i = 0; i < spec->n_namespaces; i++)
		if (!spec->namespaces[i].path)
			flags |= ns_flag[spec->namespaces[i].type];
	/* with offsets the init makes it (ns_new_time): a clone's child is
	 * already in it, and its offsets then frozen */
	if (spec->has_time_offsets)
		flags &= ~(uint64_t)CLONE_NEWTIME;
	return flags;
}

int ns_new_time(const struct oci_spec *spec, struct shim_error *err)
{
	_cleanup_close_ int ns = -1;
	char text[128];

	if (unshare(CLONE_NEWTIME) < 0)
		return shim_fail_errno(err, "linux.timeOffsets: unshare(CLONE_NEWTIME)");
	/* CLOCK_MONOTONIC is 1, CLOCK_BOOTTIME 7 */
	snprintf(text, sizeof(text), "1 %lld %u\n7 %lld %u\n", (long long)spec->monotonic.secs,
		 spec->monotonic.nanosecs, (long long)spec->boottime.secs, spec->boottime.nanosecs);
	if (procfs_write_self("timens_offsets", text, err) < 0)
		return shim_error_wrap(err, "linux.timeOffsets");
	ns = procfs_open_self_ns("time_for_children", err);
	if (ns < 0 || setns(ns, CLONE_NEWTIME) < 0)
		return ns < 0 ? shim_error_wrap(err, "linux.timeOffsets")
			      : shim_fail_errno(err, "linux.timeOffsets: entering the time namespace");
	return 0;
}

/*
 * No mount namespace in linux.namespaces: the container runs in the
 * runtime's, as the runtime-spec asks (and as runc, with the runtime's
 * root). Whatever would then change the host's mounts is refused by name.
 */
static int check_without_mount_ns(const struct oci_spec *s, struct shim_error *err)
{
	static const char why[] = "linux.namespaces has no mount namespace, so it would change "
				  "the runtime's own (the host's)";

	/* the mounts are made in it, below root.path (and removed at
	 * delete): not by a user namespace's root, which may not */
	if (s->n_mounts && oci_spec_namespace(s, OCI_NS_USER))
		return shim_fail(err, EPERM, "mounts[0] (%s): linux.namespaces has no mount "
				 "namespace, and a user namespace's root may not mount in the "
				 "runtime's", s->mounts[0].destination);
	if (s->masked_paths && s->masked_paths[0])
		return shim_fail(err, EPERM, "linux.maskedPaths: %s", why);
	if (s->readonly_paths && s->readonly_paths[0])
		return shim_fail(err, EPERM, "linux.readonlyPaths: %s", why);
	if (s->root_readonly)
		return shim_fail(err, EPERM, "root.readonly: %s", why);
	if (s->rootfs_propagation)
		return shim_fail(err, EPERM, "linux.rootfsPropagation: %s", why);
	if (s->n_devices)
		return shim_fail(err, EPERM, "linux.devices[0] (%s): %s", s->devices[0].path, why);
	return 0;
}

bool ns_has_mount(const struct oci_spec *spec)
{
	return oci_spec_namespace(spec, OCI_NS_MOUNT) != NULL;
}

int ns_check_supported(const struct oci_spec *spec, struct shim_error *err)
{
	const struct oci_namespace *user;

	if (!ns_has_mount(spec) && check_without_mount_ns(spec, err) < 0)
		return -1;
	user = oci_spec_namespace(spec, OCI_NS_USER);
	for (size_t i = 0; user && !user->path && i < spec->n_namespaces; i++)
		if (spec->namespaces[i].path)
			return shim_fail(err, ENOTSUP, "linux.namespaces[%zu]: joining a namespace by path "
					 "together with a new user namespace is not supported yet", i);
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
		/* a joined user namespace is entered at the clone (userns_join.h) */
		if (j->fd[t] < 0 || (t == OCI_NS_PID) != pid_only || t == OCI_NS_USER)
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

int ns_write_map(pid_t pid, const char *file, const struct oci_id_mapping *m, size_t n,
		 const char *field, struct shim_error *err)
{
	char text[4096];
	size_t used = 0;

	for (size_t i = 0; i < n; i++) {
		int w = snprintf(text + used, sizeof(text) - used, "%u %u %u\n", m[i].container_id,
				 m[i].host_id, m[i].size);

		if (w < 0 || (size_t)w >= sizeof(text) - used)
			return shim_fail(err, E2BIG, "%s: too many entries", field);
		used += (size_t)w;
	}
	if (procfs_write_pid((int)pid, file, text, err) < 0)
		return shim_error_wrap(err, "%s", field);
	return 0;
}

int ns_write_id_maps(pid_t pid, const struct oci_spec *spec, struct shim_error *err)
{
	if (ns_write_map(pid, "uid_map", spec->uid_mappings, spec->n_uid_mappings,
			 "linux.uidMappings", err) < 0 ||
	    ns_write_map(pid, "gid_map", spec->gid_mappings, spec->n_gid_mappings,
			 "linux.gidMappings", err) < 0)
		return -1;
	return 0;
}

static int host_id_of_zero(const struct oci_id_mapping *m, size_t n, uint32_t *out)
{
	for (size_t i = 0; i < n; i++)
		if (m[i].container_id == 0) {
			*out = m[i].host_id;
			return 0;
		}
	return -1;
}

int ns_root_host_ids(const struct oci_spec *spec, uid_t *uid, gid_t *gid)
{
	uint32_t u, g;

	if (host_id_of_zero(spec->uid_mappings, spec->n_uid_mappings, &u) < 0 ||
	    host_id_of_zero(spec->gid_mappings, spec->n_gid_mappings, &g) < 0)
		return -1;
	*uid = u;
	*gid = g;
	return 0;
}

bool ns_new_user(const struct oci_spec *spec)
{
	const struct oci_namespace *user = oci_spec_namespace(spec, OCI_NS_USER);

	return user && !user->path;
}

bool ns_has_user(const struct oci_spec *spec)
{
	return oci_spec_namespace(spec, OCI_NS_USER) != NULL;
}
