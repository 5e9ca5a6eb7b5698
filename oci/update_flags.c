/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "oci/json.h"
#include "oci/update_flags.h"

/* "-1", "1048576", "512k", "100m", "2g": bytes, as runc takes them. */
static int parse_bytes(const char *flag, const char *text, int64_t *out, struct shim_error *err)
{
	char *end;
	long long v;
	int shift = 0;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (end == text || errno)
		return shim_fail(err, 0, "--%s: \"%s\" is not a size", flag, text);
	if (*end) {
		const char *units = "kmgt", *u = strchr(units, tolower((unsigned char)*end));

		if (!u || (end[1] && strcasecmp(end + 1, "b") != 0) || v < 0)
			return shim_fail(err, 0, "--%s: \"%s\" is not a size", flag, text);
		shift = 10 * (int)(u - units + 1);
		if (v > (INT64_MAX >> shift))
			return shim_fail(err, 0, "--%s: \"%s\" is too large", flag, text);
	}
	if (v < -1)
		return shim_fail(err, 0, "--%s: \"%s\" is below -1", flag, text);
	*out = v < 0 ? v : (int64_t)v << shift;
	return 0;
}

static int parse_int(const char *flag, const char *text, int64_t *out, struct shim_error *err)
{
	char *end;

	errno = 0;
	*out = strtoll(text, &end, 10);
	if (end == text || *end || errno)
		return shim_fail(err, 0, "--%s: \"%s\" is not an integer", flag, text);
	return 0;
}

static int check_cpuset(const char *flag, const char *text, struct shim_error *err)
{
	if (!*text || strspn(text, "0123456789,-") != strlen(text))
		return shim_fail(err, 0, "--%s: \"%s\" is not a CPU or node list (\"0-2,4\")", flag,
				 text);
	return 0;
}

enum section { MEM, CPU, PIDS, IO, N_SECTIONS };
enum kind { BYTES, INT, CPUSET };

/* Each flag's place in the LinuxResources object. */
static const struct {
	size_t field;		/* offsetof in struct oci_update_flags */
	const char *name;
	enum kind kind;
	enum section section;
	const char *key;
} flag_map[] = {
	{ offsetof(struct oci_update_flags, memory), "memory", BYTES, MEM, "limit" },
	{ offsetof(struct oci_update_flags, memory_swap), "memory-swap", BYTES, MEM, "swap" },
	{ offsetof(struct oci_update_flags, memory_reservation), "memory-reservation", BYTES, MEM,
	  "reservation" },
	{ offsetof(struct oci_update_flags, cpu_shares), "cpu-share", INT, CPU, "shares" },
	{ offsetof(struct oci_update_flags, cpu_quota), "cpu-quota", INT, CPU, "quota" },
	{ offsetof(struct oci_update_flags, cpu_period), "cpu-period", INT, CPU, "period" },
	{ offsetof(struct oci_update_flags, cpu_rt_period), "cpu-rt-period", INT, CPU,
	  "realtimePeriod" },
	{ offsetof(struct oci_update_flags, cpu_rt_runtime), "cpu-rt-runtime", INT, CPU,
	  "realtimeRuntime" },
	{ offsetof(struct oci_update_flags, cpuset_cpus), "cpuset-cpus", CPUSET, CPU, "cpus" },
	{ offsetof(struct oci_update_flags, cpuset_mems), "cpuset-mems", CPUSET, CPU, "mems" },
	{ offsetof(struct oci_update_flags, pids_limit), "pids-limit", INT, PIDS, "limit" },
	{ offsetof(struct oci_update_flags, blkio_weight), "blkio-weight", INT, IO, "weight" },
};

/* One flag as ,"key":value in its section. */
static int add_flag(size_t i, const char *text, char *section, size_t len, struct shim_error *err)
{
	char value[64];
	size_t n = strlen(section);
	int64_t v = 0;

	switch (flag_map[i].kind) {
	case BYTES:
		if (parse_bytes(flag_map[i].name, text, &v, err) < 0)
			return -1;
		snprintf(value, sizeof(value), "%" PRId64, v);
		break;
	case INT:
		if (parse_int(flag_map[i].name, text, &v, err) < 0)
			return -1;
		snprintf(value, sizeof(value), "%" PRId64, v);
		break;
	case CPUSET:
		if (check_cpuset(flag_map[i].name, text, err) < 0)
			return -1;
		if (strlen(text) > 60)
			return shim_fail(err, 0, "--%s: \"%.60s...\" is too long", flag_map[i].name,
					 text);
		snprintf(value, sizeof(value), "\"%s\"", text);
		break;
	}
	snprintf(section + n, len - n, "%s\"%s\":%s", n ? "," : "", flag_map[i].key, value);
	return 0;
}

static const char *flag_value(const struct oci_update_flags *f, size_t i)
{
	const char *const *field = (const char *const *)((const char *)f + flag_map[i].field);

	return *field;
}

int oci_resources_from_flags(const struct oci_update_flags *f, struct oci_resources *r,
			     struct shim_error *err)
{
	char sec[N_SECTIONS][512] = { "" }, json[4096];

	for (size_t i = 0; i < sizeof(flag_map) / sizeof(flag_map[0]); i++) {
		const char *text = flag_value(f, i);

		if (text && add_flag(i, text, sec[flag_map[i].section], sizeof(sec[0]), err) < 0)
			return -1;
	}
	snprintf(json, sizeof(json), "{\"memory\":{%s},\"cpu\":{%s},\"pids\":{%s},\"blockIO\":{%s}}",
		 sec[MEM], sec[CPU], sec[PIDS], sec[IO]);
	return oci_resources_parse_text(json, strlen(json), "update", r, err);
}

int oci_resources_parse_text(const char *json, size_t len, const char *what,
			     struct oci_resources *r, struct shim_error *err)
{
	yajl_val tree = json_parse(json, len, what, err);
	int rc;

	if (!tree)
		return -1;
	rc = oci_resources_parse(tree, what, r, err);
	json_free(tree);
	return rc;
}
