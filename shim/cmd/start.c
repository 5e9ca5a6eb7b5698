/* SPDX-License-Identifier: GPL-2.0-or-later */
/* start ID: the created container's init goes on to exec. */
#include <getopt.h>
#include <stdbool.h>

#include "shim/cmd/cmd.h"

int cmd_start(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct container c;
	const char *id = NULL;
	int r;

	if (cmd_no_flags(argc, argv, err) < 0 || cmd_one_id("start", argc, argv, &id, err) < 0 ||
	    container_load(g->root, id, &c, err) < 0)
		return -1;
	r = container_start(&c, true, err);
	container_release(&c);
	return r < 0 ? -1 : 0;
}
