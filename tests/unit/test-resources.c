/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/resources.c: linux.resources as cgroup v2 writes, and
 * shim/cgroups/devices_bpf.c: the device program, run here by a small interpreter
 * of the instructions it emits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "oci/json.h"
#include "oci/resources.h"
#include "oci/update_flags.h"
#include "shim/cgroups/cgroup_v1.h"
#include "shim/cgroups/devices_bpf.h"
#include "shim/fsutil.h"
#include "shim/store.h"
#include "tests/unit/tap.h"

static struct shim_error err;
static struct oci_resources res;

static int parse(const char *json)
{
	yajl_val tree;
	int r;

	oci_resources_release(&res);
	memset(&err, 0, sizeof(err));
	tree = json_parse(json, strlen(json), "test", &err);
	if (!tree)
		return -1;
	r = oci_resources_parse(tree, "linux.resources", &res, &err);
	json_free(tree);
	return r;
}

static const char *value_of(const char *file)
{
	const struct cgroup_setting *s = oci_resources_find(&res, file);

	return s ? s->value : NULL;
}

static int refuses(const char *json, const char *msg)
{
	if (parse(json) == 0) {
		printf("# accepted: %s\n", json);
		return 0;
	}
	if (strcmp(err.msg, msg) != 0) {
		printf("# got \"%s\", want \"%s\"\n", err.msg, msg);
		return 0;
	}
	return 1;
}

TEST(update_flags_become_the_same_settings_as_resources_json)
{
	struct oci_update_flags f = { .memory = "512m", .memory_swap = "1g", .cpu_shares = "1024",
				      .cpu_quota = "50000", .cpuset_cpus = "0-1",
				      .pids_limit = "100", .blkio_weight = "500" };

	oci_resources_release(&res);
	CHECK(oci_resources_from_flags(&f, &res, &err) == 0);
	CHECK_STR(value_of("memory.max"), "536870912");
	CHECK_STR(value_of("memory.swap.max"), "536870912");
	CHECK_STR(value_of("cpu.weight"), "39");
	CHECK_STR(value_of("cpu.max"), "50000 100000");
	CHECK_STR(value_of("cpuset.cpus"), "0-1");
	CHECK_STR(value_of("pids.max"), "100");
	CHECK(value_of("io.weight") != NULL);
	return 0;
}

TEST(bad_update_flags_are_named)
{
	struct oci_update_flags size = { .memory = "12x" }, cpus = { .cpuset_cpus = "a" },
				long_list = { .cpuset_mems = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,"
							     "17,18,19,20,21,22,23,24" },
				low = { .memory_swap = "-2" };

	oci_resources_release(&res);
	CHECK(oci_resources_from_flags(&size, &res, &err) < 0);
	CHECK_STR(err.msg, "--memory: \"12x\" is not a size");
	CHECK(oci_resources_from_flags(&cpus, &res, &err) < 0);
	CHECK_STR(err.msg, "--cpuset-cpus: \"a\" is not a CPU or node list (\"0-2,4\")");
	CHECK(oci_resources_from_flags(&long_list, &res, &err) < 0);
	CHECK(strstr(err.msg, "--cpuset-mems: ") && strstr(err.msg, "is too long"));
	CHECK(oci_resources_from_flags(&low, &res, &err) < 0);
	CHECK_STR(err.msg, "--memory-swap: \"-2\" is below -1");
	return 0;
}

TEST(kernel_memory_is_ignored_and_listed_for_a_warning)
{
	CHECK(parse("{\"memory\":{\"kernel\":-1,\"limit\":1048576}}") == 0);
	CHECK_STR(value_of("memory.max"), "1048576");
	CHECK(res.ignored && res.ignored[1] == NULL);
	CHECK_STR(res.ignored[0], "linux.resources.memory.kernel");
	CHECK(parse("{\"memory\":{\"limit\":1048576}}") == 0 && res.ignored == NULL);
	return 0;
}

