/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/pidfd.c: processes held by pidfds, checked by start time. */
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

TEST(start_time_of_self_is_stable)
{
	unsigned long long a, b;

	CHECK(proc_start_time(getpid(), &a, &err) == 0);
	CHECK(proc_start_time(getpid(), &b, &err) == 0);
	CHECK(a == b && a > 0);
	return 0;
}

TEST(a_pid_with_another_start_time_is_not_opened)
{
	unsigned long long t;
	int fd = 7;

	CHECK(proc_start_time(getpid(), &t, &err) == 0);
	if (sys_pidfd_open(getpid(), 0) < 0 && errno == ENOSYS)
		SKIP("no pidfd_open here (valgrind does not know it)");
	CHECK(pidfd_open_verified(getpid(), t + 1, &fd, &err) == 0 && fd == -1);
	CHECK(pidfd_open_verified(getpid(), t, &fd, &err) == 1 && fd >= 0);
	close(fd);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(start_time_of_self_is_stable);
	RUN(a_pid_with_another_start_time_is_not_opened);
	TAP_DONE();
}
