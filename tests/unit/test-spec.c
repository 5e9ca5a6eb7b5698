/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/spec.c: what it accepts, and the JSON path it names when it refuses. */
#include <stdlib.h>
#include <sys/resource.h>

#include "oci/json.h"
#include "oci/spec.h"
#include "tests/unit/tap.h"

#define MINIMAL \
	"{\"ociVersion\":\"1.2.0\",\"root\":{\"path\":\"rootfs\"}," \
	"\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"sh\"],\"cwd\":\"/\"}"

#define NETNS ",\"linux\":{\"namespaces\":[{\"type\":\"network\"}],"

static struct shim_error err;

static struct oci_spec *parse(const char *json)
{
	memset(&err, 0, sizeof(err));
	return oci_spec_parse(json, strlen(json), &err);
}

/* Parsing must fail with exactly this message. */
static int refuses(const char *json, const char *msg)
{
	struct oci_spec *s = parse(json);

	if (s) {
		printf("# accepted: %s\n", json);
		oci_spec_free(s);
		return 0;
	}
	if (strcmp(err.msg, msg) != 0) {
		printf("# got \"%s\", want \"%s\"\n", err.msg, msg);
		return 0;
	}
	return 1;
}

/* Configs refused by oci_spec_parse, each with exactly its error: one
 * TAP test per row, named for the behaviour the row belongs to. */