TEST(rdma_limits_become_rdma_max_lines)
{
	CHECK(parse("{\"rdma\":{\"mlx5_1\":{\"hcaHandles\":3,\"hcaObjects\":10000}}}") == 0);
	CHECK_STR(value_of("rdma.max"), "mlx5_1 hca_handle=3 hca_object=10000");
	CHECK(parse("{\"rdma\":{\"mlx4_0\":{\"hcaObjects\":7}}}") == 0);
	CHECK_STR(value_of("rdma.max"), "mlx4_0 hca_object=7");
	CHECK(refuses("{\"rdma\":{\"a b\":{\"hcaHandles\":1}}}",
		      "linux.resources.rdma.a b: \"a b\" is not a device name"));
	return 0;
}

TEST(memory_limits_become_memory_max_low_and_swap_max)
{
	CHECK(parse("{\"memory\":{\"limit\":104857600,\"reservation\":52428800,"
		    "\"swap\":209715200}}") == 0);
	CHECK_STR(value_of("memory.max"), "104857600");
	CHECK_STR(value_of("memory.low"), "52428800");
	/* v1 counts memory + swap, v2 swap alone */
	CHECK_STR(value_of("memory.swap.max"), "104857600");
	CHECK(parse("{\"memory\":{\"limit\":-1,\"swap\":-1}}") == 0);
	CHECK_STR(value_of("memory.max"), "max");
	CHECK_STR(value_of("memory.swap.max"), "max");
	return 0;
}

TEST(a_swap_limit_below_the_memory_limit_is_refused)
{
	CHECK(refuses("{\"memory\":{\"limit\":200,\"swap\":100}}",
		      "linux.resources.memory: swap: 100 is less than memory.limit 200 "
		      "(swap counts memory plus swap)"));
	return 0;
}

TEST(a_swap_limit_alone_is_kept_for_update_to_count_from_the_cgroup)
{
	CHECK(parse("{\"memory\":{\"swap\":300}}") == 0);
	CHECK(res.has_swap_alone && res.swap_alone == 300);
	CHECK(value_of("memory.swap.max") == NULL);
	CHECK(parse("{\"memory\":{\"swap\":-1}}") == 0);
	CHECK(!res.has_swap_alone);
	CHECK_STR(value_of("memory.swap.max"), "max");
	return 0;
}

TEST(cpu_shares_quota_and_cpuset_map_to_v2_files)
{
	CHECK(parse("{\"cpu\":{\"shares\":1024,\"quota\":50000,\"period\":100000,"
		    "\"cpus\":\"0-1\",\"mems\":\"0\"}}") == 0);
	CHECK_STR(value_of("cpu.weight"), "39");
	CHECK_STR(value_of("cpu.max"), "50000 100000");
	CHECK_STR(value_of("cpuset.cpus"), "0-1");
	CHECK_STR(value_of("cpuset.mems"), "0");
	CHECK(parse("{\"cpu\":{\"period\":20000}}") == 0);
	CHECK_STR(value_of("cpu.max"), "max 20000");
	CHECK(oci_cpu_shares_to_weight(2) == 1 && oci_cpu_shares_to_weight(262144) == 10000);
	return 0;
}

TEST(a_cpu_quota_and_period_of_zero_set_nothing_as_with_runc)
{
	/* docker update sends them so when it changes something else */
	CHECK(parse("{\"cpu\":{\"quota\":0,\"period\":0,\"shares\":1024}}") == 0);
	CHECK(value_of("cpu.max") == NULL);
	CHECK(parse("{\"cpu\":{\"quota\":0,\"period\":50000}}") == 0);
	CHECK_STR(value_of("cpu.max"), "max 50000");
	CHECK(parse("{\"cpu\":{\"quota\":-1}}") == 0);
	CHECK_STR(value_of("cpu.max"), "max 100000");
	CHECK(parse("{\"cpu\":{\"quota\":20000,\"period\":0}}") == 0);
	CHECK_STR(value_of("cpu.max"), "20000 100000");
	return 0;
}

