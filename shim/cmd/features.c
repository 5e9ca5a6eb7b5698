/* SPDX-License-Identifier: GPL-2.0-or-later */
/* features: what this build implements, in the runtime-spec features.md
 * format. Only what works is listed. */
#include <stdio.h>

#include "shim/cmd/cmd.h"

static const char features[] =
	"{\n"
	"  \"ociVersionMin\": \"1.0.0\",\n"
	"  \"ociVersionMax\": \"1.2.0\",\n"
	"  \"hooks\": [\"prestart\", \"createRuntime\", \"createContainer\", \"startContainer\",\n"
	"            \"poststart\", \"poststop\"],\n"
	"  \"mountOptions\": [\n"
	"    \"async\", \"bind\", \"defaults\", \"dev\", \"diratime\", \"dirsync\", \"exec\", \"idmap\",\n"
	"    \"lazytime\", \"loud\", \"mand\", \"noatime\", \"nodev\", \"nodiratime\", \"noexec\", \"nolazytime\",\n"
	"    \"nomand\", \"norelatime\", \"nostrictatime\", \"nosuid\", \"nosymfollow\", \"private\", \"rbind\", \"rdev\",\n"
	"    \"rdiratime\", \"relatime\", \"rexec\", \"ridmap\", \"rnoatime\", \"rnodev\", \"rnodiratime\", \"rnoexec\",\n"
	"    \"rnosuid\", \"rnosymfollow\", \"ro\", \"rprivate\", \"rrelatime\", \"rro\", \"rrw\", \"rshared\",\n"
	"    \"rslave\", \"rstrictatime\", \"rsuid\", \"rsymfollow\", \"runbindable\", \"rw\", \"shared\", \"silent\",\n"
	"    \"slave\", \"strictatime\", \"suid\", \"symfollow\", \"sync\", \"unbindable\"\n"
	"  ],\n"
	"  \"linux\": {\n"
	"    \"namespaces\": [\"cgroup\", \"ipc\", \"mount\", \"network\", \"pid\", \"time\", \"user\", \"uts\"],\n"
	"    \"capabilities\": [],\n"
	"    \"cgroup\": { \"v1\": false, \"v2\": true, \"systemd\": false, \"systemdUser\": false },\n"
	"    \"seccomp\": { \"enabled\": true },\n"
	"    \"apparmor\": { \"enabled\": false },\n"
	"    \"selinux\": { \"enabled\": false },\n"
	"    \"intelRdt\": { \"enabled\": false },\n"
	"    \"mountExtensions\": { \"idmap\": { \"enabled\": true } }\n"
	"  }\n"
	"}\n";

int cmd_features(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	if (argc != 1)
		return shim_fail(err, 0, "features: takes no arguments");
	fputs(features, stdout);
	return 0;
}
