/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>

#include "oci/base/utc.h"

/* The proleptic Gregorian date of a day counted from 1970-01-01, by eras
 * of 400 years (146097 days), each starting on a 1st of March so that
 * the leap day ends a year. */
static void civil_from_days(long long days, long long *year, unsigned *month, unsigned *day)
{
	long long z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);				/* [0, 146096] */
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;	/* [0, 399] */
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);			/* [0, 365] */
	unsigned mp = (5 * doy + 2) / 153;					/* March = 0 */

	*day = doy - (153 * mp + 2) / 5 + 1;
	*month = mp < 10 ? mp + 3 : mp - 9;
	*year = (long long)yoe + era * 400 + (*month <= 2);
}

int utc_format(char *out, size_t len, const struct timespec *ts, int digits)
{
	long long secs = (long long)ts->tv_sec, days = secs / 86400, rem = secs % 86400, year;
	long frac = ts->tv_nsec;
	unsigned month, day;
	char fraction[12] = "";
	int n;

	if (rem < 0) {
		rem += 86400;
		days--;
	}
	civil_from_days(days, &year, &month, &day);
	if (digits > 9)
		digits = 9;
	if (digits > 0) {
		for (int i = digits; i < 9; i++)
			frac /= 10;
		snprintf(fraction, sizeof(fraction), ".%0*ld", digits, frac);
	}
	n = snprintf(out, len, "%04lld-%02u-%02uT%02lld:%02lld:%02lld%sZ", year, month, day,
		     rem / 3600, rem / 60 % 60, rem % 60, fraction);
	return n < 0 || (size_t)n >= len ? -1 : n;
}
