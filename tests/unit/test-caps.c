/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/caps.c: the kernel's capabilities. */
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

TEST(the_last_capability_is_the_kernels_cap_last_cap)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "re");
	int want = -1;

	CHECK(f != NULL);
	CHECK(fscanf(f, "%d", &want) == 1);
	fclose(f);
	CHECK(caps_last() == want);
	CHECK(caps_last() == want);	/* asked again: the same answer */
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(the_last_capability_is_the_kernels_cap_last_cap);
	TAP_DONE();
}