static const struct {
	const char *what;
	const char *json;
	const char *error;
} bad_configs[] = {
	{ "a_non_object_is_refused",
	  "[1]",
	  "the config must be a JSON object" },
	{ "missing_fields_are_named",
	  "{\"root\":{\"path\":\"r\"}}",
	  "ociVersion: missing" },
	{ "missing_fields_are_named",
	  "{\"ociVersion\":\"1\"}",
	  "root: missing" },
	{ "missing_fields_are_named",
	  "{\"ociVersion\":\"1\",\"root\":{}}",
	  "root.path: missing" },
	{ "missing_fields_are_named",
	  "{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\"},\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\"}}",
	  "process.user: missing" },
	{ "missing_fields_are_named",
	  "{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\"},\"process\":{\"user\":{\"gid\":0},\"args\":[\"sh\"],\"cwd\":\"/\"}}",
	  "process.user.uid: missing" },
	{ "wrong_types_are_named",
	  "{\"ociVersion\":1}",
	  "ociVersion: must be a string" },
	{ "wrong_types_are_named",
	  MINIMAL ",\"hostname\":[]}",
	  "hostname: must be a string" },
	{ "wrong_types_are_named",
	  MINIMAL ",\"mounts\":{}}",
	  "mounts: must be an array" },
	{ "wrong_types_are_named",
	  MINIMAL ",\"mounts\":[{\"destination\":\"/x\",\"options\":[1]}]}",
	  "mounts[0].options[0]: must be a string" },
	{ "wrong_types_are_named",
	  "{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\",\"readonly\":\"yes\"}}",
	  "root.readonly: must be true or false" },
	{ "bad_values_are_named",
	  "{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\"},\"process\":{\"user\":{\"uid\":-1,\"gid\":0},\"args\":[\"sh\"],\"cwd\":\"/\"}}",
	  "process.user.uid: must be a non-negative integer" },
	{ "bad_values_are_named",
	  "{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\"},\"process\":{\"user\":{\"uid\":4294967295,\"gid\":0},\"args\":[\"sh\"],\"cwd\":\"/\"}}",
	  "process.user.uid: 4294967295 is out of range (at most 4294967294)" },
	{ "bad_values_are_named",
	  "{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\"},\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[],\"cwd\":\"/\"}}",
	  "process.args: must name the program to run" },
	{ "bad_values_are_named",
	  "{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\"},\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"sh\"],\"cwd\":\"/\",\"env\":[\"NOEQUALS\"]}}",
	  "process.env[0]: \"NOEQUALS\" is not NAME=VALUE" },
	{ "bad_values_are_named",
	  "{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\"},\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"sh\"],\"cwd\":\"tmp\"}}",
	  "process.cwd: must be an absolute path, not \"tmp\"" },
	{ "bad_values_are_named",
	  MINIMAL ",\"mounts\":[{\"destination\":\"rel\"}]}",
	  "mounts[0].destination: must be an absolute path, not \"rel\"" },
	{ "bad_values_are_named",
	  MINIMAL ",\"linux\":{\"namespaces\":[{\"type\":\"pid\"},{\"type\":\"pid\"}]}}",
	  "linux.namespaces[1].type: namespace \"pid\" given twice" },
	{ "bad_values_are_named",
	  MINIMAL ",\"mounts\":[{\"destination\":\"/a\"},{\"type\":\"tmpfs\"}]}",
	  "mounts[1].destination: missing" },
	{ "bad_values_are_named",
	  MINIMAL ",\"mounts\":[0]}",
	  "mounts[0]: must be an object" },
	{ "bad_values_are_named",
	  MINIMAL ",\"linux\":{\"namespaces\":[{\"type\":\"pid\"},{\"path\":\"/p\"}]}}",
	  "linux.namespaces[1].type: missing" },
	{ "bad_values_are_named",
	  MINIMAL ",\"linux\":{\"namespaces\":[{\"type\":\"pidd\"}]}}",
	  "linux.namespaces[0].type: unknown namespace type \"pidd\"" },
	{ "bad_values_are_named",
	  MINIMAL ",\"linux\":{\"namespaces\":[{\"type\":\"network\",\"path\":\"ns/net\"}]}}",
	  "linux.namespaces[0].path: must be an absolute path, not \"ns/net\"" },
	{ "bad_values_are_named",
	  "{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\"},\"process\":{\"user\":{\"uid\":0,\"gid\":0,\"additionalGids\":[1,2,3,4,5,6,7,8,9,10,-1]},\"args\":[\"sh\"],\"cwd\":\"/\"}}",
	  "process.user.additionalGids[10]: must be a gid (0 to 4294967294)" },
	{ "bad_values_are_named",
	  "{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\"},\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"sh\"],\"cwd\":\"/\",\"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"hard\":1,\"soft\":1},{\"type\":\"RLIMIT_NOPE\"}]}}",
	  "process.rlimits[1]: type: unknown rlimit \"RLIMIT_NOPE\"" },
	{ "bad_values_are_named",
	  MINIMAL ",\"linux\":{\"rootfsPropagation\":\"sideways\"}}",
	  "linux.rootfsPropagation: unknown propagation \"sideways\"" },
	{ "bad_values_are_named",
	  MINIMAL ",\"linux\":{\"maskedPaths\":[\"proc/kcore\"]}}",
	  "linux.maskedPaths[0]: must be an absolute path, not \"proc/kcore\"" },
	{ "bad_values_are_named",
	  MINIMAL ",\"linux\":{\"readonlyPaths\":[\"/proc/bus\",\"/proc/fs\",\"sys\"]}}",
	  "linux.readonlyPaths[2]: must be an absolute path, not \"sys\"" },
	{ "bad_hooks_are_named",
	  MINIMAL ",\"hooks\":{\"poststart\":[{\"path\":\"x\"}]}}",
	  "hooks.poststart[0]: path: must be an absolute path" },
	{ "bad_hooks_are_named",
	  MINIMAL ",\"hooks\":{\"createRuntime\":[{\"path\":\"/x\",\"timeout\":0}]}}",
	  "hooks.createRuntime[0]: timeout: must be greater than zero" },
	{ "bad_hooks_are_named",
	  MINIMAL ",\"hooks\":{\"startContainer\":{}}}",
	  "hooks.startContainer: must be an array" },
	{ "bad_seccomp_profiles_are_named",
	  MINIMAL ",\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_NOPE\"}}}",
	  "linux.seccomp: defaultAction: unknown action \"SCMP_ACT_NOPE\"" },
	{ "bad_seccomp_profiles_are_named",
	  MINIMAL ",\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\","
		  "\"syscalls\":[{\"names\":[\"kill\"],\"action\":\"SCMP_ACT_ERRNO\","
		  "\"args\":[{\"index\":6,\"op\":\"SCMP_CMP_EQ\"}]}]}}}",
	  "linux.seccomp.syscalls[0].args[0].index: 6 is out of range (at most 5)" },
	{ "bad_seccomp_profiles_are_named",
	  MINIMAL ",\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\","
		  "\"syscalls\":[{\"names\":[],\"action\":\"SCMP_ACT_ALLOW\"}]}}}",
	  "linux.seccomp.syscalls[0]: names: must list at least one syscall" },
	{ "bad_seccomp_profiles_are_named",
	  MINIMAL ",\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\","
		  "\"architectures\":[\"X86\"]}}}",
	  "linux.seccomp.architectures: \"X86\" is not an SCMP_ARCH_ name" },
	{ "seccomp_notify_is_refused_where_the_runtime_needs_the_syscall",
	  MINIMAL ",\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\","
		  "\"listenerPath\":\"/a.sock\",\"syscalls\":[{\"names\":[\"mkdir\",\"write\"],"
		  "\"action\":\"SCMP_ACT_NOTIFY\"}]}}}",
	  "linux.seccomp.syscalls[0]: names[1]: SCMP_ACT_NOTIFY cannot be used for the write syscall" },
	{ "seccomp_notify_is_refused_where_the_runtime_needs_the_syscall",
	  MINIMAL ",\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_NOTIFY\","
		  "\"listenerPath\":\"/a.sock\"}}}",
	  "linux.seccomp.defaultAction: SCMP_ACT_NOTIFY cannot be used as default action" },
	{ "sysctl_and_oom_score_adj_are_checked",
	  MINIMAL ",\"linux\":{\"sysctl\":{\"../../x\":\"1\"}}}",
	  "linux.sysctl: \"../../x\" is not a sysctl name" },
	{ "sysctl_and_oom_score_adj_are_checked",
	  MINIMAL ",\"linux\":{\"sysctl\":{\"a\":1}}}",
	  "linux.sysctl: \"a\" must be a string" },
	{ "sysctl_and_oom_score_adj_are_checked",
	  "{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\"},\"process\":{\"user\":{\"uid\":0,\"gid\":0},"
		  "\"args\":[\"sh\"],\"cwd\":\"/\",\"oomScoreAdj\":1001}}",
	  "process.oomScoreAdj: must be an integer from -1000 to 1000" },
	{ "a_nul_escape_in_a_string_is_refused_by_its_path",
	  MINIMAL ",\"mounts\":[{\"destination\":\"/a\\u0000b\"}]}",
	  "mounts[0].destination: holds a NUL byte" },
	{ "a_nul_escape_in_a_string_is_refused_by_its_path",
	  "{\"process\":{\"env\":[\"A=1\",\"B\\u0000=2\"]}}",
	  "process.env[1]: holds a NUL byte" },
	{ "a_nul_escape_in_a_string_is_refused_by_its_path",
	  "{\"linux\":{\"sysctl\":{\"kernel.x\\u0000\":\"1\"}}}",
	  "linux.sysctl.kernel.x: a member name holds a NUL byte" },
	{ "a_nul_escape_in_a_string_is_refused_by_its_path",
	  "{\"process\":{\"cwd\":\"\\\\u0000\"}}",
	  "ociVersion: missing" },
	{ "only_runtime_spec_1_is_taken",
	  "{\"ociVersion\":\"2.0.0\",\"root\":{\"path\":\"r\"}}",
	  "ociVersion: \"2.0.0\": only runtime-spec 1.x is supported" },
	{ "only_runtime_spec_1_is_taken",
	  "{\"ociVersion\":\"10.1\",\"root\":{\"path\":\"r\"}}",
	  "ociVersion: \"10.1\": only runtime-spec 1.x is supported" },
	{ "only_runtime_spec_1_is_taken",
	  "{\"ociVersion\":\"v1\",\"root\":{\"path\":\"r\"}}",
	  "ociVersion: \"v1\": only runtime-spec 1.x is supported" },
	{ "bad_net_devices_are_refused_by_path",
	  MINIMAL ",\"linux\":{\"netDevices\":{\"eth1\":{}}}}",
	  "linux.netDevices: needs a network namespace of the container's own "
		  "(linux.namespaces has no network entry, so the container would share the "
		  "runtime's)" },
	{ "bad_net_devices_are_refused_by_path",
	  MINIMAL NETNS "\"netDevices\":{\"eth1\":{\"name\":\"a/b\"}}}}",
	  "linux.netDevices.eth1: name \"a/b\" is not an interface name (1 to 15 "
		  "characters, no '/', ':' or spaces)" },
	{ "bad_net_devices_are_refused_by_path",
	  MINIMAL NETNS "\"netDevices\":{\"a-name-of-16-chr\":{}}}}",
	  "linux.netDevices.a-name-of-16-chr: \"a-name-of-16-chr\" is not an interface "
		  "name (1 to 15 characters, no '/', ':' or spaces)" },
	{ "bad_net_devices_are_refused_by_path",
	  MINIMAL NETNS "\"netDevices\":{\"eth1\":{\"name\":\"x\"},"
		  "\"eth2\":{\"name\":\"x\"}}}}",
	  "linux.netDevices: \"eth1\" and \"eth2\" are both named \"x\" in the container" },
	{ "bad_net_devices_are_refused_by_path",
	  MINIMAL NETNS "\"netDevices\":{\"eth1\":[]}}}",
	  "linux.netDevices.eth1: must be an object" },
	{ "bad_net_devices_are_refused_by_path",
	  MINIMAL NETNS "\"netDevices\":{\"eth1\":{\"name\":3}}}}",
	  "linux.netDevices.eth1.name: must be a string" },
	{ "linux_members_shim_cannot_apply_are_refused_by_path",
	  MINIMAL ",\"linux\":{\"timeOffsets\":{\"boottime\":{\"secs\":1}}}}",
	  "linux.timeOffsets: needs a new time namespace in linux.namespaces" },
	{ "linux_members_shim_cannot_apply_are_refused_by_path",
	  MINIMAL ",\"linux\":{\"memoryPolicy\":{\"mode\":\"MPOL_NOPE\"}}}",
	  "linux.memoryPolicy.mode: unknown mode \"MPOL_NOPE\"" },
	{ "linux_members_shim_cannot_apply_are_refused_by_path",
	  MINIMAL ",\"linux\":{\"memoryPolicy\":{\"mode\":\"MPOL_BIND\","
		  "\"nodes\":\"1-\"}}}",
	  "linux.memoryPolicy.nodes: \"1-\" is not a node list such as 0-1,3" },
	{ "linux_members_shim_cannot_apply_are_refused_by_path",
	  MINIMAL ",\"linux\":{\"memoryPolicy\":{\"mode\":\"MPOL_BIND\","
		  "\"flags\":[\"MPOL_F_X\"]}}}",
	  "linux.memoryPolicy.flags[0]: unknown flag \"MPOL_F_X\"" },
	{ "linux_members_shim_cannot_apply_are_refused_by_path",
	  MINIMAL ",\"linux\":{\"intelRdt\":{\"closID\":\"a/b\"}}}",
	  "linux.intelRdt.closID: \"a/b\" is not a resctrl group name" },
};

