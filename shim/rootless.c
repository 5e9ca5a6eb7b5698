/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/hooks.h"
#include "shim/log.h"
#include "shim/namespaces.h"
#include "shim/procfs.h"
#include "shim/rootless.h"

#define ROOT_DEFAULT "/run/shim"
#define ID_TOOL_TIMEOUT_S 10

static enum { MODE_AUTO, MODE_TRUE, MODE_FALSE } mode;

int rootless_set_mode(const char *text, struct shim_error *err)
{
	if (strcmp(text, "auto") == 0)
		mode = MODE_AUTO;
	else if (strcmp(text, "true") == 0)
		mode = MODE_TRUE;
	else if (strcmp(text, "false") == 0)
		mode = MODE_FALSE;
	else
		return shim_fail(err, EINVAL, "--rootless: \"%s\" is not true, false or auto", text);
	return 0;
}

/* The number *p starts with (after blanks), *p moved past it; *p NULL
 * when there is none, and stays NULL. */
static unsigned long long next_number(char **p)
{
	unsigned long long n;
	char *end;

	if (!*p)
		return 0;
	errno = 0;
	n = strtoull(*p, &end, 10);
	if (end == *p || errno != 0)
		*p = NULL;
	else
		*p = end;
	return n;
}

/* Is the runtime in the host's user namespace: its uid_map the identity
 * over every ID? (Unreadable: taken as the host's.) */
static bool in_host_user_ns(void)
{
	static int cached = -1;
	_cleanup_close_ int fd = -1;
	char text[128], *p;
	unsigned long long inside, outside, count;
	ssize_t n;

	if (cached >= 0)
		return cached;
	cached = 1;
	fd = open("/proc/self/uid_map", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (n = read(fd, text, sizeof(text) - 1)) <= 0)
		return cached;
	text[n] = '\0';
	/* its first line, "0 0 4294967295" on the host (strtoull: scanf's
	 * machinery is a costly first call) */
	p = text;
	inside = next_number(&p);
	outside = next_number(&p);
	count = next_number(&p);
	if (p)
		cached = inside == 0 && outside == 0 && count == UINT32_MAX;
	return cached;
}

bool rootless_unprivileged(void)
{
	return geteuid() != 0 || !in_host_user_ns();
}

bool rootless(void)
{
	if (mode != MODE_AUTO)
		return mode == MODE_TRUE;
	return rootless_unprivileged();
}

const char *rootless_default_root(void)
{
	static char path[PATH_MAX];
	const char *xdg = getenv("XDG_RUNTIME_DIR"), *user = getenv("USER");

	if (!xdg || xdg[0] != '/')
		return ROOT_DEFAULT;
	/* root of a user namespace is rootless too, unless it says it is root */
	if (geteuid() == 0 && (in_host_user_ns() || (user && strcmp(user, "root") == 0)))
		return ROOT_DEFAULT;
	if ((size_t)snprintf(path, sizeof(path), "%s/shim", xdg) >= sizeof(path))
		return ROOT_DEFAULT;
	return path;
}

static bool any_idmapped_mount(const struct oci_spec *s, size_t *which)
{
	for (size_t i = 0; i < s->n_mounts; i++)
		if (s->mounts[i].opts.idmap || s->mounts[i].opts.idmap_recursive) {
			*which = i;
			return true;
		}
	return false;
}

int rootless_check(const struct oci_spec *s, bool systemd_cgroup, struct shim_error *err)
{
	uid_t uid = geteuid(), root_uid;
	gid_t root_gid;
	size_t i;

	if (!rootless_unprivileged())
		return 0;
	if (uid != 0 && !ns_has_user(s))
		return shim_fail(err, EPERM, "linux.namespaces: shim runs as uid %u, not root: the "
				 "container needs a user namespace (`shim spec --rootless` writes "
				 "one)", (unsigned)uid);
	if (uid != 0 && ns_new_user(s) &&
	    (ns_root_host_ids(s, &root_uid, &root_gid) < 0 || root_uid != uid))
		return shim_fail(err, EPERM, "linux.uidMappings: shim runs as uid %u, not root: "
				 "the container's uid 0 must be that uid", (unsigned)uid);
	if (s->n_net_devices)
		return shim_fail(err, EPERM, "linux.netDevices: moving a host interface needs the "
				 "host's root (shim runs rootless)");
	if (s->intel_rdt.present)
		return shim_fail(err, EPERM, "linux.intelRdt: resctrl needs the host's root (shim "
				 "runs rootless)");
	if (any_idmapped_mount(s, &i))
		return shim_fail(err, EPERM, "mounts[%zu]: an idmapped mount needs the host's root "
				 "(shim runs rootless)", i);
	if (systemd_cgroup)
		return shim_fail(err, ENOTSUP, "--systemd-cgroup: shim runs rootless, and does not "
				 "talk to a user's systemd yet");
	return 0;
}

