/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/cgroups/resctrl.h: linux.intelRdt through the resctrl filesystem.
 *
 * The container's group is closID's, or one named after the container;
 * create makes or joins it before the init runs, writes its schemata
 * (runtime-spec's rules: oci/intel_rdt.h) and puts the init's PID in its
 * tasks; exec puts each exec'd process there too (a child of the runtime
 * is in the runtime's group otherwise). With enableMonitoring, each goes
 * on into the container's own monitoring group, mon_groups/ID of that
 * group. delete removes the monitoring group, and the group made for the
 * container alone (ROOT/ID/resctrl names it), never a closID group,
 * which other containers may share. Without a resctrl mount in the
 * runtime's mount namespace, a config with intelRdt fails, named.
 */
#ifndef SHIM_RESCTRL_H
#define SHIM_RESCTRL_H

#include <stdbool.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "oci/intel_rdt.h"

/* The state folder's record of a group to remove at delete. */
#define STORE_RESCTRL "resctrl"
/* ... and of the group whose mon_groups/ID is the container's own. */
#define STORE_RESCTRL_MONITOR "resctrl-monitor"

/* The root of the resctrl mount this mount namespace has (the first in
 * mountinfo), O_PATH, checked by statfs to be resctrl. errnum ENOENT
 * when there is none. */
int resctrl_open_root(struct shim_error *err);

/* Whether this mount namespace has resctrl mounted (`features`). */
bool resctrl_mounted(void);

/* The group's name: closID, else the container's ID. */
const char *resctrl_group_name(const struct oci_intel_rdt *rdt, const char *id);

/* Make or join the group below root (O_PATH fd), as rdt asks: a closID
 * group with no schema asked for must exist; one that exists is checked
 * to hold the schema asked for; a new one gets it written. Monitoring
 * (enableCMT, enableMBM) must be there. Returns the group's fd; *made is
 * true when this call made the group. */
int resctrl_prepare(int root, const struct oci_intel_rdt *rdt, const char *id, bool *made,
		    struct shim_error *err);

/* Put pid in the group (its tasks file), then in the monitoring group
 * monitor when it is one (>= 0). */
int resctrl_add_task(int group, int monitor, pid_t pid, struct shim_error *err);

/* enableMonitoring (runtime-spec 1.3): the container's own monitoring
 * group, mon_groups/ID below group (one left there is taken); refused,
 * named, where the host monitors nothing. Returns its fd; *made is true
 * when this call made it. */
int resctrl_make_monitor(int group, const char *id, bool *made, struct shim_error *err);

/* The container's monitoring group below group, for exec. */
int resctrl_open_monitor(int group, const char *id, struct shim_error *err);

/* Remove group/mon_groups/ID below root; gone already is fine. */
int resctrl_remove_monitor(int root, const char *group, const char *id, struct shim_error *err);

/* Remove the group name below root; gone already is fine. */
int resctrl_remove(int root, const char *name, struct shim_error *err);

#endif