/* Each row of bad_configs as one TAP test. */
static void run_bad_configs(void)
{
	for (size_t i = 0; i < sizeof(bad_configs) / sizeof(bad_configs[0]); i++)
		TAP_ROW(refuses(bad_configs[i].json, bad_configs[i].error), "%s: %s",
			bad_configs[i].what, bad_configs[i].error);
}

TEST(the_default_spec_parses)
{
	char *json = oci_spec_default_json(NULL, &err);
	struct oci_spec *s = parse(json);

	CHECK(s);
	CHECK_STR(s->process.args[0], "sh");
	CHECK_STR(s->root_path, "rootfs");
	CHECK(s->root_readonly);
	CHECK(s->n_mounts == 7);
	CHECK(s->n_namespaces == 6);
	CHECK(oci_spec_namespace(s, OCI_NS_CGROUP) && !oci_spec_namespace(s, OCI_NS_USER));
	CHECK(s->process.n_rlimits == 1 && s->process.rlimits[0].resource == RLIMIT_NOFILE);
	CHECK(s->process.no_new_privileges);
	CHECK_STR(s->masked_paths[0], "/proc/acpi");
	CHECK(s->process.caps.present);
	CHECK(s->process.caps.bounding == ((1ULL << 5) | (1ULL << 10) | (1ULL << 29)));
	CHECK(s->process.caps.inheritable == 0);
	oci_spec_free(s);
	free(json);
	return 0;
}

