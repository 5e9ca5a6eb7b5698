/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/state.h: a container's state, as the OCI state JSON `state` prints
 * and as the runtime keeps it in its state folder (with private fields
 * under "shim" that `state` leaves out).
 */
#ifndef OCI_STATE_H
#define OCI_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "oci/base/error.h"

struct oci_state {
	char *oci_version;
	char *id;
	pid_t pid;			/* 0 once stopped and unknown */
	char *status;			/* creating, created, running, paused, stopped */
	char *bundle;			/* absolute */
	char *rootfs;			/* absolute */
	char *created;			/* RFC 3339, UTC */
	char *owner;
	char **annotations;		/* key, value, ..., NULL */
	/* private: the init's start time (/proc/PID/stat field 22), so a
	 * recycled PID is never taken for the container's init */
	unsigned long long init_start_time;
	/* private: the cgroup folder under /sys/fs/cgroup, NULL if none */
	char *cgroup_path;
	/* private: the config has poststart / poststop hooks (read again from
	 * the bundle when they are due) */
	bool has_poststart, has_poststop;
};

/* What the writers below read: the same fields, none of them theirs to
 * change or free, so a caller fills one from strings it only borrows. */
struct oci_state_view {
	const char *oci_version, *id, *status, *bundle, *rootfs, *created, *owner;
	pid_t pid;
	char *const *annotations;
	unsigned long long init_start_time;
	const char *cgroup_path;
	bool has_poststart, has_poststop;
};

/* The view of a state read back (oci_state_parse). */
struct oci_state_view oci_state_view(const struct oci_state *st);

/* A state of its own (oci_state_free) with the view's values: what a
 * reader of its JSON would get, without writing and parsing it. */
struct oci_state *oci_state_from_view(const struct oci_state_view *v, struct shim_error *err);

/* JSON text (malloc'd). with_private: include the "shim" member; pretty:
 * two-space indented, as runc prints `state`. */
char *oci_state_to_json(const struct oci_state_view *st, bool with_private, bool pretty,
			struct shim_error *err);

/* A JSON array of states, compact, as `list --format json` prints. */
char *oci_state_list_to_json(struct oci_state *const *states, size_t n,
			     struct shim_error *err);

/* What a seccomp agent gets with the notify fd (runtime-spec
 * ContainerProcessState): fds ["seccompFd"], pid, metadata, state. */
char *oci_process_state_to_json(const struct oci_state_view *st, const char *metadata,
				struct shim_error *err);

struct oci_state *oci_state_parse(const char *json, size_t len, struct shim_error *err);

void oci_state_free(struct oci_state *st);

#endif
