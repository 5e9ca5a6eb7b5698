/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/cgroups/cgroup.h"
#include "shim/cgroups/resctrl.h"
#include "shim/filesystem/inherited_mounts.h"
#include "shim/holdings.h"
#include "shim/log.h"
#include "shim/network/netdev.h"
#include "shim/rootless.h"
#include "shim/store.h"

void holdings_init(struct holdings *h)
{
	memset(h, 0, sizeof(*h));
	h->cgroup_fd = h->rdt_group = h->rdt_monitor = -1;
	h->scope.holder_pidfd = -1;
	cgroup_v1_init(&h->v1);
}

void holdings_release(struct holdings *h)
{
	h->cgroup_fd = safe_close(h->cgroup_fd);
	h->rdt_group = safe_close(h->rdt_group);
	h->rdt_monitor = safe_close(h->rdt_monitor);
	cgroup_v1_close(&h->v1);
}

/* Rootless, the cgroup could not be made: may the container do without?
 * (shim/rootless.h) */
static bool cgroup_not_needed(const char *id, const struct oci_spec *s,
			      struct shim_error *err)
{
	char text[1200];

	if (!rootless_cgroup_optional(s, err))
		return false;
	log_debug("rootless: container %s runs in no cgroup of its own (%s)", id,
		  shim_error_text(err, text, sizeof(text)));
	memset(err, 0, sizeof(*err));
	return true;
}

/*
 * The container's cgroup folder, made and filled before the init exists. A
 * host without cgroup v2 gets none, which only a config asking for no
 * limits accepts (its device rules then go unenforced: said as a warning).
 */
static int make_cgroup(const char *id, const struct oci_spec *s, char *rel,
		       size_t len, int *fd, struct shim_error *err)
{
	*fd = -1;
	rel[0] = '\0';
	if (!cgroup2_mounted()) {
		if (cgroup_v1_host())
			return 0;	/* the v1 folders: make_cgroup_v1 */
		if (s->cgroups_path || oci_resources_first_path(&s->resources))
			return shim_fail(err, ENOTSUP, "%s: needs cgroup v2 mounted at %s, or cgroup v1 "
					 "hierarchies there", oci_resources_first_path(&s->resources)
					 ?: "linux.cgroupsPath", CGROUP_ROOT);
		log_warn("no cgroup v2 at %s: container %s runs without a cgroup%s", CGROUP_ROOT,
			 id, s->resources.has_devices ? " and its device rules are not applied" : "");
		return 0;
	}
	if (s->cgroups_path && strchr(s->cgroups_path, ':'))
		return shim_fail(err, EINVAL, "linux.cgroupsPath: \"%s\" is a systemd "
				 "slice:prefix:name, which needs --systemd-cgroup", s->cgroups_path);
	if (cgroup_resolve(s->cgroups_path, id, rel, len, err) < 0)
		return -1;
	*fd = cgroup_create(rel, &s->resources, err);
	if (*fd >= 0)
		return 0;
	rel[0] = '\0';
	return cgroup_not_needed(id, s, err) ? 0 : -1;
}

/* A cgroup v1 host: a folder in each hierarchy, recorded in
 * ROOT/ID/cgroup-v1 for delete (shim/cgroups/cgroup_v1.h). */
static int make_cgroup_v1(const char *id, const struct oci_spec *s, int dir_fd,
			  struct cgroup_v1 *v1, struct shim_error *err)
{
	_cleanup_free_ char *record = NULL;

	if (!cgroup_v1_host())
		return 0;
	if (cgroup_v1_check(&s->resources, err) < 0 ||
	    cgroup_v1_resolve(s->cgroups_path, id, v1, err) < 0)
		return -1;
	record = cgroup_v1_record_text(v1);
	if (!record)
		return shim_fail(err, ENOMEM, "%s", STORE_CGROUP_V1);
	if (write_file_at(dir_fd, STORE_CGROUP_V1, record, err) < 0)
		return -1;
	if (cgroup_v1_create(&s->resources, v1, err) == 0)
		return 0;
	/* not ours to remove: create took back what it made, and folders
	 * it found with processes in them are another container's */
	unlinkat(dir_fd, STORE_CGROUP_V1, 0);
	return cgroup_not_needed(id, s, err) ? 0 : -1;
}

/* The folders ROOT/ID/cgroup-v1 names go; a failure is only said. */
static void remove_cgroup_v1(int dir_fd, const char *id)
{
	struct shim_error err = { 0 };
	struct cgroup_v1 cg;
	char text[1200];

	if (cgroup_v1_read_record(dir_fd, &cg, &err) < 0)
		return;
	if (cgroup_v1_destroy(&cg, &err) < 0)
		log_warn("container %s: %s", id, shim_error_text(&err, text, sizeof(text)));
}

