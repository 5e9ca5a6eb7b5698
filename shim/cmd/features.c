/* SPDX-License-Identifier: GPL-2.0-or-later */
/* features: what this build implements, in the runtime-spec features.md
 * format. Only what works is listed. */
#include <seccomp.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "oci/mount_options.h"
#include "oci/seccomp.h"
#include "oci/spec.h"

#include "shim/cgroups/resctrl.h"
#include "shim/cmd/cmd.h"
#include "shim/lsm.h"
#include "shim/version.h"

static const char features_head[] =
	"{\n"
	"  \"ociVersionMin\": \"1.0.0\",\n"
	"  \"ociVersionMax\": \"1.3.0\",\n"
	"  \"hooks\": [\"prestart\", \"createRuntime\", \"createContainer\", \"startContainer\",\n"
	"            \"poststart\", \"poststop\"],\n";

static const char features_linux[] =
	"  \"linux\": {\n"
	"    \"namespaces\": [\"cgroup\", \"ipc\", \"mount\", \"network\", \"pid\", \"time\", \"user\", \"uts\"],\n";

static const char features_cgroup[] =
	"    \"cgroup\": { \"v1\": true, \"v2\": true, \"systemd\": true, \"systemdUser\": false },\n";

static const char features_tail[] =
	"    \"netDevices\": { \"enabled\": true },\n"
	"    \"mountExtensions\": { \"idmap\": { \"enabled\": true } }\n"
	"  },\n";

/* Implementation facts; shim reads no config annotation, so none can
 * change what it does (potentiallyUnsafeConfigAnnotations is empty). */
static void print_annotations(void)
{
	const struct scmp_version *v = seccomp_version();

	printf("  \"annotations\": {\n"
	       "    \"io.github.seccomp.libseccomp.version\": \"%u.%u.%u\",\n"
	       "    \"org.opencontainers.shim.checkpoint.enabled\": \"true\",\n"
	       "    \"org.opencontainers.shim.version\": \"%s\"\n"
	       "  },\n"
	       "  \"potentiallyUnsafeConfigAnnotations\": []\n"
	       "}\n", v ? v->major : 0, v ? v->minor : 0, v ? v->micro : 0, SHIM_VERSION);
}

/* What libseccomp may know; listed when this one does. */
static const char *const seccomp_archs[] = {
	"SCMP_ARCH_X86", "SCMP_ARCH_X86_64", "SCMP_ARCH_X32", "SCMP_ARCH_ARM", "SCMP_ARCH_AARCH64",
	"SCMP_ARCH_MIPS", "SCMP_ARCH_MIPS64", "SCMP_ARCH_MIPS64N32", "SCMP_ARCH_MIPSEL",
	"SCMP_ARCH_MIPSEL64", "SCMP_ARCH_MIPSEL64N32", "SCMP_ARCH_PPC", "SCMP_ARCH_PPC64",
	"SCMP_ARCH_PPC64LE", "SCMP_ARCH_S390", "SCMP_ARCH_S390X", "SCMP_ARCH_PARISC",
	"SCMP_ARCH_PARISC64", "SCMP_ARCH_RISCV64",
};

static const char *const seccomp_flags[] = {
	"SECCOMP_FILTER_FLAG_TSYNC", "SECCOMP_FILTER_FLAG_LOG", "SECCOMP_FILTER_FLAG_SPEC_ALLOW",
};

/* A JSON array of the names name(0), name(1), ... up to the first NULL. */
static void print_list(const char *key, const char *(*name)(size_t), const char *indent)
{
	printf("%s\"%s\": [", indent, key);
	for (size_t i = 0; name(i); i++)
		printf("%s\"%s\"", i ? ", " : "", name(i));
	printf("]");
}

static const char *cap_at(size_t i)
{
	return oci_cap_name((int)i);
}

static bool arch_known(const char *scmp_name)
{
	char lower[32];
	size_t n = 0;

	/* the libseccomp name is the lower-case rest: "x86_64" */
	for (const char *p = scmp_name + strlen("SCMP_ARCH_"); *p && n + 1 < sizeof(lower); p++)
		lower[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	lower[n] = '\0';
	return seccomp_arch_resolve_name(lower) != 0;
}

/* The i-th architecture of the list that this libseccomp knows. */
static const char *arch_at(size_t i)
{
	for (size_t k = 0; k < sizeof(seccomp_archs) / sizeof(seccomp_archs[0]); k++)
		if (arch_known(seccomp_archs[k]) && i-- == 0)
			return seccomp_archs[k];
	return NULL;
}

static const char *flag_at(size_t i)
{
	return i < sizeof(seccomp_flags) / sizeof(seccomp_flags[0]) ? seccomp_flags[i] : NULL;
}

int cmd_features(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	if (argc != 1)
		return shim_fail(err, 0, "features: takes no arguments");
	fputs(features_head, stdout);
	/* the very table the mounts' options are parsed with */
	print_list("mountOptions", mount_option_known_name, "  ");
	printf(",\n");
	fputs(features_linux, stdout);
	print_list("capabilities", cap_at, "    ");
	printf(",\n    \"seccomp\": {\n      \"enabled\": true,\n");
	print_list("actions", oci_seccomp_action_name, "      ");
	printf(",\n");
	print_list("operators", oci_seccomp_op_name, "      ");
	printf(",\n");
	print_list("archs", arch_at, "      ");
	printf(",\n");
	print_list("knownFlags", flag_at, "      ");
	printf(",\n");
	print_list("supportedFlags", flag_at, "      ");
	printf("\n    },\n");
	fputs(features_cgroup, stdout);
	/* what this host can apply (shim/lsm.h) */
	printf("    \"apparmor\": { \"enabled\": %s },\n", lsm_apparmor_enabled() ? "true" : "false");
	printf("    \"selinux\": { \"enabled\": %s },\n", lsm_selinux_enabled() ? "true" : "false");
	/* enabled: a resctrl mount here; schemata and enableMonitoring: what
	 * shim applies wherever resctrl is (runtime-spec 1.3) */
	printf("    \"intelRdt\": { \"enabled\": %s, \"schemata\": true, \"monitoring\": true },\n",
	       resctrl_mounted() ? "true" : "false");
	printf("    \"memoryPolicy\": {\n");
	print_list("modes", oci_memory_policy_mode_name, "      ");
	printf(",\n");
	print_list("flags", oci_memory_policy_flag_name, "      ");
	printf("\n    },\n");
	fputs(features_tail, stdout);
	print_annotations();
	return 0;
}
