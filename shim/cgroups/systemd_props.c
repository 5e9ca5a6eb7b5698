/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/base/cleanup.h"
#include "oci/idlist.h"
#include "shim/cgroups/devices_bpf.h"
#include "shim/cgroups/systemd_props.h"
#include "shim/fsutil.h"
#include "shim/log.h"

#define ACC_ALL (DEV_ACC_READ | DEV_ACC_WRITE | DEV_ACC_MKNOD)

/* "max" is systemd's infinity. */
static uint64_t value_of(const char *v)
{
	return strcmp(v, "max") == 0 ? UINT64_MAX : strtoull(v, NULL, 10);
}

static void property_begin(struct bytebuf *b, const char *name, const char *sig)
{
	dbus_struct_begin(b);
	dbus_put_string(b, name);
	dbus_put_signature(b, sig);
}

static void property_t(struct bytebuf *b, const char *name, uint64_t v)
{
	property_begin(b, name, "t");
	dbus_put_u64(b, v);
}

/* The name /proc/devices gives the major of that type ('c', 'b'), in name
 * (size NAME_LEN); false when it lists none. */
#define NAME_LEN 48
static bool driver_name(const char *proc_devices, char type, long major, char *name)
{
	const char *section = strstr(proc_devices, type == 'c' ? "Character devices:" : "Block devices:");
	const char *line = section ? strchr(section, '\n') : NULL;

	while (line && *++line && *line != '\n' && !strchr("CB", *line)) {
		long m;
		int used = 0;

		if (sscanf(line, " %ld %47s%n", &m, name, &used) == 2 && used > 0 && m == major)
			return !strchr(name, '/');
		line = strchr(line, '\n');
	}
	return false;
}

/* Whether the rule denies every device, every access. */
static bool denies_all(const struct device_rule *r)
{
	return !r->allow && r->type == 'a' && (r->access & ACC_ALL) == ACC_ALL;
}

/* One allow rule as a DeviceAllow entry: 1, 0 when systemd has no word for
 * it, -1 when it allows nothing. */
static int device_entry(const struct device_rule *r, const char *proc_devices,
			struct systemd_device *d)
{
	const char *kind = r->type == 'c' ? "char" : "block";
	char name[NAME_LEN];
	size_t a = 0;

	if (r->access & DEV_ACC_READ)
		d->access[a++] = 'r';
	if (r->access & DEV_ACC_WRITE)
		d->access[a++] = 'w';
	if (r->access & DEV_ACC_MKNOD)
		d->access[a++] = 'm';
	d->access[a] = '\0';
	if (!a)
		return -1;
	if (r->major < 0 && r->minor < 0)
		snprintf(d->node, sizeof(d->node), "%s-*", kind);
	else if (r->major < 0)
		return 0;
	else if (r->minor < 0) {
		if (!proc_devices || !driver_name(proc_devices, r->type, (long)r->major, name))
			return 0;
		snprintf(d->node, sizeof(d->node), "%s-%s", kind, name);
	} else
		snprintf(d->node, sizeof(d->node), "/dev/%s/%lld:%lld", kind, (long long)r->major,
			 (long long)r->minor);
	return 1;
}

int systemd_device_allow(const struct device_rule *rules, size_t n_rules,
			 const char *proc_devices, struct systemd_device *out, size_t *n)
{
	size_t total = n_rules + devices_n_default, start = 0;

	*n = 0;
	for (size_t i = 0; i < n_rules; i++)
		if (denies_all(&rules[i]))
			start = i + 1;
	for (size_t i = start; i < total; i++) {
		const struct device_rule *r =
			i < n_rules ? &rules[i] : &devices_default_rules[i - n_rules];
		int e;

		if (!r->allow || r->type == 'a')
			return 0;
		e = device_entry(r, proc_devices, &out[*n]);
		if (e == 0)
			return 0;
		*n += e > 0;
	}
	return 1;
}

static void device_properties(struct bytebuf *b, const struct oci_resources *r)
{
	_cleanup_free_ struct systemd_device *allow =
		calloc(r->n_devices + devices_n_default, sizeof(*allow));
	_cleanup_free_ char *proc_devices = read_small_file("/proc/devices", 1 << 16, NULL, NULL);
	struct dbus_array list;
	size_t n = 0;
	bool strict = allow && systemd_device_allow(r->devices, r->n_devices, proc_devices, allow, &n);

	if (!strict)
		log_debug("systemd: the device rules as DeviceAllow would not match shim's own "
			  "program; the unit gets no device policy");
	property_begin(b, "DevicePolicy", "s");
	dbus_put_string(b, strict ? "strict" : "auto");
	property_begin(b, "DeviceAllow", "a(ss)");
	list = dbus_array_begin(b, 8);
	for (size_t i = 0; strict && i < n; i++) {
		dbus_struct_begin(b);
		dbus_put_string(b, allow[i].node);
		dbus_put_string(b, allow[i].access);
	}
	dbus_array_end(b, list);
}

