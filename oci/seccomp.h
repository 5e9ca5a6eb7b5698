/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/seccomp.h: linux.seccomp, checked and turned into the project's own
 * enums (shim/seccomp.c maps them onto libseccomp). Syscall names are kept
 * as text: a name this kernel or libseccomp does not know is skipped when
 * the filter is built, as runc and crun do, since profiles list syscalls
 * newer than the machine. SCMP_ACT_NOTIFY needs listenerPath, where the
 * filter's notify fd goes (shim/seccomp.h).
 */
#ifndef OCI_SECCOMP_H
#define OCI_SECCOMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_tree.h>

#include "oci/base/error.h"

enum scmp_action_kind {
	ACT_KILL_THREAD, ACT_KILL_PROCESS, ACT_TRAP, ACT_ERRNO, ACT_TRACE, ACT_ALLOW, ACT_LOG,
	ACT_NOTIFY,
};

enum scmp_op_kind { OP_NE, OP_LT, OP_LE, OP_EQ, OP_GE, OP_GT, OP_MASKED_EQ };

#define SCMP_FLAG_TSYNC 1u
#define SCMP_FLAG_LOG 2u
#define SCMP_FLAG_SPEC_ALLOW 4u

struct oci_scmp_action {
	enum scmp_action_kind kind;
	uint32_t ret;		/* errnoRet for ERRNO (default EPERM), TRACE's value */
};

struct oci_scmp_arg {
	unsigned int index;	/* 0..5 */
	uint64_t value, value_two;
	enum scmp_op_kind op;
};

struct oci_scmp_rule {
	char **names;		/* NULL-terminated */
	struct oci_scmp_action action;
	struct oci_scmp_arg *args;
	size_t n_args;
};

struct oci_seccomp {
	bool present;
	struct oci_scmp_action default_action;
	char **architectures;	/* "x86_64", "x86", ... (SCMP_ARCH_ dropped, lower case) */
	unsigned int flags;	/* SCMP_FLAG_* */
	struct oci_scmp_rule *rules;
	size_t n_rules;
	char *listener_path;	/* the seccomp agent's socket, for SCMP_ACT_NOTIFY */
	char *listener_metadata;
};

int oci_seccomp_parse(yajl_val obj, struct oci_seccomp *s, struct shim_error *err);
void oci_seccomp_release(struct oci_seccomp *s);

/* Does any action (or the default) hand syscalls to an agent? */
bool oci_seccomp_uses_notify(const struct oci_seccomp *s);

/* The i-th action ("SCMP_ACT_ALLOW") or operator name this parser takes;
 * NULL past the last (features lists them). */
const char *oci_seccomp_action_name(size_t i);
const char *oci_seccomp_op_name(size_t i);

#endif