TEST(pids_limit_zero_is_zero_and_negative_means_max)
{
	CHECK(parse("{\"pids\":{\"limit\":42}}") == 0);
	CHECK_STR(value_of("pids.max"), "42");
	CHECK(parse("{\"pids\":{\"limit\":0}}") == 0);
	CHECK_STR(value_of("pids.max"), "0");
	CHECK(parse("{\"pids\":{\"limit\":-1}}") == 0);
	CHECK_STR(value_of("pids.max"), "max");
	CHECK(parse("{\"pids\":{}}") == 0);
	CHECK(value_of("pids.max") == NULL);
	return 0;
}

TEST(block_io_weight_and_throttles_map_to_io_files)
{
	CHECK(parse("{\"blockIO\":{\"weight\":1000,\"throttleReadBpsDevice\":"
		    "[{\"major\":8,\"minor\":0,\"rate\":1048576}]}}") == 0);
	CHECK_STR(value_of("io.weight"), "default 10000");
	CHECK_STR(value_of("io.max"), "8:0 rbps=1048576");
	CHECK(refuses("{\"blockIO\":{\"throttleWriteIOPSDevice\":[{\"major\":8}]}}",
		      "linux.resources.blockIO.throttleWriteIOPSDevice[0]: needs major, minor and rate"));
	return 0;
}

TEST(hugepage_limits_and_unified_entries_pass_through)
{
	CHECK(parse("{\"hugepageLimits\":[{\"pageSize\":\"2MB\",\"limit\":4194304}],"
		    "\"memory\":{\"limit\":100},\"unified\":{\"memory.max\":\"200\","
		    "\"memory.high\":\"150\"}}") == 0);
	CHECK_STR(value_of("hugetlb.2MB.max"), "4194304");
	/* unified comes last and wins */
	CHECK_STR(value_of("memory.max"), "200");
	CHECK_STR(value_of("memory.high"), "150");
	return 0;
}

TEST(unified_keys_that_escape_or_move_processes_are_refused)
{
	CHECK(refuses("{\"unified\":{\"../x.max\":\"1\"}}",
		      "linux.resources.unified.../x.max: not a cgroup v2 file a container may set"));
	CHECK(refuses("{\"unified\":{\"cgroup.procs\":\"1\"}}",
		      "linux.resources.unified.cgroup.procs: not a cgroup v2 file a container may set"));
	CHECK(refuses("{\"unified\":{\"memory.max\":5}}",
		      "linux.resources.unified.memory.max: must be a string"));
	return 0;
}

TEST(wrong_types_and_ranges_are_named)
{
	CHECK(refuses("{\"memory\":{\"limit\":\"1G\"}}", "linux.resources.memory.limit: must be an integer"));
	CHECK(refuses("{\"cpu\":{\"shares\":300000}}",
		      "linux.resources.cpu.shares: 300000 is out of range (at most 262144)"));
	CHECK(refuses("{\"memory\":{\"limit\":-2}}",
		      "linux.resources.memory.limit: -2 is out of range (-1 to 9223372036854775807)"));
	CHECK(refuses("{\"devices\":[{\"allow\":true,\"access\":\"rx\"}]}",
		      "linux.resources.devices[0]: access: \"rx\" is not made of r, w and m"));
	CHECK(refuses("{\"devices\":[{\"type\":\"c\"}]}", "linux.resources.devices[0]: allow: missing"));
	return 0;
}

/* --- the device program, interpreted --- */

struct dev_ctx {
	uint32_t access_type, major, minor;
};

