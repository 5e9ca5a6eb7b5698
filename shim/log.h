/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/log.h: --log FILE and --log-format text|json, as engines use them
 * with runc: errors (and, with --debug, debug lines) are appended to FILE,
 * one record a line; errors also go to stderr.
 */
#ifndef SHIM_LOG_H
#define SHIM_LOG_H

#include <stdbool.h>

#include "oci/base/error.h"

int log_setup(const char *path, const char *format, bool debug, struct shim_error *err);
void log_error(const char *msg);
/* For the init before it waits for start as process.user, as runc's
 * closes its log pipe: close the --log file, unless --debug asked for
 * every stage up to the exec (a process of the container's that ptraces
 * the waiting init could then write to the file). Returns the fd kept
 * open, or -1. */
int log_release(void);
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
