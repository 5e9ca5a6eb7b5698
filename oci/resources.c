/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/resources.c: linux.resources -> cgroup v2 settings and device rules. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/base/cleanup.h"
#include "oci/json.h"
#include "oci/refused.h"
#include "oci/resources.h"

#define DEFAULT_CPU_PERIOD 100000

/* What add_to copies into a new struct cgroup_setting. */
struct setting_text {
	const char *file, *value, *json_path, *why;
};

static int add_to(struct cgroup_setting **list, size_t *n, const struct setting_text *t,
		  struct shim_error *err)
{
	const char *json_path = t->json_path;
	struct cgroup_setting *grown = reallocarray(*list, *n + 1, sizeof(**list));
	struct cgroup_setting *s;

	if (!grown)
		return shim_fail(err, ENOMEM, "%s", json_path);
	*list = grown;
	s = &grown[*n];
	s->file = strdup(t->file);
	s->value = strdup(t->value);
	s->json_path = strdup(json_path);
	s->v2_refusal = t->why;
	if (!s->file || !s->value || !s->json_path) {
		free(s->file);
		free(s->value);
		free(s->json_path);
		return shim_fail(err, ENOMEM, "%s", json_path);
	}
	(*n)++;
	return 0;
}

int oci_resources_add(struct oci_resources *r, const char *file, const char *value,
		      const char *json_path, struct shim_error *err)
{
	const struct setting_text t = { file, value, json_path, NULL };

	return add_to(&r->settings, &r->n_settings, &t, err);
}

int oci_resources_add_v1(struct oci_resources *r, const char *file, const char *value,
			 const char *json_path, const char *why, struct shim_error *err)
{
	const struct setting_text t = { file, value, json_path, why };

	return add_to(&r->v1, &r->n_v1, &t, err);
}

const char *oci_resources_first_path(const struct oci_resources *r)
{
	return r->n_settings ? r->settings[0].json_path : r->n_v1 ? r->v1[0].json_path : NULL;
}

int oci_resources_refuse_v1_only(const struct oci_resources *r, struct shim_error *err)
{
	for (size_t i = 0; i < r->n_v1; i++)
		if (r->v1[i].v2_refusal)
			return shim_fail(err, ENOTSUP, "%s: not supported: %s", r->v1[i].json_path,
					 r->v1[i].v2_refusal);
	return 0;
}

static int add_u64(struct oci_resources *r, const char *file, uint64_t v, const char *json_path,
		   struct shim_error *err)
{
	char text[24];

	snprintf(text, sizeof(text), "%" PRIu64, v);
	return oci_resources_add(r, file, text, json_path, err);
}

/* -1 means no limit ("max"), as the spec has it. */
static int add_limit(struct oci_resources *r, const char *file, int64_t v, const char *json_path,
		     struct shim_error *err)
{
	if (v < 0)
		return oci_resources_add(r, file, "max", json_path, err);
	return add_u64(r, file, (uint64_t)v, json_path, err);
}

uint64_t oci_cpu_shares_to_weight(uint64_t shares)
{
	if (shares == 0)
		return 0;
	if (shares < 2)
		shares = 2;
	if (shares > 262144)
		shares = 262144;
	return 1 + ((shares - 2) * 9999) / 262142;
}

/* A field given that the runtime may ignore, and does: kept for a warning. */
static int note_ignored(struct oci_resources *r, const char *where, const char *key,
			struct shim_error *err)
{
	size_t n = strv_len(r->ignored);
	char **grown = reallocarray(r->ignored, n + 2, sizeof(char *));

	if (!grown)
		return shim_fail(err, ENOMEM, "%s", where);
	r->ignored = grown;
	r->ignored[n + 1] = NULL;
	if (asprintf(&r->ignored[n], "%s.%s", where, key) < 0) {
		r->ignored[n] = NULL;
		return shim_fail(err, ENOMEM, "%s", where);
	}
	return 0;
}

static int parse_memory(yajl_val m, const char *path, struct oci_resources *r,
			struct shim_error *err)
{
	char where[256];
	int64_t limit = 0, v;
	int has_limit, got;

