/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/fd.h"
#include "shim/log.h"
#include "shim/seccomp.h"
#include "shim/seccomp_stub.h"
#include "shim/syscalls.h"

static uint32_t action_of(const struct oci_scmp_action *a)
{
	switch (a->kind) {
	case ACT_KILL_THREAD: return SCMP_ACT_KILL_THREAD;
	case ACT_KILL_PROCESS: return SCMP_ACT_KILL_PROCESS;
	case ACT_TRAP: return SCMP_ACT_TRAP;
	case ACT_ERRNO: return SCMP_ACT_ERRNO(a->ret);
	case ACT_TRACE: return SCMP_ACT_TRACE(a->ret);
	case ACT_LOG: return SCMP_ACT_LOG;
	case ACT_NOTIFY: return SCMP_ACT_NOTIFY;
	case ACT_ALLOW:
		break;
	}
	return SCMP_ACT_ALLOW;
}

static const enum scmp_compare ops[] = {
	[OP_NE] = SCMP_CMP_NE, [OP_LT] = SCMP_CMP_LT, [OP_LE] = SCMP_CMP_LE, [OP_EQ] = SCMP_CMP_EQ,
	[OP_GE] = SCMP_CMP_GE, [OP_GT] = SCMP_CMP_GT, [OP_MASKED_EQ] = SCMP_CMP_MASKED_EQ,
};

static struct scmp_arg_cmp cmp_of(const struct oci_scmp_arg *a)
{
	return (struct scmp_arg_cmp){ .arg = a->index, .op = ops[a->op], .datum_a = a->value,
				      .datum_b = a->value_two };
}

/* One index more than once means "any of these" (runc's reading): one
 * libseccomp rule per comparison; else one rule with all of them. */
static bool repeats_an_index(const struct oci_scmp_rule *r)
{
	for (size_t i = 0; i < r->n_args; i++)
		for (size_t j = i + 1; j < r->n_args; j++)
			if (r->args[i].index == r->args[j].index)
				return true;
	return false;
}

static int add_rule(scmp_filter_ctx ctx, const struct oci_scmp_rule *r, int nr, uint32_t action)
{
	struct scmp_arg_cmp cmps[6];
	int rc = 0;

	if (r->n_args > 0 && repeats_an_index(r)) {
		for (size_t i = 0; i < r->n_args && rc == 0; i++) {
			cmps[0] = cmp_of(&r->args[i]);
			rc = seccomp_rule_add_array(ctx, action, nr, 1, cmps);
		}
		return rc;
	}
	for (size_t i = 0; i < r->n_args && i < 6; i++)
		cmps[i] = cmp_of(&r->args[i]);
	return seccomp_rule_add_array(ctx, action, nr, (unsigned int)(r->n_args < 6 ? r->n_args : 6), cmps);
}

static int add_rules(scmp_filter_ctx ctx, const struct oci_seccomp *s, struct shim_error *err)
{
	uint32_t deflt = action_of(&s->default_action);

	for (size_t i = 0; i < s->n_rules; i++) {
		const struct oci_scmp_rule *r = &s->rules[i];
		uint32_t action = action_of(&r->action);

		if (action == deflt)
			continue;	/* libseccomp refuses rules that change nothing */
		for (char **name = r->names; *name; name++) {
			int nr = seccomp_syscall_resolve_name(*name), rc;

			if (nr == __NR_SCMP_ERROR) {
				log_debug("linux.seccomp.syscalls[%zu]: skipping unknown syscall %s", i, *name);
				continue;
			}
			rc = add_rule(ctx, r, nr, action);
			if (rc < 0)
				return shim_fail(err, -rc, "linux.seccomp.syscalls[%zu]: adding %s", i, *name);
		}
	}
	return 0;
}

