/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/signals.h: "KILL", "SIGKILL", "kill" or "9" -> 9. */
#ifndef SHIM_SIGNALS_H
#define SHIM_SIGNALS_H

/* The signal number, or -1 if text names none. */
int signal_parse(const char *text);

#endif
