/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "oci/base/cleanup.h"
#include "shim/cgroups/cgroup.h"
#include "shim/cgroups/cgroup_v1.h"
#include "shim/clean_clone.h"
#include "shim/clone.h"
#include "shim/filesystem/rootfs.h"
#include "shim/hooks.h"
#include "shim/init_clone.h"
#include "shim/log.h"
#include "shim/process.h"
#include "shim/procfs.h"
#include "shim/rootless.h"

/* An init that joins a PID namespace by path (a Kubernetes pod's shared
 * one) is seen there from its first instant by the processes of the
 * containers it shares it with: it must be born clean (shim/clean_clone.h)
 * instead, and a helper joins the namespaces the config names by path. */
bool init_born_clean(const struct ns_join *joins)
{
	return joins->fd[OCI_NS_PID] >= 0 || joins->fd[OCI_NS_USER] >= 0;
}

/* A joining init whose rootfs can be staged (shim/filesystem/rootfs.h): a mount
 * namespace of its own, and nothing else of the host's tree needed while
 * it sets up: no user namespace (a fresh proc there needs the host's to be
 * visible), cgroup v2 or the container's v1 folders (staged as detached
 * trees too), no createContainer hooks (their paths are the host's).
 * With --no-pivot the rootfs is moved onto / and chrooted into instead.
 * Elsewhere it still sets up in a copy of the host's tree (docs/design.md,
 * threat model). */
static bool init_staged(const struct bundle *b, const struct ns_join *joins,
			const struct init_ctx *ctx)
{
	const struct oci_spec *s = b->spec;

	return joins->fd[OCI_NS_PID] >= 0 && (ns_clone_flags(s) & CLONE_NEWNS) &&
	       !ns_has_user(s) && (cgroup2_mounted() || ctx->cgroup_v1) &&
	       !hooks_any(&s->hooks, HOOK_CREATE_CONTAINER);
}

/* In the helper, for a staged init: every bind source cloned, then the
 * rootfs made our root (the init gets prepared[] as we leave it). */
static int stage_rootfs(struct init_ctx *c, struct shim_error *err)
{
	size_t n = c->spec->n_mounts;

	if (!c->prepared && n) {
		c->prepared = malloc(n * sizeof(int));
		if (!c->prepared)
			return shim_fail(err, ENOMEM, "mounts");
		for (size_t i = 0; i < n; i++)
			c->prepared[i] = -1;
	}
	if (c->cgroup_v1 && cgroup_v1_mount_stage(c->cgroup_v1, err) < 0)
		return -1;
	return rootfs_stage(c->spec, c->rootfs, c->bundle, c->prepared, c->no_pivot, err);
}

/* In the helper: every namespace joined by path, the PID one (for the
 * init) as the host's root, then the user one (which must own the
 * namespaces the init makes), then the others from inside it; their fds
 * closed; the runtime's ends the init would close are already gone. */
static int enter_joined(void *arg, struct shim_error *err)
{
	struct init_ctx *c = arg;
	int user = c->joins->fd[OCI_NS_USER];

	/* --no-pivot's move reads mountinfo through a procfs handle of the
	 * runtime's PID namespace: let go of before anything is joined */
	if (c->staged && stage_rootfs(c, err) < 0)
		return -1;
	procfs_release();
	/* oomScoreAdj, which the init inherits: written as the host's root
	 * (an init in a user namespace may not write its own file while it is
	 * non-dumpable, nor ever lower it); the handle, of the runtime's PID
	 * namespace, let go of at once */
	if (c->spec->process.has_oom_score_adj) {
		int r = process_set_oom_score_adj(&c->spec->process, err);

		procfs_release();
		if (r < 0)
			return -1;
		c->oom_score_adj_set = true;
	}
	if (ns_enter(c->joins, true, err) < 0)
		return -1;
	if (user >= 0 && setns(user, CLONE_NEWUSER) < 0)
		return shim_fail_errno(err, "joining the user namespace");
	if (ns_enter(c->joins, false, err) < 0)
		return -1;
	ns_close_joins(c->joins);
	c->runtime_sync_fd = c->lock_fd = -1;
	return 0;
}

/* The init's fds: its sockets and exec.fifo; the namespaces to join and
 * the detached trees the runtime made (idmapped copies), in more. */
static pid_t clone_init_clean(const struct bundle *b, uint64_t flags, int cgroup_fd,
			      struct init_ctx *ctx, int *pidfd, struct shim_error *err)
{
	size_t n_mounts = ctx->prepared ? b->spec->n_mounts : 0, n = 0;
	_cleanup_free_ int *more = calloc(OCI_NS_COUNT + n_mounts + 1, sizeof(int));
	struct clean_clone job = {
		.cgroup_fd = cgroup_fd, .ns_flags = flags, .first = 3 + ctx->preserve_fds,
		.keep = { ctx->sync_fd, ctx->console_fd, ctx->agent_fd, ctx->fifo_fd, -1, -1, -1,
			  -1 },
		/* seen by the processes of the namespaces it joins, which may be
		 * its uid in its user namespace: non-dumpable until its exec,
		 * but where a runtime without the host's root writes the ID maps
		 * of its new user namespace, or could not write to the files of
		 * a joined one's init (threat model, docs/design.md) */
		.dumpable = rootless_unprivileged() &&
			    ((flags & CLONE_NEWUSER) || ctx->joins->fd[OCI_NS_USER] >= 0),
		.enter = enter_joined, .fn = init_main, .arg = ctx,
	};

	if (!more)
		return shim_fail(err, ENOMEM, "the init's fds");
	for (int t = 0; t < OCI_NS_COUNT; t++)
		more[n++] = ctx->joins->fd[t];
	for (size_t i = 0; i < n_mounts; i++)
		more[n++] = ctx->prepared[i];
	job.more_keep = more;
	job.n_more = n;
	ctx->staged = init_staged(b, ctx->joins, ctx);
	log_debug("init: a helper joins the namespaces given by path holding only the init's "
		  "fds, and clones it");
	return clean_clone(&job, pidfd, err);
}

pid_t init_clone(const struct bundle *b, struct ns_join *joins, int cgroup_fd,
		 struct init_ctx *ctx, int *pidfd, struct shim_error *err)
{
	uint64_t flags = ns_clone_flags(b->spec);
	pid_t pid = init_born_clean(joins) ? clone_init_clean(b, flags, cgroup_fd, ctx, pidfd, err)
					   : clone_with_pidfd(flags, cgroup_fd, init_main, ctx, pidfd, err);

	if (pid > 0)
		log_debug("init cloned: pid %d, new namespaces 0x%llx", (int)pid,
			  (unsigned long long)flags);
	return pid;
}
