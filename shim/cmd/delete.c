/* SPDX-License-Identifier: GPL-2.0-or-later */
/* delete [--force] ID: the container removed (killed first with --force). */
#include <getopt.h>
#include <stdbool.h>

#include "shim/cmd/cmd.h"
#include "shim/store.h"

static const struct option delete_options[] = { { "force", no_argument, NULL, 'f' }, { 0 } };
const struct cmd_flags delete_flags = { delete_options, "+f" };

int cmd_delete(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct container c;
	bool force = false;
	const char *id = NULL;
	int r;

	if (cmd_bool_flag(argc, argv, &delete_flags, &force, err) < 0)
		return -1;
	if (cmd_one_id("delete", argc, argv, &id, err) < 0)
		return -1;
	/* As runc: deleting what is already gone is not an error with --force
	 * (containerd's shim deletes again when it cleans up). */
	if (force && !store_has(g->root, id))
		return 0;
	if (container_load(g->root, id, &c, err) < 0) {
		/* A folder left by a create that died, a corrupt state.json or a
		 * link planted at ROOT/ID still goes with --force. */
		if (force)
			return container_remove_broken(g->root, id, err) < 0 ? -1 : 0;
		return -1;
	}
	r = container_delete(g->root, &c, force, err);
	container_release(&c);
	return r < 0 ? -1 : 0;
}