TEST(the_rootless_default_spec_maps_the_caller_and_needs_no_root)
{
	const struct oci_spec_ids ids = { 1000, 1001 };
	char *json = oci_spec_default_json(&ids, &err);
	struct oci_spec *s = parse(json);
	const struct oci_mount *sys = NULL, *pts = NULL;

	CHECK(s);
	CHECK(s->n_namespaces == 6);
	CHECK(oci_spec_namespace(s, OCI_NS_USER) && !oci_spec_namespace(s, OCI_NS_NETWORK));
	CHECK(s->n_uid_mappings == 1 && s->uid_mappings[0].container_id == 0 &&
	      s->uid_mappings[0].host_id == 1000 && s->uid_mappings[0].size == 1);
	CHECK(s->n_gid_mappings == 1 && s->gid_mappings[0].host_id == 1001);
	CHECK(!s->resources.has_devices && s->resources.n_settings == 0);
	CHECK(s->n_mounts == 7);
	for (size_t i = 0; i < s->n_mounts; i++) {
		if (strcmp(s->mounts[i].destination, "/sys") == 0)
			sys = &s->mounts[i];
		if (strcmp(s->mounts[i].destination, "/dev/pts") == 0)
			pts = &s->mounts[i];
	}
	CHECK(sys && sys->bind && strcmp(sys->source, "/sys") == 0);
	CHECK(pts);
	for (char **o = pts->options; *o; o++)
		CHECK(strncmp(*o, "gid=", 4) != 0 && strncmp(*o, "uid=", 4) != 0);
	CHECK_STR(s->masked_paths[0], "/proc/acpi");
	oci_spec_free(s);
	free(json);
	return 0;
}

