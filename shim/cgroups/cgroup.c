/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/cgroups/cgroup.h"
#include "shim/cgroups/devices_bpf.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/rootless.h"
#include "shim/syscalls.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

#define SIGNAL_MAX_DEPTH 256
#define WAIT_STEP_NS 2000000L	/* 2 ms */
#define FREEZE_WAIT_MS 5000
#define EMPTY_WAIT_MS 10000

/* The controllers a container's folder gets, when the kernel has them. */
static const char *const wanted_controllers[] = {
	"cpuset", "cpu", "io", "memory", "hugetlb", "pids", "rdma", "misc",
};

/* Asked once a run: create asks it for the cgroup, the devices and the
 * state it keeps (a statfs of cgroupfs is not cheap under emulation). */
bool cgroup2_mounted(void)
{
	static int mounted = -1;
	struct statfs fs;

	if (mounted < 0)
		mounted = statfs(CGROUP_ROOT, &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC;
	return mounted;
}

/* "0::/user.slice/x" from /proc/self/cgroup: the path part. */
int cgroup_of_pid(pid_t pid, char *out, size_t len, struct shim_error *err)
{
	char path[64];
	_cleanup_free_ char *text = NULL;
	char *line;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/cgroup");
	text = read_small_file(path, 65536, NULL, err);
	if (!text)
		return -1;
	line = strstr(text, "0::");
	if (line != text && (!line || line[-1] != '\n'))
		return shim_fail(err, 0, "%s: no cgroup v2 entry", path);
	line += 3;
	line[strcspn(line, "\n")] = '\0';
	if ((size_t)snprintf(out, len, "%s", line) >= len)
		return shim_fail(err, ENAMETOOLONG, "%s", path);
	return 0;
}

int cgroup_check_record(const char *rel, const char *what, struct shim_error *err)
{
	if (path_is_plain_absolute(rel) && strcmp(rel, "/") != 0)
		return 0;
	return shim_fail(err, EINVAL, "%s: \"%s\" is no container's folder below its hierarchy's "
			 "root (a plain absolute path, not \"/\")", what, rel);
}

bool cgroup_is_below(const char *path, const char *rel)
{
	size_t n = strlen(rel);

	return strncmp(path, rel, n) == 0 && (path[n] == '/' || !path[n]);
}

/* Where a relative cgroupsPath goes: the parent of the runtime's own
 * cgroup, as runc does. Its own cgroup has processes (the runtime, and a
 * service's or a login session's others), so no controller could be
 * enabled below it (cgroup v2: no process in a folder that hands out
 * controllers, but at the root). "" for the root. */
static int own_cgroup_parent(char *out, size_t len, struct shim_error *err)
{
	char *slash;

	if (cgroup_of_pid(0, out, len, err) < 0)
		return -1;
	slash = strrchr(out, '/');
	if (slash)
		*slash = '\0';
	return 0;
}

int cgroup_resolve(const char *cgroups_path, const char *id, char *out, size_t len,
		   struct shim_error *err)
{
	char own[PATH_MAX];
	const char *rel = cgroups_path && *cgroups_path ? cgroups_path : id;

	if (rel[0] == '/') {
		snprintf(out, len, "%s", rel);
	} else {
		if (own_cgroup_parent(own, sizeof(own), err) < 0)
			return -1;
		if ((size_t)snprintf(out, len, "%s/%s", own, rel) >= len)
			return shim_fail(err, ENAMETOOLONG, "linux.cgroupsPath");
	}
	/* no trailing or doubled slashes: the path is compared and stored */
	for (size_t n = strlen(out); n > 1 && out[n - 1] == '/'; n--)
		out[n - 1] = '\0';
	if (strcmp(out, "/") == 0 || strstr(out, "//"))
		return shim_fail(err, EINVAL, "linux.cgroupsPath: \"%s\" is not a container's folder", out);
	return 0;
}

int cgroup_read(int dir_fd, const char *file, char *buf, size_t len, struct shim_error *err)
{
	_cleanup_close_ int fd = openat(dir_fd, file, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return shim_fail_errno(err, "cgroup: open %s", file);
	n = read(fd, buf, len - 1);
	if (n < 0)
		return shim_fail_errno(err, "cgroup: read %s", file);
	buf[n] = '\0';
	return 0;
}

static int cgroup_write(int dir_fd, const char *file, const char *value)
{
	_cleanup_close_ int fd = openat(dir_fd, file, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	return write(fd, value, strlen(value)) < 0 ? -1 : 0;
}

/* Is word one of the space-separated words of list? */
static bool has_word(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += len)
		if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\n' || !p[len]))
			return true;
	return false;
}

/* Does list hold every wanted controller? */
static bool has_all_wanted(const char *list)
{
	for (size_t i = 0; i < sizeof(wanted_controllers) / sizeof(wanted_controllers[0]); i++)
		if (!has_word(list, wanted_controllers[i]))
			return false;
	return true;
}

/* "+cpu +memory ..." for what the folder offers but does not yet pass on
 * (what it offers is not read when it passes on all of them already). */
static int enable_controllers(int dir_fd, const char *where, struct shim_error *err)
{
	char offered[512], enabled[512], want[512] = "";

	if (cgroup_read(dir_fd, "cgroup.subtree_control", enabled, sizeof(enabled), err) < 0)
		return shim_error_wrap(err, "%s", where);
	if (has_all_wanted(enabled))
		return 0;
	if (cgroup_read(dir_fd, "cgroup.controllers", offered, sizeof(offered), err) < 0)
		return shim_error_wrap(err, "%s", where);
	for (size_t i = 0; i < sizeof(wanted_controllers) / sizeof(wanted_controllers[0]); i++) {
		const char *c = wanted_controllers[i];

		if (has_word(offered, c) && !has_word(enabled, c)) {
			strcat(want, want[0] ? " +" : "+");
			strcat(want, c);
		}
	}
	if (!want[0] || cgroup_write(dir_fd, "cgroup.subtree_control", want) == 0)
		return 0;
	/* a folder above the one delegated to a rootless caller: what the
	 * delegated folder passes on is what its limits get (a limit whose
	 * controller is off then fails, named) */
	if (rootless() && (errno == EACCES || errno == EPERM)) {
		log_debug("rootless: %s/cgroup.subtree_control is not ours: \"%s\" left off", where,
			  want);
		return 0;
	}
	return shim_fail_errno(err, "cgroup: enabling \"%s\" in %s/cgroup.subtree_control", want,
			       where);
}

/* mkdir each part below CGROUP_ROOT, turning controllers on on the way.
 * 1 when it made the container's own folder, 0 when that was there. */
static int make_folders(const char *rel, struct shim_error *err)
{
	char path[PATH_MAX];
	size_t root_len = strlen(CGROUP_ROOT);
	_cleanup_close_ int fd = -1;

	if ((size_t)snprintf(path, sizeof(path), "%s%s", CGROUP_ROOT, rel) >= sizeof(path))
		return shim_fail(err, ENAMETOOLONG, "cgroup %s", rel);
	for (char *slash = path + root_len; slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (slash != path + root_len && mkdir(path, 0755) < 0 && errno != EEXIST)
			return shim_fail_errno(err, "cgroup: mkdir %s", path);
		fd = safe_close(fd);
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return shim_fail_errno(err, "cgroup: open %s", path);
		if (enable_controllers(fd, path, err) < 0)
			return -1;
		*slash = '/';
	}
	if (mkdir(path, 0755) == 0)
		return 1;
	if (errno != EEXIST)
		return shim_fail_errno(err, "cgroup: mkdir %s", path);
	return 0;
}

int cgroup_open(const char *rel, struct shim_error *err)
{
	char path[PATH_MAX];
	int fd;

	if (path_format(path, sizeof(path), err, "%s%s", CGROUP_ROOT, rel) < 0)
		return shim_error_wrap(err, "cgroup");
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return shim_fail_errno(err, "cgroup: open %s", path);
	return fd;
}

int cgroup_apply(int dir_fd, const char *rel, const struct oci_resources *r,
		 struct shim_error *err)
{
	if (oci_resources_refuse_v1_only(r, err) < 0)
		return -1;
	for (size_t i = 0; i < r->n_settings; i++) {
		const struct cgroup_setting *s = &r->settings[i];

		if (cgroup_write(dir_fd, s->file, s->value) == 0)
			continue;
		if (errno == ENOENT)
			return shim_fail(err, ENOENT, "%s: %s%s/%s does not exist (is its controller "
					 "enabled in the parent's cgroup.subtree_control?)",
					 s->json_path, CGROUP_ROOT, rel, s->file);
		return shim_fail_errno(err, "%s: writing \"%s\" to %s%s/%s", s->json_path, s->value,
				       CGROUP_ROOT, rel, s->file);
	}
	if (r->has_devices && devices_attach(dir_fd, r->devices, r->n_devices, err) < 0)
		return shim_error_wrap(err, "linux.resources.devices");
	return 0;
}

/* Does cgroup.events hold this "key value" line? false if unreadable. */
static bool has_event(const char *events, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = events; (p = strstr(p, line)); p += n)
		if ((p == events || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

int cgroup_create(const char *rel, const struct oci_resources *r, struct shim_error *err)
{
	char path[PATH_MAX], events[512];
	int fd, made;

	if (path_format(path, sizeof(path), err, "%s%s", CGROUP_ROOT, rel) < 0)
		return shim_error_wrap(err, "cgroup");
	made = make_folders(rel, err);
	if (made < 0)
		return -1;
	fd = cgroup_open(rel, err);
	if (fd < 0)
		return -1;
	if (cgroup_read(fd, "cgroup.events", events, sizeof(events), NULL) < 0)
		events[0] = '\0';
	if (has_event(events, "populated 1")) {
		safe_close(fd);
		return shim_fail(err, EBUSY, "linux.cgroupsPath: container's cgroup is not empty: "
				 "%s%s has processes", CGROUP_ROOT, rel);
	}
	/* frozen (it, or a folder above it, has cgroup.freeze 1): the init
	 * would stop on its first instruction and create wait for ever */
	if (has_event(events, "frozen 1")) {
		safe_close(fd);
		if (made)
			rmdir(path);
		return shim_fail(err, EBUSY, "linux.cgroupsPath: container's cgroup unexpectedly "
				 "frozen: cgroup.freeze 1 in %s%s or above it (thaw it first)",
				 CGROUP_ROOT, rel);
	}
	if (cgroup_apply(fd, rel, r, err) < 0) {
		safe_close(fd);
		cgroup_destroy(rel, NULL);
		return -1;
	}
	return fd;
}

static void sleep_step(void)
{
	struct timespec ts = { 0, WAIT_STEP_NS };

	nanosleep(&ts, NULL);
}

/* Wait until cgroup.events has "key value". */
static int wait_event(int dir_fd, const char *line, int timeout_ms, struct shim_error *err)
{
	for (long waited = 0; waited <= timeout_ms * 1000000L; waited += WAIT_STEP_NS) {
		char events[512];

		if (cgroup_read(dir_fd, "cgroup.events", events, sizeof(events), err) < 0)
			return -1;
		if (has_event(events, line))
			return 0;
		sleep_step();
	}
	return shim_fail(err, ETIMEDOUT, "cgroup: no \"%s\" in cgroup.events after %d ms", line,
			 timeout_ms);
}

int cgroup_freeze(int dir_fd, bool frozen, struct shim_error *err)
{
	if (cgroup_write(dir_fd, "cgroup.freeze", frozen ? "1" : "0") < 0)
		return shim_fail_errno(err, "cgroup: writing cgroup.freeze");
	return wait_event(dir_fd, frozen ? "frozen 1" : "frozen 0", FREEZE_WAIT_MS, err);
}

int cgroup_is_frozen(int dir_fd)
{
	char text[8];

	if (cgroup_read(dir_fd, "cgroup.freeze", text, sizeof(text), NULL) < 0)
		return -1;
	return text[0] == '1';
}

int cgroup_pids(int dir_fd, pid_t **pids, size_t *n, struct shim_error *err)
{
	_cleanup_close_ int fd = openat(dir_fd, "cgroup.procs", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	_cleanup_free_ char *text = NULL;
	size_t cap = 0;

	if (fd < 0)
		return shim_fail_errno(err, "cgroup: open cgroup.procs");
	text = read_small_fd(fd, "cgroup.procs", 1 << 22, NULL, err);
	if (!text)
		return -1;
	*pids = NULL;
	*n = 0;
	for (char *p = text, *end; *p; p = end) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (*n == cap) {
			pid_t *grown = realloc(*pids, (cap = cap ? cap * 2 : 16) * sizeof(pid_t));

			if (!grown) {
				free(*pids);
				return shim_fail(err, ENOMEM, "cgroup.procs");
			}
			*pids = grown;
		}
		(*pids)[(*n)++] = (pid_t)v;
	}
	return 0;
}

/* Is pid (pinned by a pidfd) in rel or below it? From /proc/PID/cgroup. */
static bool pid_in_cgroup(pid_t pid, const char *rel)
{
	char path[PATH_MAX];

	return pid > 0 && cgroup_of_pid(pid, path, sizeof(path), NULL) == 0 &&
	       cgroup_is_below(path, rel);
}

/* fn(sub_fd, arg) for each folder directly below dir_fd; then, with
 * remove, rmdir it. Stops at the first failure. */
static int each_child(int dir_fd, bool remove, int (*fn)(int, void *), void *arg,
		      struct shim_error *err)
{
	int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), r = 0;
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;

	if (!d) {
		safe_close(fd);
		return shim_fail_errno(err, "cgroup: reading its folders");
	}
	while (r == 0 && (e = readdir(d))) {
		_cleanup_close_ int sub = -1;

		if (e->d_type != DT_DIR || strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0)
			r = fn(sub, arg);
		if (r == 0 && remove && unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) < 0 &&
		    errno != ENOENT)
			r = shim_fail_errno(err, "cgroup: rmdir %s", e->d_name);
	}
	closedir(d);
	return r;
}

struct walk {
	const char *rel;	/* signal: the container's folder */
	int sig, depth;
	struct shim_error *err;
};

/* Signal each process in dir_fd and in every folder below, each through a
 * pidfd taken first and checked to be still inside w->rel. */
static int signal_tree(int dir_fd, void *arg)
{
	struct walk *w = arg;
	pid_t *pids;
	size_t n;
	int r;

	if (w->depth > SIGNAL_MAX_DEPTH)
		return shim_fail(w->err, ELOOP, "cgroup: folders nested deeper than %d",
				 SIGNAL_MAX_DEPTH);
	if (cgroup_pids(dir_fd, &pids, &n, w->err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int pidfd = sys_pidfd_open(pids[i], 0);

		if (pidfd >= 0 && pid_in_cgroup(pids[i], w->rel))
			sys_pidfd_send_signal(pidfd, w->sig, NULL, 0);
		safe_close(pidfd);
	}
	free(pids);
	w->depth++;
	r = each_child(dir_fd, false, signal_tree, w, w->err);
	w->depth--;
	return r;
}

int cgroup_signal_all(int dir_fd, const char *rel, int sig, struct shim_error *err)
{
	/* cgroup.kill (5.14): all of it at once, frozen tasks too */
	struct walk w = { .rel = rel, .sig = sig, .err = err };

	if (sig == SIGKILL && cgroup_write(dir_fd, "cgroup.kill", "1") == 0)
		return 0;
	return signal_tree(dir_fd, &w);
}

/* rmdir every folder below dir_fd, deepest first (all empty by now). */
static int remove_children(int dir_fd, void *arg)
{
	struct walk *w = arg;
	int r;

	if (w->depth > SIGNAL_MAX_DEPTH)
		return shim_fail(w->err, ELOOP, "cgroup: folders nested deeper than %d",
				 SIGNAL_MAX_DEPTH);
	w->depth++;
	r = each_child(dir_fd, true, remove_children, w, w->err);
	w->depth--;
	return r;
}

/* Was the folder open at fd removed (by someone else: systemd removes an
 * emptied scope's)? Its files are gone with it. */
static bool folder_removed(int fd)
{
	return faccessat(fd, "cgroup.procs", F_OK, 0) < 0 && errno == ENOENT;
}

static int kill_and_empty(int fd, const char *rel, const char *path, struct shim_error *err)
{
	struct walk w = { .err = err, .rel = rel, .sig = SIGKILL };

	/* cgroup.kill (5.14) kills frozen tasks too; before it, one by one */
	if (cgroup_write(fd, "cgroup.kill", "1") < 0) {
		if (errno != ENOENT)
			return shim_fail_errno(err, "cgroup: writing %s/cgroup.kill", path);
		/* before cgroup.kill: each process, in every folder below too */
		if (signal_tree(fd, &w) < 0)
			return -1;
		cgroup_write(fd, "cgroup.freeze", "0");
	}
	if (wait_event(fd, "populated 0", EMPTY_WAIT_MS, err) < 0)
		return shim_error_wrap(err, "%s", path);
	/* folders the container made below its own go first */
	if (remove_children(fd, &w) < 0)
		return shim_error_wrap(err, "%s", path);
	return 0;
}

int cgroup_destroy(const char *rel, struct shim_error *err)
{
	char path[PATH_MAX];
	_cleanup_close_ int fd = -1;

	if (path_format(path, sizeof(path), err, "%s%s", CGROUP_ROOT, rel) < 0)
		return shim_error_wrap(err, "cgroup");
	/* empty, and no folder made below it: the common case once the init
	 * has exited, and nothing could enter it since (no process inside is
	 * left to fork), removed at once; processes or a folder below it
	 * (EBUSY) take the whole way */
	if (rmdir(path) == 0 || errno == ENOENT)
		return 0;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : shim_fail_errno(err, "cgroup: open %s", path);
	/* removed meanwhile (its processes all dead): nothing left to do */
	if (kill_and_empty(fd, rel, path, err) < 0)
		return folder_removed(fd) ? 0 : -1;
	if (rmdir(path) < 0 && errno != ENOENT)
		return shim_fail_errno(err, "cgroup: rmdir %s", path);
	return 0;
}

void cgroup_warn_ignored(const struct oci_resources *r)
{
	for (size_t i = 0; r->ignored && r->ignored[i]; i++)
		log_warn("%s: ignored (cgroup v2 has no such limit; kernel memory counts in "
			 "memory.max)", r->ignored[i]);
}
