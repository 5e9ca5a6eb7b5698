/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/criu/criu.h: one call to CRIU, as `criu swrk 3`: a child that gets one
 * end of a SOCK_SEQPACKET pair as fd 3 (and the fds the request names in
 * inherit_fd as 4, 5, ...; nothing else of the runtime: the rest is closed
 * before the exec), one request (shim/criu/criu_rpc.h), the notifications CRIU
 * sends while it works answered through a callback, then its final
 * response and its exit. The criu binary is the one on $PATH, as runc's.
 */
#ifndef SHIM_CRIU_H
#define SHIM_CRIU_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "shim/criu/criu_rpc.h"

/* A notification (resp->notify_script, resp->notify_pid); fd is what came
 * with it (SCM_RIGHTS: the pty master of "orphan-pts-master"), or -1, and
 * is the callback's to close. -1 with err fails the call. */
typedef int (*criu_notify_fn)(void *arg, const struct criu_resp *resp, int fd,
			      struct shim_error *err);

struct criu_call {
	enum criu_req_type type;
	struct bytebuf *opts;		/* criu_opts; consumed */
	int cgroup_fd;			/* criu starts in this cgroup (restore), or -1 */
	const int *inherit;		/* given to criu as fds 4, 5, ... */
	size_t n_inherit;
	criu_notify_fn notify;
	void *arg;
	/* criu is running, not yet asked anything (a v1 host: its cgroups) */
	int (*started)(const void *arg, pid_t pid, struct shim_error *err);
	const void *started_arg;
};

/* Run the request; *resp is CRIU's final answer (success or not: -1 with
 * err, naming cr_errmsg and cr_errno, when it failed). */
int criu_call(struct criu_call *call, struct criu_resp *resp, struct shim_error *err);

/* CRIU's version (VERSION request): major * 10000 + minor * 100 + sublevel. */
int criu_version(int *version, struct shim_error *err);

/* The name of a criu_cg_mode for --manage-cgroups-mode (soft, full,
 * strict, ignore); -1 for another. */
int criu_cg_mode_parse(const char *name);

#endif