/* --systemd-cgroup: the container's cgroup is a transient scope, started
 * with a holder in it (shim/cgroups/systemd.h), its resources then written as with
 * cgroupfs. */
static int make_systemd_cgroup(const char *id, const struct oci_spec *s,
			       struct systemd_scope *scope, int *fd, struct shim_error *err)
{
	char description[320];

	*fd = -1;
	if (!cgroup2_mounted())
		return shim_fail(err, ENOTSUP, "--systemd-cgroup: needs cgroup v2 mounted at %s",
				 CGROUP_ROOT);
	if (systemd_scope_names(s->cgroups_path, id, scope, err) < 0)
		return -1;
	snprintf(description, sizeof(description), "shim container %s", id);
	if (systemd_scope_start(scope, description, &s->resources, err) < 0)
		return -1;
	*fd = cgroup_open(scope->rel, err);
	if (*fd < 0 || cgroup_apply(*fd, scope->rel, &s->resources, err) < 0)
		return -1;
	return 0;
}

/* The unit ROOT/ID/systemd-unit names is stopped; a failure is only said. */
static void stop_systemd_unit(int dir_fd, const char *id)
{
	struct shim_error err = { 0 };
	_cleanup_free_ char *unit = store_read_record(dir_fd, STORE_SYSTEMD_UNIT, NAME_MAX + 1, &err);
	char text[1200];

	size_t n = unit ? strlen(unit) : 0;

	/* create names a scope of its own: a record naming anything else (a
	 * host's service) is not stopped */
	if (n && (n < 7 || strcmp(unit + n - 6, ".scope") != 0 || strchr(unit, '/'))) {
		log_warn("container %s: %s: \"%s\" is no scope shim made; not stopped", id,
			 STORE_SYSTEMD_UNIT, unit);
		return;
	}
	if (n && systemd_unit_stop(unit, &err) < 0)
		log_warn("container %s: %s", id, shim_error_text(&err, text, sizeof(text)));
}

/* linux.intelRdt: the container's resctrl group, made or joined, and with
 * enableMonitoring its own monitoring group; what delete must remove is
 * named in ROOT/ID (a group made for the container alone; the group
 * whose mon_groups/ID is the container's). */
static int make_rdt_group(const char *id, const struct oci_spec *s, int dir_fd,
			  struct holdings *h, struct shim_error *err)
{
	const struct oci_intel_rdt *rdt = &s->intel_rdt;
	_cleanup_close_ int root = -1;

	if (!rdt->present)
		return 0;
	h->rdt = rdt;
	root = resctrl_open_root(err);
	if (root < 0)
		return -1;
	h->rdt_group = resctrl_prepare(root, rdt, id, &h->rdt_group_made, err);
	if (h->rdt_group < 0)
		return -1;
	if (!rdt->clos_id && write_file_at(dir_fd, STORE_RESCTRL, id, err) < 0)
		return -1;
	if (!rdt->enable_monitoring)
		return 0;
	/* recorded first: a failure from here on removes it */
	if (write_file_at(dir_fd, STORE_RESCTRL_MONITOR, resctrl_group_name(rdt, id), err) < 0)
		return -1;
	h->rdt_monitor = resctrl_make_monitor(h->rdt_group, id, &h->rdt_monitor_made, err);
	return h->rdt_monitor < 0 ? -1 : 0;
}

/* After a failed create: what it made goes (a group made goes with its
 * monitoring groups). */
static void rdt_remove_made(const struct holdings *h, const char *id)
{
	struct shim_error err = { 0 };
	_cleanup_close_ int root = -1;

	if (!h->rdt_group_made && !h->rdt_monitor_made)
		return;
	root = resctrl_open_root(&err);
	if (root >= 0 && h->rdt_monitor_made)
		resctrl_remove_monitor(root, resctrl_group_name(h->rdt, id), id, &err);
	if (root >= 0 && h->rdt_group_made)
		resctrl_remove(root, resctrl_group_name(h->rdt, id), &err);
}

static bool group_name_valid(const char *name)
{
	return name && *name && !strchr(name, '/') && strcmp(name, "..") != 0 &&
	       strcmp(name, ".") != 0;
}

/* The resctrl groups ROOT/ID names go: the container's monitoring group,
 * then a group made for it alone; a failure is only said. */
