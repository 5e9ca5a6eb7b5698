/* SPDX-License-Identifier: GPL-2.0-or-later */
/* state ID: the OCI state, as JSON. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "oci/base/cleanup.h"
#include "shim/cmd/cmd.h"

int cmd_state(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct container c;
	struct oci_state_view view;
	_cleanup_free_ char *json = NULL;
	const char *id = NULL;

	if (cmd_no_flags(argc, argv, err) < 0 || cmd_one_id("state", argc, argv, &id, err) < 0 ||
	    container_load(g->root, id, &c, err) < 0)
		return -1;
	view = oci_state_view(c.state);
	json = oci_state_to_json(&view, false, true, err);
	container_release(&c);
	if (!json)
		return -1;
	printf("%s\n", json);
	return 0;
}
