/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/cgroups/cgroup.h"
#include "shim/cgroups/cgroup_v1.h"
#include "shim/cgroups/devices_bpf.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/store.h"
#include "shim/syscalls.h"

#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC 0x27e0eb
#endif
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif
#define EMPTY_WAIT_MS 5000
#define FREEZE_WAIT_MS 5000
#define STEP_MS 10

static const char *const hierarchy[V1_N] = {
	[V1_DEVICES] = "devices", [V1_MEMORY] = "memory", [V1_PIDS] = "pids", [V1_CPU] = "cpu",
	[V1_CPUSET] = "cpuset", [V1_FREEZER] = "freezer", [V1_BLKIO] = "blkio",
	[V1_HUGETLB] = "hugetlb", [V1_NET_CLS] = "net_cls", [V1_NET_PRIO] = "net_prio",
	[V1_RDMA] = "rdma", [V1_CPUACCT] = "cpuacct", [V1_SYSTEMD] = "systemd",
	[V1_UNIFIED] = "unified",
};

/* How /proc/self/cgroup names each ("" is the unified cgroup2's line). */
static const char *proc_name(enum cgroup_v1_ctrl c)
{
	return c == V1_SYSTEMD ? "name=systemd" : c == V1_UNIFIED ? "" : hierarchy[c];
}

static bool is_v1_hierarchy(const char *path)
{
	struct statfs fs;

	return statfs(path, &fs) == 0 && fs.f_type == CGROUP_SUPER_MAGIC;
}

bool cgroup_v1_host(void)
{
	return !cgroup2_mounted() && is_v1_hierarchy(CGROUP_V1_ROOT "/devices") &&
	       access(CGROUP_V1_ROOT "/devices/devices.allow", F_OK) == 0;
}

/* --- where --- */

/* The runtime's own folder of hierarchy c, from "N:c:/path" (or
 * "N:a,c,b:/path"; "0::/path" for the unified one) in /proc/self/cgroup;
 * "/" where it has none. */
static int own_cgroup(const char *table, enum cgroup_v1_ctrl c, char *out, size_t len,
		      struct shim_error *err)
{
	char want[64];
	const char *line = table;

	snprintf(want, sizeof(want), ",%s,", proc_name(c));
	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *ctrl = strchr(line, ':'), *path = ctrl ? strchr(ctrl + 1, ':') : NULL;
		const char *end = path ? strchr(path, '\n') : NULL;
		char list[256];

		if (!path)
			continue;
		snprintf(list, sizeof(list), ",%.*s,", (int)(path - ctrl - 1), ctrl + 1);
		if ((c == V1_UNIFIED && strcmp(list, ",,") != 0) ||
		    (c != V1_UNIFIED && !strstr(list, want)))
			continue;
		if ((size_t)snprintf(out, len, "%.*s", end ? (int)(end - path - 1) : (int)strlen(path + 1),
				     path + 1) >= len)
			return shim_fail(err, ENAMETOOLONG, "/proc/self/cgroup");
		return 0;
	}
	snprintf(out, len, "/");
	return 0;
}