static void remove_rdt_group(int dir_fd, const char *id)
{
	struct shim_error err = { 0 };
	_cleanup_close_ int root = -1;
	_cleanup_free_ char *name = store_read_record(dir_fd, STORE_RESCTRL, NAME_MAX + 1, &err);
	_cleanup_free_ char *monitored = store_read_record(dir_fd, STORE_RESCTRL_MONITOR,
							   NAME_MAX + 1, &err);
	char text[1200];
	int r = 0;

	if (!group_name_valid(name) && !group_name_valid(monitored))
		return;
	root = resctrl_open_root(&err);
	if (root < 0)
		r = -1;
	if (r == 0 && group_name_valid(monitored))
		r = resctrl_remove_monitor(root, monitored, id, &err);
	if (r == 0 && group_name_valid(name))
		r = resctrl_remove(root, name, &err);
	if (r < 0)
		log_warn("container %s: %s", id, shim_error_text(&err, text, sizeof(text)));
}

/* The interfaces lent to the container go home; a failure is only said
 * (the namespace hold is gone either way: nothing a retry could mend). */
static void give_back_net_devices(int dir_fd, const char *id)
{
	struct shim_error err = { 0 };
	char text[1200];

	if (dir_fd >= 0 && netdev_move_back(dir_fd, &err) < 0)
		log_warn("container %s: %s", id, shim_error_text(&err, text, sizeof(text)));
}

/* No mount namespace: the mounts its init made in the runtime's go; a
 * failure is only said. */
static void remove_inherited_mounts(int dir_fd, const char *id)
{
	struct shim_error err = { 0 };
	char text[1200];

	if (dir_fd >= 0 && inherited_mounts_remove(dir_fd, &err) < 0)
		log_warn("container %s: %s", id, shim_error_text(&err, text, sizeof(text)));
}

int holdings_make(struct holdings *h, const char *id, bool systemd_cgroup,
		  const struct oci_spec *s, int dir_fd, struct shim_error *err)
{
	if (systemd_cgroup) {
		int r = make_systemd_cgroup(id, s, &h->scope, &h->cgroup_fd, err);

		/* recorded first: a failure from here on stops the unit */
		if (h->scope.unit[0] && write_file_at(dir_fd, STORE_SYSTEMD_UNIT, h->scope.unit,
						      err) < 0)
			r = -1;
		snprintf(h->cgroup_rel, sizeof(h->cgroup_rel), "%s", h->scope.rel);
		if (r < 0)
			return -1;
	} else if (make_cgroup(id, s, h->cgroup_rel, sizeof(h->cgroup_rel), &h->cgroup_fd,
			       err) < 0) {
		return -1;
	}
	if (h->cgroup_rel[0])
		log_debug("cgroup %s: %zu settings written%s", h->cgroup_rel, s->resources.n_settings,
			  s->resources.has_devices ? ", device program attached" : "");
	/* a second record of the cgroup, apart from state.json: a delete -f
	 * finds it even when state.json is lost or corrupt */
	if (h->cgroup_rel[0] && write_file_at(dir_fd, STORE_CGROUP, h->cgroup_rel, err) < 0)
		return -1;
	if (!systemd_cgroup && make_cgroup_v1(id, s, dir_fd, &h->v1, err) < 0)
		return -1;
	return make_rdt_group(id, s, dir_fd, h, err);
}

unsigned holdings_records(const struct holdings *h, const struct oci_spec *s, bool mounts)
{
	return (s->n_net_devices ? RECORD_NETNS : 0) | (mounts ? RECORD_INHERITED_MOUNTS : 0) |
	       (cgroup_v1_is_open(&h->v1) ? RECORD_CGROUP_V1 : 0) |
	       (h->scope.unit[0] ? RECORD_SYSTEMD_UNIT : 0) |
	       (s->intel_rdt.present && (!s->intel_rdt.clos_id || s->intel_rdt.enable_monitoring)
		? RECORD_RESCTRL : 0);
}

int holdings_undo(const struct holdings_undo *u, struct shim_error *err)
{
	int r = 0;

	if (u->records & RECORD_NETNS)
		give_back_net_devices(u->dir_fd, u->id);
	if (u->mounts)
		inherited_mounts_undo(u->mounts);
	else if (u->records & RECORD_INHERITED_MOUNTS)
		remove_inherited_mounts(u->dir_fd, u->id);
	if (u->made)
		systemd_scope_drop_holder(&u->made->scope);
	/* what is left in the folder (processes that joined it) dies with it */
	if (u->cgroup_rel && u->cgroup_rel[0] && cgroup_destroy(u->cgroup_rel, err) < 0)
		r = shim_error_wrap(err, "container %s", u->id);
	if (u->records & RECORD_CGROUP_V1)
		remove_cgroup_v1(u->dir_fd, u->id);
	if (u->records & RECORD_SYSTEMD_UNIT)
		stop_systemd_unit(u->dir_fd, u->id);
	if (u->made)
		rdt_remove_made(u->made, u->id);
	else if (u->records & RECORD_RESCTRL)
		remove_rdt_group(u->dir_fd, u->id);
	return r;
}
