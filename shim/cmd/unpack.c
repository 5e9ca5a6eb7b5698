/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unpack LAYOUT[:NAME] BUNDLE: an OCI image layout into a new bundle.
 * The work is done by the shim-unpack program beside this binary: it needs
 * libarchive and libcrypto (and what they pull in: about 15 more shared
 * libraries), which would otherwise be loaded by every create, start and
 * run, costing them time and resident memory.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "shim/cmd/cmd.h"

int cmd_unpack(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (argc != 3 || argv[1][0] == '-' || argv[2][0] == '-')
		return shim_fail(err, 0, "usage: shim unpack LAYOUT[:NAME] BUNDLE");
	n = readlink("/proc/self/exe", self, sizeof(self) - sizeof("shim-unpack"));
	if (n < 0)
		return shim_fail_errno(err, "unpack: readlink /proc/self/exe");
	self[n] = '\0';
	slash = strrchr(self, '/');
	strcpy(slash ? slash + 1 : self, "shim-unpack");
	execv(self, argv);
	return shim_fail_errno(err, "unpack: run %s", self);
}
