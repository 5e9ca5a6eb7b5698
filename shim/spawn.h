/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/spawn.h: the runtime's side of every child that becomes a container
 * process, the init at create (shim/container.c) and a process at exec
 * (shim/exec.c), as one protocol:
 *
 *   spawn_open       the sync socket pair (shim/sync.h) and, with a
 *                    terminal, the socket the pty master comes back on
 *   (clone)          the caller clones its own entry point, handing the
 *                    child child_sync and child_console
 *   spawn_cloned     the runtime closes the child's ends at once, so a
 *                    child that dies is seen as EOF, never waited on
 *   (exchanges)      the caller's own messages (ID maps, hooks), then the
 *                    child's ready or error
 *   spawn_hand_over  --pid-file, then the pty master
 *   spawn_abort      after any failure past the clone: kill the child
 *                    through its pidfd and reap it, so nothing is left
 *   spawn_close      the runtime's ends, and the pidfd unless taken
 *
 * Who owns what across the clone: the child gets copies of the runtime's
 * fds (no CLONE_FILES); it closes runtime_sync first thing, uses its own
 * ends, and every fd is O_CLOEXEC with close_range before its exec, so
 * the container's process keeps none of them.
 */
#ifndef SHIM_SPAWN_H
#define SHIM_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

#include "oci/base/error.h"

struct spawn {
	int runtime_sync, child_sync;
	int runtime_console;	/* -1 unless the runtime copies the pty (foreground) */
	int child_console;	/* -1 without a terminal */
	pid_t pid;		/* 0 until cloned */
	int pidfd;		/* -1 until cloned */
};

/* The pairs for a child; terminal and console_socket as process.terminal
 * and --console-socket (shim/terminal.h). */
int spawn_open(struct spawn *s, bool terminal, const char *console_socket,
	       struct shim_error *err);

/* Right after the clone, whether it worked or not. */
void spawn_cloned(struct spawn *s);

/* The child is ready: write its PID to pid_file (if any), then take the
 * pty master into *master when the runtime copies the pty. */
int spawn_hand_over(struct spawn *s, const char *pid_file, int *master, struct shim_error *err);

/* Kill and reap the child (when there is one); its pidfd closed. */
void spawn_abort(struct spawn *s);

void spawn_close(struct spawn *s);

#endif