/* AllowedCPUs / AllowedMemoryNodes: a bit per CPU or node, byte by byte. */
static void idlist_property(struct bytebuf *b, const char *name, const char *list)
{
	unsigned long mask[IDLIST_WORDS], too_big;
	uint8_t bytes[IDLIST_MAX / 8];
	size_t len = 0;
	struct dbus_array a;

	if (idlist_parse(list, mask, &too_big) != 0)
		return;	/* parsed at create already: cannot be */
	for (size_t i = 0; i < IDLIST_MAX; i++) {
		if (i % 8 == 0)
			bytes[i / 8] = 0;
		if (mask[i / (8 * sizeof(long))] & (1UL << (i % (8 * sizeof(long))))) {
			bytes[i / 8] |= (uint8_t)(1u << (i % 8));
			len = i / 8 + 1;
		}
	}
	property_begin(b, name, "ay");
	a = dbus_array_begin(b, 1);
	dbus_put_bytes(b, bytes, len);
	dbus_array_end(b, a);
}

/* io.max lines ("8:0 rbps=1048576") as IO*Max entries of /dev/block/8:0. */
static void io_max_property(struct bytebuf *b, const struct oci_resources *r, const char *key,
			    const char *name)
{
	struct dbus_array a;
	bool any = false;

	for (size_t i = 0; i < r->n_settings; i++)
		any |= strcmp(r->settings[i].file, "io.max") == 0 && strstr(r->settings[i].value, key);
	if (!any)
		return;
	property_begin(b, name, "a(st)");
	a = dbus_array_begin(b, 8);
	for (size_t i = 0; i < r->n_settings; i++) {
		const struct cgroup_setting *s = &r->settings[i];
		unsigned maj, min;
		char k[8], node[64];
		unsigned long long v;

		if (strcmp(s->file, "io.max") != 0 ||
		    sscanf(s->value, "%u:%u %7[a-z]=%llu", &maj, &min, k, &v) != 4 ||
		    strcmp(k, key) != 0)
			continue;
		snprintf(node, sizeof(node), "/dev/block/%u:%u", maj, min);
		dbus_struct_begin(b);
		dbus_put_string(b, node);
		dbus_put_u64(b, v);
	}
	dbus_array_end(b, a);
}

void systemd_resource_properties(struct bytebuf *b, const struct oci_resources *r)
{
	static const struct { const char *file, *property; } same[] = {
		{ "memory.max", "MemoryMax" }, { "memory.low", "MemoryLow" },
		{ "memory.swap.max", "MemorySwapMax" }, { "pids.max", "TasksMax" },
		{ "cpu.weight", "CPUWeight" },
	};
	static const struct { const char *key, *property; } io[] = {
		{ "rbps", "IOReadBandwidthMax" }, { "wbps", "IOWriteBandwidthMax" },
		{ "riops", "IOReadIOPSMax" }, { "wiops", "IOWriteIOPSMax" },
	};
	const struct cgroup_setting *s;

	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if ((s = oci_resources_find(r, same[i].file)))
			property_t(b, same[i].property, value_of(s->value));
	if ((s = oci_resources_find(r, "cpu.max"))) {
		char quota[32] = "";
		unsigned long long period = 100000;

		sscanf(s->value, "%31s %llu", quota, &period);
		property_t(b, "CPUQuotaPeriodUSec", period);
		property_t(b, "CPUQuotaPerSecUSec", strcmp(quota, "max") == 0 || period == 0
							    ? UINT64_MAX
							    : value_of(quota) * 1000000 / period);
	}
	if ((s = oci_resources_find(r, "cpuset.cpus")))
		idlist_property(b, "AllowedCPUs", s->value);
	if ((s = oci_resources_find(r, "cpuset.mems")))
		idlist_property(b, "AllowedMemoryNodes", s->value);
	if ((s = oci_resources_find(r, "io.weight")) && strncmp(s->value, "default ", 8) == 0)
		property_t(b, "IOWeight", value_of(s->value + 8));
	for (size_t i = 0; i < sizeof(io) / sizeof(io[0]); i++)
		io_max_property(b, r, io[i].key, io[i].property);
	if (r->has_devices)
		device_properties(b, r);
}
