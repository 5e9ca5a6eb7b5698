/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim/cmd/cmd.h"

enum { OPT_PID_FILE = 256, OPT_CONSOLE_SOCKET, OPT_PRESERVE_FDS, OPT_PIDFD_SOCKET,
       OPT_NO_PIVOT, OPT_NO_NEW_KEYRING, OPT_KEEP };

/* systemd socket activation, as runc: the LISTEN_FDS fds meant for us
 * (LISTEN_PID is our PID; others' are not ours to take) go on to the
 * container's process at the same numbers, 3 up, before the
 * --preserve-fds ones; container.c sets LISTEN_FDS and LISTEN_PID=1 in
 * its environment. */
static int take_listen_fds(struct create_opts *o, struct shim_error *err)
{
	const char *fds = getenv("LISTEN_FDS"), *pid = getenv("LISTEN_PID");
	char *end;
	unsigned long n, p;

	o->listen_fds = 0;
	if (!fds || !pid)
		return 0;
	p = strtoul(pid, &end, 10);
	if (!*pid || *end || p != (unsigned long)getpid())
		return 0;
	n = strtoul(fds, &end, 10);
	if (!*fds || *end || n > 65536)
		return shim_fail(err, EINVAL, "LISTEN_FDS: \"%s\" is not a count of fds", fds);
	o->listen_fds = (unsigned int)n;
	return 0;
}

#define CREATE_OPTIONS                                                                \
	{ "bundle", required_argument, NULL, 'b' },                                   \
	{ "pid-file", required_argument, NULL, OPT_PID_FILE },                        \
	{ "console-socket", required_argument, NULL, OPT_CONSOLE_SOCKET },            \
	{ "preserve-fds", required_argument, NULL, OPT_PRESERVE_FDS },                \
	{ "pidfd-socket", required_argument, NULL, OPT_PIDFD_SOCKET },                \
	{ "no-pivot", no_argument, NULL, OPT_NO_PIVOT },                              \
	{ "no-new-keyring", no_argument, NULL, OPT_NO_NEW_KEYRING }

static const struct option create_options[] = { CREATE_OPTIONS, { 0 } };
static const struct option run_options[] = {
	CREATE_OPTIONS,
	{ "detach", no_argument, NULL, 'd' },
	{ "keep", no_argument, NULL, OPT_KEEP },
	{ 0 },
};
const struct cmd_flags create_flags = { create_options, "+b:" };
const struct cmd_flags run_flags = { run_options, "+b:d" };

int cmd_parse_create(const struct global_opts *g, int argc, char **argv, bool *detach,
		     struct create_opts *o, struct shim_error *err)
{
	const struct cmd_flags *f = detach ? &run_flags : &create_flags;
	int c;

	memset(o, 0, sizeof(*o));
	o->root = g->root;
	o->systemd_cgroup = g->systemd_cgroup;
	o->bundle = ".";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, f->shorts, f->opts, NULL)) != -1) {
		char *end;
		unsigned long n;

		switch (c) {
		case 'b': o->bundle = optarg; break;
		case 'd': *detach = true; break;
		case OPT_PID_FILE: o->pid_file = optarg; break;
		case OPT_CONSOLE_SOCKET: o->console_socket = optarg; break;
		case OPT_PIDFD_SOCKET: o->pidfd_socket = optarg; break;
		case OPT_PRESERVE_FDS:
			n = strtoul(optarg, &end, 10);
			if (!*optarg || *end || n > 65536)
				return shim_fail(err, 0, "--preserve-fds: \"%s\" is not a count of fds", optarg);
			o->preserve_fds = (unsigned int)n;
			break;
		case OPT_NO_PIVOT:
			o->no_pivot = true;
			break;
		case OPT_KEEP:
			o->keep = true;
			break;
		case OPT_NO_NEW_KEYRING:
			o->no_new_keyring = true;
			break;
		default:
			return shim_fail(err, 0, "%s: unknown or incomplete flag %s", argv[0],
					 argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return shim_fail(err, 0, "%s: needs exactly one container ID", argv[0]);
	o->id = argv[optind];
	return take_listen_fds(o, err);
}

int cmd_create(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct create_opts o;

	if (cmd_parse_create(g, argc, argv, NULL, &o, err) < 0)
		return -1;
	return container_create(&o, NULL, NULL, err) < 0 ? -1 : 0;
}
