/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kill [--all] ID [SIGNAL]: a signal to the init, or to every process. */
#include <getopt.h>
#include <stdbool.h>
#include <signal.h>

#include "shim/cmd/cmd.h"
#include "shim/signals.h"

static const struct option kill_options[] = { { "all", no_argument, NULL, 'a' }, { 0 } };
const struct cmd_flags kill_flags = { kill_options, "+a" };

int cmd_kill(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct container c;
	bool all = false;
	int sig = SIGTERM, r;

	if (cmd_bool_flag(argc, argv, &kill_flags, &all, err) < 0)
		return -1;
	if (optind != argc - 1 && optind != argc - 2)
		return shim_fail(err, 0, "kill: needs a container ID and at most one signal");
	if (optind == argc - 2 && (sig = signal_parse(argv[argc - 1])) < 0)
		return shim_fail(err, 0, "kill: unknown signal \"%s\"", argv[argc - 1]);
	if (container_load(g->root, argv[optind], &c, err) < 0)
		return -1;
	r = container_kill(&c, sig, all, err);
	container_release(&c);
	return r < 0 ? -1 : 0;
}
