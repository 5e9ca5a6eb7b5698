/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/namespaces.h: linux.namespaces -> clone flags for the ones to create,
 * open fds for the ones to join by path.
 *
 * Joining happens in two places: a PID namespace only applies to children,
 * so the runtime joins it before clone; the others the init joins first
 * thing in the child.
 */
#ifndef SHIM_NAMESPACES_H
#define SHIM_NAMESPACES_H

#include <stdint.h>

#include "oci/base/error.h"
#include "oci/spec.h"

struct ns_join {
	int fd[OCI_NS_COUNT];	/* -1 where there is nothing to join */
};

/* CLONE_NEW* for every namespace the config asks to create. */
/* The CLONE_NEW* flag, and the /proc/PID/ns/ name, of a kind. */
uint64_t ns_flag_of(enum oci_ns_type type);
const char *ns_proc_name(enum oci_ns_type type);

uint64_t ns_clone_flags(const struct oci_spec *spec);

/* In the init, for linux.timeOffsets: a new time namespace with the
 * offsets, entered (setns on time_for_children). */
int ns_new_time(const struct oci_spec *spec, struct shim_error *err);

/* What this runtime can do: a new or joined mount namespace is required,
 * user namespaces are not supported yet. */
/* Does the container have a mount namespace of its own (new or joined)?
 * Without one it runs in the runtime's: no rootfs setup at all. */
bool ns_has_mount(const struct oci_spec *spec);

/* A new user namespace (one without a path). */
bool ns_new_user(const struct oci_spec *spec);

/* A user namespace, new or joined by path: the init waits for the runtime
 * (ID maps, bind sources) and acts as that namespace's root. */
bool ns_has_user(const struct oci_spec *spec);

int ns_check_supported(const struct oci_spec *spec, struct shim_error *err);

/* Open each linux.namespaces[].path; the error names the entry. */
int ns_open_joins(const struct oci_spec *spec, struct ns_join *j, struct shim_error *err);

/* setns() into the PID namespace (pid_only) or into all the others. */
int ns_enter(struct ns_join *j, bool pid_only, struct shim_error *err);

void ns_close_joins(struct ns_join *j);

/* /proc/PID/uid_map and gid_map from linux.uidMappings and gidMappings,
 * written by the runtime (as root in the parent user namespace) while the
 * child waits. */
/* Write ID mappings to /proc/PID/FILE (uid_map, gid_map); field names
 * them in errors ("linux.uidMappings"). */
int ns_write_map(pid_t pid, const char *file, const struct oci_id_mapping *m, size_t n,
		 const char *field, struct shim_error *err);

int ns_write_id_maps(pid_t pid, const struct oci_spec *spec, struct shim_error *err);

/* The host uid and gid that container ID 0 maps to; -1 if unmapped. */
int ns_root_host_ids(const struct oci_spec *spec, uid_t *uid, gid_t *gid);

#endif
