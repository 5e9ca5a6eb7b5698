/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/base/utc.c: RFC 3339 times in UTC without the time zone file. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "oci/base/utc.h"
#include "tests/unit/tap.h"

/* What glibc's gmtime_r and strftime say, for comparison. */
static void by_libc(time_t t, long nsec, int digits, char *out, size_t len)
{
	struct tm tm;
	char date[32];

	gmtime_r(&t, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	if (digits == 9)
		snprintf(out, len, "%s.%09ldZ", date, nsec);
	else
		snprintf(out, len, "%s.%06ldZ", date, nsec / 1000);
}

TEST(the_epoch_and_a_known_instant)
{
	char out[64];
	struct timespec ts = { 0, 0 };

	CHECK(utc_format(out, sizeof(out), &ts, 9) == 30);
	CHECK_STR(out, "1970-01-01T00:00:00.000000000Z");
	ts = (struct timespec){ 1796482883, 123456789 };
	CHECK(utc_format(out, sizeof(out), &ts, 6) > 0);
	CHECK_STR(out, "2026-12-05T15:01:23.123456Z");
	CHECK(utc_format(out, sizeof(out), &ts, 0) > 0);
	CHECK_STR(out, "2026-12-05T15:01:23Z");
	return 0;
}

TEST(leap_days_and_century_years_agree_with_gmtime)
{
	/* 2000-02-29, 2100-02-28 and 03-01 (no leap day), 2024-12-31, 1969 */
	const time_t at[] = { 951782400, 951868799, 4107456000, 4107542399, 4107542400,
			      1735689599, -1, -86400, -2208988800, 253402300799 };
	char a[96], b[96];

	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		struct timespec ts = { at[i], 999999999 };

		CHECK(utc_format(a, sizeof(a), &ts, 9) > 0);
		by_libc(at[i], ts.tv_nsec, 9, b, sizeof(b));
		if (strcmp(a, b) != 0)
			printf("# %lld: %s, gmtime %s\n", (long long)at[i], a, b);
		CHECK_STR(a, b);
	}
	return 0;
}

TEST(every_day_of_four_centuries_agrees_with_gmtime)
{
	char a[96], b[96];

	/* 1900 to 2300, a day and 12345 seconds apart */
	for (long long t = -2208988800LL; t < 10413792000LL; t += 86400 + 12345) {
		struct timespec ts = { (time_t)t, 5000 };

		utc_format(a, sizeof(a), &ts, 6);
		by_libc((time_t)t, ts.tv_nsec, 6, b, sizeof(b));
		if (strcmp(a, b) != 0) {
			printf("# %lld: %s, gmtime %s\n", t, a, b);
			CHECK_STR(a, b);
		}
	}
	return 0;
}

TEST(too_small_a_buffer_is_refused)
{
	char out[20];
	struct timespec ts = { 0, 0 };

	CHECK(utc_format(out, sizeof(out), &ts, 9) == -1);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(the_epoch_and_a_known_instant);
	RUN(leap_days_and_century_years_agree_with_gmtime);
	RUN(every_day_of_four_centuries_agrees_with_gmtime);
	RUN(too_small_a_buffer_is_refused);
	TAP_DONE();
}
