/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/base/clock.h: the monotonic clock in milliseconds, for deadlines. */
#ifndef SHIM_CLOCK_H
#define SHIM_CLOCK_H

#include <time.h>

static inline long clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

#endif
