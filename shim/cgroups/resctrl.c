/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/cgroups/resctrl.h"
#include "shim/filesystem/mountinfo.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/procfs.h"

#define RDTGROUP_SUPER_MAGIC 0x7655821
#define SCHEMATA_MAX 8192

int resctrl_open_root(struct shim_error *err)
{
	int fd = procfs_open_self("mountinfo", O_RDONLY, err), root = -1;
	char *line = NULL, *mp = NULL;
	size_t len = 0;
	struct statfs sf;
	FILE *f;

	if (fd < 0)
		return shim_error_wrap(err, "linux.intelRdt: finding the resctrl mount");
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return shim_fail_errno(err, "linux.intelRdt: reading mountinfo");
	}
	while (!mp && getline(&line, &len, f) > 0)
		mp = mountinfo_point(line, "resctrl");
	if (mp)
		root = open(mp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (!mp)
		shim_fail(err, ENOENT, "linux.intelRdt: no resctrl filesystem is mounted here "
			  "(Intel RDT: mount -t resctrl resctrl /sys/fs/resctrl)");
	else if (root < 0)
		shim_fail_errno(err, "linux.intelRdt: the resctrl mount %s", mp);
	else if (fstatfs(root, &sf) < 0 || sf.f_type != RDTGROUP_SUPER_MAGIC) {
		shim_fail(err, EINVAL, "linux.intelRdt: %s is no resctrl filesystem", mp);
		root = safe_close(root);
	}
	free(line);
	fclose(f);
	return root;
}

bool resctrl_mounted(void)
{
	struct shim_error err = { 0 };
	int root = resctrl_open_root(&err);

	safe_close(root);
	return root >= 0;
}

const char *resctrl_group_name(const struct oci_intel_rdt *rdt, const char *id)
{
	return rdt->clos_id ? rdt->clos_id : id;
}

/* A file below dirfd, read whole (resctrl's files say size 0 or 4096). */
static char *read_at(int dirfd, const char *path, struct shim_error *err)
{
	_cleanup_close_ int fd = openat(dirfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		shim_fail_errno(err, "%s", path);
		return NULL;
	}
	return read_small_stream(fd, path, SCHEMATA_MAX, NULL, err);
}

/* Why resctrl refused the last write, when it says (info/last_cmd_status). */
static void add_last_status(int root, struct shim_error *err)
{
	struct shim_error ignored = { 0 };
	_cleanup_free_ char *why = read_at(root, "info/last_cmd_status", &ignored);
	size_t used = strlen(err->msg);

	if (why && *why && strcmp(why, "ok\n") != 0) {
		why[strcspn(why, "\n")] = '\0';
		snprintf(err->msg + used, sizeof(err->msg) - used, " (resctrl: %s)", why);
	}
}

static int write_at(int root, int group, const char *file, const char *text, const char *field,
		    struct shim_error *err)
{
	_cleanup_close_ int fd = openat(group, file, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 || write_all(fd, text) < 0) {
		shim_fail_errno(err, "%s: writing %s", field, file);
		add_last_status(root, err);
		return -1;
	}
	return 0;
}

/* The monitoring events rdt asks for are ones this host counts. */
static int check_monitoring(int root, const struct oci_intel_rdt *rdt, struct shim_error *err)
{
	_cleanup_free_ char *features = NULL;

	if (!rdt->enable_cmt && !rdt->enable_mbm)
		return 0;
	features = read_at(root, "info/L3_MON/mon_features", err);
	if (!features)
		return shim_error_wrap(err, "linux.intelRdt.%s: no resctrl monitoring here",
				       rdt->enable_cmt ? "enableCMT" : "enableMBM");
	if (rdt->enable_cmt && !strstr(features, "llc_occupancy"))
		return shim_fail(err, ENOTSUP, "linux.intelRdt.enableCMT: this host does not "
				 "monitor cache occupancy (no llc_occupancy in mon_features)");
	if (rdt->enable_mbm && !strstr(features, "mbm_total_bytes") &&
	    !strstr(features, "mbm_local_bytes"))
		return shim_fail(err, ENOTSUP, "linux.intelRdt.enableMBM: this host does not "
				 "monitor memory bandwidth (no mbm_*_bytes in mon_features)");
	return 0;
}

/* An existing closID group holds every value the config asks for. */
static int check_existing(int group, const struct oci_intel_rdt *rdt, const char *text,
			  struct shim_error *err)
{
	_cleanup_free_ char *current = read_at(group, "schemata", err);

	if (!current)
		return shim_error_wrap(err, "linux.intelRdt.closID \"%s\"", rdt->clos_id);
	if (!oci_intel_rdt_schema_matches(text, current) ||
	    (rdt->schemata && !oci_intel_rdt_schema_matches(rdt->schemata, current)))
		return shim_fail(err, EEXIST, "linux.intelRdt.closID: group \"%s\" exists with "
				 "another schemata than the config's", rdt->clos_id);
	return 0;
}