TEST(a_minimal_config_parses)
{
	struct oci_spec *s = parse(MINIMAL "}");

	CHECK(s && s->has_process && !s->process.terminal && s->n_mounts == 0);
	oci_spec_free(s);
	return 0;
}

TEST(mount_id_mappings_idmap_the_mount_without_the_option)
{
#define MAP "[{\"containerID\":0,\"hostID\":100000,\"size\":10}]"
	struct oci_spec *s = parse(MINIMAL ",\"mounts\":["
		"{\"destination\":\"/a\",\"type\":\"bind\",\"source\":\"/x\",\"options\":[\"rbind\"],"
		"\"uidMappings\":" MAP ",\"gidMappings\":" MAP "},"
		"{\"destination\":\"/b\",\"type\":\"bind\",\"source\":\"/x\",\"options\":[\"rbind\"]},"
		"{\"destination\":\"/c\",\"type\":\"bind\",\"source\":\"/x\",\"options\":[\"ridmap\"],"
		"\"uidMappings\":" MAP ",\"gidMappings\":" MAP "}]}");
#undef MAP

	CHECK(s && s->n_mounts == 3);
	CHECK(s->mounts[0].opts.idmap && !s->mounts[0].opts.idmap_recursive);
	CHECK(!s->mounts[1].opts.idmap);
	CHECK(s->mounts[2].opts.idmap && s->mounts[2].opts.idmap_recursive);
	oci_spec_free(s);
	return 0;
}

TEST(unknown_members_are_ignored)
{
	struct oci_spec *s = parse(MINIMAL ",\"vm\":{\"x\":1},\"windows\":[]}");

	CHECK(s);
	oci_spec_free(s);
	return 0;
}

TEST(rlimit_infinity_survives)
{
	struct oci_spec *s = parse("{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\"},\"process\":{\"user\":{\"uid\":0,\"gid\":0},"
		  "\"args\":[\"sh\"],\"cwd\":\"/\",\"rlimits\":[{\"type\":\"RLIMIT_CORE\","
		  "\"hard\":18446744073709551615,\"soft\":18446744073709551615}]}}");
	CHECK(s);
	CHECK(s->process.rlimits[0].hard == UINT64_MAX);
	oci_spec_free(s);
	return 0;
}

TEST(invalid_json_is_refused)
{
	CHECK(parse("{\"ociVersion\": ") == NULL);
	CHECK(strncmp(err.msg, "invalid JSON: ", 14) == 0);
	return 0;
}

TEST(rlimits_are_checked)
{
	const char *head = "{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\"},\"process\":{\"user\":{\"uid\":0,\"gid\":0},"
			   "\"args\":[\"sh\"],\"cwd\":\"/\",\"rlimits\":[";
	char buf[512];

	snprintf(buf, sizeof(buf), "%s{\"type\":\"RLIMIT_NOFILE\",\"hard\":1,\"soft\":2}]}}", head);
	CHECK(refuses(buf, "process.rlimits[0]: soft limit is above the hard limit"));
	snprintf(buf, sizeof(buf), "%s{\"type\":\"RLIMIT_NOFILE\",\"soft\":2}]}}", head);
	CHECK(refuses(buf, "process.rlimits[0]: hard: missing"));
	snprintf(buf, sizeof(buf), "%s{\"type\":\"RLIMIT_CPU\",\"hard\":1,\"soft\":1},"
		 "{\"type\":\"RLIMIT_CPU\",\"hard\":1,\"soft\":1}]}}", head);
	CHECK(refuses(buf, "process.rlimits[1]: type: RLIMIT_CPU given twice"));
	return 0;
}

