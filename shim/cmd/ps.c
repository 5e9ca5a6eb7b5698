/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ps: the processes in a container's cgroup. --format json prints their
 * PIDs as a JSON array; the table (the default) runs ps(1) with the given
 * options (default -ef) and keeps the header and the container's rows, as
 * runc does.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/cgroups/cgroup.h"
#include "shim/cmd/cmd.h"

extern char **environ;

static const struct option opts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ 0 },
};
const struct cmd_flags ps_flags = { opts, "+f:" };

static bool has_pid(const pid_t *pids, size_t n, long pid)
{
	for (size_t i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

/* Which whitespace-separated column of the header is "PID". */
static int pid_column(const char *header)
{
	char copy[4096], *save = NULL;
	int col = 0;

	snprintf(copy, sizeof(copy), "%s", header);
	for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save), col++)
		if (strcmp(w, "PID") == 0)
			return col;
	return -1;
}

static long column_value(const char *line, int col)
{
	char copy[4096], *save = NULL, *w;

	snprintf(copy, sizeof(copy), "%s", line);
	w = strtok_r(copy, " \t\n", &save);
	for (int i = 0; w && i < col; i++)
		w = strtok_r(NULL, " \t\n", &save);
	return w ? strtol(w, NULL, 10) : -1;
}

static int print_table(char **ps_args, const pid_t *pids, size_t n, struct shim_error *err)
{
	posix_spawn_file_actions_t fa;
	int out[2], col = -1, status;
	char line[4096];
	FILE *f;
	pid_t child;

	if (pipe2(out, O_CLOEXEC) < 0)
		return shim_fail_errno(err, "ps: pipe");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	errno = posix_spawnp(&child, "ps", &fa, NULL, ps_args, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	if (errno) {
		close(out[0]);
		return shim_fail_errno(err, "ps: running ps");
	}
	f = fdopen(out[0], "r");
	for (bool first = true; f && fgets(line, sizeof(line), f); first = false) {
		if (first && (col = pid_column(line)) < 0) {
			fclose(f);
			waitpid(child, &status, 0);
			return shim_fail(err, 0, "ps: the ps output has no PID column (add -o pid)");
		}
		if (first || has_pid(pids, n, column_value(line, col)))
			fputs(line, stdout);
	}
	if (f)
		fclose(f);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return shim_fail_errno(err, "ps: waiting for ps");
	if (WIFSIGNALED(status))
		return shim_fail(err, 0, "ps: ps was killed by signal %d", WTERMSIG(status));
	if (WEXITSTATUS(status) != 0)
		return shim_fail(err, 0, "ps: ps exited with status %d", WEXITSTATUS(status));
	return 0;
}

static void print_json(const pid_t *pids, size_t n)
{
	putchar('[');
	for (size_t i = 0; i < n; i++)
		printf("%s%d", i ? "," : "", (int)pids[i]);
	printf("]\n");
}

int cmd_ps(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	const char *format = "table";
	char *default_args[] = { "ps", "-ef", NULL }, **ps_args = default_args;
	_cleanup_free_ pid_t *pids = NULL;
	struct container c;
	size_t n = 0;
	int ch, r = -1;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ps_flags.shorts, opts, NULL)) != -1)
		if (ch != 'f')
			return shim_fail(err, 0, "ps: unknown flag %s", argv[optind - 1]);
		else
			format = optarg;
	if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0)
		return shim_fail(err, 0, "ps: --format: \"%s\" is not table or json", format);
	if (optind >= argc)
		return shim_fail(err, 0, "ps: needs a container ID");
	if (container_load(g->root, argv[optind], &c, err) < 0)
		return -1;
	/* stopped: nothing runs in it, an empty table (its cgroup may hold
	 * what the init left, which kill --all reaches) */
	if (c.status == STATUS_STOPPED)
		r = 0;
	else if (c.cgroup_fd >= 0)
		r = cgroup_pids(c.cgroup_fd, &pids, &n, err);
	else if (cgroup_v1_is_open(&c.v1))
		r = cgroup_v1_pids(&c.v1, &pids, &n, err);
	else
		shim_fail(err, 0, "ps: container %s has no cgroup (ps needs one)", c.id);
	container_release(&c);
	if (r < 0)
		return -1;
	if (strcmp(format, "json") == 0) {
		print_json(pids, n);
		return 0;
	}
	if (optind + 1 < argc) {
		/* ps options follow the ID; argv[optind] becomes "ps" */
		ps_args = argv + optind;
		ps_args[0] = "ps";
	}
	return print_table(ps_args, pids, n, err) < 0 ? -1 : 0;
}
