/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "shim/fd.h"
#include "shim/log.h"
#include "shim/seccomp.h"

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

int seccomp_build(const struct oci_seccomp *s, void **out, struct shim_error *err)
{
	scmp_filter_ctx ctx;

	*out = NULL;
	if (!s->present)
		return 0;
	ctx = seccomp_init(action_of(&s->default_action));
	if (!ctx)
		return shim_fail(err, EINVAL, "linux.seccomp.defaultAction: seccomp_init");
	if (setup(ctx, s, err) < 0) {
		seccomp_release(ctx);
		return -1;
	}
	*out = ctx;
	return 0;
}

/* The filter's notify fd to the agent, with the container process state. */
static int hand_to_agent(void *filter, int agent_fd, const char *message, struct shim_error *err)
{
	int nfd = seccomp_notify_fd(filter), r;

	if (nfd < 0)
		return shim_fail(err, -nfd, "linux.seccomp.listenerPath: no notify fd");
	r = fd_send_with(agent_fd, nfd, message, strlen(message), err);
	close(nfd);
	return r < 0 ? shim_error_wrap(err, "linux.seccomp.listenerPath: the agent") : 0;
}

int seccomp_install(void *filter, int agent_fd, const char *agent_message, struct shim_error *err)
{
	int rc;

	if (!filter)
		return 0;
	rc = seccomp_load(filter);
	if (rc == 0 && agent_fd >= 0 && hand_to_agent(filter, agent_fd, agent_message, err) < 0)
		rc = 1;
	seccomp_release(filter);
	if (rc < 0)
		return shim_fail(err, -rc, "linux.seccomp: loading the filter");
	return rc ? -1 : 0;
}
