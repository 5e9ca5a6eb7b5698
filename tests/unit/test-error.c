/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/base/error.c: the one error contract, worded as runc words errno. */
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

TEST(errors_read_errno_as_runc_does)
{
	char text[256];

	shim_fail(&err, ENOENT, "open %s", "/x");
	CHECK(strcmp(shim_error_text(&err, text, sizeof(text)),
		     "open /x: no such file or directory") == 0);
	CHECK(strcmp(shim_errno_text(EPERM, text, sizeof(text)), "operation not permitted") == 0);
	shim_fail(&err, 0, "plain");
	CHECK(strcmp(shim_error_text(&err, text, sizeof(text)), "plain") == 0);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(errors_read_errno_as_runc_does);
	TAP_DONE();
}
