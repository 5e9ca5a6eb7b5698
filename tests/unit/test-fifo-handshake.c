/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/sync.c: start's side of the exec.fifo handshake (sync_fifo_take),
 * against a child playing the init's part. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shim/sync.h"
#include "shim/syscalls.h"
#include "tests/unit/tap.h"

enum init_part {
	WRITES,			/* opens for writing, writes the byte, exits */
	EXITS_SILENT,		/* opens for writing, closes, exits */
	COMES_BACK,		/* opens, closes (the reader sees a hang-up without
				 * data), opens again 3 ms later, writes, exits at once */
};

static char fifo_path[64];

static void play_init(enum init_part part)
{
	int fd = open(fifo_path, O_WRONLY);

	if (fd < 0)
		_exit(3);
	if (part == COMES_BACK) {
		close(fd);
		usleep(3000);
		fd = open(fifo_path, O_WRONLY);
		if (fd < 0)
			_exit(4);
	}
	if (part != EXITS_SILENT && write(fd, "0", 1) != 1)
		_exit(5);
	_exit(0);
}

/* sync_fifo_take's result against a child playing part; events filled.
 * NO_PIDFD where pidfd_open is missing (valgrind knows no pidfd_open). */
#define NO_PIDFD (-3)
static int take_from(enum init_part part, unsigned events[2])
{
	struct shim_error err = { 0 };
	pid_t pid;
	int fifo, pidfd, r, status;

	snprintf(fifo_path, sizeof(fifo_path), "/tmp/shim-fifo-test.%d", (int)getpid());
	unlink(fifo_path);
	if (mkfifo(fifo_path, 0600) < 0)
		return -2;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		play_init(part);
	pidfd = sys_pidfd_open(pid, 0);
	r = pidfd < 0 && errno == ENOSYS ? NO_PIDFD : -2;
	fifo = open(fifo_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (pidfd >= 0 && fifo >= 0)
		r = sync_fifo_take(fifo, pidfd, events, &err);
	if (r == -1)
		printf("# sync_fifo_take: %s\n", err.msg);
	if (fifo < 0)
		kill(pid, SIGKILL);	/* it waits for a reader that never came */
	waitpid(pid, &status, 0);
	close(fifo);
	close(pidfd);
	unlink(fifo_path);
	return r;
}

TEST(the_byte_written_is_taken)
{
	unsigned events[2];
	int r = take_from(WRITES, events);

	if (r == NO_PIDFD)
		SKIP("no pidfd_open here");
	CHECK(r == 1);
	return 0;
}

TEST(an_init_that_exits_without_the_byte_is_said)
{
	unsigned events[2];
	int r = take_from(EXITS_SILENT, events);

	if (r == NO_PIDFD)
		SKIP("no pidfd_open here");
	CHECK(r == 0);
	CHECK(!(events[0] & POLLIN));
	CHECK(events[1] & POLLIN);
	return 0;
}

/* The hang-up without data first, then the byte and the init's exit
 * while start waits on the init: the byte counts (start once failed it,
 * deciding on the fifo's events from before the wait). Ten times, as the
 * order is up to the scheduler. */
TEST(a_byte_written_after_a_hangup_counts_though_the_init_exited)
{
	unsigned events[2];

	for (int i = 0; i < 10; i++) {
		int r = take_from(COMES_BACK, events);

		if (r == NO_PIDFD)
			SKIP("no pidfd_open here");
		CHECK(r == 1);
	}
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(the_byte_written_is_taken);
	RUN(an_init_that_exits_without_the_byte_is_said);
	RUN(a_byte_written_after_a_hangup_counts_though_the_init_exited);
	TAP_DONE();
}
