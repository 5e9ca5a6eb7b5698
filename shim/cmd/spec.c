/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spec [-b BUNDLE] [--rootless]: write the default config.json (for an
 * unprivileged caller with --rootless); never overwrite one. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/spec.h"
#include "shim/cmd/cmd.h"

static const struct option opts[] = {
	{ "bundle", required_argument, NULL, 'b' },
	{ "rootless", no_argument, NULL, 'r' },
	{ 0 },
};
const struct cmd_flags spec_flags = { opts, "+b:" };

int cmd_spec(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	_cleanup_free_ char *json = NULL;
	_cleanup_close_ int fd = -1;
	const char *bundle = ".";
	struct oci_spec_ids ids = { geteuid(), getegid() };
	bool rootless = false;
	char path[PATH_MAX];
	size_t len;
	int ch;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, spec_flags.shorts, opts, NULL)) != -1) {
		if (ch == 'b')
			bundle = optarg;
		else if (ch == 'r')
			rootless = true;
		else
			return shim_fail(err, 0, "spec: unknown or incomplete flag %s", argv[optind - 1]);
	}
	if (optind != argc)
		return shim_fail(err, 0, "spec: takes no arguments");
	json = oci_spec_default_json(rootless ? &ids : NULL, err);
	if (!json)
		return -1;
	snprintf(path, sizeof(path), "%s/config.json", bundle);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST)
		return shim_fail(err, 0, "File %s exists. Remove it first", path);
	if (fd < 0)
		return shim_fail_errno(err, "spec: create %s", path);
	len = strlen(json);
	if (write(fd, json, len) != (ssize_t)len)
		return shim_fail_errno(err, "spec: write %s", path);
	return 0;
}
