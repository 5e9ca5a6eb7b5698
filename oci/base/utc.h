/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/base/utc.h: a time as RFC 3339 in UTC ("2026-12-05T15:01:23.123456Z"),
 * computed here rather than by gmtime_r: glibc's reads the time zone file
 * (/etc/localtime, through its link) on its first call in a process, a
 * dozen file system calls for an answer that never depends on it.
 */
#ifndef SHIM_UTC_H
#define SHIM_UTC_H

#include <stddef.h>
#include <time.h>

/* ts written to out with digits (0 to 9) digits of the second's fraction;
 * returns the length, or -1 if it did not fit. */
int utc_format(char *out, size_t len, const struct timespec *ts, int digits);

#endif