/* Runs the subset of eBPF devices_compile() emits; -1 on anything else. */
static int run_program(const struct bpf_insn *p, int n, const struct dev_ctx *ctx)
{
	uint64_t r[11] = { 0 };

	for (int pc = 0; pc >= 0 && pc < n; pc++) {
		const struct bpf_insn *i = &p[pc];
		uint64_t *d = &r[i->dst_reg], imm = (uint64_t)(int64_t)i->imm;

		switch (i->code) {
		case BPF_LDX | BPF_W | BPF_MEM:
			*d = ((const uint32_t *)ctx)[i->off / 4];
			break;
		case BPF_ALU64 | BPF_MOV | BPF_X: *d = r[i->src_reg]; break;
		case BPF_ALU64 | BPF_MOV | BPF_K: *d = imm; break;
		case BPF_ALU64 | BPF_AND | BPF_K: *d &= imm; break;
		case BPF_ALU64 | BPF_RSH | BPF_K: *d >>= imm; break;
		case BPF_JMP | BPF_JNE | BPF_K: if (*d != imm) pc += i->off; break;
		case BPF_JMP | BPF_JEQ | BPF_K: if (*d == imm) pc += i->off; break;
		case BPF_JMP | BPF_JA: pc += i->off; break;
		case BPF_JMP | BPF_EXIT: return (int)r[0];
		default: return -1;
		}
	}
	return -1;
}

static int verdict(const char *rules_json, char type, uint32_t major, uint32_t minor,
		   unsigned int access)
{
	struct bpf_insn prog[4096];
	struct dev_ctx ctx = {
		.access_type = (access << 16) | (type == 'c' ? BPF_DEVCG_DEV_CHAR : BPF_DEVCG_DEV_BLOCK),
		.major = major, .minor = minor,
	};
	int n;

	if (parse(rules_json) < 0)
		return -2;
	n = devices_compile(res.devices, res.n_devices, prog, 4096);
	return n < 0 ? -2 : run_program(prog, n, &ctx);
}

#define DENY_ALL "{\"devices\":[{\"allow\":false,\"access\":\"rwm\"}"

TEST(device_program_denies_what_no_rule_allows)
{
	CHECK(verdict(DENY_ALL "]}", 'b', 8, 0, DEV_ACC_READ) == 0);
	CHECK(verdict(DENY_ALL "]}", 'c', 1, 11, DEV_ACC_READ | DEV_ACC_WRITE) == 0);
	CHECK(verdict("{\"devices\":[]}", 'c', 4, 1, DEV_ACC_READ) == 0);
	return 0;
}

TEST(device_program_allows_the_default_devices)
{
	CHECK(verdict(DENY_ALL "]}", 'c', 1, 3, DEV_ACC_READ | DEV_ACC_WRITE) == 1);	/* null */
	CHECK(verdict(DENY_ALL "]}", 'c', 136, 7, DEV_ACC_READ) == 1);		/* pts/7 */
	CHECK(verdict(DENY_ALL "]}", 'b', 8, 0, DEV_ACC_MKNOD) == 1);		/* mknod only */
	return 0;
}

TEST(device_program_the_last_matching_rule_decides)
{
	const char *rules = DENY_ALL ",{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":11,"
			    "\"access\":\"rw\"},{\"allow\":false,\"type\":\"c\",\"major\":1,"
			    "\"minor\":11,\"access\":\"w\"}]}";

	CHECK(verdict(rules, 'c', 1, 11, DEV_ACC_READ) == 1);
	CHECK(verdict(rules, 'c', 1, 11, DEV_ACC_WRITE) == 0);
	CHECK(verdict(rules, 'c', 1, 11, DEV_ACC_READ | DEV_ACC_WRITE) == 0);
	CHECK(verdict(rules, 'c', 1, 12, DEV_ACC_READ) == 0);
	CHECK(verdict(rules, 'b', 1, 11, DEV_ACC_READ) == 0);
	return 0;
}

TEST(device_program_an_allow_rule_covers_only_its_access)
{
	const char *rules = DENY_ALL ",{\"allow\":true,\"type\":\"b\",\"major\":7,\"access\":\"r\"}]}";

	CHECK(verdict(rules, 'b', 7, 3, DEV_ACC_READ) == 1);
	CHECK(verdict(rules, 'b', 7, 3, DEV_ACC_READ | DEV_ACC_WRITE) == 0);
	CHECK(verdict(rules, 'b', 8, 3, DEV_ACC_READ) == 0);
	return 0;
}

