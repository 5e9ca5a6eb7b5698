/* SPDX-License-Identifier: GPL-2.0-or-later */
/* checkpoint and restore: runc's flags, through CRIU (shim/criu/checkpoint.h). */
#include <getopt.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "oci/base/cleanup.h"
#include "shim/cmd/cmd.h"
#include "shim/criu/checkpoint.h"
#include "shim/criu/criu.h"
#include "shim/criu/criu_rpc.h"
#include "shim/criu/restore.h"
#include "shim/terminal.h"

#define DEFAULT_IMAGE_PATH "checkpoint"

enum {
	OPT_IMAGE_PATH = 256, OPT_WORK_PATH, OPT_PARENT_PATH, OPT_LEAVE_RUNNING,
	OPT_TCP_ESTABLISHED, OPT_EXT_UNIX_SK, OPT_SHELL_JOB, OPT_FILE_LOCKS, OPT_PRE_DUMP,
	OPT_CG_MODE, OPT_AUTO_DEDUP, OPT_EMPTY_NS, OPT_LAZY_PAGES, OPT_PAGE_SERVER,
	OPT_STATUS_FD, OPT_PID_FILE, OPT_CONSOLE_SOCKET, OPT_NO_SUBREAPER, OPT_NO_PIVOT,
	OPT_LSM_PROFILE, OPT_LSM_MOUNT_CONTEXT,
};

#define CRIU_FLAG_OPTIONS                                                     \
	{ "image-path", required_argument, NULL, OPT_IMAGE_PATH },            \
	{ "work-path", required_argument, NULL, OPT_WORK_PATH },              \
	{ "tcp-established", no_argument, NULL, OPT_TCP_ESTABLISHED },        \
	{ "ext-unix-sk", no_argument, NULL, OPT_EXT_UNIX_SK },                \
	{ "shell-job", no_argument, NULL, OPT_SHELL_JOB },                    \
	{ "file-locks", no_argument, NULL, OPT_FILE_LOCKS },                  \
	{ "manage-cgroups-mode", required_argument, NULL, OPT_CG_MODE },      \
	{ "auto-dedup", no_argument, NULL, OPT_AUTO_DEDUP },                  \
	{ "empty-ns", required_argument, NULL, OPT_EMPTY_NS },                \
	{ "lazy-pages", no_argument, NULL, OPT_LAZY_PAGES },                  \
	{ "page-server", required_argument, NULL, OPT_PAGE_SERVER },          \
	{ "status-fd", required_argument, NULL, OPT_STATUS_FD }

/* A flag both verbs take: 1 if c was one, 0 if not, -1 with err. */
static int criu_flag(int c, const char *verb, struct criu_flags *f, unsigned int *empty_ns,
		     struct shim_error *err)
{
	switch (c) {
	case OPT_IMAGE_PATH: f->image_path = optarg; return 1;
	case OPT_WORK_PATH: f->work_path = optarg; return 1;
	case OPT_TCP_ESTABLISHED: f->tcp_established = true; return 1;
	case OPT_EXT_UNIX_SK: f->ext_unix_sk = true; return 1;
	case OPT_SHELL_JOB: f->shell_job = true; return 1;
	case OPT_FILE_LOCKS: f->file_locks = true; return 1;
	case OPT_AUTO_DEDUP: f->auto_dedup = true; return 1;
	case OPT_CG_MODE:
		f->cg_mode = criu_cg_mode_parse(optarg);
		if (f->cg_mode < 0)
			return shim_fail(err, 0, "%s: --manage-cgroups-mode: \"%s\" is not soft, full, "
					 "strict or ignore", verb, optarg);
		return 1;
	case OPT_EMPTY_NS:
		/* runc: only the network namespace may be left empty */
		if (strcmp(optarg, "network") != 0)
			return shim_fail(err, 0, "%s: --empty-ns: namespace \"%s\" is not supported "
					 "(only network)", verb, optarg);
		*empty_ns |= CLONE_NEWNET;
		return 1;
	case OPT_LAZY_PAGES:
	case OPT_PAGE_SERVER:
	case OPT_STATUS_FD:
		return shim_fail(err, ENOTSUP, "%s: --%s is not supported by shim (lazy migration "
				 "through a page server)", verb, c == OPT_LAZY_PAGES ? "lazy-pages"
				 : c == OPT_PAGE_SERVER ? "page-server" : "status-fd");
	default:
		return 0;
	}
}

static void criu_flags_init(struct criu_flags *f)
{
	memset(f, 0, sizeof(*f));
	f->image_path = DEFAULT_IMAGE_PATH;
	f->cg_mode = CRIU_CG_DEFAULT;
}

static int unknown_flag(const char *verb, char **argv, struct shim_error *err)
{
	return shim_fail(err, 0, "%s: unknown or incomplete flag %s", verb, argv[optind - 1]);
}

static const struct option checkpoint_options[] = {
	CRIU_FLAG_OPTIONS,
	{ "parent-path", required_argument, NULL, OPT_PARENT_PATH },
	{ "leave-running", no_argument, NULL, OPT_LEAVE_RUNNING },
	{ "pre-dump", no_argument, NULL, OPT_PRE_DUMP },
	{ 0 },
};
const struct cmd_flags checkpoint_flags = { checkpoint_options, "+" };

