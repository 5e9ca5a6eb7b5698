/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim: an OCI runtime. Global options, the subcommand table, and the only
 * place that prints an error and picks the exit status (1 on error; `run`
 * exits with the container's status).
 */
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim/cmd/cmd.h"
#include "shim/log.h"
#include "shim/rootless.h"
#include "shim/selfexe.h"
#include "shim/version.h"

static const struct {
	const char *name;
	cmd_fn fn;
	const char *summary;
	const struct cmd_flags *flags;	/* NULL: none */
} commands[] = {
	{ "create", cmd_create, "create a container from a bundle", &create_flags },
	{ "start", cmd_start, "run the user process of a created container", NULL },
	{ "run", cmd_run, "create and start a container (and wait for it, unless -d)", &run_flags },
	{ "state", cmd_state, "print a container's OCI state", NULL },
	{ "kill", cmd_kill, "send a signal to a container's init (or --all its processes)",
	  &kill_flags },
	{ "delete", cmd_delete, "remove a stopped container (-f: kill it first)", &delete_flags },
	{ "list", cmd_list, "list containers (-q, --format table|json)", &list_flags },
	{ "exec", cmd_exec, "run another process in a running container", &exec_flags },
	{ "pause", cmd_pause, "freeze all processes of a container (the cgroup freezer)", NULL },
	{ "resume", cmd_resume, "thaw a paused container", NULL },
	{ "update", cmd_update, "change a container's resource limits", &update_flags },
	{ "ps", cmd_ps, "list the processes in a container (--format table|json)", &ps_flags },
	{ "events", cmd_events, "print a container's stats and OOM events as JSON", &events_flags },
	{ "checkpoint", cmd_checkpoint,
	  "dump a running container with CRIU (--leave-running, --pre-dump)", &checkpoint_flags },
	{ "restore", cmd_restore, "bring a checkpointed container back with CRIU (-d, --bundle)",
	  &restore_flags },
	{ "spec", cmd_spec, "write a default config.json", &spec_flags },
	{ "unpack", cmd_unpack, "unpack an OCI image layout (LAYOUT[:NAME]) into a new bundle",
	  NULL },
	{ "features", cmd_features, "print what this runtime implements, as JSON", NULL },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: shim [--root DIR] [--log FILE] [--log-format text|json] [--debug] "
		   "[--systemd-cgroup] [--rootless auto|true|false] COMMAND [ARGS...]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

/* `shim VERB --help`: the verb's summary and every flag it takes. */
static void command_usage(const char *name, const char *summary, const struct cmd_flags *f)
{
	printf("usage: shim %s [FLAGS] ...\n%s\n", name, summary);
	if (f) {
		printf("\nflags:\n");
		for (const struct option *o = f->opts; o->name; o++) {
			bool letter = o->val > 0 && o->val < 128 && strchr(f->shorts, o->val);

			printf("  %c%c%s--%s%s\n", letter ? '-' : ' ', letter ? o->val : ' ',
			       letter ? ", " : "  ", o->name,
			       o->has_arg == required_argument ? " VALUE" : "");
		}
	}
	printf("\nman shim: what each flag does\n");
}

/* "--name value" or "--name=value"; returns 1 and advances *i if it matched. */
static int take_value(char **argv, int argc, int *i, const char *name, const char **out,
		      struct shim_error *err)
{
	size_t len = strlen(name);

	if (strncmp(argv[*i], name, len) != 0)
		return 0;
	if (argv[*i][len] == '=') {
		*out = argv[*i] + len + 1;
		return 1;
	}
	if (argv[*i][len] != '\0')
		return 0;
	if (*i + 1 >= argc)
		return shim_fail(err, 0, "%s needs a value", name);
	*out = argv[++*i];
	return 1;
}

static int parse_globals(int argc, char **argv, struct global_opts *g, struct shim_error *err)
{
	const char *mode;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		int r;

		if ((r = take_value(argv, argc, &i, "--root", &g->root, err)) ||
		    (r = take_value(argv, argc, &i, "--log", &g->log, err)) ||
		    (r = take_value(argv, argc, &i, "--log-format", &g->log_format, err))) {
			if (r < 0)
				return -1;
			continue;
		}
		if ((r = take_value(argv, argc, &i, "--rootless", &mode, err))) {
			if (r < 0 || rootless_set_mode(mode, err) < 0)
				return -1;
			continue;
		}
		if (strcmp(argv[i], "--debug") == 0)
			g->debug = true;
		else if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-v") == 0)
			g->version = true;
		else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			g->help = true;
		else if (strcmp(argv[i], "--systemd-cgroup") == 0)
			g->systemd_cgroup = true;
		else
			return shim_fail(err, 0, "unknown global flag %s", argv[i]);
	}
	return i;
}

/* COMMAND -h or --help, before anything else of it. */
static bool command_help(int argc, char **argv)
{
	for (int i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return true;
		if (strcmp(argv[i], "--") == 0)
			break;
	}
	return false;
}

static bool enters_container(const char *cmd)
{
#ifdef SHIM_UNSEALED_FOR_BENCH
	/* tests/bench only: the same runtime without the copy, to measure it */
	(void)cmd;
	return false;
#else
	return strcmp(cmd, "create") == 0 || strcmp(cmd, "run") == 0 || strcmp(cmd, "exec") == 0 ||
	       strcmp(cmd, "restore") == 0;
#endif
}

int main(int argc, char **argv)
{
	struct global_opts g = { .log_format = "text" };
	struct shim_error err = { 0 };
	char text[2048];
	int first, status = -1;

	/* An ignored SIGCHLD survives exec: the kernel would then reap our
	 * children (the init, ps, hooks) before we could wait for them. */
	signal(SIGCHLD, SIG_DFL);
	first = parse_globals(argc, argv, &g, &err);
	/* as runc: a rootless caller's state under $XDG_RUNTIME_DIR */
	if (!g.root)
		g.root = rootless_default_root();
	/* as runc: --version and --help anywhere among the global flags */
	if (first >= 0 && g.version) {
		printf("shim version %s\nspec: %s\n", SHIM_VERSION, SHIM_SPEC_VERSION);
		return 0;
	}
	if (first >= 0 && g.help) {
		usage(stdout);
		return 0;
	}
	if (first >= 0 && log_setup(g.log, g.log_format, g.debug, &err) < 0)
		first = -1;
	/* the verbs that put a process into a container (shim/selfexe.h) */
	if (first >= 0 && first < argc && enters_container(argv[first]) &&
	    selfexe_ensure_sealed(argv, &err) < 0)
		first = -1;
	if (first >= 0 && first >= argc) {
		usage(stderr);
		return 1;
	}
	if (first >= 0) {
		size_t i;

		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (strcmp(commands[i].name, argv[first]) == 0)
				break;
		if (i == sizeof(commands) / sizeof(commands[0])) {
			shim_fail(&err, 0, "unknown command \"%s\"", argv[first]);
		} else if (command_help(argc - first, argv + first)) {
			command_usage(commands[i].name, commands[i].summary, commands[i].flags);
			return 0;
		} else {
			status = commands[i].fn(&g, argc - first, argv + first, &err);
		}
	}
	if (status < 0) {
		log_error(shim_error_text(&err, text, sizeof(text)));
		/* as runc: exec's own failures are 255, apart from the process's */
		return first >= 0 && first < argc && strcmp(argv[first], "exec") == 0 ? 255 : 1;
	}
	return status;
}