static int setup(scmp_filter_ctx ctx, const struct oci_seccomp *s, struct shim_error *err)
{
	int rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);

	if (rc == 0 && (s->flags & SCMP_FLAG_TSYNC))
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
	if (rc == 0 && (s->flags & SCMP_FLAG_LOG))
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_LOG, 1);
	if (rc == 0 && (s->flags & SCMP_FLAG_SPEC_ALLOW))
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_SSB, 1);
	if (rc < 0)
		return shim_fail(err, -rc, "linux.seccomp.flags");
	for (size_t i = 0; s->architectures && s->architectures[i]; i++) {
		uint32_t arch = seccomp_arch_resolve_name(s->architectures[i]);

		if (!arch)
			return shim_fail(err, 0, "linux.seccomp.architectures: libseccomp does not know "
					 "\"%s\"", s->architectures[i]);
		rc = seccomp_arch_add(ctx, arch);
		if (rc < 0 && rc != -EEXIST)
			return shim_fail(err, -rc, "linux.seccomp.architectures: adding %s",
					 s->architectures[i]);
	}
	return add_rules(ctx, s, err);
}

/* The stub applies when unnamed syscalls are denied, other than with
 * ENOSYS already (runc's rule). */
static bool wants_enosys_stub(const struct oci_seccomp *s)
{
	const struct oci_scmp_action *d = &s->default_action;

	if (d->kind == ACT_ALLOW || d->kind == ACT_LOG)
		return false;
	return !(d->kind == ACT_ERRNO && d->ret == ENOSYS);
}

static bool highest_syscall(const struct oci_seccomp *s, uint32_t arch, uint32_t *max)
{
	bool found = false;

	for (size_t i = 0; i < s->n_rules; i++)
		for (char **name = s->rules[i].names; *name; name++) {
			int nr = seccomp_syscall_resolve_name_arch(arch, *name);

			if (nr >= 0 && (!found || (uint32_t)nr > *max)) {
				*max = (uint32_t)nr;
				found = true;
			}
		}
	return found;
}

static struct enosys_arch *entry_for(struct enosys_arch *arches, size_t *n, uint32_t audit)
{
	for (size_t i = 0; i < *n; i++)
		if (arches[i].audit == audit)
			return &arches[i];
	arches[*n] = (struct enosys_arch){ .audit = audit };
	return &arches[(*n)++];
}

#define MAX_ENOSYS_ARCHES 16

static void add_enosys_arch(const struct oci_seccomp *s, uint32_t token,
			    struct enosys_arch *arches, size_t *n)
{
	bool x32 = token == SCMP_ARCH_X32;
	struct enosys_arch *a;
	uint32_t max;

	if (!token || *n == MAX_ENOSYS_ARCHES || !highest_syscall(s, token, &max))
		return;
	a = entry_for(arches, n, x32 ? SCMP_ARCH_X86_64 : token);
	if (x32)
		a->max_x32 = max, a->has_max_x32 = true;
	else
		a->max = max, a->has_max = true;
}

/* The native architecture (libseccomp always filters it) and the listed
 * ones, one entry per value the kernel reports (x32 shares x86_64's). */
static size_t enosys_arches(const struct oci_seccomp *s, struct enosys_arch *arches)
{
	size_t n = 0;

	add_enosys_arch(s, seccomp_arch_native(), arches, &n);
	for (char **name = s->architectures; name && *name; name++)
		add_enosys_arch(s, seccomp_arch_resolve_name(*name), arches, &n);
	return n;
}

struct seccomp_program {
	struct sock_fprog prog;
	unsigned int flags;	/* SECCOMP_FILTER_FLAG_* */
};

static unsigned int load_flags(const struct oci_seccomp *s)
{
	unsigned int flags = 0;

	if (s->flags & SCMP_FLAG_TSYNC)
		flags |= SECCOMP_FILTER_FLAG_TSYNC;
	if (s->flags & SCMP_FLAG_LOG)
		flags |= SECCOMP_FILTER_FLAG_LOG;
	if (s->flags & SCMP_FLAG_SPEC_ALLOW)
		flags |= SECCOMP_FILTER_FLAG_SPEC_ALLOW;
	if (oci_seccomp_uses_notify(s))
		flags |= SECCOMP_FILTER_FLAG_NEW_LISTENER;
	if ((flags & SECCOMP_FILTER_FLAG_TSYNC) && (flags & SECCOMP_FILTER_FLAG_NEW_LISTENER))
		flags |= SECCOMP_FILTER_FLAG_TSYNC_ESRCH;
	return flags;
}

/* libseccomp's BPF, through a memfd (2.5 has no export to memory). */
static int export_filter(scmp_filter_ctx ctx, size_t room_before, struct sock_fprog *out,
			 struct shim_error *err)
{
	_cleanup_close_ int fd = sys_memfd_create("seccomp", MFD_CLOEXEC);
	size_t len, total;
	struct stat st;
	int rc;

