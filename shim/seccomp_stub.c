/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>

#include "shim/seccomp_stub.h"

#define X32_SYSCALL_BIT 0x40000000u
#define ARCH_OFFSET 4u		/* offsetof(struct seccomp_data, arch) */
#define NR_OFFSET 0u

/* Per architecture: a test and a jump in the header, then its section. */
static size_t section_len(const struct enosys_arch *a)
{
	return a->audit == AUDIT_ARCH_X86_64 ? 8 : 4;
}

size_t seccomp_enosys_stub_len(const struct enosys_arch *arches, size_t n)
{
	size_t len = 1 + 2 * n + 1 + 1;		/* ld arch, (jeq, ja)*, ja filter, ret */

	for (size_t i = 0; i < n; i++)
		len += section_len(&arches[i]);
	return len;
}

struct emitter {
	struct sock_filter *ins;
	size_t at;
};

static void emit(struct emitter *e, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	e->ins[e->at++] = (struct sock_filter){ .code = code, .jt = jt, .jf = jf, .k = k };
}

/* An unconditional jump to the absolute instruction target. */
static void jump_to(struct emitter *e, size_t target)
{
	emit(e, BPF_JMP | BPF_JA, 0, 0, (uint32_t)(target - e->at - 1));
}

/* nr > max: ENOSYS; else the filter. Without a maximum, always the filter. */
static void compare(struct emitter *e, bool has_max, uint32_t max, size_t enosys, size_t filter)
{
	emit(e, BPF_JMP | BPF_JGT | BPF_K, 0, 1, has_max ? max : UINT32_MAX);
	jump_to(e, enosys);
	jump_to(e, filter);
}

static void section(struct emitter *e, const struct enosys_arch *a, size_t enosys, size_t filter)
{
	emit(e, BPF_LD | BPF_W | BPF_ABS, 0, 0, NR_OFFSET);
	if (a->audit == AUDIT_ARCH_X86_64) {
		emit(e, BPF_JMP | BPF_JSET | BPF_K, 3, 0, X32_SYSCALL_BIT);
		compare(e, a->has_max, a->max, enosys, filter);
		compare(e, a->has_max_x32, a->max_x32, enosys, filter);
		return;
	}
	compare(e, a->has_max, a->max, enosys, filter);
}

void seccomp_enosys_stub(const struct enosys_arch *arches, size_t n, struct sock_filter *out)
{
	size_t filter = seccomp_enosys_stub_len(arches, n), enosys = filter - 1;
	size_t start = 1 + 2 * n + 1;	/* the first section */
	struct emitter e = { .ins = out };

	emit(&e, BPF_LD | BPF_W | BPF_ABS, 0, 0, ARCH_OFFSET);
	for (size_t i = 0, at = start; i < n; at += section_len(&arches[i]), i++) {
		emit(&e, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, arches[i].audit);
		jump_to(&e, at);
	}
	jump_to(&e, filter);
	for (size_t i = 0; i < n; i++)
		section(&e, &arches[i], enosys, filter);
	emit(&e, BPF_RET | BPF_K, 0, 0, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
}
