/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the verbs' parsers share (shim/cmd/cmd.h). */
#include <getopt.h>
#include <stdbool.h>

#include "shim/cmd/cmd.h"

int cmd_one_id(const char *cmd, int argc, char **argv, const char **id, struct shim_error *err)
{
	if (optind != argc - 1)
		return shim_fail(err, 0, "%s: needs exactly one container ID", cmd);
	*id = argv[optind];
	return 0;
}

/*
 * The verb's flags: none (f NULL), or its one boolean flag, which sets
 * *set. Anything else is an error naming it.
 */
int cmd_bool_flag(int argc, char **argv, const struct cmd_flags *f, bool *set,
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
	return cmd_bool_flag(argc, argv, NULL, NULL, err);
}

