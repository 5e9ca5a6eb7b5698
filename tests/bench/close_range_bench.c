/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * close_range_bench SHAPE RUNS: time close_range(3, ~0U) RUNS times on an fd
 * table of SHAPE and print the median, min and max in nanoseconds:
 *
 *   sparse     a table grown to 1048576 slots (one fd was at 1048575), 4 open
 *   dense      1000 fds open (a 1024-slot table)
 *   small64    the initial 64-slot table, 4 open
 *   small1024  a table grown to 1024 slots, 4 open
 *   procfd4 / procfd1000   4 or 1000 open, closed by a /proc/self/fd loop
 *                          instead (what a runtime does without close_range)
 *
 * Output, one line: "SHAPE median_ns=N min_ns=N max_ns=N runs=N".
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "shim/fd.h"
#include "shim/syscalls.h"

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Grow the fd table to hold fd `slot`, then leave that slot empty. */
static int grow_table(int slot)
{
	struct rlimit rl = { .rlim_cur = (rlim_t)slot + 1, .rlim_max = (rlim_t)slot + 1 };

	if (setrlimit(RLIMIT_NOFILE, &rl) < 0 || dup2(0, slot) < 0) {
		perror("grow_table");
		return -1;
	}
	close(slot);
	return 0;
}

static int open_fds(int n)
{
	for (int i = 0; i < n; i++)
		if (dup(0) < 0) {
			perror("dup");
			return -1;
		}
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	const char *shape = argc == 3 ? argv[1] : "";
	int runs = argc == 3 ? atoi(argv[2]) : 0, open_n = 4, use_proc = 0;
	long long *t;

	if (runs < 1) {
		fprintf(stderr, "usage: close_range_bench sparse|dense|small64|small1024|procfd4|procfd1000 RUNS\n");
		return 2;
	}
	if (strcmp(shape, "sparse") == 0) {
		if (grow_table(1048575) < 0)
			return 1;
	} else if (strcmp(shape, "dense") == 0) {
		open_n = 1000;
	} else if (strcmp(shape, "small1024") == 0) {
		if (grow_table(1023) < 0)
			return 1;
	} else if (strcmp(shape, "procfd4") == 0) {
		use_proc = 1;
	} else if (strcmp(shape, "procfd1000") == 0) {
		use_proc = 1, open_n = 1000;
	} else if (strcmp(shape, "small64") != 0) {
		fprintf(stderr, "close_range_bench: unknown shape \"%s\"\n", shape);
		return 2;
	}
	t = calloc((size_t)runs, sizeof(*t));
	if (!t)
		return 1;
	for (int i = 0; i < runs; i++) {
		long long start;
		int r;

		if (open_fds(open_n) < 0)
			return 1;
		start = now_ns();
		r = use_proc ? fd_close_from_proc(3, NULL) : sys_close_range(3, ~0U, 0);
		t[i] = now_ns() - start;
		if (r < 0) {
			perror("close");
			return 1;
		}
	}
	qsort(t, (size_t)runs, sizeof(*t), cmp_ll);
	printf("%s median_ns=%lld min_ns=%lld max_ns=%lld runs=%d\n", shape, t[runs / 2], t[0],
	       t[runs - 1], runs);
	free(t);
	return 0;
}
