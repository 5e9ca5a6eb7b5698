/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/hooks.h: running the config's hooks.
 *
 *   prestart, createRuntime  the runtime, once the init has made its mounts
 *                            and before it pivots (the init waits)
 *   createContainer          the init, in the container's namespaces,
 *                            before pivot_root
 *   startContainer           the init, after `start`, before the exec
 *   poststart                `start`, once the program runs
 *   poststop                 `delete`, once the container is gone
 *
 * Each hook gets the state JSON on stdin, only fds 0, 1 and 2, exactly its
 * env, and its timeout. The first four stop the container when a hook
 * fails; poststart and poststop failures are warnings (runtime-spec).
 */
#ifndef SHIM_HOOKS_H
#define SHIM_HOOKS_H

#include <stdbool.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "oci/spec.h"

/* The hooks of one kind, in order; the first failure stops them and names
 * the hook: "error running createRuntime hook #1: hooks.createRuntime[1]
 * (/bin/x): exited with status 3: <what it printed>". fd_dir: as for
 * fd_close_from, the caller's fd folder where close_range may fail (an
 * init under its filter), else -1. */
int hooks_run(const struct oci_hooks *h, enum oci_hook_kind kind, const char *state_json,
	      int fd_dir, struct shim_error *err);

/* One program run as a hook is (state on its stdin, its output kept for
 * the error, killed after its timeout; not run when fds above 2 cannot
 * all be closed), its failure named by where. */
int hooks_run_one(const struct oci_hook *hook, const char *where, const char *state,
		  int fd_dir, struct shim_error *err);

/* Every hook of the kind, failures logged as warnings. */
void hooks_run_warn(const struct oci_hooks *h, enum oci_hook_kind kind, const char *state_json);

/* The state hooks get: malloc'd JSON, or NULL with err filled. */
char *hooks_state_json(const struct oci_spec *spec, const char *id, pid_t pid, const char *status,
		       const char *bundle, struct shim_error *err);

bool hooks_any(const struct oci_hooks *h, enum oci_hook_kind kind);

#endif
