/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parallel_bench ROOT BUNDLE N RUNTIME: N `RUNTIME --root ROOT run -b
 * BUNDLE par-K` (create + start + wait + delete each) started at once,
 * stdio on /dev/null, all reaped. Prints one line:
 *
 *   "NAME n=N total_us=T failed=F maxrss_kb=M meanrss_kb=A"
 *
 * total_us from the first fork to the last reaped; maxrss_kb and meanrss_kb
 * the largest and mean of each run's peak RSS (wait4's ru_maxrss: the
 * biggest process of that run's tree, runtime or container), which is
 * what one container costs the host while its runtime works.
 */
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static pid_t start_run(char **argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0), dup2(null, 1), dup2(null, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

int main(int argc, char **argv)
{
	int n, failed = 0, reaped = 0;
	long maxrss = 0;
	long long rss_sum = 0, start;
	char name[4096];

	if (argc != 5 || (n = atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: parallel_bench ROOT BUNDLE N RUNTIME\n");
		return 2;
	}
	start = now_us();
	for (int i = 0; i < n; i++) {
		char id[32];
		char *cmd[] = { argv[4], "--root", argv[1], "run", "-b", argv[2], id, NULL };

		snprintf(id, sizeof(id), "par-%d", i);
		if (start_run(cmd) < 0)
			failed++;
	}
	for (;;) {
		struct rusage ru;
		int status;

		if (wait4(-1, &status, 0, &ru) < 0)
			break;
		reaped++;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed++;
		rss_sum += ru.ru_maxrss;
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
	}
	snprintf(name, sizeof(name), "%s", argv[4]);
	printf("%s n=%d total_us=%lld failed=%d maxrss_kb=%ld meanrss_kb=%lld\n", basename(name), n,
	       now_us() - start, failed, maxrss, reaped ? rss_sum / reaped : 0);
	return failed ? 1 : 0;
}