/* What the rules say, read from the last to the first, defaults after
 * the config's: the first that matches decides, none matching denies. */
static int reference_verdict(const struct device_rule *rules, size_t n, char type,
			     uint32_t major, uint32_t minor, unsigned int access)
{
	for (size_t k = n + devices_n_default; k-- > 0;) {
		const struct device_rule *r = k >= n ? &devices_default_rules[k - n] : &rules[k];
		bool match = (r->type == 'a' || r->type == type) &&
			     (r->major < 0 || r->major == major) &&
			     (r->minor < 0 || r->minor == minor) &&
			     (r->allow ? (access & ~r->access) == 0 : (access & r->access) != 0);

		if (match)
			return r->allow ? 1 : 0;
	}
	return 0;
}

TEST(device_program_answers_as_the_rules_read_in_order_for_random_rule_lists)
{
	static const char types[] = { 'a', 'c', 'b' };
	static const int64_t majors[] = { -1, 1, 5, 136 }, minors[] = { -1, 0, 3, 5 };
	static const uint32_t ask_major[] = { 1, 5, 7, 136 }, ask_minor[] = { 0, 3, 5, 9 };
	struct bpf_insn prog[4096];
	unsigned int seed = 17;
	int wrong = 0;

	for (int round = 0; round < 2000; round++) {
		struct device_rule rules[8];
		size_t n = (size_t)(rand_r(&seed) % 9);
		int len;

		for (size_t i = 0; i < n; i++)
			rules[i] = (struct device_rule){
				.allow = rand_r(&seed) % 2,
				.type = types[rand_r(&seed) % 3],
				.major = majors[rand_r(&seed) % 4],
				.minor = minors[rand_r(&seed) % 4],
				.access = 1 + (unsigned)rand_r(&seed) % 7,
			};
		len = devices_compile(rules, n, prog, 4096);
		CHECK(len > 0);
		for (int t = 0; t < 2; t++)
			for (int a = 0; a < 4; a++)
				for (int m = 0; m < 4; m++)
					for (unsigned acc = 1; acc <= 7; acc++) {
						char type = t ? 'b' : 'c';
						struct dev_ctx ctx = {
							.access_type = (acc << 16) | (t ? BPF_DEVCG_DEV_BLOCK
										    : BPF_DEVCG_DEV_CHAR),
							.major = ask_major[a], .minor = ask_minor[m],
						};

						if (run_program(prog, len, &ctx) !=
						    reference_verdict(rules, n, type, ask_major[a],
								      ask_minor[m], acc) && wrong++ < 5)
							printf("# round %d: %c %u:%u access %u\n", round, type,
							       ask_major[a], ask_minor[m], acc);
					}
	}
	CHECK(wrong == 0);
	return 0;
}

TEST(device_program_for_the_default_spec_groups_rules_that_differ_by_minor)
{
	struct bpf_insn prog[4096];

	/* runc's default spec, "deny all" then the defaults: 40 instructions
	 * (70 with a test block per rule; the verifier's time grows with it) */
	CHECK(parse(DENY_ALL "]}") == 0);
	CHECK(devices_compile(res.devices, res.n_devices, prog, 4096) == 40);
	return 0;
}

TEST(device_rules_as_cgroup_v1_lines)
{
	const struct device_rule all = { false, 'a', -1, -1, DEV_ACC_READ | DEV_ACC_WRITE | DEV_ACC_MKNOD };
	const struct device_rule pts = { true, 'c', 136, -1, DEV_ACC_READ | DEV_ACC_WRITE };
	const struct device_rule loop = { true, 'b', 7, 0, DEV_ACC_MKNOD };
	char line[48];

	cgroup_v1_device_rule(&all, line, sizeof(line));
	CHECK_STR(line, "a *:* rwm");
	cgroup_v1_device_rule(&pts, line, sizeof(line));
	CHECK_STR(line, "c 136:* rw");
	cgroup_v1_device_rule(&loop, line, sizeof(line));
	CHECK_STR(line, "b 7:0 m");
	return 0;
}

