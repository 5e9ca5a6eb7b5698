/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/signals.h: "KILL", "SIGKILL", "kill" or "9" -> 9; the signals a
 * foreground runtime passes on to its container. */
#ifndef SHIM_SIGNALS_H
#define SHIM_SIGNALS_H

#include <signal.h>
#include <stdint.h>

/* The signal number, or -1 if text names none. */
int signal_parse(const char *text);

/* SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH: what `run`
 * and `exec` in the foreground forward (a terminal proxy turns SIGWINCH
 * into a resize). */
void signals_forwarded(sigset_t *set);

/* The signal set field of a proc status file ("SigIgn", "SigCgt": a line
 * "SigIgn:\t0000000000001000", bit n-1 for signal n) into mask; -1 when
 * status has no such line or its value is not 16 hex digits. */
int signals_status_mask(const char *status, const char *field, uint64_t *mask);

#endif
