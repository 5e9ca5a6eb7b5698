/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * events: a container's cgroup figures as JSON lines, as runc prints them
 * (from its cgroup v2 folder, or on a v1 host its v1 folders)
 * (its field names only: runc's own tests wait for "oom" anywhere in the
 * output, so no stats field may carry that word).
 * --stats prints one {"type":"stats",...} and exits; otherwise one every
 * --interval (default 5s) and an {"type":"oom",...} line whenever
 * memory.events counts a new OOM (checked every 100 ms, and once more when
 * the init exits, which an OOM kill of the init makes it do), until the
 * container stops.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "oci/base/clock.h"
#include "shim/cgroups/cgroup.h"
#include "shim/cgroups/cgroup_v1.h"
#include "shim/cmd/cmd.h"
#include "shim/pidfd.h"

#define OOM_CHECK_MS 100

static const struct option opts[] = {
	{ "stats", no_argument, NULL, 's' },
	{ "interval", required_argument, NULL, 'i' },
	{ 0 },
};
const struct cmd_flags events_flags = { opts, "+" };

/* "name value" in the text of a flat keyed file; 0 when absent. */
static uint64_t key_value(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, name, len) == 0 && p[len] == ' ')
			return strtoull(p + len + 1, NULL, 10);
	return 0;
}

/* "name value" in a flat keyed file such as cpu.stat; 0 when absent. */
static uint64_t keyed(int dir_fd, const char *file, const char *name)
{
	char text[4096];

	if (cgroup_read(dir_fd, file, text, sizeof(text), NULL) < 0)
		return 0;
	return key_value(text, name);
}

/* A one-value file; "max" (no limit) reads as UINT64_MAX, as runc reports. */
static uint64_t single(int dir_fd, const char *file)
{
	char text[64];

	if (cgroup_read(dir_fd, file, text, sizeof(text), NULL) < 0)
		return 0;
	return strncmp(text, "max", 3) == 0 ? UINT64_MAX : strtoull(text, NULL, 10);
}

struct stats {
	uint64_t cpu_total, cpu_user, cpu_kernel;	/* ns */
	uint64_t mem_usage, mem_limit, swap_usage, swap_limit;
	uint64_t pids_current, pids_limit;
};

static void read_stats_v2(int fd, struct stats *st)
{
	st->cpu_total = keyed(fd, "cpu.stat", "usage_usec") * 1000;
	st->cpu_user = keyed(fd, "cpu.stat", "user_usec") * 1000;
	st->cpu_kernel = keyed(fd, "cpu.stat", "system_usec") * 1000;
	st->mem_usage = single(fd, "memory.current");
	st->mem_limit = single(fd, "memory.max");
	st->swap_usage = single(fd, "memory.swap.current");
	st->swap_limit = single(fd, "memory.swap.max");
	st->pids_current = single(fd, "pids.current");
	st->pids_limit = single(fd, "pids.max");
}

/* cgroup v1, as runc reads it: cpuacct's figures (its user and system
 * times in clock ticks), memory's, memsw's as the swap ones. */
static void read_stats_v1(const struct cgroup_v1 *cg, struct stats *st)
{
	int cpu = cg->fd[V1_CPUACCT], mem = cg->fd[V1_MEMORY], pids = cg->fd[V1_PIDS];
	uint64_t tick_ns = 1000000000ULL / (uint64_t)sysconf(_SC_CLK_TCK);

	st->cpu_total = cpu < 0 ? 0 : single(cpu, "cpuacct.usage");
	st->cpu_user = cpu < 0 ? 0 : keyed(cpu, "cpuacct.stat", "user") * tick_ns;
	st->cpu_kernel = cpu < 0 ? 0 : keyed(cpu, "cpuacct.stat", "system") * tick_ns;
	st->mem_usage = mem < 0 ? 0 : single(mem, "memory.usage_in_bytes");
	st->mem_limit = mem < 0 ? 0 : single(mem, "memory.limit_in_bytes");
	st->swap_usage = mem < 0 ? 0 : single(mem, "memory.memsw.usage_in_bytes");
	st->swap_limit = mem < 0 ? 0 : single(mem, "memory.memsw.limit_in_bytes");
	st->pids_current = pids < 0 ? 0 : single(pids, "pids.current");
	st->pids_limit = pids < 0 ? 0 : single(pids, "pids.max");
}

