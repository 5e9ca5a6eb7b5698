/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/cgroups/systemd.h: the systemd cgroup driver (--systemd-cgroup).
 *
 * cgroupsPath is runc's "slice:prefix:name" (default "system.slice:shim:ID"):
 * the container's cgroup is a transient scope, "prefix-name.scope" in that
 * slice, made through systemd's D-Bus API (StartTransientUnit) with
 * Delegate=yes and the resources systemd has properties for; shim/cgroups/cgroup.c
 * then writes every resource to the scope's files as with cgroupfs, and
 * attaches the device program. A scope needs a process to be made: a
 * holder, a child of the runtime that only waits, starts it and is killed
 * once the init has been cloned into the scope. delete stops the unit.
 * systemd is reached on its private socket (shim/cgroups/dbus.h says why not
 * sd-bus).
 */
#ifndef SHIM_SYSTEMD_H
#define SHIM_SYSTEMD_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "oci/resources.h"

/* The state folder's record of the unit, for delete. */
#define STORE_SYSTEMD_UNIT "systemd-unit"

struct systemd_scope {
	char slice[256];	/* "system.slice" */
	char unit[256];		/* "shim-ID.scope" */
	char rel[PATH_MAX];	/* its cgroup below /sys/fs/cgroup, once started */
	pid_t holder;		/* the process that made it, or 0 */
	int holder_pidfd;
};

/* The slice and unit cgroupsPath names (NULL: the default); errors name
 * linux.cgroupsPath. */
int systemd_scope_names(const char *cgroups_path, const char *id, struct systemd_scope *s,
			struct shim_error *err);

/* Start the scope, with the resources systemd knows as properties, and wait
 * until its holder is in it (s->rel is then its cgroup). On failure s->unit
 * is empty unless the unit was started (ours, to stop), and s->rel is. */
int systemd_scope_start(struct systemd_scope *s, const char *description,
			const struct oci_resources *r, struct shim_error *err);

/* Kill and reap the holder (idempotent). */
void systemd_scope_drop_holder(struct systemd_scope *s);

/* Set the resources systemd has properties for on the unit (update). */
int systemd_unit_update(const char *unit, const struct oci_resources *r, struct shim_error *err);

/* Stop the unit; one that is gone already is fine. */
int systemd_unit_stop(const char *unit, struct shim_error *err);

#endif