/* Do the maps give exactly one ID, the caller's own, to the container? */
static bool only_own_id(const struct oci_id_mapping *m, size_t n, unsigned int own)
{
	return n == 1 && m[0].host_id == own && m[0].size == 1;
}

/* newuidmap PID ID HOST-ID COUNT...: what Debian's uidmap grants from
 * /etc/subuid (/etc/subgid for newgidmap). */
static int run_id_tool(const char *tool, pid_t pid, const struct oci_id_mapping *m, size_t n,
		       const char *field, struct shim_error *err)
{
	static const char *const dirs[] = { "/usr/bin", "/bin", "/usr/sbin", "/sbin" };
	char path[64] = "", where[96], numbers[3 * 64 + 1][12], *args[3 * 64 + 3];
	char *no_env[] = { NULL };	/* a setuid program: nothing of ours */
	struct oci_hook hook = { .path = path, .args = args, .env = no_env,
				 .timeout = ID_TOOL_TIMEOUT_S };
	size_t a = 0;

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]) && !path[0]; d++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[d], tool);
		if (access(path, X_OK) < 0)
			path[0] = '\0';
	}
	if (!path[0])
		return shim_fail(err, ENOENT, "%s: more than the caller's own ID needs %s (Debian's "
				 "uidmap) and a range in %s: %s is not installed", field, tool,
				 tool[3] == 'u' ? "/etc/subuid" : "/etc/subgid", tool);
	if (n > 64)
		return shim_fail(err, E2BIG, "%s: too many entries", field);
	args[a++] = path;
	snprintf(numbers[0], sizeof(numbers[0]), "%d", (int)pid);
	args[a++] = numbers[0];
	for (size_t i = 0; i < n; i++) {
		unsigned int v[3] = { m[i].container_id, m[i].host_id, m[i].size };

		for (int k = 0; k < 3; k++) {
			snprintf(numbers[a - 1], sizeof(numbers[0]), "%u", v[k]);
			args[a] = numbers[a - 1];
			a++;
		}
	}
	args[a] = NULL;
	snprintf(where, sizeof(where), "%s: %s", field, tool);
	if (hooks_run_one(&hook, where, "", -1, err) < 0)
		return -1;
	log_debug("%s of %d written by %s", field, (int)pid, path);
	return 0;
}

int rootless_write_id_maps(pid_t pid, const struct oci_spec *s, struct shim_error *err)
{
	if (only_own_id(s->uid_mappings, s->n_uid_mappings, geteuid())) {
		if (ns_write_map(pid, "uid_map", s->uid_mappings, s->n_uid_mappings,
				 "linux.uidMappings", err) < 0)
			return -1;
	} else if (run_id_tool("newuidmap", pid, s->uid_mappings, s->n_uid_mappings,
			       "linux.uidMappings", err) < 0) {
		return -1;
	}
	if (only_own_id(s->gid_mappings, s->n_gid_mappings, getegid())) {
		/* the kernel's price for a gid_map written without CAP_SETGID */
		if (procfs_write_pid((int)pid, "setgroups", "deny", err) < 0 ||
		    ns_write_map(pid, "gid_map", s->gid_mappings, s->n_gid_mappings,
				 "linux.gidMappings", err) < 0)
			return -1;
		return 0;
	}
	return run_id_tool("newgidmap", pid, s->gid_mappings, s->n_gid_mappings,
			   "linux.gidMappings", err);
}

bool rootless_cgroup_optional(const struct oci_spec *s, struct shim_error *failure)
{
	bool denied = failure->errnum == EACCES || failure->errnum == EPERM ||
		      failure->errnum == EROFS;

	if (!rootless() || !denied)
		return false;
	if (!s->cgroups_path && !oci_resources_first_path(&s->resources))
		return true;
	shim_error_wrap(failure, "%s: shim runs rootless, and may not make this cgroup",
			oci_resources_first_path(&s->resources) ?: "linux.cgroupsPath");
	return false;
}
