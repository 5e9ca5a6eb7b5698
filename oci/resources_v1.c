/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/resources_v1.c: linux.resources as cgroup v1 files, for the knobs
 * only v1 has (network classID and priorities, memory swappiness,
 * kernelTCP and disableOOMKiller, cpu realtime), which a cgroup v2 host
 * refuses by name (oci_resources_refuse_v1_only). Values as the spec gives
 * them: v1's own. (The blockIO device lists' v1 mirrors are added where
 * oci/resources.c parses them.)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/json.h"
#include "oci/resources.h"

#define V1_ONLY "a cgroup v1 knob: cgroup v2 has no such file"
#define NO_RT V1_ONLY " (no real-time group scheduling)"
#define NET_V1 "net_cls and net_prio are cgroup v1 controllers"

/* Is the member there and not null? */
static bool given(yajl_val obj, const char *key)
{
	yajl_val v = json_member(obj, key);

	return v && !YAJL_IS_NULL(v);
}

/* A v1 file, the config key it comes from (NULL: the object itself) and
 * why cgroup v2 cannot have it. */
struct v1_knob {
	const char *file, *key, *why;
};

static const struct v1_knob swappiness_knob = { "memory.swappiness", "swappiness", V1_ONLY },
	kernel_tcp_knob = { "memory.kmem.tcp.limit_in_bytes", "kernelTCP", V1_ONLY },
	oom_knob = { "memory.oom_control", "disableOOMKiller", V1_ONLY },
	rt_runtime_knob = { "cpu.rt_runtime_us", "realtimeRuntime", NO_RT },
	rt_period_knob = { "cpu.rt_period_us", "realtimePeriod", NO_RT },
	classid_knob = { "net_cls.classid", NULL, NET_V1 };

/* value as v1 wants it, at where.key (where alone when key is NULL) */
static int add_number(struct oci_resources *r, const struct v1_knob *k, int64_t v,
		      const char *where, struct shim_error *err)
{
	char text[24], path[300];

	snprintf(text, sizeof(text), "%" PRId64, v);
	snprintf(path, sizeof(path), "%s%s%s", where, k->key ? "." : "", k->key ? k->key : "");
	return oci_resources_add_v1(r, k->file, text, path, k->why, err);
}

static int parse_memory(yajl_val m, const char *path, struct oci_resources *r,
			struct shim_error *err)
{
	char where[256];
	uint64_t swappiness;
	int64_t tcp;
	bool no_oom = false;

	snprintf(where, sizeof(where), "%s.memory", path);
	if (given(m, "swappiness") &&
	    (json_get_u64(m, "swappiness", where, 100, &swappiness, err) < 0 ||
	     add_number(r, &swappiness_knob, (int64_t)swappiness, where, err) < 0))
		return -1;
	if (given(m, "kernelTCP") &&
	    (json_get_i64(m, "kernelTCP", where, JSON_RANGE(-1, INT64_MAX), &tcp, err) < 0 ||
	     add_number(r, &kernel_tcp_knob, tcp, where, err) < 0))
		return -1;
	if (given(m, "disableOOMKiller") &&
	    json_get_bool(m, "disableOOMKiller", where, &no_oom, err) < 0)
		return -1;
	if (no_oom && add_number(r, &oom_knob, 1, where, err) < 0)
		return -1;
	return 0;
}

static int parse_cpu(yajl_val c, const char *path, struct oci_resources *r,
		     struct shim_error *err)
{
	char where[256];
	int64_t runtime = 0;
	uint64_t period = 0;

	snprintf(where, sizeof(where), "%s.cpu", path);
	if (given(c, "realtimeRuntime") &&
	    json_get_i64(c, "realtimeRuntime", where, JSON_RANGE(-1, INT64_MAX), &runtime, err) < 0)
		return -1;
	if (given(c, "realtimePeriod") &&
	    json_get_u64(c, "realtimePeriod", where, UINT32_MAX, &period, err) < 0)
		return -1;
	if (runtime && add_number(r, &rt_runtime_knob, runtime, where, err) < 0)
		return -1;
	if (period && add_number(r, &rt_period_knob, (int64_t)period, where, err) < 0)
		return -1;
	return 0;
}

/* network: {"classID": N, "priorities": [{"name": "eth0", "priority": P}]} */
static int parse_network(yajl_val net, const char *path, struct oci_resources *r,
			 struct shim_error *err)
{
	char where[256];
	uint64_t classid;
	yajl_val prios = NULL;

	snprintf(where, sizeof(where), "%s.network", path);
	if (given(net, "classID") &&
	    (json_get_u64(net, "classID", where, UINT32_MAX, &classid, err) < 0 ||
	     add_number(r, &classid_knob, (int64_t)classid, where, err) < 0))
		return -1;
	if (json_get_array(net, "priorities", where, &prios, err) < 0)
		return -1;
	for (size_t i = 0; prios && i < prios->u.array.len; i++) {
		yajl_val p = prios->u.array.values[i];
		char elem[300], line[128];
		char *name = NULL;
		uint64_t prio;
		int r1, r2;

		snprintf(elem, sizeof(elem), "%s.priorities[%zu]", where, i);
		if ((r1 = json_get_string(p, "name", elem, &name, err)) < 0)
			return -1;
		if ((r2 = json_get_u64(p, "priority", elem, UINT32_MAX, &prio, err)) < 0 || r1 || r2 ||
		    !*name || strpbrk(name, " \n/") || strlen(name) > 64) {
			free(name);
			return r2 < 0 ? -1 : json_fail(err, elem, "needs an interface name and a priority");
		}
		snprintf(line, sizeof(line), "%s %" PRIu64, name, prio);
		free(name);
		if (oci_resources_add_v1(r, "net_prio.ifpriomap", line, elem, NET_V1, err) < 0)
			return -1;
	}
	return 0;
}

int oci_resources_parse_v1(yajl_val obj, const char *path, struct oci_resources *r,
			   struct shim_error *err)
{
	yajl_val mem = json_member(obj, "memory"), cpu = json_member(obj, "cpu");
	yajl_val net = json_member(obj, "network");

	if ((YAJL_IS_OBJECT(mem) && parse_memory(mem, path, r, err) < 0) ||
	    (YAJL_IS_OBJECT(cpu) && parse_cpu(cpu, path, r, err) < 0))
		return -1;
	if (net && !YAJL_IS_NULL(net) && !YAJL_IS_OBJECT(net)) {
		char where[256];

		snprintf(where, sizeof(where), "%s.network", path);
		return json_fail(err, where, "must be an object");
	}
	return YAJL_IS_OBJECT(net) ? parse_network(net, path, r, err) : 0;
}
