/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runtime_bench [-t TURN] [-i] [-e ID] [-s] ROOT BUNDLE RUNS RUNTIME...: RUNS sequential
 * `RUNTIME --root ROOT run -b BUNDLE bench-K-N` of each RUNTIME (create +
 * start + wait + delete in one command, for runc, crun and shim alike),
 * stdio on /dev/null, the runtimes taking turns of TURN runs each (default
 * 1): with turns of several runs a runtime runs after itself, as on a
 * host that runs one runtime, while a slow spell of the machine still
 * hits all of them alike. Each run is timed (wall clock, from fork to reaped) and its
 * peak RSS read from wait4(): the largest resident set of the runtime's
 * process tree (the runtime, its re-executed helpers and the container's
 * /bin/true, whichever was biggest).
 *
 * A RUNTIME named "floor" (tests/bench/floor.c) is run as
 * `floor BUNDLE/rootfs /bin/true`.
 *
 * With -e ID each run is instead `RUNTIME --root ROOT exec ID /bin/true`,
 * in a container the caller started in ROOT (BUNDLE is then unused): exec
 * of each runtime into the same container. Where ROOT has a folder named
 * after a runtime (its basename), that runtime's exec uses it as its
 * root instead: a container of its own, as runtimes keep their state
 * each their own way.
 *
 * With -s each run is instead three commands, timed together: `create -b
 * BUNDLE ID`, `start ID`, `delete -f ID` (the engines' way: containerd's
 * shim creates, starts and deletes apart); the floor still runs whole.
 *
 * With -i each run is instead `RUNTIME --root ROOT create -b BUNDLE bad/id`,
 * which a runtime refuses at the id, before any work: what is timed is its
 * start alone (for shim, its protected re-exec, shim/selfexe.h, happens
 * before the id is read). A run that succeeds counts as failed.
 *
 * A run that fails has what it wrote to stderr printed on ours (stdio is
 * /dev/null otherwise), so that a rare failure can be told apart.
 *
 * Output, a line a runtime: "NAME median_us=N p90_us=N mean_us=N min_us=N
 * max_us=N maxrss_kb=N runs=N failed=N", NAME being RUNTIME's basename.
 */
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* Each run's stderr, emptied before it: -1 without memfds (to /dev/null). */
static int run_stderr = -1;