TEST(a_cgroup_v1_folder_is_below_the_hierarchy_and_never_climbs)
{
	struct cgroup_v1 cg = CGROUP_V1_NONE;

	CHECK(cgroup_v1_resolve("/a/b/", "c1", &cg, &err) == 0);
	CHECK_STR(cg.rel, "/a/b");
	/* an absolute path is the same in every hierarchy */
	CHECK_STR(cg.path[V1_MEMORY], "/a/b");
	CHECK_STR(cg.path[V1_SYSTEMD], "/a/b");
	CHECK(cgroup_v1_resolve("/a/../../etc", "c1", &cg, &err) < 0);
	CHECK(strstr(err.msg, "linux.cgroupsPath"));
	CHECK(cgroup_v1_resolve("/..", "c1", &cg, &err) < 0);
	CHECK(cgroup_v1_resolve("/", "c1", &cg, &err) < 0);
	CHECK(cgroup_v1_resolve("/a/..b", "c1", &cg, &err) == 0);
	return 0;
}

/* Our own folder of the hierarchy /proc/self/cgroup lists as key
 * ("memory", "name=systemd"; "" for the "0::" line), else "/". */
static void own_folder(const char *key, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[4096], want[64], list[512];

	snprintf(out, len, "/");
	snprintf(want, sizeof(want), ",%s,", key);
	while (f && fgets(line, sizeof(line), f)) {
		char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;

		if (!b)
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(list, sizeof(list), ",%.*s,", (int)(b - a - 1), a + 1);
		if (*key ? strstr(list, want) != NULL : strcmp(list, ",,") == 0) {
			snprintf(out, len, "%s", b + 1);
			break;
		}
	}
	if (f)
		fclose(f);
}

TEST(a_relative_cgroup_v1_path_is_below_our_own_folder_of_each_hierarchy)
{
	static const struct { int c; const char *key; } h[] = {
		{ V1_MEMORY, "memory" }, { V1_DEVICES, "devices" },
		{ V1_SYSTEMD, "name=systemd" }, { V1_UNIFIED, "" },
	};
	struct cgroup_v1 cg = CGROUP_V1_NONE;
	char own[PATH_MAX], want[PATH_MAX + 8];

	CHECK(cgroup_v1_resolve("", "c1", &cg, &err) == 0);
	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		own_folder(h[i].key, own, sizeof(own));
		snprintf(want, sizeof(want), "%s%sc1", own, strcmp(own, "/") == 0 ? "" : "/");
		CHECK_STR(cg.path[h[i].c], want);
	}
	CHECK(cgroup_v1_resolve("x/y", "c1", &cg, &err) == 0);
	own_folder("memory", own, sizeof(own));
	snprintf(want, sizeof(want), "%s%sx/y", own, strcmp(own, "/") == 0 ? "" : "/");
	CHECK_STR(cg.path[V1_MEMORY], want);
	return 0;
}

