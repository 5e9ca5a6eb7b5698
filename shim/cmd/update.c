/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * update: new limits for a running container, from --resources FILE (a
 * LinuxResources JSON object, "-" for stdin) or from runc's flags, which
 * are turned into that same object and parsed by oci/resources.c
 * (oci/update_flags.h).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/resources.h"
#include "oci/update_flags.h"
#include "shim/cgroups/cgroup.h"
#include "shim/cgroups/systemd.h"
#include "shim/cmd/cmd.h"
#include "shim/fsutil.h"
#include "shim/store.h"

#define MAX_RESOURCES_JSON (1 << 20)

enum flag { F_MEMORY = 1, F_SWAP, F_RESERVATION, F_SHARES, F_QUOTA, F_PERIOD,
	    F_RT_PERIOD, F_RT_RUNTIME, F_CPUS, F_MEMS, F_PIDS, F_BLKIO, F_COUNT };

static const struct option opts[] = {
	{ "resources", required_argument, NULL, 'r' },
	{ "memory", required_argument, NULL, F_MEMORY },
	{ "memory-swap", required_argument, NULL, F_SWAP },
	{ "memory-reservation", required_argument, NULL, F_RESERVATION },
	{ "cpu-share", required_argument, NULL, F_SHARES },
	{ "cpu-shares", required_argument, NULL, F_SHARES },
	{ "cpu-quota", required_argument, NULL, F_QUOTA },
	{ "cpu-period", required_argument, NULL, F_PERIOD },
	{ "cpu-rt-period", required_argument, NULL, F_RT_PERIOD },
	{ "cpu-rt-runtime", required_argument, NULL, F_RT_RUNTIME },
	{ "cpuset-cpus", required_argument, NULL, F_CPUS },
	{ "cpuset-mems", required_argument, NULL, F_MEMS },
	{ "pids-limit", required_argument, NULL, F_PIDS },
	{ "blkio-weight", required_argument, NULL, F_BLKIO },
	{ 0 },
};
const struct cmd_flags update_flags = { opts, "r:" };

/* Where each limit flag goes in struct oci_update_flags. */
static const char **flag_field(struct oci_update_flags *f, int flag)
{
	switch (flag) {
	case F_MEMORY: return &f->memory;
	case F_SWAP: return &f->memory_swap;
	case F_RESERVATION: return &f->memory_reservation;
	case F_SHARES: return &f->cpu_shares;
	case F_QUOTA: return &f->cpu_quota;
	case F_PERIOD: return &f->cpu_period;
	case F_RT_PERIOD: return &f->cpu_rt_period;
	case F_RT_RUNTIME: return &f->cpu_rt_runtime;
	case F_CPUS: return &f->cpuset_cpus;
	case F_MEMS: return &f->cpuset_mems;
	case F_PIDS: return &f->pids_limit;
	case F_BLKIO: return &f->blkio_weight;
	default: return NULL;
	}
}

/* --resources FILE, or "-": stdin (a file or a pipe); more than
 * MAX_RESOURCES_JSON bytes is refused, never cut short. */
static char *read_resources(const char *path, size_t *len, struct shim_error *err)
{
	char *text = strcmp(path, "-") == 0
			     ? read_small_stream(STDIN_FILENO, "--resources -", MAX_RESOURCES_JSON, len,
						 err)
			     : read_small_file(path, MAX_RESOURCES_JSON, len, err);

	if (!text && strcmp(path, "-") != 0)
		shim_error_wrap(err, "--resources");
	return text;
}

