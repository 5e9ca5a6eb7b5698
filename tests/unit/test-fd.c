/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/fd.c: closing the runtime's fds, sparing the kept ones. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "oci/base/cleanup.h"
#include "oci/base/error.h"
#include "oci/base/strv.h"
#include "oci/mount_options.h"
#include "oci/state.h"
#include "shim/caps.h"
#include "shim/fd.h"
#include "shim/fsutil.h"
#include "shim/pidfd.h"
#include "shim/store.h"
#include "shim/syscalls.h"
#include "tests/unit/tap.h"

static struct shim_error err;

TEST(close_from_proc_closes_from_first_up)
{
	int a = open("/dev/null", O_RDONLY), b = open("/dev/null", O_RDONLY);

	CHECK(a >= 3 && b > a);
	CHECK(fd_close_from_proc((unsigned int)b, &err) == 0);
	CHECK(fcntl(a, F_GETFD) >= 0);
	CHECK(fcntl(b, F_GETFD) < 0);
	close(a);
	return 0;
}

TEST(close_listed_spares_the_kept_fds)
{
	int a = open("/dev/null", O_RDONLY), b = open("/dev/null", O_RDONLY);
	int c = open("/dev/null", O_RDONLY), dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY);
	int keep[2] = { b, -1 };

	CHECK(a >= 3 && b > a && c > b && dir > c);
	CHECK(fd_close_listed(dir, (unsigned int)a, keep, 2, &err) == 0);
	CHECK(fcntl(a, F_GETFD) < 0);
	CHECK(fcntl(b, F_GETFD) >= 0);
	CHECK(fcntl(c, F_GETFD) < 0);
	CHECK(fcntl(dir, F_GETFD) < 0);
	close(b);
	return 0;
}

TEST(close_sparing_closes_the_gaps_between_the_kept_fds)
{
	int fd[6], dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int keep[5];

	for (int i = 0; i < 6; i++)
		fd[i] = open("/dev/null", O_RDONLY);
	CHECK(dir >= 3 && fd[0] > dir && fd[5] == fd[0] + 5);
	/* out of order, twice, below first and -1: all taken in their stride */
	keep[0] = fd[4], keep[1] = fd[1], keep[2] = fd[2], keep[3] = -1, keep[4] = fd[4];
	CHECK(fd_close_sparing(dir, (unsigned int)fd[1], keep, 5, &err) == 0);
	CHECK(fcntl(fd[0], F_GETFD) >= 0);	/* below first */
	CHECK(fcntl(fd[1], F_GETFD) >= 0 && fcntl(fd[2], F_GETFD) >= 0);
	CHECK(fcntl(fd[3], F_GETFD) < 0);
	CHECK(fcntl(fd[4], F_GETFD) >= 0);
	CHECK(fcntl(fd[5], F_GETFD) < 0);
	CHECK(fcntl(dir, F_GETFD) >= 0);	/* below first too */
	close(fd[0]), close(fd[1]), close(fd[2]), close(fd[4]), close(dir);
	return 0;
}

TEST(close_sparing_refuses_more_kept_fds_than_it_holds)
{
	int keep[FD_MAX_KEEP + 1];

	for (int i = 0; i <= FD_MAX_KEEP; i++)
		keep[i] = -1;
	CHECK(fd_close_sparing(-1, 1000, keep, FD_MAX_KEEP + 1, &err) < 0);
	CHECK(err.errnum == E2BIG);
	return 0;
}

TEST(preserved_fds_must_be_open)
{
	int fd = dup2(0, 3);

	CHECK(fd == 3);
	close(4);
	CHECK(fd_check_preserved(1, &err) == 0);
	CHECK(fd_check_preserved(2, &err) == -1);
	CHECK_STR(err.msg, "--preserve-fds 2: fd 4 (preserved-fd 1) is not open");
	close(3);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(close_from_proc_closes_from_first_up);
	RUN(close_listed_spares_the_kept_fds);
	RUN(close_sparing_closes_the_gaps_between_the_kept_fds);
	RUN(close_sparing_refuses_more_kept_fds_than_it_holds);
	RUN(preserved_fds_must_be_open);
	TAP_DONE();
}