	snprintf(where, sizeof(where), "%s.memory", path);
	/* NOT RECOMMENDED in the spec, and gone from cgroup v2 (kernel memory
	 * is counted in memory.max): ignored, as runc does, but said */
	if (json_member(m, "kernel") && note_ignored(r, where, "kernel", err) < 0)
		return -1;
	if (json_get_bool(m, "checkBeforeUpdate", where, &r->check_before_update, err) < 0)
		return -1;
	has_limit = json_get_i64(m, "limit", where, JSON_RANGE(-1, INT64_MAX), &limit, err);
	if (has_limit < 0 || (has_limit == 0 && add_limit(r, "memory.max", limit, where, err) < 0))
		return -1;
	if ((got = json_get_i64(m, "reservation", where, JSON_RANGE(-1, INT64_MAX), &v, err)) < 0 ||
	    (got == 0 && add_limit(r, "memory.low", v, where, err) < 0))
		return -1;
	if ((got = json_get_i64(m, "swap", where, JSON_RANGE(-1, INT64_MAX), &v, err)) < 0)
		return -1;
	r->memory_unlimited_alone = got == 1 && has_limit == 0 && limit < 0;
	if (got == 1)
		return 0;
	/* v1's swap limit counts memory + swap; v2's counts swap alone. */
	if (v < 0)
		return oci_resources_add(r, "memory.swap.max", "max", where, err);
	if (has_limit != 0) {
		r->has_swap_alone = true;
		r->swap_alone = (uint64_t)v;
		return 0;
	}
	if (limit < 0)
		return json_fail(err, where, "swap: a swap limit needs a memory limit (memory.limit)");
	if (v < limit)
		return json_fail(err, where, "swap: %" PRId64 " is less than memory.limit %" PRId64
				 " (swap counts memory plus swap)", v, limit);
	return add_u64(r, "memory.swap.max", (uint64_t)(v - limit), where, err);
}

static int parse_cpu(yajl_val c, const char *path, struct oci_resources *r,
		     struct shim_error *err)
{
	char where[256], text[48], *cpus = NULL, *mems = NULL;
	uint64_t shares, period = DEFAULT_CPU_PERIOD, burst;
	int64_t quota = -1, idle;
	int got, got_quota, got_period;
	bool has_period;

	snprintf(where, sizeof(where), "%s.cpu", path);
	if ((got = json_get_u64(c, "shares", where, 262144, &shares, err)) < 0 ||
	    (got == 0 && shares && add_u64(r, "cpu.weight", oci_cpu_shares_to_weight(shares), where, err) < 0))
		return -1;
	if (got == 0)
		r->cpu_shares = shares;
	if ((got_quota = json_get_i64(c, "quota", where, JSON_RANGE(-1, INT64_MAX), &quota,
				      err)) < 0 ||
	    (got_period = json_get_u64(c, "period", where, 1000000, &period, err)) < 0)
		return -1;
	/* as runc: a period of 0 is none (the default), a quota of 0 or -1 is
	 * none ("max"); a quota of 0 with no period sets nothing (docker's
	 * update sends both as 0 when it changes something else) */
	has_period = got_period == 0 && period != 0;
	r->cpu_period_alone = has_period && got_quota == 1;
	if (!has_period)
		period = DEFAULT_CPU_PERIOD;
	if ((got_quota == 0 && quota != 0) || has_period) {
		if (quota > 0)
			snprintf(text, sizeof(text), "%" PRId64 " %" PRIu64, quota, period);
		else
			snprintf(text, sizeof(text), "max %" PRIu64, period);
		if (oci_resources_add(r, "cpu.max", text, where, err) < 0)
			return -1;
	}
	if ((got = json_get_u64(c, "burst", where, UINT64_MAX, &burst, err)) < 0 ||
	    (got == 0 && add_u64(r, "cpu.max.burst", burst, where, err) < 0))
		return -1;
	if ((got = json_get_i64(c, "idle", where, JSON_RANGE(0, 1), &idle, err)) < 0 ||
	    (got == 0 && add_u64(r, "cpu.idle", (uint64_t)idle, where, err) < 0))
		return -1;
	if (json_get_string(c, "cpus", where, &cpus, err) < 0 ||
	    json_get_string(c, "mems", where, &mems, err) < 0 ||
	    (cpus && *cpus && oci_resources_add(r, "cpuset.cpus", cpus, where, err) < 0) ||
	    (mems && *mems && oci_resources_add(r, "cpuset.mems", mems, where, err) < 0)) {
		free(cpus);
		free(mems);
		return -1;
	}
	free(cpus);
	free(mems);
	return 0;
}

/* One blockIO device list, the io.* file its entries become in cgroup v2
 * and the blkio.* file they go to as given in cgroup v1. */
struct io_list {
	const char *key;	/* "throttleReadBpsDevice" */
	const char *file;	/* "io.max" */
	const char *value_key;	/* "rate" */
	const char *prefix;	/* "rbps=" */
	const char *v1_file;	/* "blkio.throttle.read_bps_device" */
};