TEST(unknown_capabilities_are_skipped_and_listed)
{
	struct oci_spec *s = parse("{\"ociVersion\":\"1\",\"root\":{\"path\":\"r\"},\"process\":"
				   "{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"sh\"],\"cwd\":\"/\","
				   "\"capabilities\":{\"ambient\":[\"CAP_KILL\",\"KILL\"]}}}");

	CHECK(s != NULL);
	CHECK(s->process.caps.ambient == 1ULL << 5);
	CHECK(s->process.caps.unknown && s->process.caps.unknown[0] && !s->process.caps.unknown[1]);
	CHECK_STR(s->process.caps.unknown[0], "process.capabilities.ambient[1] KILL");
	oci_spec_free(s);
	return 0;
}

TEST(hooks_are_parsed_by_kind_in_order)
{
	struct oci_spec *s = parse(MINIMAL ",\"hooks\":{\"prestart\":[{\"path\":\"/x\"}],"
				   "\"poststop\":[{\"path\":\"/a\",\"args\":[\"a\",\"1\"],"
				   "\"env\":[\"K=V\"],\"timeout\":5},{\"path\":\"/b\"}]}}");

	CHECK(s && s->hooks.n[HOOK_PRESTART] == 1 && s->hooks.n[HOOK_POSTSTOP] == 2);
	CHECK(s->hooks.n[HOOK_CREATE_RUNTIME] == 0);
	CHECK_STR(s->hooks.list[HOOK_POSTSTOP][0].args[1], "1");
	CHECK_STR(s->hooks.list[HOOK_POSTSTOP][0].env[0], "K=V");
	CHECK(s->hooks.list[HOOK_POSTSTOP][0].timeout == 5);
	CHECK_STR(s->hooks.list[HOOK_POSTSTOP][1].path, "/b");
	oci_spec_free(s);
	return 0;
}

TEST(a_seccomp_profile_is_parsed)
{
	struct oci_spec *s = parse(MINIMAL ",\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ERRNO\","
				   "\"defaultErrnoRet\":38,\"architectures\":[\"SCMP_ARCH_X86_64\"],"
				   "\"flags\":[\"SECCOMP_FILTER_FLAG_LOG\"],\"syscalls\":[{\"names\":"
				   "[\"read\",\"write\"],\"action\":\"SCMP_ACT_ALLOW\"},{\"names\":[\"kill\"],"
				   "\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":1,\"value\":9,"
				   "\"op\":\"SCMP_CMP_EQ\"}]}]}}}");
	const struct oci_seccomp *sc = s ? &s->seccomp : NULL;

	CHECK(sc && sc->present);
	CHECK(sc->default_action.kind == ACT_ERRNO && sc->default_action.ret == 38);
	CHECK_STR(sc->architectures[0], "x86_64");
	CHECK(sc->flags == SCMP_FLAG_LOG);
	CHECK(sc->n_rules == 2 && sc->rules[0].action.kind == ACT_ALLOW);
	CHECK_STR(sc->rules[0].names[1], "write");
	/* ERRNO without errnoRet is EPERM */
	CHECK(sc->rules[1].action.ret == 1 && sc->rules[1].n_args == 1);
	CHECK(sc->rules[1].args[0].index == 1 && sc->rules[1].args[0].value == 9);
	CHECK(sc->rules[1].args[0].op == OP_EQ);
	oci_spec_free(s);
	s = parse(MINIMAL "}");
	CHECK(s && !s->seccomp.present);
	oci_spec_free(s);
	return 0;
}

TEST(sysctl_and_oom_score_adj_are_checked)
{
	struct oci_spec *s = parse(MINIMAL ",\"linux\":{\"sysctl\":{\"net.ipv4.ip_forward\":\"1\"}}}");

	CHECK(s);
	CHECK_STR(s->sysctl[0], "net.ipv4.ip_forward");
	CHECK_STR(s->sysctl[1], "1");
	oci_spec_free(s);
	return 0;
}

TEST(a_nul_byte_is_refused)
{
	const char json[] = "{\"ociVersion\":\"1\0\"}";

	CHECK(oci_spec_parse(json, sizeof(json) - 1, &err) == NULL);
	CHECK_STR(err.msg, "the config holds a NUL byte");
	return 0;
}

TEST(a_nul_escape_in_a_string_is_refused_by_its_path)
{
	/* an escaped backslash followed by "u0000" is no NUL */
	return 0;
}

