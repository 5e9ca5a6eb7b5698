/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/cmd/cmd.h: one file per subcommand, each thin: parse its flags, call
 * the library. A command returns the exit status, or -1 with err filled,
 * which main.c prints (the only place that does).
 */
#ifndef SHIM_CMD_H
#define SHIM_CMD_H

#include <getopt.h>
#include <stdbool.h>

#include "oci/base/error.h"
#include "shim/container.h"

struct global_opts {
	const char *root;
	const char *log;
	const char *log_format;
	bool debug;
	bool systemd_cgroup;	/* --systemd-cgroup (shim/cgroups/systemd.h) */
	bool version, help;	/* --version/-v, --help/-h among the globals */
};

/* A verb's flags as getopt_long takes them; `shim VERB --help` lists them
 * and tests/bats/cli.bats checks each against the man page. */
struct cmd_flags {
	const struct option *opts;	/* ends with { 0 } */
	const char *shorts;		/* getopt_long's optstring */
};

extern const struct cmd_flags create_flags, run_flags, kill_flags, delete_flags, list_flags,
	exec_flags, update_flags, ps_flags, events_flags, checkpoint_flags, restore_flags,
	spec_flags;

typedef int (*cmd_fn)(const struct global_opts *g, int argc, char **argv, struct shim_error *err);

int cmd_create(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_run(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_start(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_state(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_kill(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_delete(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_list(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_spec(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_exec(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_pause(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_resume(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_update(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_ps(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_events(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_unpack(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_checkpoint(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_restore(const struct global_opts *g, int argc, char **argv, struct shim_error *err);
int cmd_features(const struct global_opts *g, int argc, char **argv, struct shim_error *err);

/* create and run share their flags; argv[optind] must then be the ID. */
int cmd_parse_create(const struct global_opts *g, int argc, char **argv, bool *detach,
		     struct create_opts *o, struct shim_error *err);

/* The verb's flags: none (f NULL), or its one boolean flag f, which sets
 * *set; anything else is an error naming it. Sets optind. */
int cmd_bool_flag(int argc, char **argv, const struct cmd_flags *f, bool *set,
		  struct shim_error *err);

/* The verb takes no flags: any is an error naming it. Sets optind. */
int cmd_no_flags(int argc, char **argv, struct shim_error *err);

/* Exactly one positional argument, the container ID. */
int cmd_one_id(const char *cmd, int argc, char **argv, const char **id, struct shim_error *err);

#endif
