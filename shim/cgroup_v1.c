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

#include "oci/cleanup.h"
#include "shim/cgroup_v1.h"
#include "shim/devices_bpf.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/store.h"
#include "shim/syscalls.h"

#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC 0x27e0eb
#endif
#define EMPTY_WAIT_MS 5000
#define STEP_MS 10

bool cgroup_v1_devices_mounted(void)
{
	struct statfs fs;

	return statfs(CGROUP_V1_DEVICES, &fs) == 0 && fs.f_type == CGROUP_SUPER_MAGIC &&
	       access(CGROUP_V1_DEVICES "/devices.allow", F_OK) == 0;
}

/* The runtime's own devices cgroup, from "N:devices:/path" (or
 * "N:a,devices,b:/path") in /proc/self/cgroup. */
static int own_devices_cgroup(char *out, size_t len, struct shim_error *err)
{
	_cleanup_free_ char *text = read_small_file("/proc/self/cgroup", 65536, NULL, err);
	char *save = NULL;

	if (!text)
		return -1;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *ctrl = strchr(line, ':'), *path = ctrl ? strchr(ctrl + 1, ':') : NULL;
		char list[256];

		if (!path)
			continue;
		snprintf(list, sizeof(list), ",%.*s,", (int)(path - ctrl - 1), ctrl + 1);
		if (strstr(list, ",devices,"))
			return (size_t)snprintf(out, len, "%s", path + 1) < len ? 0
				: shim_fail(err, ENAMETOOLONG, "/proc/self/cgroup");
	}
	return shim_fail(err, ENOENT, "/proc/self/cgroup: no devices cgroup");
}