static char *nested(size_t depth)
{
	char *json = malloc(2 * depth + 1);

	memset(json, '[', depth);
	memset(json + depth, ']', depth);
	json[2 * depth] = '\0';
	return json;
}

TEST(nesting_deeper_than_the_bound_is_refused)
{
	char *deep = nested(300000), *fine = nested(JSON_MAX_DEPTH);

	CHECK(refuses(deep, "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: "
			    "nested deeper than 512 levels"));
	/* 512 levels are still read (and refused for what they are) */
	CHECK(refuses(fine, "the config must be a JSON object"));
	free(deep);
	free(fine);
	return 0;
}

TEST(only_runtime_spec_1_is_taken)
{
	struct oci_spec *s = parse("{\"ociVersion\":\"1.0.2-dev\",\"root\":{\"path\":\"r\"},"
				   "\"linux\":{\"cgroupsPath\":null}}");

	CHECK(s != NULL && s->cgroups_path == NULL);	/* null is absent */
	oci_spec_free(s);
	return 0;
}

TEST(net_devices_are_read_with_the_host_name_as_default)
{
	struct oci_spec *s = parse(MINIMAL NETNS "\"netDevices\":{\"eth1\":{\"name\":\"ctr0\"},"
				   "\"eth2\":{},\"eth3\":{\"name\":\"\"}}}}");

	CHECK(s != NULL && s->n_net_devices == 3);
	CHECK(strcmp(s->net_devices[0].host, "eth1") == 0 &&
	      strcmp(s->net_devices[0].name, "ctr0") == 0);
	CHECK(strcmp(s->net_devices[1].host, "eth2") == 0 &&
	      strcmp(s->net_devices[1].name, "eth2") == 0);
	CHECK(strcmp(s->net_devices[2].name, "eth3") == 0);
	oci_spec_free(s);
	return 0;
}

#define RES(json) MINIMAL ",\"linux\":{\"resources\":" json "}}"
#define V1 ": not supported: a cgroup v1 knob: cgroup v2 has no such file"

/* Parsed, kept as v1 files, and refused by path where cgroup v2 is used. */
static int refused_on_v2(const char *json, const char *msg)
{
	struct oci_spec *s = parse(json);
	int ok;

	if (!s) {
		printf("# refused at parse: %s\n", err.msg);
		return 0;
	}
	memset(&err, 0, sizeof(err));
	ok = oci_resources_refuse_v1_only(&s->resources, &err) < 0 && strcmp(err.msg, msg) == 0;
	if (!ok)
		printf("# got \"%s\", want \"%s\"\n", err.msg, msg);
	oci_spec_free(s);
	return ok;
}

TEST(a_config_swap_limit_without_a_memory_limit_is_refused)
{
	CHECK(refuses(RES("{\"memory\":{\"swap\":100}}"),
		      "linux.resources.memory: swap: a swap limit needs a memory limit (memory.limit)"));
	return 0;
}

TEST(cgroup_v1_knobs_are_refused_by_path_when_they_ask_for_something)
{
	CHECK(refused_on_v2(RES("{\"memory\":{\"swappiness\":10}}"), "linux.resources.memory.swappiness" V1));
	CHECK(refused_on_v2(RES("{\"memory\":{\"kernelTCP\":1}}"), "linux.resources.memory.kernelTCP" V1));
	CHECK(refused_on_v2(RES("{\"memory\":{\"disableOOMKiller\":true}}"),
			    "linux.resources.memory.disableOOMKiller" V1));
	CHECK(refuses(RES("{\"memory\":{\"useHierarchy\":false}}"),
		      "linux.resources.memory.useHierarchy: not supported: cgroup v2 is always "
		      "hierarchical"));
	CHECK(refused_on_v2(RES("{\"cpu\":{\"realtimeRuntime\":950000}}"),
			    "linux.resources.cpu.realtimeRuntime" V1 " (no real-time group scheduling)"));
	CHECK(refuses(RES("{\"blockIO\":{\"weightDevice\":[{\"major\":8,\"minor\":0,\"weight\":10},"
			  "{\"major\":8,\"minor\":1,\"leafWeight\":10}]}}"),
		      "linux.resources.blockIO.weightDevice[1].leafWeight" V1));
	CHECK(refused_on_v2(RES("{\"network\":{\"classID\":1}}"),
			    "linux.resources.network: not supported: net_cls and net_prio are cgroup "
			    "v1 controllers"));
	CHECK(refused_on_v2(RES("{\"network\":{\"priorities\":[{\"name\":\"lo\",\"priority\":1}]}}"),
			    "linux.resources.network.priorities[0]: not supported: net_cls and "
			    "net_prio are cgroup v1 controllers"));
	return 0;
}

