/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/cgroups/systemd_props.h: a container's resources as systemd unit
 * properties (the a(sv) of StartTransientUnit and SetUnitProperties), for
 * those systemd has: MemoryMax, MemoryLow, MemorySwapMax, TasksMax,
 * CPUWeight, CPUQuotaPerSecUSec (and its period), AllowedCPUs,
 * AllowedMemoryNodes, IOWeight, IO{Read,Write}{Bandwidth,IOPS}Max, and the
 * device rules as DevicePolicy and DeviceAllow. shim writes every resource
 * to the scope's files and attaches its own device program as well: the
 * properties keep systemd from undoing them (a daemon-reload re-applies a
 * unit's properties) and show them in `systemctl show`.
 */
#ifndef SHIM_SYSTEMD_PROPS_H
#define SHIM_SYSTEMD_PROPS_H

#include <stdbool.h>
#include <stddef.h>

#include "oci/resources.h"
#include "shim/cgroups/dbus.h"

/* One DeviceAllow entry: "/dev/char/1:3", "char-pts", "block-*"; "rwm". */
struct systemd_device {
	char node[64];
	char access[4];
};

/* The device rules (then shim's defaults, the last match winning, as the
 * device program applies them) as systemd's allow list. Returns 1 with
 * the entries in out[] (room for n_rules + devices_n_default) and their
 * count in *n when systemd can say the same; 0 when it cannot (a deny
 * after an allow, a major with any minor missing from proc_devices, the
 * text of /proc/devices) or when everything is allowed: systemd then gets
 * no device policy and shim's program alone decides. */
int systemd_device_allow(const struct device_rule *rules, size_t n_rules,
			 const char *proc_devices, struct systemd_device *out, size_t *n);

/* Append the resources' properties (each one a (sv) of the open a(sv)). */
void systemd_resource_properties(struct bytebuf *b, const struct oci_resources *r);

#endif
