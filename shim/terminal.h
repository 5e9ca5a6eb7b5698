/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/terminal.h: process.terminal.
 *
 * The init opens a pty in the container's own devpts (after pivot_root),
 * sends the master over a unix socket and makes the slave its controlling
 * terminal and its 0, 1 and 2. The socket is either connected by the
 * runtime to --console-socket before the init exists (so the init never
 * needs a host path), or, for `run` in the foreground, one end of a
 * socketpair whose other end the runtime keeps: it then copies between its
 * own stdin/stdout and the master until the container exits, in raw mode
 * when stdin is a terminal, passing window size changes on.
 */
#ifndef SHIM_TERMINAL_H
#define SHIM_TERMINAL_H

#include <stdbool.h>

#include "oci/base/error.h"
#include "oci/spec.h"

/* The socket the pty master goes over: fds[1] is the init's end; fds[0],
 * without a console socket (foreground), the runtime's. Both -1 when
 * terminal is false. */
int terminal_socket(bool terminal, const char *console_socket, int fds[2], struct shim_error *err);

/* In the init or an exec child, which leads a session of its own already
 * (setsid): the pty, as described above; with console
 * (the init), its slave is also bound on /dev/console. */
int terminal_setup(int sock, const struct oci_process *p, bool console, struct shim_error *err);

/* In the runtime: copy stdin -> master and master -> stdout until the
 * process behind pidfd exits; *status is its exit status. */
int terminal_proxy(int master, int pidfd, int *status, struct shim_error *err);

#endif
