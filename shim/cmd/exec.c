/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exec: runc's flags. Without --process the process is the bundle's
 * process with args from the command line and the flags applied: --cwd,
 * --env (added, or replacing the same name), --user uid[:gid],
 * --additional-gids, --cap (added to the bounding, effective and permitted
 * sets), --no-new-privs.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/base/strv.h"
#include "shim/bundle.h"
#include "shim/caps.h"
#include "shim/cmd/cmd.h"
#include "shim/exec.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/lsm.h"

#define MAX_PROCESS_JSON (1 << 20)

enum { OPT_PROCESS = 'p', OPT_TTY = 't', OPT_CWD = 256, OPT_ENV = 'e', OPT_USER = 'u',
       OPT_GIDS = 'g', OPT_CAP = 'c', OPT_DETACH = 'd', OPT_PID_FILE = 257,
       OPT_CONSOLE_SOCKET, OPT_PRESERVE_FDS, OPT_PIDFD_SOCKET, OPT_NNP, OPT_APPARMOR,
       OPT_LABEL, OPT_CGROUP, OPT_IGNORE_PAUSED, OPT_WAIT_FIFO };

static const struct option opts[] = {
	{ "process", required_argument, NULL, OPT_PROCESS },
	{ "tty", no_argument, NULL, OPT_TTY },
	{ "cwd", required_argument, NULL, OPT_CWD },
	{ "env", required_argument, NULL, OPT_ENV },
	{ "user", required_argument, NULL, OPT_USER },
	{ "additional-gids", required_argument, NULL, OPT_GIDS },
	{ "cap", required_argument, NULL, OPT_CAP },
	{ "detach", no_argument, NULL, OPT_DETACH },
	{ "pid-file", required_argument, NULL, OPT_PID_FILE },
	{ "console-socket", required_argument, NULL, OPT_CONSOLE_SOCKET },
	{ "preserve-fds", required_argument, NULL, OPT_PRESERVE_FDS },
	{ "pidfd-socket", required_argument, NULL, OPT_PIDFD_SOCKET },
	{ "no-new-privs", no_argument, NULL, OPT_NNP },
	{ "apparmor", required_argument, NULL, OPT_APPARMOR },
	{ "process-label", required_argument, NULL, OPT_LABEL },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "ignore-paused", no_argument, NULL, OPT_IGNORE_PAUSED },
	{ "exec-wait-fifo", required_argument, NULL, OPT_WAIT_FIFO },
	{ 0 },
};
const struct cmd_flags exec_flags = { opts, "+p:te:u:g:c:d" };

struct exec_flags {
	const char *process_file, *cwd, *user, *console_socket;
	const char *apparmor, *label;	/* --apparmor, --process-label */
	char *env[256], *gids[64], *caps[64];
	size_t n_env, n_gids, n_caps;
	bool tty, nnp;
	struct exec_opts o;
};

static int push(char **list, size_t *n, size_t max, const char *flag, char *value,
		struct shim_error *err)
{
	if (*n == max)
		return shim_fail(err, 0, "exec: too many %s flags (at most %zu)", flag, max);
	list[(*n)++] = value;
	return 0;
}

static int parse_u32(const char *flag, const char *text, unsigned int *out, struct shim_error *err)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(text, &end, 10);
	if (!*text || *end || errno || v > 0xfffffffful || text[0] == '-')
		return shim_fail(err, 0, "exec: %s: \"%s\" is not a number", flag, text);
	*out = (unsigned int)v;
	return 0;
}

