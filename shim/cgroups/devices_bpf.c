/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "oci/base/cleanup.h"
#include "shim/cgroups/devices_bpf.h"
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

/* A rule that matches every device and access: it ends the program, as
 * the verifier refuses code after it as unreachable. */
static bool matches_all(const struct device_rule *r)
{
	return r->type == 'a' && r->access == ACC_ALL && r->major < 0 && r->minor < 0;
}

/* Rules that differ only in their minor number share one set of tests. */
static bool same_group(const struct device_rule *a, const struct device_rule *b)
{
	return a->type == b->type && a->access == b->access && a->major == b->major;
}

struct emitter {
	struct bpf_insn *out;
	size_t at, max;
	bool full;
};

static size_t emit(struct emitter *e, struct bpf_insn i)
{
	if (e->at >= e->max) {
		e->full = true;
		return e->at;
	}
	e->out[e->at] = i;
	return e->at++;
}

/* Point the jump at index from to the instruction at index to. */
static void land(struct emitter *e, size_t from, size_t to)
{
	if (!e->full)
		e->out[from].off = (int16_t)(to - from - 1);
}

/* The tests of one group: a jump to its end on any mismatch, then a jump to
 * the run's verdict on a matching minor (or at once, if any minor goes).
 * The jumps to the verdict are listed in to_verdict. */
static void emit_group(struct emitter *e, const struct device_rule *const *g, size_t n,
		       size_t *to_verdict, size_t *n_to_verdict)
{
	const struct device_rule *r = g[0];
	size_t skips[3], n_skips = 0;
	bool any_minor = false;

	if (r->type != 'a')
		skips[n_skips++] = emit(e, insn(BPF_JMP | BPF_JNE | BPF_K, 3, 0, 0,
						 r->type == 'c' ? BPF_DEVCG_DEV_CHAR : BPF_DEVCG_DEV_BLOCK));
	if (r->access != ACC_ALL) {
		emit(e, insn(BPF_ALU64 | BPF_MOV | BPF_X, 7, 4, 0, 0));
		/* allow: every access asked is in the rule; deny: any is */
		emit(e, insn(BPF_ALU64 | BPF_AND | BPF_K, 7, 0, 0,
			     r->allow ? (int32_t)(~r->access & ACC_ALL) : (int32_t)r->access));
		skips[n_skips++] = emit(e, insn(BPF_JMP | (r->allow ? BPF_JNE : BPF_JEQ) | BPF_K,
						 7, 0, 0, 0));
	}
	if (r->major >= 0)
		skips[n_skips++] = emit(e, insn(BPF_JMP | BPF_JNE | BPF_K, 5, 0, 0, (int32_t)r->major));
	for (size_t i = 0; i < n; i++)
		any_minor |= g[i]->minor < 0;
	if (any_minor)
		to_verdict[(*n_to_verdict)++] = emit(e, insn(BPF_JMP | BPF_JA, 0, 0, 0, 0));
	else
		for (size_t i = 0; i < n; i++)
			to_verdict[(*n_to_verdict)++] =
				emit(e, insn(BPF_JMP | BPF_JEQ | BPF_K, 6, 0, 0, (int32_t)g[i]->minor));
	for (size_t i = 0; i < n_skips; i++)
		land(e, skips[i], e->at);
}

/* The program's answer: r0 = 1 (allowed) or 0, and return. */
static void emit_verdict(struct emitter *e, bool allow)
{
	emit(e, insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, allow ? 1 : 0));
	emit(e, insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
}

/* A run of rules with the same verdict: whichever of them matches first,
 * the answer is the same, so the run is one test "does any match", its
 * rules grouped. Returns false when the run matches everything (the
 * program ends with it). */
static bool emit_run(struct emitter *e, const struct device_rule **run, size_t n,
		     size_t *to_verdict)
{
	size_t n_to_verdict = 0, past;

	for (size_t i = 0; i < n; i++)
		if (matches_all(run[i])) {
			emit_verdict(e, run[0]->allow);
			return false;
		}
	for (size_t i = 0; i < n;) {
		size_t k = i + 1;

		/* the group's rules next to each other (order within a run
		 * does not matter) */
		for (size_t j = i + 1; j < n; j++)
			if (same_group(run[i], run[j])) {
				const struct device_rule *t = run[k];

				run[k] = run[j];
				run[j] = t;
				k++;
			}
		emit_group(e, run + i, k - i, to_verdict, &n_to_verdict);
		i = k;
	}
	past = emit(e, insn(BPF_JMP | BPF_JA, 0, 0, 0, 0));
	for (size_t i = 0; i < n_to_verdict; i++)
		land(e, to_verdict[i], e->at);
	emit_verdict(e, run[0]->allow);
	land(e, past, e->at);
	return true;
}

int devices_compile(const struct device_rule *rules, size_t n, struct bpf_insn *out, size_t max)
{
	const size_t n_default = devices_n_default;
	_cleanup_free_ const struct device_rule **order = calloc(n + n_default, sizeof(*order));
	_cleanup_free_ size_t *to_verdict = calloc(n + n_default, sizeof(*to_verdict));
	struct emitter e = { .out = out, .max = max };
	size_t n_order = 0;
	bool open_ended = true;

	if (!order || !to_verdict)
		return -1;
	/* last rule first: the defaults, then the config's from its end; a
	 * rule that matches everything hides the ones before it */
	for (size_t i = n_default; i-- > 0;)
		order[n_order++] = &devices_default_rules[i];
	for (size_t i = n; i-- > 0;) {
		order[n_order++] = &rules[i];
		if (matches_all(&rules[i]))
			break;
	}
	emit(&e, insn(BPF_LDX | BPF_W | BPF_MEM, 2, 1, 0, 0));	/* access_type */
	emit(&e, insn(BPF_LDX | BPF_W | BPF_MEM, 5, 1, 4, 0));	/* major */
	emit(&e, insn(BPF_LDX | BPF_W | BPF_MEM, 6, 1, 8, 0));	/* minor */
	emit(&e, insn(BPF_ALU64 | BPF_MOV | BPF_X, 3, 2, 0, 0));
	emit(&e, insn(BPF_ALU64 | BPF_AND | BPF_K, 3, 0, 0, 0xffff));	/* type */
	emit(&e, insn(BPF_ALU64 | BPF_MOV | BPF_X, 4, 2, 0, 0));
	emit(&e, insn(BPF_ALU64 | BPF_RSH | BPF_K, 4, 0, 0, 16));	/* access */
	for (size_t i = 0; i < n_order && open_ended;) {
		size_t k = i + 1;

		while (k < n_order && order[k]->allow == order[i]->allow)
			k++;
		open_ended = emit_run(&e, order + i, k - i, to_verdict);
		i = k;
	}
	if (open_ended) {	/* no rule matched: denied */
		emit_verdict(&e, false);
	}
	return e.full ? -1 : (int)e.at;
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
	/* not zeroed: emit() writes each instruction whole, and 32 KiB of memset
	 * was eight pages touched */
	_cleanup_free_ struct bpf_insn *insns = malloc(MAX_INSNS * sizeof(*insns));
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
