/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "oci/cleanup.h"
#include "shim/devices_bpf.h"
#include "shim/syscalls.h"

#define ACC_ALL (DEV_ACC_READ | DEV_ACC_WRITE | DEV_ACC_MKNOD)
#define MAX_INSNS 4096
#define MAX_OLD_PROGS 64
#define LOG_SIZE (1 << 20)

const struct device_rule devices_default_rules[] = {
	{ true, 'c', -1, -1, DEV_ACC_MKNOD },	{ true, 'b', -1, -1, DEV_ACC_MKNOD },
	{ true, 'c', 1, 3, ACC_ALL },		/* null */
	{ true, 'c', 1, 5, ACC_ALL },		/* zero */
	{ true, 'c', 1, 7, ACC_ALL },		/* full */
	{ true, 'c', 1, 8, ACC_ALL },		/* random */
	{ true, 'c', 1, 9, ACC_ALL },		/* urandom */
	{ true, 'c', 5, 0, ACC_ALL },		/* tty */
	{ true, 'c', 5, 1, ACC_ALL },		/* console */
	{ true, 'c', 5, 2, ACC_ALL },		/* ptmx */
	{ true, 'c', 136, -1, ACC_ALL },	/* pts */
	{ true, 'c', 10, 200, ACC_ALL },	/* net/tun */
};
const size_t devices_n_default = sizeof(devices_default_rules) / sizeof(devices_default_rules[0]);

/* Registers: r2 access_type, r3 type, r4 access, r5 major, r6 minor, r7 scratch. */
/* The registers are 4-bit fields: GCC's -Wconversion cannot see that a
 * value masked with 0xf fits one, so it is told here, once. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
static struct bpf_insn insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	return (struct bpf_insn){ .code = code, .dst_reg = dst & 0xf, .src_reg = src & 0xf,
				  .off = off, .imm = imm };
}
#pragma GCC diagnostic pop

static size_t rule_length(const struct device_rule *r)
{
	size_t n = 2;	/* r0 = verdict; exit */

	n += r->type != 'a';
	n += r->access != ACC_ALL ? 3 : 0;
	n += r->major >= 0;
	n += r->minor >= 0;
	return n;
}