static int write_schemata(int root, int group, const struct oci_intel_rdt *rdt,
			  const char *text, struct shim_error *err)
{
	if (*text && write_at(root, group, "schemata", text, "linux.intelRdt", err) < 0)
		return -1;
	/* runtime-spec: schemata last, after the other two */
	if (rdt->schemata && *rdt->schemata &&
	    write_at(root, group, "schemata", rdt->schemata, "linux.intelRdt.schemata", err) < 0)
		return -1;
	return 0;
}

int resctrl_prepare(int root, const struct oci_intel_rdt *rdt, const char *id, bool *made,
		    struct shim_error *err)
{
	const char *name = resctrl_group_name(rdt, id);
	bool schema = oci_intel_rdt_has_schema(rdt);
	_cleanup_close_ int group = -1;
	char text[SCHEMATA_MAX];

	*made = false;
	if (check_monitoring(root, rdt, err) < 0 ||
	    oci_intel_rdt_schema_text(rdt, text, sizeof(text), err) < 0)
		return -1;
	if (!rdt->clos_id || schema) {
		if (mkdirat(root, name, 0755) == 0)
			*made = true;
		else if (errno != EEXIST)
			return shim_fail_errno(err, "linux.intelRdt: making resctrl group \"%s\"", name);
	}
	group = openat(root, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (group < 0)
		return shim_fail_errno(err, "linux.intelRdt%s: resctrl group \"%s\"%s",
				       rdt->clos_id ? ".closID" : "", name,
				       rdt->clos_id && !schema ? " (with no schema given, it must be "
								 "made beforehand)" : "");
	if (rdt->clos_id && !*made && schema)
		return check_existing(group, rdt, text, err) < 0 ? -1 : TAKE_FD(group);
	if (write_schemata(root, group, rdt, text, err) < 0) {
		if (*made)
			unlinkat(root, name, AT_REMOVEDIR);
		*made = false;
		return -1;
	}
	log_debug("resctrl group %s %s", name, *made ? "made" : "joined");
	return TAKE_FD(group);
}

static int add_to_tasks(int dirfd, const char *field, const char *what, pid_t pid,
			struct shim_error *err)
{
	_cleanup_close_ int fd = openat(dirfd, "tasks", O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	char text[24];

	snprintf(text, sizeof(text), "%d", (int)pid);
	if (fd < 0 || write_all(fd, text) < 0)
		return shim_fail_errno(err, "%s: adding %d to the %s's tasks", field, (int)pid, what);
	return 0;
}

int resctrl_add_task(int group, int monitor, pid_t pid, struct shim_error *err)
{
	/* the control group first: a monitoring group takes only its tasks */
	if (add_to_tasks(group, "linux.intelRdt", "resctrl group", pid, err) < 0)
		return -1;
	if (monitor >= 0 && add_to_tasks(monitor, "linux.intelRdt.enableMonitoring",
					 "monitoring group", pid, err) < 0)
		return -1;
	return 0;
}

int resctrl_make_monitor(int group, const char *id, bool *made, struct shim_error *err)
{
	_cleanup_close_ int mon = openat(group, "mon_groups", O_PATH | O_DIRECTORY | O_NOFOLLOW |
					 O_CLOEXEC);
	int fd;

	*made = false;
	if (mon < 0 && errno == ENOENT)
		return shim_fail(err, ENOTSUP, "linux.intelRdt.enableMonitoring: this host's resctrl "
				 "monitors nothing (no mon_groups folder)");
	if (mon < 0)
		return shim_fail_errno(err, "linux.intelRdt.enableMonitoring: mon_groups");
	if (mkdirat(mon, id, 0755) == 0)
		*made = true;
	else if (errno != EEXIST)
		return shim_fail_errno(err, "linux.intelRdt.enableMonitoring: making the monitoring "
				       "group mon_groups/%s", id);
	fd = openat(mon, id, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		shim_fail_errno(err, "linux.intelRdt.enableMonitoring: mon_groups/%s", id);
		if (*made)
			unlinkat(mon, id, AT_REMOVEDIR);
		*made = false;
		return -1;
	}
	log_debug("resctrl monitoring group mon_groups/%s %s", id, *made ? "made" : "taken");
	return fd;
}

int resctrl_open_monitor(int group, const char *id, struct shim_error *err)
{
	char path[NAME_MAX + 16];
	int fd;

	if (path_format(path, sizeof(path), err, "mon_groups/%s", id) < 0)
		return shim_error_wrap(err, "linux.intelRdt.enableMonitoring");
	fd = openat(group, path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return shim_fail_errno(err, "linux.intelRdt.enableMonitoring: the monitoring group %s",
				       path);
	return fd;
}

int resctrl_remove_monitor(int root, const char *group, const char *id, struct shim_error *err)
{
	char path[2 * NAME_MAX + 16];

	if (path_format(path, sizeof(path), err, "%s/mon_groups/%s", group, id) < 0)
		return shim_error_wrap(err, "removing a resctrl monitoring group");
	if (unlinkat(root, path, AT_REMOVEDIR) < 0 && errno != ENOENT)
		return shim_fail_errno(err, "removing resctrl monitoring group \"%s\"", path);
	return 0;
}

int resctrl_remove(int root, const char *name, struct shim_error *err)
{
	if (unlinkat(root, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		return shim_fail_errno(err, "removing resctrl group \"%s\"", name);
	return 0;
}
