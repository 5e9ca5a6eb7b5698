/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/base/cleanup.h"
#include "oci/base/strv.h"
#include "shim/cmd/cmd.h"
#include "shim/store.h"

enum list_format { LIST_TABLE, LIST_JSON };

/* The six columns of one row; pid is the caller's buffer. */
static void row(const struct oci_state *st, char pid[16], const char *cols[6])
{
	snprintf(pid, 16, "%d", (int)st->pid);
	cols[0] = st->id, cols[1] = pid, cols[2] = st->status;
	cols[3] = st->bundle, cols[4] = st->created, cols[5] = st->owner;
}

/* runc's table: columns at least 12 wide, 3 spaces between. */
static void print_table(struct oci_state **st, size_t n)
{
	static const char *const head[6] = { "ID", "PID", "STATUS", "BUNDLE", "CREATED", "OWNER" };
	const char *cols[6];
	size_t w[6];
	char pid[16];

	for (int k = 0; k < 6; k++)
		w[k] = strlen(head[k]);
	for (size_t i = 0; i < n; i++) {
		row(st[i], pid, cols);
		for (int k = 0; k < 6; k++)
			if (strlen(cols[k]) > w[k])
				w[k] = strlen(cols[k]);
	}
	for (int k = 0; k < 6; k++)
		w[k] = w[k] + 3 < 12 ? 12 : w[k] + 3;
	for (int k = 0; k < 5; k++)
		printf("%-*s", (int)w[k], head[k]);
	printf("%s\n", head[5]);
	for (size_t i = 0; i < n; i++) {
		row(st[i], pid, cols);
		for (int k = 0; k < 5; k++)
			printf("%-*s", (int)w[k], cols[k]);
		printf("%s\n", cols[5]);
	}
}

static const struct option opts[] = {
	{ "quiet", no_argument, NULL, 'q' },
	{ "format", required_argument, NULL, 'f' },
	{ 0 },
};
const struct cmd_flags list_flags = { opts, "+qf:" };

int cmd_list(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	enum list_format format = LIST_TABLE;
	bool quiet = false;
	char **ids;
	struct oci_state **states;
	size_t n = 0;
	int ch, r = 0;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, list_flags.shorts, opts, NULL)) != -1) {
		if (ch == 'q')
			quiet = true;
		else if (ch == 'f' && strcmp(optarg, "json") == 0)
			format = LIST_JSON;
		else if (ch == 'f' && strcmp(optarg, "table") == 0)
			format = LIST_TABLE;
		else if (ch == 'f')
			return shim_fail(err, 0, "list: --format \"%s\" is not table or json", optarg);
		else
			return shim_fail(err, 0, "list: unknown flag %s", argv[optind - 1]);
	}
	if (optind != argc)
		return shim_fail(err, 0, "list: takes no arguments");
	ids = store_list(g->root, err);
	if (!ids)
		return -1;
	states = calloc(strv_len(ids) + 1, sizeof(*states));
	for (size_t i = 0; states && ids[i]; i++) {
		struct container c;

		/* One that vanished or is half-made is not listed. */
		char owner[256], *name;

		if (container_load(g->root, ids[i], &c, NULL) < 0)
			continue;
		store_owner_name(c.dir_fd, owner, sizeof(owner));
		if ((name = strdup(owner))) {
			free(c.state->owner);
			c.state->owner = name;
		}
		states[n++] = TAKE_PTR(c.state);
		container_release(&c);
	}
	if (quiet) {
		for (size_t i = 0; i < n; i++)
			printf("%s\n", states[i]->id);
	} else if (format == LIST_JSON) {
		_cleanup_free_ char *json = oci_state_list_to_json(states, n, err);

		if (json)
			printf("%s\n", json);
		else
			r = -1;
	} else {
		print_table(states, n);
	}
	for (size_t i = 0; i < n; i++)
		oci_state_free(states[i]);
	free(states);
	strv_free(ids);
	return r;
}