static void emit_rule(const struct device_rule *r, struct bpf_insn *out, size_t *at)
{
	size_t end = *at + rule_length(r);
	/* a jump from the next instruction to the end of this block */
#define SKIP() ((int16_t)(end - (*at + 1)))

	if (r->type != 'a') {
		out[*at] = insn(BPF_JMP | BPF_JNE | BPF_K, 3, 0, SKIP(), r->type == 'c' ? BPF_DEVCG_DEV_CHAR : BPF_DEVCG_DEV_BLOCK);
		(*at)++;
	}
	if (r->access != ACC_ALL) {
		out[(*at)++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, 7, 4, 0, 0);
		/* allow: every access asked is in the rule; deny: any is */
		out[(*at)++] = insn(BPF_ALU64 | BPF_AND | BPF_K, 7, 0, 0,
				    r->allow ? (int32_t)(~r->access & ACC_ALL) : (int32_t)r->access);
		out[*at] = insn(BPF_JMP | (r->allow ? BPF_JNE : BPF_JEQ) | BPF_K, 7, 0, SKIP(), 0);
		(*at)++;
	}
	if (r->major >= 0) {
		out[*at] = insn(BPF_JMP | BPF_JNE | BPF_K, 5, 0, SKIP(), (int32_t)r->major);
		(*at)++;
	}
	if (r->minor >= 0) {
		out[*at] = insn(BPF_JMP | BPF_JNE | BPF_K, 6, 0, SKIP(), (int32_t)r->minor);
		(*at)++;
	}
	out[(*at)++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, r->allow ? 1 : 0);
	out[(*at)++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
#undef SKIP
}

int devices_compile(const struct device_rule *rules, size_t n, struct bpf_insn *out, size_t max)
{
	const size_t n_default = devices_n_default;
	size_t need = 5 + 2, at = 0;

	for (size_t i = 0; i < n; i++)
		need += rule_length(&rules[i]);
	for (size_t i = 0; i < n_default; i++)
		need += rule_length(&devices_default_rules[i]);
	if (need > max)
		return -1;
	out[at++] = insn(BPF_LDX | BPF_W | BPF_MEM, 2, 1, 0, 0);	/* access_type */
	out[at++] = insn(BPF_LDX | BPF_W | BPF_MEM, 5, 1, 4, 0);	/* major */
	out[at++] = insn(BPF_LDX | BPF_W | BPF_MEM, 6, 1, 8, 0);	/* minor */
	out[at++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, 3, 2, 0, 0);
	out[at++] = insn(BPF_ALU64 | BPF_AND | BPF_K, 3, 0, 0, 0xffff);	/* type */
	out[at++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, 4, 2, 0, 0);
	out[at++] = insn(BPF_ALU64 | BPF_RSH | BPF_K, 4, 0, 0, 16);	/* access */
	/* last rule first: the defaults, then the config's from its end. A
	 * rule that matches everything ends the program: the verifier refuses
	 * code after it as unreachable. */
	for (size_t i = n_default; i-- > 0;)
		emit_rule(&devices_default_rules[i], out, &at);
	for (size_t i = n; i-- > 0;) {
		emit_rule(&rules[i], out, &at);
		if (rule_length(&rules[i]) == 2)
			return (int)at;
	}
	out[at++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	out[at++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return (int)at;
}

static int try_load(const struct bpf_insn *insns, int n, char *log, size_t log_size)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
	attr.insns = (uint64_t)(uintptr_t)insns;
	attr.insn_cnt = (uint32_t)n;
	attr.license = (uint64_t)(uintptr_t)"GPL";
	if (log) {
		attr.log_buf = (uint64_t)(uintptr_t)log;
		attr.log_size = (uint32_t)log_size;
		attr.log_level = 1;
	}
	return sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

/* Loaded without a log; on failure again with one, for the verifier's word. */
static int load_program(const struct bpf_insn *insns, int n, struct shim_error *err)
{
	_cleanup_free_ char *log = NULL;
	int fd = try_load(insns, n, NULL, 0), saved = errno;
	const char *last;

	if (fd >= 0)
		return fd;
	log = calloc(1, LOG_SIZE);
	if (log && try_load(insns, n, log, LOG_SIZE) < 0 && log[0]) {
		/* the verifier's reason is its last line */
		size_t len = strlen(log);

		while (len && log[len - 1] == '\n')
			log[--len] = '\0';
		last = strrchr(log, '\n');
		return shim_fail(err, saved, "loading the device program: %s", last ? last + 1 : log);
	}
	return shim_fail(err, saved, "loading the device program");
}

/* The IDs of the device programs attached to the folder now. */
static int query_attached(int cgroup_fd, uint32_t *ids, uint32_t *n, struct shim_error *err)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.query.target_fd = (uint32_t)cgroup_fd;
	attr.query.attach_type = BPF_CGROUP_DEVICE;
	attr.query.prog_ids = (uint64_t)(uintptr_t)ids;
	attr.query.prog_cnt = *n;
	if (sys_bpf(BPF_PROG_QUERY, &attr, sizeof(attr)) < 0)
		return shim_fail_errno(err, "querying the device programs");
	*n = attr.query.prog_cnt;
	return 0;
}

static int attach_or_detach(int cmd, int cgroup_fd, int prog_fd, struct shim_error *err)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.target_fd = (uint32_t)cgroup_fd;
	attr.attach_bpf_fd = (uint32_t)prog_fd;
	attr.attach_type = BPF_CGROUP_DEVICE;
	attr.attach_flags = cmd == BPF_PROG_ATTACH ? BPF_F_ALLOW_MULTI : 0;
	if (sys_bpf(cmd, &attr, sizeof(attr)) < 0)
		return shim_fail_errno(err, "%s the device program",
				       cmd == BPF_PROG_ATTACH ? "attaching" : "detaching");
	return 0;
}

static int detach_id(int cgroup_fd, uint32_t id, struct shim_error *err)
{
	union bpf_attr attr;
	_cleanup_close_ int fd = -1;

	memset(&attr, 0, sizeof(attr));
	attr.prog_id = id;
	fd = sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr, sizeof(attr));
	if (fd < 0)
		return errno == ENOENT ? 0 : shim_fail_errno(err, "device program %u", id);
	return attach_or_detach(BPF_PROG_DETACH, cgroup_fd, fd, err);
}

int devices_attach(int cgroup_fd, const struct device_rule *rules, size_t n,
		   struct shim_error *err)
{
	_cleanup_free_ struct bpf_insn *insns = calloc(MAX_INSNS, sizeof(*insns));
	_cleanup_close_ int prog = -1;
	uint32_t old[MAX_OLD_PROGS], n_old = MAX_OLD_PROGS;
	int count;

	if (!insns)
		return shim_fail(err, ENOMEM, "device program");
	count = devices_compile(rules, n, insns, MAX_INSNS);
	if (count < 0)
		return shim_fail(err, E2BIG, "%zu rules make too long a device program", n);
	if (query_attached(cgroup_fd, old, &n_old, err) < 0)
		return -1;
	prog = load_program(insns, count, err);
	if (prog < 0 || attach_or_detach(BPF_PROG_ATTACH, cgroup_fd, prog, err) < 0)
		return -1;
	for (uint32_t i = 0; i < n_old && i < MAX_OLD_PROGS; i++)
		if (detach_id(cgroup_fd, old[i], err) < 0)
			return -1;
	return 0;
}