TEST(a_cgroup_v1_record_names_only_folders_shim_could_have_made)
{
	char dir[] = "/tmp/shim-v1-record-XXXXXX";
	struct cgroup_v1 cg = CGROUP_V1_NONE, back;
	char *text = NULL;
	int fd;

	CHECK(mkdtemp(dir) != NULL);
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK(fd >= 0);
	CHECK(cgroup_v1_read_record(fd, &back, &err) < 0 && err.errnum == ENOENT);
	/* a record of one line (an older shim's): that folder everywhere */
	CHECK(write_file_at(fd, STORE_CGROUP_V1, "/shim/c1", &err) == 0);
	CHECK(cgroup_v1_read_record(fd, &back, &err) == 0);
	CHECK_STR(back.rel, "/shim/c1");
	CHECK_STR(back.path[V1_MEMORY], "/shim/c1");
	CHECK(unlinkat(fd, STORE_CGROUP_V1, 0) == 0);
	/* each hierarchy's own */
	CHECK(cgroup_v1_resolve("/shim/c1", "c1", &cg, &err) == 0);
	snprintf(cg.path[V1_MEMORY], sizeof(cg.path[V1_MEMORY]), "/caller/c1");
	text = cgroup_v1_record_text(&cg);
	CHECK(text && write_file_at(fd, STORE_CGROUP_V1, text, &err) == 0);
	free(text);
	CHECK(cgroup_v1_read_record(fd, &back, &err) == 0);
	CHECK_STR(back.path[V1_MEMORY], "/caller/c1");
	CHECK_STR(back.path[V1_PIDS], "/shim/c1");
	CHECK_STR(cgroup_v1_folder_of(&back, "memory"), "/caller/c1");
	CHECK_STR(cgroup_v1_folder_of(&back, "cpu,cpuacct"), "/shim/c1");
	CHECK(cgroup_v1_folder_of(&back, "perf_event") == NULL);
	CHECK(cgroup_v1_folder_of(&back, "unified") == NULL);
	CHECK(unlinkat(fd, STORE_CGROUP_V1, 0) == 0);
	CHECK(write_file_at(fd, STORE_CGROUP_V1, "/shim/c1\nmemory /shim/../../etc\n", &err) == 0);
	CHECK(cgroup_v1_read_record(fd, &back, &err) < 0 && err.errnum == EINVAL);
	CHECK(unlinkat(fd, STORE_CGROUP_V1, 0) == 0);
	CHECK(write_file_at(fd, STORE_CGROUP_V1, "shim/c1", &err) == 0);
	CHECK(cgroup_v1_read_record(fd, &back, &err) < 0 && err.errnum == EINVAL);
	close(fd);
	CHECK(remove_tree_at(AT_FDCWD, dir, &err) == 0);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(device_rules_as_cgroup_v1_lines);
	RUN(a_cgroup_v1_folder_is_below_the_hierarchy_and_never_climbs);
	RUN(a_relative_cgroup_v1_path_is_below_our_own_folder_of_each_hierarchy);
	RUN(a_cgroup_v1_record_names_only_folders_shim_could_have_made);
	RUN(update_flags_become_the_same_settings_as_resources_json);
	RUN(bad_update_flags_are_named);
	RUN(kernel_memory_is_ignored_and_listed_for_a_warning);
	RUN(rdma_limits_become_rdma_max_lines);
	RUN(memory_limits_become_memory_max_low_and_swap_max);
	RUN(a_swap_limit_below_the_memory_limit_is_refused);
	RUN(a_swap_limit_alone_is_kept_for_update_to_count_from_the_cgroup);
	RUN(cpu_shares_quota_and_cpuset_map_to_v2_files);
	RUN(a_cpu_quota_and_period_of_zero_set_nothing_as_with_runc);
	RUN(pids_limit_zero_is_zero_and_negative_means_max);
	RUN(block_io_weight_and_throttles_map_to_io_files);
	RUN(hugepage_limits_and_unified_entries_pass_through);
	RUN(unified_keys_that_escape_or_move_processes_are_refused);
	RUN(wrong_types_and_ranges_are_named);
	RUN(device_program_denies_what_no_rule_allows);
	RUN(device_program_allows_the_default_devices);
	RUN(device_program_the_last_matching_rule_decides);
	RUN(device_program_an_allow_rule_covers_only_its_access);
	RUN(device_program_answers_as_the_rules_read_in_order_for_random_rule_lists);
	RUN(device_program_for_the_default_spec_groups_rules_that_differ_by_minor);
	oci_resources_release(&res);
	TAP_DONE();
}
