/* SPDX-License-Identifier: GPL-2.0-or-later */
/* start, state, kill, delete: a container ID and at most a flag or two. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim/cleanup.h"
#include "shim/cmd/cmd.h"
#include "shim/signals.h"
#include "shim/store.h"

int cmd_one_id(const char *cmd, int argc, char **argv, const char **id, struct shim_error *err)
{
	if (optind != argc - 1)
		return shim_fail(err, 0, "%s: needs exactly one container ID", cmd);
	*id = argv[optind];
	return 0;
}

/* Only the flags listed in opts; anything else is an error naming it. */
static int no_flags(int argc, char **argv, struct shim_error *err)
{
	static const struct option none[] = { { 0 } };

	optind = 1;
	opterr = 0;
	if (getopt_long(argc, argv, "+", none, NULL) != -1)
		return shim_fail(err, 0, "%s: unknown flag %s", argv[0], argv[optind - 1]);
	return 0;
}

int cmd_start(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct container c;
	const char *id = NULL;
	int r;

	if (no_flags(argc, argv, err) < 0 || cmd_one_id("start", argc, argv, &id, err) < 0 ||
	    container_load(g->root, id, &c, err) < 0)
		return -1;
	r = container_start(&c, err);
	container_release(&c);
	return r < 0 ? -1 : 0;
}

int cmd_state(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct container c;
	_cleanup_free_ char *json = NULL;
	const char *id = NULL;

	if (no_flags(argc, argv, err) < 0 || cmd_one_id("state", argc, argv, &id, err) < 0 ||
	    container_load(g->root, id, &c, err) < 0)
		return -1;
	json = oci_state_to_json(c.state, false, true, err);
	container_release(&c);
	if (!json)
		return -1;
	printf("%s\n", json);
	return 0;
}

int cmd_kill(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	static const struct option opts[] = { { "all", no_argument, NULL, 'a' }, { 0 } };
	struct container c;
	bool all = false;
	int sig = SIGTERM, ch, r;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+a", opts, NULL)) != -1) {
		if (ch != 'a')
			return shim_fail(err, 0, "kill: unknown flag %s", argv[optind - 1]);
		all = true;
	}
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

int cmd_delete(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	static const struct option opts[] = { { "force", no_argument, NULL, 'f' }, { 0 } };
	struct container c;
	bool force = false;
	const char *id = NULL;
	int ch, r;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+f", opts, NULL)) != -1) {
		if (ch != 'f')
			return shim_fail(err, 0, "delete: unknown flag %s", argv[optind - 1]);
		force = true;
	}
	if (cmd_one_id("delete", argc, argv, &id, err) < 0)
		return -1;
	if (container_load(g->root, id, &c, err) < 0) {
		/* A folder left by a create that died still goes with --force. */
		if (force && err->errnum == ENOENT)
			return store_remove(g->root, id, err) < 0 ? -1 : 0;
		return -1;
	}
	r = container_delete(g->root, &c, force, err);
	container_release(&c);
	return r < 0 ? -1 : 0;
}