	if (fd < 0)
		return shim_fail_errno(err, "linux.seccomp: memfd_create");
	rc = seccomp_export_bpf(ctx, fd);
	if (rc < 0)
		return shim_fail(err, -rc, "linux.seccomp: exporting the filter");
	if (fstat(fd, &st) < 0)
		return shim_fail_errno(err, "linux.seccomp: fstat");
	len = (size_t)st.st_size / sizeof(struct sock_filter);
	total = room_before + len;
	if (total > BPF_MAXINSNS)
		return shim_fail(err, E2BIG, "linux.seccomp: the filter has %zu instructions, "
				 "more than the kernel's %d", total, BPF_MAXINSNS);
	out->filter = calloc(total, sizeof(struct sock_filter));
	if (!out->filter)
		return shim_fail(err, ENOMEM, "linux.seccomp");
	if (pread(fd, out->filter + room_before, len * sizeof(struct sock_filter), 0) !=
	    (ssize_t)(len * sizeof(struct sock_filter))) {
		free(out->filter);
		return shim_fail(err, EIO, "linux.seccomp: reading the exported filter");
	}
	out->len = (unsigned short)total;
	return 0;
}

static struct seccomp_program *program_of(scmp_filter_ctx ctx, const struct oci_seccomp *s,
					  struct shim_error *err)
{
	struct enosys_arch arches[MAX_ENOSYS_ARCHES];
	size_t n = wants_enosys_stub(s) ? enosys_arches(s, arches) : 0;
	size_t stub = n ? seccomp_enosys_stub_len(arches, n) : 0;
	struct seccomp_program *p = calloc(1, sizeof(*p));

	if (!p) {
		shim_fail(err, ENOMEM, "linux.seccomp");
		return NULL;
	}
	if (export_filter(ctx, stub, &p->prog, err) < 0) {
		free(p);
		return NULL;
	}
	if (stub)
		seccomp_enosys_stub(arches, n, p->prog.filter);
	p->flags = load_flags(s);
	log_debug("seccomp: %u instructions, %zu of them the ENOSYS stub", p->prog.len, stub);
	return p;
}

int seccomp_build(const struct oci_seccomp *s, struct seccomp_program **out,
		  struct shim_error *err)
{
	scmp_filter_ctx ctx;

	*out = NULL;
	if (!s->present)
		return 0;
	ctx = seccomp_init(action_of(&s->default_action));
	if (!ctx)
		return shim_fail(err, EINVAL, "linux.seccomp.defaultAction: seccomp_init");
	if (setup(ctx, s, err) == 0)
		*out = program_of(ctx, s, err);
	seccomp_release(ctx);
	return *out ? 0 : -1;
}

void seccomp_program_free(struct seccomp_program *p)
{
	if (p)
		free(p->prog.filter);
	free(p);
}

/* The filter's notify fd to the agent, with the container process state. */
static int hand_to_agent(int nfd, int agent_fd, const char *message, struct shim_error *err)
{
	if (nfd <= 0)
		return shim_fail(err, EBADF, "linux.seccomp.listenerPath: no notify fd");
	if (fd_send_with(agent_fd, nfd, message, strlen(message), err) < 0)
		return shim_error_wrap(err, "linux.seccomp.listenerPath: the agent");
	return 0;
}

int seccomp_install(struct seccomp_program *p, int agent_fd, const char *agent_message,
		    struct shim_error *err)
{
	int nfd, r = 0;

	if (!p)
		return 0;
	nfd = sys_seccomp(SECCOMP_SET_MODE_FILTER, p->flags, &p->prog);
	if (nfd < 0)
		shim_fail_errno(err, "linux.seccomp: loading the filter");
	seccomp_program_free(p);
	if (nfd < 0)
		return -1;
	if (agent_fd >= 0)
		r = hand_to_agent(nfd, agent_fd, agent_message, err);
	if (nfd > 0)
		close(nfd);
	return r;
}

int seccomp_agent_connect(const struct oci_seccomp *s, struct shim_error *err)
{
	log_debug("connecting to the seccomp agent at %s", s->listener_path);
	return fd_connect_unix(s->listener_path,
			       "linux.seccomp.listenerPath: failed to connect with seccomp agent", err);
}