TEST(cgroup_v1_knobs_become_v1_files_in_v1_units)
{
	struct oci_spec *s = parse(RES("{\"memory\":{\"swappiness\":10,\"disableOOMKiller\":true},"
				       "\"network\":{\"classID\":1048577,\"priorities\":"
				       "[{\"name\":\"eth0\",\"priority\":5}]},"
				       "\"blockIO\":{\"weightDevice\":[{\"major\":8,\"minor\":0,\"weight\":500}],"
				       "\"throttleReadBpsDevice\":[{\"major\":8,\"minor\":0,\"rate\":1048576}]}}"));
	const struct oci_resources *r;

	CHECK(s);
	r = &s->resources;
	CHECK(r->n_v1 == 6);
	CHECK_STR(r->v1[0].file, "blkio.weight_device");
	CHECK_STR(r->v1[0].value, "8:0 500");
	CHECK(r->v1[0].v2_refusal == NULL);
	CHECK_STR(r->v1[1].file, "blkio.throttle.read_bps_device");
	CHECK_STR(r->v1[1].value, "8:0 1048576");
	CHECK_STR(r->v1[2].file, "memory.swappiness");
	CHECK_STR(r->v1[2].value, "10");
	CHECK_STR(r->v1[3].file, "memory.oom_control");
	CHECK_STR(r->v1[3].value, "1");
	CHECK_STR(r->v1[4].file, "net_cls.classid");
	CHECK_STR(r->v1[4].value, "1048577");
	CHECK_STR(r->v1[5].file, "net_prio.ifpriomap");
	CHECK_STR(r->v1[5].value, "eth0 5");
	CHECK_STR(r->v1[5].json_path, "linux.resources.network.priorities[0]");
	oci_spec_free(s);
	return 0;
}

TEST(cgroup_v1_knobs_that_ask_for_nothing_pass)
{
	struct oci_spec *s = parse(RES("{\"memory\":{\"disableOOMKiller\":false,\"useHierarchy\":true,"
				       "\"swappiness\":null,\"kernel\":0},\"cpu\":{\"realtimeRuntime\":0}}"));

	CHECK(s);
	oci_spec_free(s);
	return 0;
}

TEST(lsm_labels_are_read)
{
	struct oci_spec *s = parse("{\"ociVersion\":\"1.2.0\",\"root\":{\"path\":\"rootfs\"},"
				   "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"sh\"],"
				   "\"cwd\":\"/\",\"apparmorProfile\":\"p\",\"selinuxLabel\":\"l\"},"
				   "\"linux\":{\"mountLabel\":\"m\"}}");

	CHECK(s);
	CHECK_STR(s->process.apparmor_profile, "p");
	CHECK_STR(s->process.selinux_label, "l");
	CHECK_STR(s->mount_label, "m");
	oci_spec_free(s);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(the_default_spec_parses);
	RUN(the_rootless_default_spec_maps_the_caller_and_needs_no_root);
	RUN(a_minimal_config_parses);
	RUN(mount_id_mappings_idmap_the_mount_without_the_option);
	RUN(unknown_members_are_ignored);
	RUN(rlimit_infinity_survives);
	RUN(invalid_json_is_refused);
	RUN(rlimits_are_checked);
	RUN(unknown_capabilities_are_skipped_and_listed);
	RUN(hooks_are_parsed_by_kind_in_order);
	RUN(a_seccomp_profile_is_parsed);
	RUN(sysctl_and_oom_score_adj_are_checked);
	RUN(a_nul_byte_is_refused);
	RUN(a_nul_escape_in_a_string_is_refused_by_its_path);
	RUN(nesting_deeper_than_the_bound_is_refused);
	RUN(only_runtime_spec_1_is_taken);
	RUN(net_devices_are_read_with_the_host_name_as_default);
	RUN(a_config_swap_limit_without_a_memory_limit_is_refused);
	RUN(cgroup_v1_knobs_are_refused_by_path_when_they_ask_for_something);
	RUN(cgroup_v1_knobs_that_ask_for_nothing_pass);
	RUN(cgroup_v1_knobs_become_v1_files_in_v1_units);
	RUN(lsm_labels_are_read);
	run_bad_configs();
	TAP_DONE();
}
