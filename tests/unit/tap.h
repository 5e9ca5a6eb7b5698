/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/unit/tap.h: the smallest TAP producer. Each TEST(name) is a function
 * that fails at the first CHECK that does not hold; main() starts with
 * TAP_START(), runs them in order with RUN(name) and ends with TAP_DONE(),
 * which prints the plan from the count of tests run (a plan at the end is
 * valid TAP; a binary that dies midway prints none and exits non-zero).
 */
#ifndef TAP_H
#define TAP_H

#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define TEST(name) static int test_##name(void)

#define CHECK(cond)                                                              \
	do {                                                                     \
		if (!(cond)) {                                                   \
			printf("# %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
			return 1;                                                \
		}                                                                \
	} while (0)

#define CHECK_STR(got, want)                                                     \
	do {                                                                     \
		const char *_g = (got), *_w = (want);                            \
		if (!_g || strcmp(_g, _w) != 0) {                                \
			printf("# %s:%d: got \"%s\", want \"%s\"\n", __FILE__, __LINE__, \
			       _g ? _g : "(null)", _w);                          \
			return 1;                                                \
		}                                                                \
	} while (0)

/* Give up on this test as skipped (the machine lacks what it needs). */
#define SKIP(why)                                                                \
	do {                                                                     \
		tap_skip_reason = (why);                                         \
		return 2;                                                        \
	} while (0)

static const char *tap_skip_reason = "";

#define RUN(name)                                                                \
	do {                                                                     \
		int _r = test_##name();                                          \
		tap_n++;                                                         \
		tap_failed += _r == 1;                                           \
		if (_r == 2)                                                     \
			printf("ok %d %s # SKIP %s\n", tap_n, #name, tap_skip_reason); \
		else                                                             \
			printf("%s %d %s\n", _r ? "not ok" : "ok", tap_n, #name); \
	} while (0)

/* One result outside RUN (a row of a table): printf-style description. */
#define TAP_ROW(ok, ...)                                                         \
	do {                                                                     \
		int _ok = (ok);                                                  \
		tap_n++;                                                         \
		tap_failed += !_ok;                                              \
		printf("%s %d ", _ok ? "ok" : "not ok", tap_n);                  \
		printf(__VA_ARGS__);                                             \
		printf("\n");                                                    \
	} while (0)

#define TAP_START() printf("TAP version 13\n")
#define TAP_DONE()                                                               \
	do {                                                                     \
		printf("1..%d\n", tap_n);                                       \
		return tap_failed ? 1 : 0;                                       \
	} while (0)

#endif
