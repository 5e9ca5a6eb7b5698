/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>

#include "oci/base/cleanup.h"
#include "shim/fd.h"
#include "shim/pidfd.h"
#include "shim/spawn.h"
#include "shim/store.h"
#include "shim/sync.h"
#include "shim/terminal.h"

int spawn_open(struct spawn *s, bool terminal, const char *console_socket,
	       struct shim_error *err)
{
	int sync[2] = { -1, -1 }, console[2] = { -1, -1 };

	*s = (struct spawn){ .runtime_sync = -1, .child_sync = -1, .runtime_console = -1,
			     .child_console = -1, .pidfd = -1 };
	if (terminal_socket(terminal, console_socket, console, err) < 0)
		return -1;
	if (sync_pair(sync, err) < 0) {
		fd_close_pair(console);
		return -1;
	}
	s->runtime_sync = sync[0];
	s->child_sync = sync[1];
	s->runtime_console = console[0];
	s->child_console = console[1];
	return 0;
}

void spawn_cloned(struct spawn *s)
{
	s->child_sync = safe_close(s->child_sync);
	s->child_console = safe_close(s->child_console);
}

int spawn_hand_over(struct spawn *s, const char *pid_file, int *master, struct shim_error *err)
{
	char text[16];

	snprintf(text, sizeof(text), "%d", (int)s->pid);
	if (pid_file && write_file_atomic(pid_file, text, err) < 0)
		return shim_error_wrap(err, "--pid-file");
	if (s->runtime_console >= 0 && master && (*master = fd_recv(s->runtime_console, err)) < 0)
		return shim_error_wrap(err, "process.terminal: the pty master");
	return 0;
}

void spawn_abort(struct spawn *s)
{
	if (s->pidfd >= 0)
		pidfd_kill_and_reap(s->pidfd);
	s->pidfd = safe_close(s->pidfd);
}

void spawn_close(struct spawn *s)
{
	s->runtime_sync = safe_close(s->runtime_sync);
	s->runtime_console = safe_close(s->runtime_console);
	spawn_cloned(s);
	s->pidfd = safe_close(s->pidfd);
}
