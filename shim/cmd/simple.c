/* SPDX-License-Identifier: GPL-2.0-or-later */
/* start, state, kill, delete: a container ID and at most a flag or two. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/cleanup.h"
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

static const struct option kill_options[] = { { "all", no_argument, NULL, 'a' }, { 0 } };
static const struct option delete_options[] = { { "force", no_argument, NULL, 'f' }, { 0 } };
const struct cmd_flags kill_flags = { kill_options, "+a" };
const struct cmd_flags delete_flags = { delete_options, "+f" };

/*
 * The verb's flags: none (f NULL), or its one boolean flag, which sets
 * *set. Anything else is an error naming it.
 */
static int parse_flags(int argc, char **argv, const struct cmd_flags *f, bool *set,
		       struct shim_error *err)
{
	static const struct option none[] = { { 0 } };
	int ch;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, f ? f->shorts : "+", f ? f->opts : none, NULL)) != -1) {
		if (!f || ch != f->opts[0].val)
			return shim_fail(err, 0, "%s: unknown flag %s", argv[0], argv[optind - 1]);
		*set = true;
	}
	return 0;
}

int cmd_no_flags(int argc, char **argv, struct shim_error *err)
{
	return parse_flags(argc, argv, NULL, NULL, err);
}

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

int cmd_kill(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct container c;
	bool all = false;
	int sig = SIGTERM, r;

	if (parse_flags(argc, argv, &kill_flags, &all, err) < 0)
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

int cmd_delete(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct container c;
	bool force = false;
	const char *id = NULL;
	int r;

	if (parse_flags(argc, argv, &delete_flags, &force, err) < 0)
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