/* Has the path a ".." part? */
static bool has_dot_dot(const char *path)
{
	for (const char *p = path; (p = strstr(p, "..")); p += 2)
		if ((p == path || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
			return true;
	return false;
}

/* One hierarchy's folder: rel below own (an absolute rel as it is). */
static int resolve_one(const char *own, const char *rel, char *out, size_t len,
		       struct shim_error *err)
{
	int n = rel[0] == '/' ? snprintf(out, len, "%s", rel)
		: strcmp(own, "/") == 0 ? snprintf(out, len, "/%s", rel)
		: snprintf(out, len, "%s/%s", own, rel);

	if (n < 0 || (size_t)n >= len)
		return shim_fail(err, ENAMETOOLONG, "linux.cgroupsPath");
	for (size_t k = strlen(out); k > 1 && out[k - 1] == '/'; k--)
		out[k - 1] = '\0';
	if (strcmp(out, "/") == 0 || strstr(out, "//") || has_dot_dot(out))
		return shim_fail(err, EINVAL, "linux.cgroupsPath: \"%s\" is not a container's folder", out);
	return 0;
}

int cgroup_v1_resolve(const char *cgroups_path, const char *id, struct cgroup_v1 *cg,
		      struct shim_error *err)
{
	const char *rel = cgroups_path && *cgroups_path ? cgroups_path : id;
	_cleanup_free_ char *table = rel[0] == '/' ? NULL
				     : read_small_file("/proc/self/cgroup", 65536, NULL, err);
	char own[PATH_MAX] = "/";

	if (rel[0] != '/' && !table)
		return -1;
	for (int c = 0; c < V1_N; c++)
		if ((table && own_cgroup(table, (enum cgroup_v1_ctrl)c, own, sizeof(own), err) < 0) ||
		    resolve_one(own, rel, cg->path[c], sizeof(cg->path[c]), err) < 0)
			return -1;
	snprintf(cg->rel, sizeof(cg->rel), "%s", cg->path[V1_DEVICES]);
	return 0;
}

char *cgroup_v1_record_text(const struct cgroup_v1 *cg)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	fprintf(f, "%s\n", cg->path[V1_DEVICES]);
	for (int c = 0; c < V1_N; c++)
		fprintf(f, "%s %s\n", hierarchy[c], cg->path[c]);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* Whether controller c is named in the comma list "a,b" (n bytes): a
 * hierarchy's folder name ("cpu,cpuacct"), exec --cgroup's prefix. */
static bool names_controller(const char *list, size_t n, enum cgroup_v1_ctrl c)
{
	size_t len = strlen(hierarchy[c]);

	for (const char *p = list, *end = list + n; p < end;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t k = comma ? (size_t)(comma - p) : (size_t)(end - p);

		if (k == len && strncmp(p, hierarchy[c], len) == 0)
			return true;
		p += k + 1;
	}
	return false;
}

const char *cgroup_v1_folder_of(const struct cgroup_v1 *cg, const char *name)
{
	/* runc binds the v1 hierarchies only: never the unified cgroup2 */
	for (int c = 0; c < V1_N; c++)
		if (c != V1_UNIFIED && names_controller(name, strlen(name), c))
			return cg->path[c][0] ? cg->path[c] : NULL;
	return NULL;
}

/* --- what: linux.resources as v1 files --- */

/* The v2 settings a v1 host writes in its own words (cgroup_v1_apply):
 * those converted from the spec's fields, not the unified ones. */
static bool v1_has_word_for(const struct cgroup_setting *s)
{
	static const char *const known[] = { "memory.max", "memory.low", "memory.swap.max",
					     "pids.max", "cpu.weight", "cpu.max", "cpuset.cpus",
					     "cpuset.mems", "io.weight", "io.max", "rdma.max" };
	size_t n = strlen(s->file);

	if (strstr(s->json_path, ".unified"))
		return false;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(s->file, known[i]) == 0)
			return true;
	return strncmp(s->file, "hugetlb.", 8) == 0 && n > 4 && strcmp(s->file + n - 4, ".max") == 0;
}

int cgroup_v1_check(const struct oci_resources *r, struct shim_error *err)
{
	for (size_t i = 0; i < r->n_settings; i++) {
		const struct cgroup_setting *s = &r->settings[i];

		if (!v1_has_word_for(s))
			return shim_fail(err, ENOTSUP, "%s: not supported on a cgroup v1 host (%s is "
					 "a cgroup v2 file)", s->json_path, s->file);
	}
	return 0;
}

void cgroup_v1_device_rule(const struct device_rule *r, char *line, size_t size)
{
	char major[24] = "*", minor[24] = "*", acc[4];
	size_t a = 0;

	if (r->major >= 0)
		snprintf(major, sizeof(major), "%lld", (long long)r->major);
	if (r->minor >= 0)
		snprintf(minor, sizeof(minor), "%lld", (long long)r->minor);
	if (r->access & DEV_ACC_READ)
		acc[a++] = 'r';
	if (r->access & DEV_ACC_WRITE)
		acc[a++] = 'w';
	if (r->access & DEV_ACC_MKNOD)
		acc[a++] = 'm';
	acc[a] = '\0';
	snprintf(line, size, "%c %s:%s %s", r->type, major, minor, acc);
}

static int write_at(const struct cgroup_v1 *cg, enum cgroup_v1_ctrl c, const char *file,
		    const char *text, const char *what, struct shim_error *err)
{
	_cleanup_close_ int fd = -1;

	if (cg->fd[c] < 0)
		return shim_fail(err, ENOTSUP, "%s: no cgroup v1 %s hierarchy at %s/%s", what,
				 hierarchy[c], CGROUP_V1_ROOT, hierarchy[c]);
	fd = openat(cg->fd[c], file, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		return shim_fail_errno(err, "%s: writing \"%s\" to %s%s/%s", what, text,
				       hierarchy[c], cg->path[c], file);
	return 0;
}

/* Deny everything, then each rule in order: v1 keeps a list that a deny
 * of "a" empties and each allow adds to. */
static int write_device_rules(const struct cgroup_v1 *cg, const struct oci_resources *r,
			      struct shim_error *err)
{
	const char *what = "linux.resources.devices";
	size_t n = r->n_devices + devices_n_default;

	if (write_at(cg, V1_DEVICES, "devices.deny", "a *:* rwm", what, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct device_rule *d =
			i < r->n_devices ? &r->devices[i] : &devices_default_rules[i - r->n_devices];
		char line[48];

		if (!d->access)
			continue;
		cgroup_v1_device_rule(d, line, sizeof(line));
		if (write_at(cg, V1_DEVICES, d->allow ? "devices.allow" : "devices.deny", line, what,
			     err) < 0)
			return -1;
	}
	return 0;
}

/* "max" is v1's -1. */
static const char *v1_value(const char *v)
{
	return strcmp(v, "max") == 0 ? "-1" : v;
}

/* memory: memsw (memory + swap) must stay above the limit at each step:
 * unlimited first, then the limit, then memsw itself. */
static int write_memory(const struct cgroup_v1 *cg, const struct oci_resources *r,
			struct shim_error *err)
{
	const struct cgroup_setting *max = oci_resources_find(r, "memory.max");
	const struct cgroup_setting *low = oci_resources_find(r, "memory.low");
	const struct cgroup_setting *swap = oci_resources_find(r, "memory.swap.max");
	char memsw[32];

	if (swap && write_at(cg, V1_MEMORY, "memory.memsw.limit_in_bytes", "-1", swap->json_path,
			     err) < 0)
		return -1;
	if (max && write_at(cg, V1_MEMORY, "memory.limit_in_bytes", v1_value(max->value),
			    max->json_path, err) < 0)
		return -1;
	if (low && write_at(cg, V1_MEMORY, "memory.soft_limit_in_bytes", v1_value(low->value),
			    low->json_path, err) < 0)
		return -1;
	/* update --memory-swap alone: the total, against the current limit */
	if (!swap && r->has_swap_alone) {
		snprintf(memsw, sizeof(memsw), "%llu", (unsigned long long)r->swap_alone);
		return write_at(cg, V1_MEMORY, "memory.memsw.limit_in_bytes", memsw,
				"linux.resources.memory.swap", err);
	}
	if (!swap || strcmp(swap->value, "max") == 0)
		return 0;
	/* v2's swap.max is swap alone; v1 counts memory + swap */
	snprintf(memsw, sizeof(memsw), "%llu",
		 strtoull(swap->value, NULL, 10) + (max ? strtoull(max->value, NULL, 10) : 0));
	return write_at(cg, V1_MEMORY, "memory.memsw.limit_in_bytes", memsw, swap->json_path, err);
}

static int write_cpu(const struct cgroup_v1 *cg, const struct oci_resources *r,
		     struct shim_error *err)
{
	const struct cgroup_setting *max = oci_resources_find(r, "cpu.max");
	char text[32], quota[32] = "", period[32] = "";

	if (r->cpu_shares) {
		snprintf(text, sizeof(text), "%llu", (unsigned long long)r->cpu_shares);
		if (write_at(cg, V1_CPU, "cpu.shares", text, "linux.resources.cpu.shares", err) < 0)
			return -1;
	}
	if (!max)
		return 0;
	sscanf(max->value, "%31s %31s", quota, period);
	/* the period first, as runc; where the kernel refuses it (EINVAL: the
	 * old quota over the new period is more than a parent's quota allows)
	 * and a quota comes too, the quota first, then the period again */
	if (write_at(cg, V1_CPU, "cpu.cfs_period_us", period, max->json_path, err) < 0) {
		if (err->errnum != EINVAL || r->cpu_period_alone ||
		    write_at(cg, V1_CPU, "cpu.cfs_quota_us", v1_value(quota), max->json_path, err) < 0)
			return -1;
		return write_at(cg, V1_CPU, "cpu.cfs_period_us", period, max->json_path, err);
	}
	/* a period alone keeps the quota the folder has (update, as runc) */
	if (r->cpu_period_alone)
		return 0;
	return write_at(cg, V1_CPU, "cpu.cfs_quota_us", v1_value(quota), max->json_path, err);
}

/* The weights go to BFQ's files where the kernel has them (CFQ's are gone
 * since Linux 5.0), as runc writes them. */
static const char *blkio_file(const struct cgroup_v1 *cg, const char *file)
{
	if (cg->fd[V1_BLKIO] < 0)
		return file;
	if (strcmp(file, "blkio.weight") == 0 &&
	    faccessat(cg->fd[V1_BLKIO], "blkio.bfq.weight", F_OK, 0) == 0)
		return "blkio.bfq.weight";
	if (strcmp(file, "blkio.weight_device") == 0 &&
	    faccessat(cg->fd[V1_BLKIO], "blkio.bfq.weight_device", F_OK, 0) == 0)
		return "blkio.bfq.weight_device";
	return file;
}

/* hugetlb.SIZE.max as hugetlb.SIZE.limit_in_bytes; rdma.max as it is. */
static int write_hugetlb_rdma(const struct cgroup_v1 *cg, const struct oci_resources *r,
			      struct shim_error *err)
{
	for (size_t i = 0; i < r->n_settings; i++) {
		const struct cgroup_setting *s = &r->settings[i];
		char file[128];
		size_t n = strlen(s->file);

		if (strcmp(s->file, "rdma.max") == 0) {
			if (write_at(cg, V1_RDMA, "rdma.max", s->value, s->json_path, err) < 0)
				return -1;
		} else if (strncmp(s->file, "hugetlb.", 8) == 0 && n > 12 && n < sizeof(file)) {
			snprintf(file, sizeof(file), "%.*s.limit_in_bytes", (int)(n - 4), s->file);
			if (write_at(cg, V1_HUGETLB, file, v1_value(s->value), s->json_path, err) < 0)
				return -1;
		}
	}
	return 0;
}

/* The v1 files of oci/resources_v1.c, each to its hierarchy. */
static int write_v1_only(const struct cgroup_v1 *cg, const struct oci_resources *r,
			 struct shim_error *err)
{
	static const struct { const char *prefix; enum cgroup_v1_ctrl c; } where[] = {
		{ "memory.", V1_MEMORY }, { "cpu.", V1_CPU }, { "blkio.", V1_BLKIO },
		{ "net_cls.", V1_NET_CLS }, { "net_prio.", V1_NET_PRIO },
	};

	for (size_t i = 0; i < r->n_v1; i++) {
		const struct cgroup_setting *s = &r->v1[i];
		size_t w = 0;

		while (w < sizeof(where) / sizeof(where[0]) &&
		       strncmp(s->file, where[w].prefix, strlen(where[w].prefix)) != 0)
			w++;
		if (w == sizeof(where) / sizeof(where[0]))
			return shim_fail(err, EINVAL, "%s: no cgroup v1 hierarchy for %s", s->json_path,
					 s->file);
		if (write_at(cg, where[w].c, blkio_file(cg, s->file), s->value, s->json_path, err) < 0)
			return -1;
	}
	return 0;
}

int cgroup_v1_apply(const struct cgroup_v1 *cg, const struct oci_resources *r,
		    struct shim_error *err)
{
	static const struct { const char *file; enum cgroup_v1_ctrl c; } same[] = {
		{ "pids.max", V1_PIDS }, { "cpuset.cpus", V1_CPUSET }, { "cpuset.mems", V1_CPUSET },
	};
	const struct cgroup_setting *s;
	char text[32];

	if (cgroup_v1_check(r, err) < 0 || write_memory(cg, r, err) < 0 || write_cpu(cg, r, err) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if ((s = oci_resources_find(r, same[i].file)) &&
		    write_at(cg, same[i].c, same[i].file, s->value, s->json_path, err) < 0)
			return -1;
	if (r->blkio_weight) {
		snprintf(text, sizeof(text), "%llu", (unsigned long long)r->blkio_weight);
		if (write_at(cg, V1_BLKIO, blkio_file(cg, "blkio.weight"), text,
			     "linux.resources.blockIO.weight", err) < 0)
			return -1;
	}
	if (write_hugetlb_rdma(cg, r, err) < 0 || write_v1_only(cg, r, err) < 0)
		return -1;
	return r->has_devices ? write_device_rules(cg, r, err) : 0;
}

int cgroup_v1_check_before_update(const struct cgroup_v1 *cg, const struct oci_resources *r,
				  struct shim_error *err)
{
	const struct cgroup_setting *max = oci_resources_find(r, "memory.max");
	_cleanup_close_ int fd = -1;
	char usage[32];
	ssize_t n;

	if (!r->check_before_update || !max || strcmp(max->value, "max") == 0)
		return 0;
	fd = cg->fd[V1_MEMORY] < 0 ? -1
		: openat(cg->fd[V1_MEMORY], "memory.usage_in_bytes", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (n = read(fd, usage, sizeof(usage) - 1)) < 0)
		return shim_fail_errno(err, "update: memory.checkBeforeUpdate: reading "
				       "memory%s/memory.usage_in_bytes", cg->path[V1_MEMORY]);
	usage[n] = '\0';
	if (strtoull(max->value, NULL, 10) < strtoull(usage, NULL, 10))
		return shim_fail(err, EBUSY, "linux.resources.memory.checkBeforeUpdate: the new limit "
				 "%s is below the container's usage %llu", max->value,
				 strtoull(usage, NULL, 10));
	return 0;
}

/* --- the folders --- */

/* A new cpuset folder has no CPUs or nodes: it takes its parent's. */
static void cpuset_inherit(int parent, int child)
{
	static const char *const files[] = { "cpuset.cpus", "cpuset.mems" };

	for (size_t i = 0; i < 2; i++) {
		char have[4096], from[4096];
		_cleanup_close_ int in = openat(child, files[i], O_RDONLY | O_CLOEXEC);
		_cleanup_close_ int up = openat(parent, files[i], O_RDONLY | O_CLOEXEC);
		_cleanup_close_ int out = -1;
		ssize_t n;

		if (in < 0 || up < 0 || (n = read(in, have, sizeof(have) - 1)) < 0 || n > 1)
			continue;
		n = read(up, from, sizeof(from) - 1);
		out = openat(child, files[i], O_WRONLY | O_CLOEXEC);
		if (n > 0 && out >= 0 && write(out, from, (size_t)n) < 0) {
			char text[SHIM_ERRNO_TEXT_MAX];

			log_warn("cgroup v1: cpuset: copying %s from the parent folder: %s", files[i],
				 shim_errno_text(errno, text, sizeof(text)));
		}
	}
}

/* mkdir -p the folder in hierarchy c, open it. */
static int make_folder(enum cgroup_v1_ctrl c, const char *rel, struct shim_error *err)
{
	char path[PATH_MAX];
	_cleanup_close_ int parent = -1;
	size_t root_len;
	int fd;

	if (path_format(path, sizeof(path), err, "%s/%s%s", CGROUP_V1_ROOT, hierarchy[c], rel) < 0)
		return shim_error_wrap(err, "cgroup v1");
	root_len = strlen(CGROUP_V1_ROOT) + 1 + strlen(hierarchy[c]);
	path[root_len] = '\0';
	parent = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	path[root_len] = '/';
	for (char *slash = path + root_len; slash; slash = strchr(slash + 1, '/')) {
		char *next = strchr(slash + 1, '/');

		if (next)
			*next = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return shim_fail_errno(err, "cgroup v1: mkdir %s", path);
		fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return shim_fail_errno(err, "cgroup v1: open %s", path);
		if (c == V1_CPUSET && parent >= 0)
			cpuset_inherit(parent, fd);
		safe_close(parent);
		parent = fd;
		if (next)
			*next = '/';
		else
			break;
	}
	return TAKE_FD(parent);
}

static bool mounted(enum cgroup_v1_ctrl c)
{
	char path[64];
	struct statfs fs;

	snprintf(path, sizeof(path), "%s/%s", CGROUP_V1_ROOT, hierarchy[c]);
	if (c != V1_UNIFIED)
		return is_v1_hierarchy(path);
	return statfs(path, &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC;
}

/* The PIDs in cgroup.procs of fd, as text (NULL: unreadable). */
static char *procs_of(int fd)
{
	_cleanup_close_ int procs = openat(fd, "cgroup.procs", O_RDONLY | O_CLOEXEC);

	return procs < 0 ? NULL : read_small_fd(procs, "cgroup.procs", 1 << 20, NULL, NULL);
}

void cgroup_v1_init(struct cgroup_v1 *cg)
{
	for (int c = 0; c < V1_N; c++) {
		cg->fd[c] = -1;
		cg->path[c][0] = '\0';
	}
	cg->rel[0] = '\0';
}

void cgroup_v1_close(struct cgroup_v1 *cg)
{
	for (int c = 0; c < V1_N; c++)
		cg->fd[c] = safe_close(cg->fd[c]);
}

bool cgroup_v1_is_open(const struct cgroup_v1 *cg)
{
	return cg->fd[V1_DEVICES] >= 0;
}

/* Whether the folder of hierarchy c at path was there before create
 * made it. */
static bool folder_exists(enum cgroup_v1_ctrl c, const char *path)
{
	char full[PATH_MAX];

	return path_format(full, sizeof(full), NULL, "%s/%s%s", CGROUP_V1_ROOT, hierarchy[c],
			   path) == 0 &&
	       access(full, F_OK) == 0;
}

static int destroy_folders(const struct cgroup_v1 *cg, const bool *existed,
			   struct shim_error *err);

int cgroup_v1_create(const struct oci_resources *r, struct cgroup_v1 *cg, struct shim_error *err)
{
	_cleanup_free_ char *procs = NULL;
	bool existed[V1_N];
	const char *rel = cg->path[V1_DEVICES];

	for (int c = 0; c < V1_N; c++) {
		cg->fd[c] = -1;
		existed[c] = mounted(c) && folder_exists((enum cgroup_v1_ctrl)c, cg->path[c]);
	}
	snprintf(cg->rel, sizeof(cg->rel), "%s", rel);
	for (int c = 0; c < V1_N; c++)
		if (mounted(c) && (cg->fd[c] = make_folder(c, cg->path[c], err)) < 0)
			goto fail;
	/* Folders with processes are another's: refused, and never emptied
	 * or removed (that would kill the container they belong to). */
	procs = cg->fd[V1_DEVICES] >= 0 ? procs_of(cg->fd[V1_DEVICES]) : NULL;
	if (!procs || *procs) {
		shim_fail(err, EBUSY, "linux.cgroupsPath: container's cgroup is not empty (or "
			  "unreadable): %s/devices%s has processes", CGROUP_V1_ROOT, rel);
		goto keep;
	}
	/* frozen (or below a frozen folder): the init would stop on its
	 * first instruction and create wait for ever */
	if (cgroup_v1_is_frozen(cg) == 1) {
		shim_fail(err, EBUSY, "linux.cgroupsPath: container's cgroup unexpectedly frozen: "
			  "freezer.state of %s/freezer%s is not THAWED (thaw it first)",
			  CGROUP_V1_ROOT, cg->path[V1_FREEZER]);
		/* a frozen folder create did not make is not its to remove */
		cgroup_v1_close(cg);
		destroy_folders(cg, existed, NULL);
		return -1;
	}
	if (cgroup_v1_apply(cg, r, err) < 0)
		goto fail;
	log_debug("cgroup v1: %s in each hierarchy (memory %s, name=systemd %s), %zu settings and "
		  "the device rules written", rel, cg->path[V1_MEMORY], cg->path[V1_SYSTEMD],
		  r->n_settings);
	return 0;
fail:
	cgroup_v1_close(cg);
	cgroup_v1_destroy(cg, NULL);
	return -1;
keep:
	cgroup_v1_close(cg);
	return -1;
}

/* A record line's path, checked to be one shim could have written. */
static int record_path(const char *path, char *out, size_t len, struct shim_error *err)
{
	if (cgroup_check_record(path, STORE_CGROUP_V1, err) < 0)
		return -1;
	if ((size_t)snprintf(out, len, "%s", path) >= len)
		return shim_fail(err, ENAMETOOLONG, "%s", STORE_CGROUP_V1);
	return 0;
}

int cgroup_v1_read_record(int dir_fd, struct cgroup_v1 *cg, struct shim_error *err)
{
	_cleanup_free_ char *text = store_read_record(dir_fd, STORE_CGROUP_V1, 64 * 1024, err);
	char *save = NULL, *line;

	cgroup_v1_init(cg);
	if (!text)
		return -1;
	line = strtok_r(text, "\n", &save);
	if (!line || record_path(line, cg->rel, sizeof(cg->rel), err) < 0)
		return line ? -1 : shim_fail(err, EINVAL, "%s: empty", STORE_CGROUP_V1);
	/* a record of one line: the same folder in every hierarchy */
	for (int c = 0; c < V1_N; c++)
		snprintf(cg->path[c], sizeof(cg->path[c]), "%s", cg->rel);
	while ((line = strtok_r(NULL, "\n", &save))) {
		char *space = strchr(line, ' ');

		if (!space)
			continue;
		*space = '\0';
		for (int c = 0; c < V1_N; c++)
			if (strcmp(line, hierarchy[c]) == 0 &&
			    record_path(space + 1, cg->path[c], sizeof(cg->path[c]), err) < 0)
				return -1;
	}
	return 0;
}

int cgroup_v1_open_recorded(int dir_fd, struct cgroup_v1 *cg, struct shim_error *err)
{
	if (cgroup_v1_read_record(dir_fd, cg, err) < 0)
		return -1;
	for (int c = 0; c < V1_N; c++) {
		char path[PATH_MAX];

		if (!mounted(c) || path_format(path, sizeof(path), NULL, "%s/%s%s", CGROUP_V1_ROOT,
					       hierarchy[c], cg->path[c]) < 0)
			continue;
		cg->fd[c] = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (cg->fd[V1_DEVICES] < 0) {
		cgroup_v1_close(cg);
		return shim_fail(err, ENOENT, "cgroup v1: %s/devices%s is gone", CGROUP_V1_ROOT,
				 cg->rel);
	}
	return 0;
}

int cgroup_v1_enter(const struct cgroup_v1 *cg, pid_t pid, struct shim_error *err)
{
	char text[24];

	snprintf(text, sizeof(text), "%d", (int)pid);
	for (int c = 0; c < V1_N; c++)
		if (cg->fd[c] >= 0 &&
		    write_at(cg, c, "cgroup.procs", text, "cgroup v1", err) < 0)
			return shim_error_wrap(err, "putting %d in the container's cgroups", (int)pid);
	return 0;
}

/* Every name of the list is a controller of ours with a hierarchy. */
static int check_listed(const struct cgroup_v1 *cg, const char *spec, size_t n,
			struct shim_error *err)
{
	for (const char *p = spec, *end = spec + n; p < end;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t k = comma ? (size_t)(comma - p) : (size_t)(end - p);
		bool known = false;

		for (int c = 0; c < V1_N && !known; c++)
			known = strlen(hierarchy[c]) == k && strncmp(p, hierarchy[c], k) == 0 &&
				cg->fd[c] >= 0;
		if (!known)
			return shim_fail(err, ENOENT, "exec --cgroup %s: no cgroup v1 controller "
					 "\"%.*s\" here", spec, (int)k, p);
		p += k + 1;
	}
	return 0;
}

int cgroup_v1_enter_sub(const struct cgroup_v1 *cg, const char *spec, pid_t pid,
			struct shim_error *err)
{
	const char *colon = strchr(spec, ':'), *path = colon ? colon + 1 : spec;
	size_t n = colon ? (size_t)(colon - spec) : 0;
	char text[24];

	if (colon && check_listed(cg, spec, n, err) < 0)
		return -1;
	while (*path == '/')
		path++;
	snprintf(text, sizeof(text), "%d", (int)pid);
	for (int c = 0; c < V1_N; c++) {
		_cleanup_close_ int dir = -1, procs = -1;

		if (cg->fd[c] < 0 || (colon && !names_controller(spec, n, c)))
			continue;
		dir = openat2_retry(cg->fd[c], *path ? path : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC,
				    RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
		if (dir < 0 && errno == EXDEV)
			return shim_fail(err, EXDEV, "exec --cgroup %s: bad sub cgroup path: it leads "
					 "out of the container's cgroup", spec);
		if (dir >= 0)
			procs = openat(dir, "cgroup.procs", O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		if (dir < 0 || procs < 0 || write(procs, text, strlen(text)) < 0)
			return shim_fail_errno(err, "exec --cgroup %s: adding pid to cgroups: %s%s/%s",
					       spec, hierarchy[c], cg->path[c], path);
	}
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int read_state(int fd, char *buf, size_t len)
{
	_cleanup_close_ int f = openat(fd, "freezer.state", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (f < 0 || (n = read(f, buf, len - 1)) < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int cgroup_v1_is_frozen(const struct cgroup_v1 *cg)
{
	char state[32];

	if (cg->fd[V1_FREEZER] < 0 || read_state(cg->fd[V1_FREEZER], state, sizeof(state)) < 0)
		return -1;
	return strcmp(state, "THAWED") != 0;
}

int cgroup_v1_freeze(const struct cgroup_v1 *cg, bool frozen, struct shim_error *err)
{
	const char *want = frozen ? "FROZEN" : "THAWED";
	char state[32];

	for (long waited = 0; waited <= FREEZE_WAIT_MS; waited += STEP_MS) {
		if (write_at(cg, V1_FREEZER, "freezer.state", want, frozen ? "pause" : "resume",
			     err) < 0)
			return -1;
		if (read_state(cg->fd[V1_FREEZER], state, sizeof(state)) == 0 &&
		    strcmp(state, want) == 0)
			return 0;
		sleep_ms(STEP_MS);
	}
	return shim_fail(err, ETIMEDOUT, "%s: freezer.state did not become %s",
			 frozen ? "pause" : "resume", want);
}

int cgroup_v1_pids(const struct cgroup_v1 *cg, pid_t **pids, size_t *n, struct shim_error *err)
{
	_cleanup_free_ char *text = procs_of(cg->fd[V1_DEVICES]);
	size_t cap = 0;

	*pids = NULL;
	*n = 0;
	if (!text)
		return shim_fail_errno(err, "cgroup v1: reading devices%s/cgroup.procs", cg->rel);
	for (char *p = text, *end; *p; p = end + strspn(end, "\n")) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (*n == cap) {
			pid_t *grown = reallocarray(*pids, cap = cap ? cap * 2 : 16, sizeof(pid_t));

			if (!grown) {
				free(*pids);
				*pids = NULL;
				return shim_fail(err, ENOMEM, "cgroup v1");
			}
			*pids = grown;
		}
		(*pids)[(*n)++] = (pid_t)pid;
	}
	return 0;
}

/* Is pid listed in the folder's cgroup.procs? */
static bool listed(int fd, pid_t pid)
{
	_cleanup_free_ char *text = procs_of(fd);

	for (char *p = text, *end; p && *p; p = end + strspn(end, "\n")) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (v == pid)
			return true;
	}
	return false;
}

/* sig to each process in the folder fd, through a pidfd; the process is
 * checked to be still listed once the pidfd pins it, so a PID reused by
 * a host process in between is never signalled. */
static void signal_listed(int fd, int sig)
{
	_cleanup_free_ char *procs = procs_of(fd);

	for (char *p = procs, *end; p && *p; p = end + strspn(end, "\n")) {
		long pid = strtol(p, &end, 10);
		_cleanup_close_ int pidfd = -1;

		if (end == p)
			break;
		pidfd = pid > 0 ? sys_pidfd_open((pid_t)pid, 0) : -1;
		if (pidfd >= 0 && listed(fd, (pid_t)pid))
			sys_pidfd_send_signal(pidfd, sig, NULL, 0);
	}
}

int cgroup_v1_signal_all(const struct cgroup_v1 *cg, int sig)
{
	if (cg->fd[V1_DEVICES] < 0)
		return -1;
	signal_listed(cg->fd[V1_DEVICES], sig);
	return 0;
}

/* Empty one folder (killing what is in it) and remove it. */
static int destroy_one(enum cgroup_v1_ctrl c, const char *rel, struct shim_error *err)
{
	char path[PATH_MAX];
	_cleanup_close_ int fd = -1;

	if (!*rel)
		return 0;
	if (path_format(path, sizeof(path), err, "%s/%s%s", CGROUP_V1_ROOT, hierarchy[c], rel) < 0)
		return shim_error_wrap(err, "cgroup v1");
	/* empty (the init reaped, nothing left), as most are at delete:
	 * removed at once, frozen or not; EBUSY takes the whole way */
	if (rmdir(path) == 0 || errno == ENOENT)
		return 0;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : shim_fail_errno(err, "cgroup v1: open %s", path);
	if (c == V1_FREEZER) {	/* a frozen task dies only once thawed */
		_cleanup_close_ int state = openat(fd, "freezer.state", O_WRONLY | O_CLOEXEC);

		char text[SHIM_ERRNO_TEXT_MAX];

		if (state >= 0 && write(state, "THAWED", 6) < 0)
			log_warn("cgroup v1: thawing %s: %s", path,
				 shim_errno_text(errno, text, sizeof(text)));
	}
	for (long waited = 0;; waited += STEP_MS) {
		_cleanup_free_ char *procs = procs_of(fd);

		if (procs && !*procs)
			break;
		if (waited >= EMPTY_WAIT_MS)
			return shim_fail(err, EBUSY, "cgroup v1: %s still has processes", path);
		if (procs)
			signal_listed(fd, SIGKILL);
		sleep_ms(STEP_MS);
	}
	if (rmdir(path) < 0 && errno != ENOENT)
		return shim_fail_errno(err, "cgroup v1: rmdir %s", path);
	return 0;
}

/* The folders of cg go, but those existed[] says were there before create
 * (another's, a frozen one; NULL: none); the freezer first, as what it
 * holds must thaw to die. err names the first failure. */
static int destroy_folders(const struct cgroup_v1 *cg, const bool *existed,
			   struct shim_error *err)
{
	int r = 0;

	if (mounted(V1_FREEZER) && !(existed && existed[V1_FREEZER]) &&
	    destroy_one(V1_FREEZER, cg->path[V1_FREEZER], err) < 0)
		r = -1;
	for (int c = 0; c < V1_N; c++)
		if (c != V1_FREEZER && mounted(c) && !(existed && existed[c]) &&
		    destroy_one(c, cg->path[c], r < 0 ? NULL : err) < 0)
			r = -1;
	return r;
}

int cgroup_v1_destroy(const struct cgroup_v1 *cg, struct shim_error *err)
{
	return destroy_folders(cg, NULL, err);
}
