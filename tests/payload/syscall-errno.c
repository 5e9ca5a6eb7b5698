/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * syscall-errno NR...: make each syscall NR with zero arguments and print
 * "NR ERRNAME" (or "NR ok"), one line each: what a seccomp filter answered.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		long nr = strtol(argv[i], NULL, 0);
		long r;

		errno = 0;
		r = syscall(nr, 0L, 0L, 0L, 0L, 0L, 0L);
		if (r < 0)
			printf("%ld %s\n", nr, strerrorname_np(errno));
		else
			printf("%ld ok\n", nr);
	}
	return 0;
}
