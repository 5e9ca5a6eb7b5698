/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/signals.h: "KILL", "SIGKILL", "kill" or "9" -> 9; the signals a
 * foreground runtime passes on to its container. */
#ifndef SHIM_SIGNALS_H
#define SHIM_SIGNALS_H

#include <signal.h>

/* The signal number, or -1 if text names none. */
int signal_parse(const char *text);

/* SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH: what `run`
 * and `exec` in the foreground forward (a terminal proxy turns SIGWINCH
 * into a resize). */
void signals_forwarded(sigset_t *set);

#endif
