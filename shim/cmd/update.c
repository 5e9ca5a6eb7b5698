/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * update: new limits for a running container, from --resources FILE (a
 * LinuxResources JSON object, "-" for stdin) or from runc's flags, which
 * are turned into that same object and parsed by oci/resources.c.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "oci/json.h"
#include "oci/resources.h"
#include "shim/cgroup.h"
#include "oci/cleanup.h"
#include "shim/cmd/cmd.h"
#include "shim/fsutil.h"

#define MAX_RESOURCES_JSON (1 << 20)

enum flag { F_RESOURCES = 1, F_MEMORY, F_SWAP, F_RESERVATION, F_SHARES, F_QUOTA, F_PERIOD,
	    F_CPUS, F_MEMS, F_PIDS, F_BLKIO, F_COUNT };

static const struct option opts[] = {
	{ "resources", required_argument, NULL, F_RESOURCES },
	{ "memory", required_argument, NULL, F_MEMORY },
	{ "memory-swap", required_argument, NULL, F_SWAP },
	{ "memory-reservation", required_argument, NULL, F_RESERVATION },
	{ "cpu-share", required_argument, NULL, F_SHARES },
	{ "cpu-shares", required_argument, NULL, F_SHARES },
	{ "cpu-quota", required_argument, NULL, F_QUOTA },
	{ "cpu-period", required_argument, NULL, F_PERIOD },
	{ "cpuset-cpus", required_argument, NULL, F_CPUS },
	{ "cpuset-mems", required_argument, NULL, F_MEMS },
	{ "pids-limit", required_argument, NULL, F_PIDS },
	{ "blkio-weight", required_argument, NULL, F_BLKIO },
	{ 0 },
};

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
		return shim_fail(err, 0, "--%s: \"%s\" is not a CPU or node list (\"0-2,4\")", flag, text);
	return 0;
}

enum section { MEM, CPU, PIDS, IO, N_SECTIONS };
enum kind { BYTES, INT, CPUSET };

/* Each flag's place in the LinuxResources object. */
static const struct {
	enum flag flag;
	const char *name;
	enum kind kind;
	enum section section;
	const char *key;
} flag_map[] = {
	{ F_MEMORY, "memory", BYTES, MEM, "limit" },
	{ F_SWAP, "memory-swap", BYTES, MEM, "swap" },
	{ F_RESERVATION, "memory-reservation", BYTES, MEM, "reservation" },
	{ F_SHARES, "cpu-share", INT, CPU, "shares" },
	{ F_QUOTA, "cpu-quota", INT, CPU, "quota" },
	{ F_PERIOD, "cpu-period", INT, CPU, "period" },
	{ F_CPUS, "cpuset-cpus", CPUSET, CPU, "cpus" },
	{ F_MEMS, "cpuset-mems", CPUSET, CPU, "mems" },
	{ F_PIDS, "pids-limit", INT, PIDS, "limit" },
	{ F_BLKIO, "blkio-weight", INT, IO, "weight" },
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
		snprintf(value, sizeof(value), "\"%.60s\"", text);
		break;
	}
	snprintf(section + n, len - n, "%s\"%s\":%s", n ? "," : "", flag_map[i].key, value);
	return 0;
}

static int flags_to_json(const char *vals[F_COUNT], char *json, size_t len, struct shim_error *err)
{
	char sec[N_SECTIONS][512] = { "" };

	for (size_t i = 0; i < sizeof(flag_map) / sizeof(flag_map[0]); i++)
		if (vals[flag_map[i].flag] &&
		    add_flag(i, vals[flag_map[i].flag], sec[flag_map[i].section], sizeof(sec[0]), err) < 0)
			return -1;
	snprintf(json, len, "{\"memory\":{%s},\"cpu\":{%s},\"pids\":{%s},\"blockIO\":{%s}}",
		 sec[MEM], sec[CPU], sec[PIDS], sec[IO]);
	return 0;
}