/* One run; its wall time in *us and peak RSS in *rss_kb; the exit status. */
static int one_run(char **argv, long long *us, long *rss_kb)
{
	long long start = now_us();
	struct rusage ru;
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0), dup2(null, 1), dup2(run_stderr >= 0 ? run_stderr : null, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		return -1;
	*us = now_us() - start;
	*rss_kb = ru.ru_maxrss;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

struct runtime {
	char *path;		/* argv[k], run as given */
	long long *t, sum;
	long maxrss;
	int failed;
};

/* tests/bench/floor takes ROOTFS ARG... rather than a runtime's flags. */
static int is_floor(const char *path)
{
	const char *slash = strrchr(path, '/');

	return strcmp(slash ? slash + 1 : path, "floor") == 0;
}

static int refused_at_id;	/* -i */
static char *exec_into;		/* -e ID */
static int split;		/* -s */

static void show_failure(const struct runtime *r, int i, int status)
{
	char text[4096];
	ssize_t n = run_stderr < 0 ? 0 : pread(run_stderr, text, sizeof(text) - 1, 0);

	text[n > 0 ? n : 0] = '\0';
	fprintf(stderr, "runtime_bench: %s: run %d failed (status %d)%s%s", r->path, i, status,
		n > 0 ? ", its stderr:\n" : "\n", text);
}

/* -s: create, start and delete -f of id, their times added; the first
 * failure's status. */
static int split_run(char *path, char *root, char *bundle, char *id, long long *us, long *rss)
{
	char *create[] = { path, "--root", root, "create", "-b", bundle, id, NULL };
	char *start[] = { path, "--root", root, "start", id, NULL };
	char *del[] = { path, "--root", root, "delete", "-f", id, NULL };
	char **cmds[] = { create, start, del };
	int status = 0;

	*us = 0;
	for (int c = 0; c < 3; c++) {
		long long t;
		long r = 0;
		int s = one_run(cmds[c], &t, &r);

		*us += t;
		if (r > *rss)
			*rss = r;
		if (s != 0 && status == 0)
			status = s;
	}
	return status;
}

/* Run i of runtime k, timed into r. */
static void time_run(struct runtime *r, int k, int i, char *root, char *bundle, char *rootfs)
{
	char id[32];
	char *cmd[] = { r->path, "--root", root, "run", "-b", bundle, id, NULL };
	char *refused[] = { r->path, "--root", root, "create", "-b", bundle, "bad/id", NULL };
	char *floor_cmd[] = { r->path, rootfs, "/bin/true", NULL };
	char own_root[4096], copy[4096];
	char *exec_cmd[] = { r->path, "--root", root, "exec", exec_into, "/bin/true", NULL };
	long rss = 0;
	int status;

	snprintf(copy, sizeof(copy), "%s", r->path);
	snprintf(own_root, sizeof(own_root), "%s/%s", root, basename(copy));
	if (exec_into && access(own_root, F_OK) == 0)
		exec_cmd[2] = own_root;

	snprintf(id, sizeof(id), "bench-%d-%d", k, i);
	if (run_stderr >= 0 && (ftruncate(run_stderr, 0) < 0 || lseek(run_stderr, 0, SEEK_SET) < 0))
		run_stderr = -1;
	if (split && !is_floor(r->path))
		status = split_run(r->path, root, bundle, id, &r->t[i], &rss);
	else
		status = one_run(refused_at_id ? refused : exec_into ? exec_cmd
					   : is_floor(r->path) ? floor_cmd : cmd, &r->t[i], &rss);
	if (refused_at_id ? status <= 0 || status >= 126 : status != 0) {
		r->failed++;
		show_failure(r, i, status);
	}
	r->sum += r->t[i];
	if (rss > r->maxrss)
		r->maxrss = rss;
}

static void report(const struct runtime *r, int runs)
{
	char copy[4096];

	snprintf(copy, sizeof(copy), "%s", r->path);
	qsort(r->t, (size_t)runs, sizeof(*r->t), cmp_ll);
	printf("%s median_us=%lld p90_us=%lld mean_us=%lld min_us=%lld max_us=%lld maxrss_kb=%ld "
	       "runs=%d failed=%d\n", basename(copy), r->t[runs / 2], r->t[runs * 9 / 10],
	       r->sum / runs, r->t[0], r->t[runs - 1], r->maxrss, runs, r->failed);
}

int main(int argc, char **argv)
{
	struct runtime rt[8] = { 0 };
	int runs, n, failed = 0, turn = 1;
	char rootfs[4096];

	if (argc > 2 && strcmp(argv[1], "-t") == 0) {
		turn = atoi(argv[2]);
		argc -= 2, argv += 2;
	}
	if (argc > 1 && strcmp(argv[1], "-i") == 0) {
		refused_at_id = 1;
		argc--, argv++;
	}
	if (argc > 2 && strcmp(argv[1], "-e") == 0) {
		exec_into = argv[2];
		argc -= 2, argv += 2;
	}
	if (argc > 1 && strcmp(argv[1], "-s") == 0) {
		split = 1;
		argc--, argv++;
	}
	n = argc - 4;
	if (argc < 5 || n > 8 || (runs = atoi(argv[3])) < 1 || turn < 1) {
		fprintf(stderr, "usage: runtime_bench [-t TURN] [-i] [-e ID] [-s] ROOT BUNDLE RUNS "
			"RUNTIME...\n");
		return 2;
	}
	for (int k = 0; k < n; k++) {
		rt[k].path = argv[4 + k];
		if (!(rt[k].t = calloc((size_t)runs, sizeof(long long))))
			return 1;
	}
	run_stderr = memfd_create("run-stderr", MFD_CLOEXEC);
	/* Interleaved by turns, so that a slow spell of the machine hits all
	 * alike. */
	snprintf(rootfs, sizeof(rootfs), "%s/rootfs", argv[2]);
	for (int first = 0; first < runs; first += turn)
		for (int k = 0; k < n; k++)
			for (int i = first; i < first + turn && i < runs; i++)
				time_run(&rt[k], k, i, argv[1], argv[2], rootfs);
	for (int k = 0; k < n; k++) {
		report(&rt[k], runs);
		failed += rt[k].failed;
		free(rt[k].t);
	}
	return failed ? 1 : 0;
}
