/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/cgroup_v1.h: a cgroup v1 (or hybrid) host, where /sys/fs/cgroup is
 * no cgroup2: the container's device rules, enforced through a folder of
 * the v1 devices hierarchy (/sys/fs/cgroup/devices). create makes the
 * folder and writes the rules (deny all, then the config's and the
 * defaults, in order) before the init can run the container's command;
 * the init and every exec'd process join it; delete kills what is left in
 * it and removes it. The folder is recorded in ROOT/ID/devices-cgroup.
 * Only the devices controller so far: any other linux.resources field on
 * such a host is refused, named.
 */
#ifndef SHIM_CGROUP_V1_H
#define SHIM_CGROUP_V1_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "oci/error.h"
#include "oci/resources.h"

#define CGROUP_V1_DEVICES "/sys/fs/cgroup/devices"
#define STORE_DEVICES_CGROUP "devices-cgroup"

/* Is a v1 hierarchy with the devices controller at CGROUP_V1_DEVICES? */
bool cgroup_v1_devices_mounted(void);

/* The folder below CGROUP_V1_DEVICES for linux.cgroupsPath: absolute as
 * given; relative (or absent: the container ID) beside the runtime's own
 * devices cgroup, as with cgroup v2. */
int cgroup_v1_devices_resolve(const char *cgroups_path, const char *id, char *out, size_t len,
			      struct shim_error *err);

/* Make the folder (refused if it has processes) and write r's device rules
 * then the defaults. Returns an O_DIRECTORY fd. */
int cgroup_v1_devices_create(const char *rel, const struct oci_resources *r,
			     struct shim_error *err);

/* Open the folder ROOT/ID/devices-cgroup names; -1 with errnum ENOENT when
 * the container has none. */
int cgroup_v1_devices_open_recorded(int dir_fd, struct shim_error *err);

/* Put pid in the folder (its cgroup.procs). */
int cgroup_v1_enter(int dir_fd, pid_t pid, struct shim_error *err);

/* Kill what is in the folder, wait until it is empty, remove it. A missing
 * folder is no error. */
int cgroup_v1_devices_destroy(const char *rel, struct shim_error *err);

/* The v1 rule text for r ("c 1:3 rwm", "a *:* rwm"), in line (size 48). */
void cgroup_v1_device_rule(const struct device_rule *r, char *line, size_t size);

#endif