static int parse_flags(int argc, char **argv, struct exec_flags *f, struct shim_error *err)
{
	int ch;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, exec_flags.shorts, opts, NULL)) != -1) {
		switch (ch) {
		case OPT_PROCESS: f->process_file = optarg; break;
		case OPT_TTY: f->tty = true; break;
		case OPT_CWD: f->cwd = optarg; break;
		case OPT_ENV:
			if (!strchr(optarg, '='))
				return shim_fail(err, 0, "exec: --env: \"%s\" is not NAME=VALUE", optarg);
			if (push(f->env, &f->n_env, 256, "--env", optarg, err) < 0)
				return -1;
			break;
		case OPT_USER: f->user = optarg; break;
		case OPT_GIDS:
			if (push(f->gids, &f->n_gids, 64, "--additional-gids", optarg, err) < 0)
				return -1;
			break;
		case OPT_CAP:
			if (push(f->caps, &f->n_caps, 64, "--cap", optarg, err) < 0)
				return -1;
			break;
		case OPT_DETACH: f->o.detach = true; break;
		case OPT_PID_FILE: f->o.pid_file = optarg; break;
		case OPT_CONSOLE_SOCKET: f->console_socket = optarg; break;
		case OPT_PIDFD_SOCKET: f->o.pidfd_socket = optarg; break;
		case OPT_PRESERVE_FDS:
			if (parse_u32("--preserve-fds", optarg, &f->o.preserve_fds, err) < 0)
				return -1;
			break;
		case OPT_NNP: f->nnp = true; break;
		case OPT_CGROUP: f->o.cgroup = optarg; break;
		case OPT_IGNORE_PAUSED: f->o.ignore_paused = true; break;
		case OPT_WAIT_FIFO: f->o.wait_fifo = optarg; break;
		case OPT_APPARMOR: f->apparmor = optarg; break;
		case OPT_LABEL: f->label = optarg; break;
		default:
			return shim_fail(err, 0, "exec: unknown or incomplete flag %s", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return shim_fail(err, 0, "exec: needs a container ID");
	if (!f->process_file && optind + 1 >= argc)
		return shim_fail(err, 0, "exec: needs a command to run (or --process FILE)");
	if (f->process_file && optind + 1 < argc)
		return shim_fail(err, 0, "exec: --process and a command are mutually exclusive");
	return 0;
}

static int set_env(struct oci_process *p, char *entry, struct shim_error *err)
{
	size_t n = strv_len(p->env), name_len = strcspn(entry, "=") + 1;
	char *copy = strdup(entry), **grown;

	if (!copy)
		return shim_fail(err, ENOMEM, "--env");
	for (size_t i = 0; i < n; i++)
		if (strncmp(p->env[i], entry, name_len) == 0) {
			free(p->env[i]);
			p->env[i] = copy;
			return 0;
		}
	grown = realloc(p->env, (n + 2) * sizeof(char *));
	if (!grown) {
		free(copy);
		return shim_fail(err, ENOMEM, "--env");
	}
	p->env = grown;
	p->env[n] = copy;
	p->env[n + 1] = NULL;
	return 0;
}

static int set_user(struct oci_process *p, const struct exec_flags *f, struct shim_error *err)
{
	if (f->user) {
		_cleanup_free_ char *copy = strdup(f->user);
		char *colon = copy ? strchr(copy, ':') : NULL;
		unsigned int uid, gid;

		if (!copy)
			return shim_fail(err, ENOMEM, "--user");
		if (colon)
			*colon = '\0';
		if (parse_u32("--user", copy, &uid, err) < 0 ||
		    (colon && parse_u32("--user", colon + 1, &gid, err) < 0))
			return -1;
		p->user.uid = uid;
		if (colon)
			p->user.gid = gid;
	}
	if (f->n_gids) {
		gid_t *gids = calloc(f->n_gids, sizeof(gid_t));

		if (!gids)
			return shim_fail(err, ENOMEM, "--additional-gids");
		for (size_t i = 0; i < f->n_gids; i++) {
			unsigned int g;

			if (parse_u32("--additional-gids", f->gids[i], &g, err) < 0) {
				free(gids);
				return -1;
			}
			gids[i] = g;
		}
		free(p->user.additional_gids);
		p->user.additional_gids = gids;
		p->user.n_additional_gids = f->n_gids;
	}
	return 0;
}

static int replace_string(char **field, const char *value, struct shim_error *err)
{
	char *copy;

	if (!value)
		return 0;
	copy = strdup(value);
	if (!copy)
		return shim_fail(err, ENOMEM, "exec");
	free(*field);
	*field = copy;
	return 0;
}

/* A process from --process without labels runs under the container's, as
 * with runc: never less confined than the container. */
static int inherit_labels(struct oci_process *p, const struct oci_process *config,
			  struct shim_error *err)
{
	if (!p->apparmor_profile && replace_string(&p->apparmor_profile, config->apparmor_profile, err) < 0)
		return -1;
	if (!p->selinux_label && replace_string(&p->selinux_label, config->selinux_label, err) < 0)
		return -1;
	return 0;
}

static int apply_flags(struct oci_process *p, const struct exec_flags *f, int argc, char **argv,
		       struct shim_error *err)
{
	if (optind + 1 < argc) {
		char **args = calloc((size_t)(argc - optind), sizeof(char *));

		if (!args)
			return shim_fail(err, ENOMEM, "exec");
		for (int i = optind + 1; i < argc; i++)
			if (!(args[i - optind - 1] = strdup(argv[i]))) {
				strv_free(args);
				return shim_fail(err, ENOMEM, "exec");
			}
		strv_free(p->args);
		p->args = args;
	}
	if (f->cwd) {
		char *cwd = strdup(f->cwd);

		if (!cwd || f->cwd[0] != '/') {
			free(cwd);
			return shim_fail(err, 0, "exec: --cwd: \"%s\" must be an absolute path", f->cwd);
		}
		free(p->cwd);
		p->cwd = cwd;
	}
	for (size_t i = 0; i < f->n_env; i++)
		if (set_env(p, f->env[i], err) < 0)
			return -1;
	for (size_t i = 0; i < f->n_caps; i++) {
		int cap = oci_cap_from_name(f->caps[i]);

		if (cap < 0) {
			log_warn("exec: --cap %s: unknown capability, skipped", f->caps[i]);
			continue;
		}
		p->caps.present = true;
		p->caps.bounding |= 1ULL << cap;
		p->caps.effective |= 1ULL << cap;
		p->caps.permitted |= 1ULL << cap;
	}
	if (replace_string(&p->apparmor_profile, f->apparmor, err) < 0 ||
	    replace_string(&p->selinux_label, f->label, err) < 0)
		return -1;
	p->no_new_privileges = p->no_new_privileges || f->nnp;
	/* as runc: the terminal is what --tty says, unless --process says so */
	p->terminal = f->tty || (f->process_file && p->terminal);
	return set_user(p, f, err);
}

static int load_process_file(const char *path, struct oci_process *p, struct shim_error *err)
{
	size_t len;
	bool stdin_ = strcmp(path, "-") == 0;
	_cleanup_close_ int fd = stdin_ ? -1 : open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *text = NULL;

	/* a file, or a pipe: "-" (stdin) or /dev/fd/N, as runc reads them */
	if (!stdin_ && fd < 0)
		return shim_fail_errno(err, "exec: --process %s", path);
	text = read_small_stream(stdin_ ? STDIN_FILENO : fd, path, MAX_PROCESS_JSON, &len, err);
	if (!text || oci_process_parse(text, len, p, err) < 0)
		return shim_error_wrap(err, "exec: --process %s", path);
	return 0;
}

int cmd_exec(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct exec_flags f = { 0 };
	struct container c;
	struct bundle b = { 0 };
	struct oci_process file_process, *p;
	int r = -1;

	if (parse_flags(argc, argv, &f, err) < 0 || container_load(g->root, argv[optind], &c, err) < 0)
		return -1;
	/* the config create saved: the process to start from, and the seccomp
	 * profile every process of the container runs under */
	if (bundle_load_saved(c.dir_fd, c.state->bundle, &b, err) < 0)
		goto out;
	p = &b.spec->process;
	if (f.process_file) {
		if (load_process_file(f.process_file, &file_process, err) < 0)
			goto out;
		p = &file_process;
		if (inherit_labels(p, &b.spec->process, err) < 0)
			goto out_process;
	}
	if (apply_flags(p, &f, argc, argv, err) < 0)
		goto out_process;
	caps_warn_unknown(&p->caps);
	if (lsm_check(p, NULL, err) < 0)
		goto out_process;
	f.o.process = p;
	f.o.console_socket = f.console_socket;
	f.o.seccomp = &b.spec->seccomp;
	f.o.memory_policy = &b.spec->memory_policy;
	f.o.intel_rdt = &b.spec->intel_rdt;
	r = container_exec(&c, &f.o, err);
out_process:
	if (f.process_file)
		oci_process_release(&file_process);
out:
	bundle_release(&b);
	container_release(&c);
	return r;
}