static const struct io_list io_lists[] = {
	{ "weightDevice", "io.weight", "weight", "", "blkio.weight_device" },
	{ "throttleReadBpsDevice", "io.max", "rate", "rbps=", "blkio.throttle.read_bps_device" },
	{ "throttleWriteBpsDevice", "io.max", "rate", "wbps=", "blkio.throttle.write_bps_device" },
	{ "throttleReadIOPSDevice", "io.max", "rate", "riops=", "blkio.throttle.read_iops_device" },
	{ "throttleWriteIOPSDevice", "io.max", "rate", "wiops=",
	  "blkio.throttle.write_iops_device" },
};

/* [{"major": M, "minor": N, "rate" or "weight": V}] -> "M:N <prefix>V" lines
 * for v2 (weights scaled), "M:N V" for v1 */
static int parse_io_devices(yajl_val io, const char *path, const struct io_list *l,
			    struct oci_resources *r, struct shim_error *err)
{
	const char *key = l->key, *file = l->file, *value_key = l->value_key, *prefix = l->prefix;
	yajl_val arr = NULL;
	char where[256];

	snprintf(where, sizeof(where), "%s.blockIO", path);
	if (json_get_array(io, key, where, &arr, err) < 0)
		return -1;
	for (size_t i = 0; arr && i < arr->u.array.len; i++) {
		yajl_val d = arr->u.array.values[i];
		char elem[300], text[96];
		uint64_t major, minor, v;
		int r1, r2, r3;

		snprintf(elem, sizeof(elem), "%s.%s[%zu]", where, key, i);
		if ((r1 = json_get_u64(d, "major", elem, UINT32_MAX, &major, err)) < 0 ||
		    (r2 = json_get_u64(d, "minor", elem, UINT32_MAX, &minor, err)) < 0 ||
		    (r3 = json_get_u64(d, value_key, elem, UINT64_MAX, &v, err)) < 0)
			return -1;
		if (r1 || r2 || r3)
			return json_fail(err, elem, "needs major, minor and %s", value_key);
		snprintf(text, sizeof(text), "%" PRIu64 ":%" PRIu64 " %" PRIu64, major, minor, v);
		if (oci_resources_add_v1(r, l->v1_file, text, elem, NULL, err) < 0)
			return -1;
		if (strcmp(value_key, "weight") == 0)
			v = 1 + ((v < 10 ? 0 : v - 10) * 9999) / 990;
		snprintf(text, sizeof(text), "%" PRIu64 ":%" PRIu64 " %s%" PRIu64, major, minor, prefix, v);
		if (oci_resources_add(r, file, text, elem, err) < 0)
			return -1;
	}
	return 0;
}

static int parse_block_io(yajl_val io, const char *path, struct oci_resources *r,
			  struct shim_error *err)
{
	char where[256], text[32];
	uint64_t weight;
	int got;

	snprintf(where, sizeof(where), "%s.blockIO", path);
	if ((got = json_get_u64(io, "weight", where, 1000, &weight, err)) < 0)
		return -1;
	if (got == 0 && weight) {
		if (weight < 10)
			return json_fail(err, where, "weight: %" PRIu64 " is below 10", weight);
		snprintf(text, sizeof(text), "default %" PRIu64, 1 + ((weight - 10) * 9999) / 990);
		if (oci_resources_add(r, "io.weight", text, where, err) < 0)
			return -1;
		r->blkio_weight = weight;
	}
	for (size_t i = 0; i < sizeof(io_lists) / sizeof(io_lists[0]); i++)
		if (parse_io_devices(io, path, &io_lists[i], r, err) < 0)
			return -1;
	return 0;
}

static int parse_hugepages(yajl_val arr, const char *path, struct oci_resources *r,
			   struct shim_error *err)
{
	for (size_t i = 0; i < arr->u.array.len; i++) {
		yajl_val h = arr->u.array.values[i];
		char elem[300], file[96];
		char *size = NULL;
		uint64_t limit;
		int r1, r2;

		snprintf(elem, sizeof(elem), "%s.hugepageLimits[%zu]", path, i);
		if ((r1 = json_get_string(h, "pageSize", elem, &size, err)) < 0)
			return -1;
		if ((r2 = json_get_u64(h, "limit", elem, UINT64_MAX, &limit, err)) < 0 || r1 || r2 ||
		    !*size || strchr(size, '/') || strlen(size) > 32) {
			free(size);
			return r2 < 0 ? -1 : json_fail(err, elem, "needs a pageSize (\"2MB\") and a limit");
		}
		snprintf(file, sizeof(file), "hugetlb.%s.max", size);
		free(size);
		if (add_u64(r, file, limit, elem, err) < 0)
			return -1;
	}
	return 0;
}