static void print_stats(const struct container *c)
{
	struct stats st = { 0 };

	if (c->cgroup_fd >= 0)
		read_stats_v2(c->cgroup_fd, &st);
	else
		read_stats_v1(&c->v1, &st);
	printf("{\"type\":\"stats\",\"id\":\"%s\",\"data\":{"
	       "\"cpu\":{\"usage\":{\"total\":%" PRIu64 ",\"user\":%" PRIu64 ",\"kernel\":%" PRIu64 "}},"
	       "\"memory\":{\"usage\":{\"usage\":%" PRIu64 ",\"limit\":%" PRIu64 "},"
	       "\"swap\":{\"usage\":%" PRIu64 ",\"limit\":%" PRIu64 "}},"
	       "\"pids\":{\"current\":%" PRIu64 ",\"limit\":%" PRIu64 "}}}\n",
	       c->id, st.cpu_total, st.cpu_user, st.cpu_kernel, st.mem_usage, st.mem_limit,
	       st.swap_usage, st.swap_limit, st.pids_current, st.pids_limit);
	fflush(stdout);
}

/* "5s", "500ms", "2m" or plain seconds, in milliseconds. */
static int parse_interval(const char *text, long *ms, struct shim_error *err)
{
	char *end;
	double v = strtod(text, &end);
	double scale = strcmp(end, "ms") == 0 ? 1 : strcmp(end, "m") == 0 ? 60000
		     : (!*end || strcmp(end, "s") == 0) ? 1000 : -1;

	if (end == text || scale < 0 || v <= 0 || v * scale < 1 || v * scale > 86400000)
		return shim_fail(err, 0, "events: --interval: \"%s\" is not a duration (\"5s\", \"500ms\")", text);
	*ms = (long)(v * scale);
	return 0;
}

/* memory.events' "oom" (the limit was hit, the OOM killer ran) and
 * "oom_kill" (a process died of it): either growing is an OOM event, as
 * runc reads them. One OOM raises "oom" and then "oom_kill", so the count
 * is the larger of the two, from one read of the file: their sum would
 * grow twice for one OOM seen between the two. "oom_kill" alone grows for
 * a kill by an ancestor's OOM. Both count the cgroups below too. On
 * cgroup v1, memory.oom_control's "oom_kill". */
static uint64_t oom_count(const struct container *c)
{
	char text[4096];
	uint64_t oom, kills;

	if (c->cgroup_fd < 0)
		return c->v1.fd[V1_MEMORY] < 0 ? 0
			: keyed(c->v1.fd[V1_MEMORY], "memory.oom_control", "oom_kill");
	if (cgroup_read(c->cgroup_fd, "memory.events", text, sizeof(text), NULL) < 0)
		return 0;
	oom = key_value(text, "oom");
	kills = key_value(text, "oom_kill");
	return oom > kills ? oom : kills;
}

static void report_oom(const struct container *c, uint64_t *seen)
{
	uint64_t now = oom_count(c);

	if (now > *seen) {
		printf("{\"type\":\"oom\",\"id\":\"%s\"}\n", c->id);
		fflush(stdout);
	}
	*seen = now;
}

static int follow(struct container *c, long interval_ms)
{
	uint64_t ooms = oom_count(c);
	long next = clock_ms();

	for (;;) {
		struct pollfd p = { .fd = c->pidfd, .events = POLLIN };

		report_oom(c, &ooms);
		if (clock_ms() >= next) {
			print_stats(c);
			next += interval_ms;
		}
		if (poll(&p, 1, OOM_CHECK_MS) > 0) {
			/* the init is gone, an OOM kill of it included */
			report_oom(c, &ooms);
			return 0;
		}
	}
}

int cmd_events(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	bool stats_once = false;
	long interval_ms = 5000;
	struct container c;
	const char *id = NULL;
	int ch, r = -1;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, events_flags.shorts, opts, NULL)) != -1) {
		if (ch == 's')
			stats_once = true;
		else if (ch != 'i')
			return shim_fail(err, 0, "events: unknown flag or missing value: %s", argv[optind - 1]);
		else if (parse_interval(optarg, &interval_ms, err) < 0)
			return -1;
	}
	if (cmd_one_id("events", argc, argv, &id, err) < 0 || container_load(g->root, id, &c, err) < 0)
		return -1;
	if (c.status == STATUS_STOPPED)
		shim_fail(err, 0, "events: container %s is stopped", id);
	else if (c.cgroup_fd < 0 && !cgroup_v1_is_open(&c.v1))
		shim_fail(err, 0, "events: container %s has no cgroup (events needs one)", id);
	else if (stats_once)
		print_stats(&c), r = 0;
	else
		r = follow(&c, interval_ms);
	container_release(&c);
	return r;
}