/* Has the path a ".." part? */
static bool has_dot_dot(const char *path)
{
	for (const char *p = path; (p = strstr(p, "..")); p += 2)
		if ((p == path || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
			return true;
	return false;
}

int cgroup_v1_devices_resolve(const char *cgroups_path, const char *id, char *out, size_t len,
			      struct shim_error *err)
{
	char own[PATH_MAX];
	const char *rel = cgroups_path && *cgroups_path ? cgroups_path : id;
	char *slash;

	if (rel[0] == '/') {
		if ((size_t)snprintf(out, len, "%s", rel) >= len)
			return shim_fail(err, ENAMETOOLONG, "linux.cgroupsPath");
	} else {
		if (own_devices_cgroup(own, sizeof(own), err) < 0)
			return -1;
		slash = strrchr(own, '/');
		if (slash)
			*slash = '\0';
		if ((size_t)snprintf(out, len, "%s/%s", own, rel) >= len)
			return shim_fail(err, ENAMETOOLONG, "linux.cgroupsPath");
	}
	for (size_t n = strlen(out); n > 1 && out[n - 1] == '/'; n--)
		out[n - 1] = '\0';
	if (strcmp(out, "/") == 0 || strstr(out, "//") || has_dot_dot(out))
		return shim_fail(err, EINVAL, "linux.cgroupsPath: \"%s\" is not a container's folder", out);
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

static int write_at(int dir_fd, const char *file, const char *text, struct shim_error *err)
{
	_cleanup_close_ int fd = openat(dir_fd, file, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		return shim_fail_errno(err, "cgroup v1: writing \"%s\" to devices/%s", text, file);
	return 0;
}

/* Deny everything, then each rule in order: v1 keeps a list that a deny
 * of "a" empties and each allow adds to. */
static int write_rules(int fd, const struct oci_resources *r, struct shim_error *err)
{
	size_t n = r->n_devices + devices_n_default;

	if (write_at(fd, "devices.deny", "a *:* rwm", err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct device_rule *d =
			i < r->n_devices ? &r->devices[i] : &devices_default_rules[i - r->n_devices];
		char line[48];

		if (!d->access)
			continue;
		cgroup_v1_device_rule(d, line, sizeof(line));
		if (write_at(fd, d->allow ? "devices.allow" : "devices.deny", line, err) < 0)
			return shim_error_wrap(err, "linux.resources.devices");
	}
	return 0;
}

static int make_folders(const char *rel, struct shim_error *err)
{
	char path[PATH_MAX];
	size_t root_len = strlen(CGROUP_V1_DEVICES);

	if (path_format(path, sizeof(path), err, "%s%s", CGROUP_V1_DEVICES, rel) < 0)
		return shim_error_wrap(err, "cgroup v1");
	for (char *slash = strchr(path + root_len + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return shim_fail_errno(err, "cgroup v1: mkdir %s", path);
		*slash = '/';
	}
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return shim_fail_errno(err, "cgroup v1: mkdir %s", path);
	return 0;
}

static int open_folder(const char *rel, struct shim_error *err)
{
	char path[PATH_MAX];
	int fd;

	if (path_format(path, sizeof(path), err, "%s%s", CGROUP_V1_DEVICES, rel) < 0)
		return shim_error_wrap(err, "cgroup v1");
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return shim_fail_errno(err, "cgroup v1: open %s", path);
	return fd;
}

/* The PIDs in the folder's cgroup.procs, as text (NULL: unreadable). */
static char *procs_of(int fd)
{
	_cleanup_close_ int procs = openat(fd, "cgroup.procs", O_RDONLY | O_CLOEXEC);

	return procs < 0 ? NULL : read_small_fd(procs, "cgroup.procs", 1 << 20, NULL, NULL);
}

int cgroup_v1_devices_create(const char *rel, const struct oci_resources *r,
			     struct shim_error *err)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *procs = NULL;

	if (make_folders(rel, err) < 0 || (fd = open_folder(rel, err)) < 0)
		return -1;
	procs = procs_of(fd);
	if (!procs || *procs) {
		cgroup_v1_devices_destroy(rel, NULL);
		return shim_fail(err, EBUSY, "cgroup %s%s is in use: it has processes",
				 CGROUP_V1_DEVICES, rel);
	}
	if (r->has_devices && write_rules(fd, r, err) < 0) {
		cgroup_v1_devices_destroy(rel, NULL);
		return -1;
	}
	log_debug("cgroup v1: %s%s: denies every device but the %zu rules and the defaults",
		  CGROUP_V1_DEVICES, rel, r->n_devices);
	return TAKE_FD(fd);
}

int cgroup_v1_devices_open_recorded(int dir_fd, struct shim_error *err)
{
	_cleanup_free_ char *rel = store_read_record(dir_fd, STORE_DEVICES_CGROUP, PATH_MAX, err);

	if (!rel)
		return -1;
	if (rel[0] != '/' || strstr(rel, ".."))
		return shim_fail(err, EINVAL, "%s: \"%s\" is no folder shim wrote",
				 STORE_DEVICES_CGROUP, rel);
	return open_folder(rel, err);
}

int cgroup_v1_enter(int dir_fd, pid_t pid, struct shim_error *err)
{
	char text[24];

	snprintf(text, sizeof(text), "%d", (int)pid);
	if (write_at(dir_fd, "cgroup.procs", text, err) < 0)
		return shim_error_wrap(err, "putting %d in the container's devices cgroup", (int)pid);
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* SIGKILL to each process listed, through a pidfd. */
static void kill_listed(const char *procs)
{
	for (const char *p = procs; *p;) {
		char *end;
		long pid = strtol(p, &end, 10);
		int pidfd;

		if (end == p)
			break;
		pidfd = pid > 0 ? sys_pidfd_open((pid_t)pid, 0) : -1;
		if (pidfd >= 0) {
			sys_pidfd_send_signal(pidfd, SIGKILL, NULL, 0);
			close(pidfd);
		}
		p = end + strspn(end, "\n");
	}
}

int cgroup_v1_devices_destroy(const char *rel, struct shim_error *err)
{
	char path[PATH_MAX];
	_cleanup_close_ int fd = -1;

	if (path_format(path, sizeof(path), err, "%s%s", CGROUP_V1_DEVICES, rel) < 0)
		return shim_error_wrap(err, "cgroup v1");
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : shim_fail_errno(err, "cgroup v1: open %s", path);
	for (long waited = 0;; waited += STEP_MS) {
		_cleanup_free_ char *procs = procs_of(fd);

		if (procs && !*procs)
			break;
		if (waited >= EMPTY_WAIT_MS)
			return shim_fail(err, EBUSY, "cgroup v1: %s still has processes", path);
		if (procs)
			kill_listed(procs);
		sleep_ms(STEP_MS);
	}
	if (rmdir(path) < 0 && errno != ENOENT)
		return shim_fail_errno(err, "cgroup v1: rmdir %s", path);
	return 0;
}