/* rdma: {"mlx5_1": {"hcaHandles": 3, "hcaObjects": 10000}} -> rdma.max
 * "mlx5_1 hca_handle=3 hca_object=10000", one line a device. */
static int parse_rdma(yajl_val rdma, const char *path, struct oci_resources *r,
		      struct shim_error *err)
{
	for (size_t i = 0; i < rdma->u.object.len; i++) {
		const char *dev = rdma->u.object.keys[i];
		yajl_val d = rdma->u.object.values[i];
		char elem[300], line[512];
		uint64_t handles = 0, objects = 0;
		int h, o;
		size_t n;

		snprintf(elem, sizeof(elem), "%s.rdma.%s", path, dev);
		if (!YAJL_IS_OBJECT(d))
			return json_fail(err, elem, "must be an object");
		if (!*dev || strpbrk(dev, " \n=/"))
			return json_fail(err, elem, "\"%s\" is not a device name", dev);
		if ((h = json_get_u64(d, "hcaHandles", elem, UINT32_MAX, &handles, err)) < 0 ||
		    (o = json_get_u64(d, "hcaObjects", elem, UINT32_MAX, &objects, err)) < 0)
			return -1;
		if (h && o)
			continue;
		n = (size_t)snprintf(line, sizeof(line), "%s", dev);
		if (!h)
			n += (size_t)snprintf(line + n, sizeof(line) - n, " hca_handle=%" PRIu64, handles);
		if (!o)
			snprintf(line + n, sizeof(line) - n, " hca_object=%" PRIu64, objects);
		if (oci_resources_add(r, "rdma.max", line, elem, err) < 0)
			return -1;
	}
	return 0;
}

/* "controller.knob": no folder parts, no hidden or cgroup.* core files but a few. */
static bool unified_key_ok(const char *key)
{
	const char *dot = strchr(key, '.');

	return dot && dot != key && dot[1] && !strchr(key, '/') &&
	       strcmp(key, "cgroup.procs") != 0 && strcmp(key, "cgroup.threads") != 0 &&
	       strcmp(key, "cgroup.subtree_control") != 0 && strcmp(key, "cgroup.kill") != 0 &&
	       strcmp(key, "cgroup.freeze") != 0;
}

static int parse_unified(yajl_val u, const char *path, struct oci_resources *r,
			 struct shim_error *err)
{
	for (size_t i = 0; i < u->u.object.len; i++) {
		const char *key = u->u.object.keys[i];
		yajl_val v = u->u.object.values[i];
		char elem[300];

		snprintf(elem, sizeof(elem), "%s.unified.%s", path, key);
		if (!unified_key_ok(key))
			return json_fail(err, elem, "not a cgroup v2 file a container may set");
		if (!YAJL_IS_STRING(v))
			return json_fail(err, elem, "must be a string");
		if (oci_resources_add(r, key, v->u.string, elem, err) < 0)
			return -1;
	}
	return 0;
}

static int parse_access(const char *text, unsigned int *out)
{
	*out = 0;
	for (const char *p = text; *p; p++) {
		unsigned int bit = *p == 'r' ? DEV_ACC_READ : *p == 'w' ? DEV_ACC_WRITE
				 : *p == 'm' ? DEV_ACC_MKNOD : 0;

		if (!bit)
			return -1;
		*out |= bit;
	}
	return 0;
}

static int parse_device_rule(yajl_val d, const char *elem, struct device_rule *rule,
			     struct shim_error *err)
{
	_cleanup_free_ char *type = NULL, *access = NULL;
	int r;

	rule->type = 'a';
	rule->major = rule->minor = -1;
	rule->access = DEV_ACC_READ | DEV_ACC_WRITE | DEV_ACC_MKNOD;
	if ((r = json_get_bool(d, "allow", elem, &rule->allow, err)) < 0)
		return -1;
	if (r == 1)
		return json_fail(err, elem, "allow: missing");
	if (json_get_string(d, "type", elem, &type, err) < 0 ||
	    json_get_string(d, "access", elem, &access, err) < 0 ||
	    json_get_i64(d, "major", elem, JSON_RANGE(-1, UINT32_MAX), &rule->major, err) < 0 ||
	    json_get_i64(d, "minor", elem, JSON_RANGE(-1, UINT32_MAX), &rule->minor, err) < 0)
		return -1;
	if (type && (strlen(type) != 1 || !strchr("acb", type[0])))
		return json_fail(err, elem, "type: \"%s\" is not a, c or b", type);
	if (type)
		rule->type = type[0];
	if (access && (!*access || parse_access(access, &rule->access) < 0))
		return json_fail(err, elem, "access: \"%s\" is not made of r, w and m", access);
	return 0;
}

