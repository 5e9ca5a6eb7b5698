/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pause, resume: freeze and thaw the container's cgroup (cgroup.freeze; on
 * a cgroup v1 host, freezer.state). */
#include <getopt.h>

#include "shim/cgroups/cgroup.h"
#include "shim/cmd/cmd.h"

static int freeze(const struct global_opts *g, int argc, char **argv, bool frozen,
		  struct shim_error *err)
{
	struct container c;
	const char *id = NULL;
	int r = -1;

	if (cmd_no_flags(argc, argv, err) < 0 || cmd_one_id(argv[0], argc, argv, &id, err) < 0 ||
	    container_load(g->root, id, &c, err) < 0)
		return -1;
	if (c.cgroup_fd < 0 && !cgroup_v1_is_open(&c.v1))
		shim_fail(err, 0, "%s: container %s has no cgroup (%s needs one)", argv[0], id,
			  argv[0]);
	else if (frozen && c.status != STATUS_RUNNING && c.status != STATUS_CREATED)
		shim_fail(err, 0, "pause: container %s is %s, not running", id,
			  container_status_name(c.status));
	else if (!frozen && c.status != STATUS_PAUSED)
		shim_fail(err, 0, "resume: container %s is %s, not paused", id,
			  container_status_name(c.status));
	else if (c.cgroup_fd >= 0)
		r = cgroup_freeze(c.cgroup_fd, frozen, err);
	else
		r = cgroup_v1_freeze(&c.v1, frozen, err);
	container_release(&c);
	return r < 0 ? -1 : 0;
}

int cmd_pause(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	return freeze(g, argc, argv, true, err);
}

int cmd_resume(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	return freeze(g, argc, argv, false, err);
}
