/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/seccomp_stub.h: the -ENOSYS stub put in front of a seccomp filter.
 *
 * A profile written for an older kernel denies, by its default action,
 * every syscall it does not name, and so answers EPERM for syscalls newer
 * than itself: glibc then fails instead of falling back (clone3, faccessat2,
 * openat2...). runc puts a stub before the filter that answers ENOSYS for
 * any syscall numbered above the highest one the profile names, per
 * architecture; shim does the same. On x86_64 the x32 calls (bit 30 set)
 * are compared with the x32 maximum, or left to the filter when the
 * profile has no x32.
 */
#ifndef SHIM_SECCOMP_STUB_H
#define SHIM_SECCOMP_STUB_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct enosys_arch {
	uint32_t audit;		/* AUDIT_ARCH_* the kernel reports */
	uint32_t max;		/* highest number the profile names (native mode) */
	uint32_t max_x32;	/* same for x32 calls, on AUDIT_ARCH_X86_64 */
	bool has_max, has_max_x32;
};

/* Instructions seccomp_enosys_stub writes for these architectures. */
size_t seccomp_enosys_stub_len(const struct enosys_arch *arches, size_t n);

/* Writes the stub into out (seccomp_enosys_stub_len entries); its last
 * jumps go to the instruction right after it, the filter's first. */
void seccomp_enosys_stub(const struct enosys_arch *arches, size_t n, struct sock_filter *out);

#endif
