/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/base/strv.c: string vectors (args, env). */
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

TEST(an_env_entry_set_replaces_what_the_env_said_of_its_key)
{
	char **env = NULL;

	CHECK(strv_env_set(&env, "A=1") == 0 && strv_env_set(&env, "AB=2") == 0 &&
	      strv_env_set(&env, "A=3") == 0);
	CHECK(strv_len(env) == 2);
	CHECK_STR(env[0], "AB=2");
	CHECK_STR(env[1], "A=3");
	strv_free(env);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(an_env_entry_set_replaces_what_the_env_said_of_its_key);
	TAP_DONE();
}