static int parse_devices(yajl_val arr, const char *path, struct oci_resources *r,
			 struct shim_error *err)
{
	r->has_devices = true;
	r->devices = calloc(arr->u.array.len + 1, sizeof(*r->devices));
	if (!r->devices)
		return shim_fail(err, ENOMEM, "%s.devices", path);
	for (size_t i = 0; i < arr->u.array.len; i++) {
		char elem[300];

		snprintf(elem, sizeof(elem), "%s.devices[%zu]", path, i);
		if (parse_device_rule(arr->u.array.values[i], elem, &r->devices[i], err) < 0)
			return -1;
		r->n_devices++;
	}
	return 0;
}

int oci_resources_parse(yajl_val obj, const char *path, struct oci_resources *r,
			struct shim_error *err)
{
	yajl_val mem = NULL, cpu = NULL, pids = NULL, io = NULL, huge = NULL, uni = NULL, rdma = NULL,
		 devs = NULL;
	int64_t limit;
	int got;

	memset(r, 0, sizeof(*r));
	if (!YAJL_IS_OBJECT(obj))
		return json_fail(err, path, "must be an object");
	if (refuse_resource_members(obj, path, err) < 0)
		return -1;
	if (json_get_object(obj, "memory", path, &mem, err) < 0 ||
	    json_get_object(obj, "cpu", path, &cpu, err) < 0 ||
	    json_get_object(obj, "pids", path, &pids, err) < 0 ||
	    json_get_object(obj, "blockIO", path, &io, err) < 0 ||
	    json_get_array(obj, "hugepageLimits", path, &huge, err) < 0 ||
	    json_get_object(obj, "unified", path, &uni, err) < 0 ||
	    json_get_object(obj, "rdma", path, &rdma, err) < 0 ||
	    json_get_array(obj, "devices", path, &devs, err) < 0)
		goto fail;
	if ((mem && parse_memory(mem, path, r, err) < 0) ||
	    (cpu && parse_cpu(cpu, path, r, err) < 0) ||
	    (io && parse_block_io(io, path, r, err) < 0) ||
	    (huge && parse_hugepages(huge, path, r, err) < 0) ||
	    (rdma && parse_rdma(rdma, path, r, err) < 0) ||
	    (devs && parse_devices(devs, path, r, err) < 0))
		goto fail;
	/* runtime-spec 1.3: 0 is a limit of 0, a negative one none ("max"),
	 * an absent one leaves pids.max as it is (1.2 read 0 as none) */
	if (pids) {
		char where[256];

		snprintf(where, sizeof(where), "%s.pids", path);
		if ((got = json_get_i64(pids, "limit", where, JSON_RANGE(INT64_MIN, INT64_MAX),
					&limit, err)) < 0 ||
		    (got == 0 && add_limit(r, "pids.max", limit, where, err) < 0))
			goto fail;
	}
	if (oci_resources_parse_v1(obj, path, r, err) < 0)
		goto fail;
	/* Last, so that a unified value wins over a converted one. */
	if (uni && parse_unified(uni, path, r, err) < 0)
		goto fail;
	return 0;
fail:
	oci_resources_release(r);
	return -1;
}

const struct cgroup_setting *oci_resources_find(const struct oci_resources *r, const char *file)
{
	for (size_t i = r->n_settings; i-- > 0;)
		if (strcmp(r->settings[i].file, file) == 0)
			return &r->settings[i];
	return NULL;
}

int oci_resources_replace(struct oci_resources *r, const char *file, const char *value,
			  struct shim_error *err)
{
	for (size_t i = r->n_settings; i-- > 0;) {
		char *copy;

		if (strcmp(r->settings[i].file, file) != 0)
			continue;
		if (!(copy = strdup(value)))
			return shim_fail(err, ENOMEM, "%s", r->settings[i].json_path);
		free(r->settings[i].value);
		r->settings[i].value = copy;
		return 0;
	}
	return shim_fail(err, ENOENT, "%s: not set", file);
}

static void free_settings(struct cgroup_setting *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(list[i].file);
		free(list[i].value);
		free(list[i].json_path);
	}
	free(list);
}

void oci_resources_release(struct oci_resources *r)
{
	free_settings(r->settings, r->n_settings);
	free_settings(r->v1, r->n_v1);
	free(r->devices);
	strv_free(r->ignored);
	memset(r, 0, sizeof(*r));
}