static int parse_checkpoint(int argc, char **argv, struct checkpoint_opts *o, const char **id,
			    struct shim_error *err)
{
	unsigned int empty_ns = 0;
	int c, r;

	memset(o, 0, sizeof(*o));
	criu_flags_init(&o->f);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, checkpoint_flags.shorts, checkpoint_options, NULL)) != -1) {
		if ((r = criu_flag(c, "checkpoint", &o->f, &empty_ns, err)) != 0) {
			if (r < 0)
				return -1;
			continue;
		}
		switch (c) {
		case OPT_PARENT_PATH: o->parent_path = optarg; break;
		case OPT_LEAVE_RUNNING: o->leave_running = true; break;
		case OPT_PRE_DUMP: o->pre_dump = true; break;
		default: return unknown_flag("checkpoint", argv, err);
		}
	}
	if (optind != argc - 1)
		return shim_fail(err, 0, "checkpoint: needs exactly one container ID");
	*id = argv[optind];
	return 0;
}

int cmd_checkpoint(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct checkpoint_opts o;
	struct container c;
	const char *id = NULL;
	int r;

	if (parse_checkpoint(argc, argv, &o, &id, err) < 0 ||
	    container_load(g->root, id, &c, err) < 0)
		return -1;
	r = container_checkpoint(g->root, &c, &o, err);
	container_release(&c);
	return r;
}

static const struct option restore_options[] = {
	CRIU_FLAG_OPTIONS,
	{ "bundle", required_argument, NULL, 'b' },
	{ "detach", no_argument, NULL, 'd' },
	{ "pid-file", required_argument, NULL, OPT_PID_FILE },
	{ "console-socket", required_argument, NULL, OPT_CONSOLE_SOCKET },
	{ "no-subreaper", no_argument, NULL, OPT_NO_SUBREAPER },
	{ "no-pivot", no_argument, NULL, OPT_NO_PIVOT },
	{ "lsm-profile", required_argument, NULL, OPT_LSM_PROFILE },
	{ "lsm-mount-context", required_argument, NULL, OPT_LSM_MOUNT_CONTEXT },
	{ 0 },
};
const struct cmd_flags restore_flags = { restore_options, "+b:d" };

/* What `restore` is asked: CRIU's side, create's side (o.restore points
 * at r), and -d. */
struct restore_cli {
	struct restore_opts r;
	struct create_opts o;
	bool detach;
};

static int parse_restore(const struct global_opts *g, int argc, char **argv,
			 struct restore_cli *cli, struct shim_error *err)
{
	struct restore_opts *r = &cli->r;
	struct create_opts *o = &cli->o;
	int c, k;

	memset(r, 0, sizeof(*r));
	criu_flags_init(&r->f);
	memset(o, 0, sizeof(*o));
	o->root = g->root;
	o->systemd_cgroup = g->systemd_cgroup;
	o->bundle = ".";
	o->restore = r;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, restore_flags.shorts, restore_options, NULL)) != -1) {
		if ((k = criu_flag(c, "restore", &r->f, &r->empty_ns, err)) != 0) {
			if (k < 0)
				return -1;
			continue;
		}
		switch (c) {
		case 'b': o->bundle = optarg; break;
		case 'd': cli->detach = true; break;
		case OPT_PID_FILE: o->pid_file = optarg; break;
		case OPT_CONSOLE_SOCKET: o->console_socket = optarg; break;
		/* CRIU makes the root and the tree itself: nothing to change */
		case OPT_NO_SUBREAPER: case OPT_NO_PIVOT: break;
		case OPT_LSM_PROFILE: r->lsm_profile = optarg; break;
		case OPT_LSM_MOUNT_CONTEXT: r->lsm_mount_context = optarg; break;
		default: return unknown_flag("restore", argv, err);
		}
	}
	if (optind != argc - 1)
		return shim_fail(err, 0, "restore: needs exactly one container ID");
	o->id = argv[optind];
	return 0;
}

/* As runc: -d leaves it running; else wait for it (copying the restored
 * terminal, if any), give its status, and delete it. */
int cmd_restore(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct restore_cli cli = { .detach = false };
	struct container c;
	_cleanup_close_ int master = -1;
	int status = -1;

	if (parse_restore(g, argc, argv, &cli, err) < 0)
		return -1;
	if (!cli.detach)
		container_block_forwarded_signals();
	cli.o.terminal_proxy = !cli.detach && !cli.o.console_socket;
	if (container_create(&cli.o, &c, &master, err) < 0)
		return -1;
	if (cli.detach) {
		container_release(&c);
		return 0;
	}
	if (master >= 0 ? terminal_proxy(master, c.pidfd, &status, err) < 0
			: container_wait(c.pidfd, &status, err) < 0)
		status = -1;
	c.status = STATUS_STOPPED;
	if (container_delete(g->root, &c, false, status < 0 ? NULL : err) < 0)
		status = -1;
	container_release(&c);
	return status;
}