static char *read_resources(const char *path, size_t *len, struct shim_error *err)
{
	char *text;

	if (strcmp(path, "-") != 0) {
		text = read_small_file(path, MAX_RESOURCES_JSON, len, err);
		if (!text)
			shim_error_wrap(err, "--resources");
		return text;
	}
	text = malloc(MAX_RESOURCES_JSON + 1);
	if (!text) {
		shim_fail(err, ENOMEM, "--resources -");
		return NULL;
	}
	*len = fread(text, 1, MAX_RESOURCES_JSON, stdin);
	text[*len] = '\0';
	return text;
}

static int parse_update(int argc, char **argv, struct oci_resources *r, struct shim_error *err)
{
	const char *vals[F_COUNT] = { 0 };
	char flags_json[4096];
	_cleanup_free_ char *text = NULL;
	const char *what = "update";
	yajl_val tree;
	size_t len;
	int ch, any = 0, rc;

	optind = 1;
	opterr = 0;
	/* no "+": as runc, flags after the ID count too (getopt moves it last) */
	while ((ch = getopt_long(argc, argv, "r:", opts, NULL)) != -1) {
		if (ch == '?' || ch == ':')
			return shim_fail(err, 0, "update: unknown flag or missing value: %s", argv[optind - 1]);
		vals[ch == 'r' ? F_RESOURCES : ch] = optarg;
		any = 1;
	}
	if (!any)
		return shim_fail(err, 0, "update: nothing to change (give --resources FILE or a limit flag)");
	if (vals[F_RESOURCES]) {
		text = read_resources(vals[F_RESOURCES], &len, err);
		what = "--resources";
		if (!text)
			return -1;
	} else {
		if (flags_to_json(vals, flags_json, sizeof(flags_json), err) < 0)
			return -1;
		len = strlen(flags_json);
	}
	tree = json_parse(text ? text : flags_json, len, what, err);
	if (!tree)
		return -1;
	rc = oci_resources_parse(tree, what, r, err);
	yajl_tree_free(tree);
	return rc;
}

/* memory.checkBeforeUpdate: a new memory.max below memory.current is
 * refused rather than left to reclaim or the OOM killer. */
static int check_before_update(int cgroup_fd, const struct oci_resources *r,
			       struct shim_error *err)
{
	const struct cgroup_setting *max = oci_resources_find(r, "memory.max");
	char current[32];
	unsigned long long limit, usage;

	if (!r->check_before_update || !max || strcmp(max->value, "max") == 0)
		return 0;
	if (cgroup_read(cgroup_fd, "memory.current", current, sizeof(current), err) < 0)
		return shim_error_wrap(err, "update: memory.checkBeforeUpdate");
	limit = strtoull(max->value, NULL, 10);
	usage = strtoull(current, NULL, 10);
	if (limit < usage)
		return shim_fail(err, EBUSY, "linux.resources.memory.checkBeforeUpdate: the new limit "
				 "%llu is below the container's usage %llu", limit, usage);
	return 0;
}

int cmd_update(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct oci_resources r;
	struct container c;
	const char *id = NULL;
	int rc = -1;

	if (parse_update(argc, argv, &r, err) < 0)
		return -1;
	if (cmd_one_id("update", argc, argv, &id, err) < 0 ||
	    container_load(g->root, id, &c, err) < 0) {
		oci_resources_release(&r);
		return -1;
	}
	if (c.status == STATUS_STOPPED)
		shim_fail(err, 0, "update: container %s is stopped", id);
	else if (c.cgroup_fd < 0)
		shim_fail(err, 0, "update: container %s has no cgroup (limits need cgroup v2)", id);
	else if (check_before_update(c.cgroup_fd, &r, err) == 0)
		rc = cgroup_apply(c.cgroup_fd, c.state->cgroup_path, &r, err);
	container_release(&c);
	oci_resources_release(&r);
	return rc < 0 ? -1 : 0;
}