static int parse_update(int argc, char **argv, struct oci_resources *r, struct shim_error *err)
{
	struct oci_update_flags flags = { 0 };
	_cleanup_free_ char *text = NULL;
	const char *resources = NULL;
	size_t len;
	int ch, any = 0;

	optind = 1;
	opterr = 0;
	/* no "+": as runc, flags after the ID count too (getopt moves it last) */
	while ((ch = getopt_long(argc, argv, update_flags.shorts, opts, NULL)) != -1) {
		if (ch == '?' || ch == ':')
			return shim_fail(err, 0, "update: unknown flag or missing value: %s", argv[optind - 1]);
		if (ch == 'r')
			resources = optarg;
		else
			*flag_field(&flags, ch) = optarg;
		any = 1;
	}
	if (!any)
		return shim_fail(err, 0, "update: nothing to change (give --resources FILE or a limit flag)");
	if (!resources)
		return oci_resources_from_flags(&flags, r, err);
	text = read_resources(resources, &len, err);
	return text ? oci_resources_parse_text(text, len, "--resources", r, err) : -1;
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

/* --memory-swap (memory + swap) without --memory: counted from the
 * cgroup's memory limit, as runc counts it from the container's. */
static int swap_from_current(int cgroup_fd, struct oci_resources *r, struct shim_error *err)
{
	char now[64], text[32];
	uint64_t limit;

	if (cgroup_read(cgroup_fd, "memory.max", now, sizeof(now), err) < 0)
		return shim_error_wrap(err, "update: --memory-swap");
	if (strncmp(now, "max", 3) == 0)
		return shim_fail(err, EINVAL, "update: --memory-swap %llu: the container has no "
				 "memory limit to count it from (give --memory too)",
				 (unsigned long long)r->swap_alone);
	limit = strtoull(now, NULL, 10);
	if (r->swap_alone < limit)
		return shim_fail(err, EINVAL, "update: --memory-swap %llu is less than the memory "
				 "limit %llu (it counts memory plus swap)",
				 (unsigned long long)r->swap_alone, (unsigned long long)limit);
	snprintf(text, sizeof(text), "%llu", (unsigned long long)(r->swap_alone - limit));
	return oci_resources_add(r, "memory.swap.max", text, "linux.resources.memory.swap", err);
}

/* update starts from the container's current limits, as runc's does: a
 * cpu period alone keeps the quota cpu.max has; a memory limit of -1
 * alone lifts the swap limit too (where the cgroup has one). */
static int from_current(int cgroup_fd, struct oci_resources *r, struct shim_error *err)
{
	const struct cgroup_setting *max = oci_resources_find(r, "cpu.max");
	char now[64], text[64];
	const char *period = max ? strchr(max->value, ' ') : NULL;

	if (r->cpu_period_alone && period &&
	    cgroup_read(cgroup_fd, "cpu.max", now, sizeof(now), NULL) == 0 &&
	    strncmp(now, "max", 3) != 0 && strchr(now, ' ')) {
		*strchr(now, ' ') = '\0';
		snprintf(text, sizeof(text), "%s%s", now, period);
		if (oci_resources_replace(r, "cpu.max", text, err) < 0)
			return -1;
	}
	if (r->memory_unlimited_alone && !oci_resources_find(r, "memory.swap.max") &&
	    faccessat(cgroup_fd, "memory.swap.max", F_OK, 0) == 0)
		return oci_resources_add(r, "memory.swap.max", "max", "linux.resources.memory", err);
	if (r->has_swap_alone)
		return swap_from_current(cgroup_fd, r, err);
	return 0;
}

/* With the systemd driver, the unit's properties change first, as runc
 * does: a daemon-reload would otherwise put the old limits back. */
static int update_unit(const struct container *c, const struct oci_resources *r,
		       struct shim_error *err)
{
	struct shim_error none = { 0 };
	_cleanup_free_ char *unit = store_read_record(c->dir_fd, STORE_SYSTEMD_UNIT, NAME_MAX + 1,
						      &none);

	if (!unit)
		return none.errnum == ENOENT ? 0 : shim_fail(err, none.errnum, "update: %s", none.msg);
	return systemd_unit_update(unit, r, err);
}

int cmd_update(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct oci_resources r;
	struct container c;
	const char *id = NULL;
	int rc = -1;

	if (parse_update(argc, argv, &r, err) < 0)
		return -1;
	cgroup_warn_ignored(&r);
	if (cmd_one_id("update", argc, argv, &id, err) < 0 ||
	    container_load(g->root, id, &c, err) < 0) {
		oci_resources_release(&r);
		return -1;
	}
	if (c.status == STATUS_STOPPED)
		shim_fail(err, 0, "update: container %s is stopped", id);
	else if (c.cgroup_fd < 0 && cgroup_v1_is_open(&c.v1))
		rc = cgroup_v1_check_before_update(&c.v1, &r, err) == 0
			     ? cgroup_v1_apply(&c.v1, &r, err) : -1;
	else if (c.cgroup_fd < 0)
		shim_fail(err, 0, "update: container %s has no cgroup (limits need one)", id);
	else if (check_before_update(c.cgroup_fd, &r, err) == 0 &&
		 from_current(c.cgroup_fd, &r, err) == 0 && update_unit(&c, &r, err) == 0)
		rc = cgroup_apply(c.cgroup_fd, c.state->cgroup_path, &r, err);
	container_release(&c);
	oci_resources_release(&r);
	return rc < 0 ? -1 : 0;
}
