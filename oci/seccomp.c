/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/json.h"
#include "oci/seccomp.h"

static const char *const action_names[] = {
	[ACT_KILL_THREAD] = "SCMP_ACT_KILL_THREAD", [ACT_KILL_PROCESS] = "SCMP_ACT_KILL_PROCESS",
	[ACT_TRAP] = "SCMP_ACT_TRAP", [ACT_ERRNO] = "SCMP_ACT_ERRNO", [ACT_TRACE] = "SCMP_ACT_TRACE",
	[ACT_ALLOW] = "SCMP_ACT_ALLOW", [ACT_LOG] = "SCMP_ACT_LOG", [ACT_NOTIFY] = "SCMP_ACT_NOTIFY",
};

static const char *const op_names[] = {
	[OP_NE] = "SCMP_CMP_NE", [OP_LT] = "SCMP_CMP_LT", [OP_LE] = "SCMP_CMP_LE",
	[OP_EQ] = "SCMP_CMP_EQ", [OP_GE] = "SCMP_CMP_GE", [OP_GT] = "SCMP_CMP_GT",
	[OP_MASKED_EQ] = "SCMP_CMP_MASKED_EQ",
};

static const struct {
	const char *name;
	unsigned int flag;
} flag_names[] = {
	{ "SECCOMP_FILTER_FLAG_TSYNC", SCMP_FLAG_TSYNC },
	{ "SECCOMP_FILTER_FLAG_LOG", SCMP_FLAG_LOG },
	{ "SECCOMP_FILTER_FLAG_SPEC_ALLOW", SCMP_FLAG_SPEC_ALLOW },
};

/* name -> index in table, -1 if unknown */
static int lookup(const char *const *table, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(table[i], name) == 0)
			return (int)i;
	return -1;
}

static int parse_action(yajl_val obj, const char *key, const char *ret_key, const char *where,
			struct oci_scmp_action *a, struct shim_error *err)
{
	char *name = NULL;
	uint64_t ret = EPERM;
	int r, k;

	if ((r = json_get_string(obj, key, where, &name, err)) < 0)
		return -1;
	if (r == 1)
		return json_fail(err, where, "%s: missing", key);
	k = lookup(action_names, sizeof(action_names) / sizeof(action_names[0]), name);
	/* SCMP_ACT_KILL is the old name of KILL_THREAD */
	if (k < 0 && strcmp(name, "SCMP_ACT_KILL") == 0)
		k = ACT_KILL_THREAD;
	if (k < 0) {
		json_fail(err, where, "%s: unknown action \"%s\"", key, name);
		free(name);
		return -1;
	}
	free(name);
	if (k == ACT_TRACE)
		ret = 0;
	if (json_get_u64(obj, ret_key, where, UINT16_MAX, &ret, err) < 0)
		return -1;
	a->kind = (enum scmp_action_kind)k;
	a->ret = (uint32_t)ret;
	return 0;
}

static int parse_arg(yajl_val v, const char *where, struct oci_scmp_arg *a, struct shim_error *err)
{
	uint64_t index = 0;
	char *op = NULL;
	int r1, r2, k;

	if ((r1 = json_get_u64(v, "index", where, 5, &index, err)) < 0 ||
	    json_get_u64(v, "value", where, UINT64_MAX, &a->value, err) < 0 ||
	    json_get_u64(v, "valueTwo", where, UINT64_MAX, &a->value_two, err) < 0 ||
	    (r2 = json_get_string(v, "op", where, &op, err)) < 0)
		return -1;
	if (r1 || r2) {
		free(op);
		return json_fail(err, where, "needs an index and an op");
	}
	k = lookup(op_names, sizeof(op_names) / sizeof(op_names[0]), op);
	if (k < 0)
		json_fail(err, where, "op: unknown operator \"%s\"", op);
	free(op);
	a->index = (unsigned int)index;
	a->op = (enum scmp_op_kind)k;
	return k < 0 ? -1 : 0;
}

/* As runc and youki do: the runtime itself writes after a filter loads
 * (READY, exec.fifo, --log), so write is never the agent's to answer. */
static int refuses_notify(char **names, const char *where, struct shim_error *err)
{
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(names[i], "write"))
			return json_fail(err, where, "names[%zu]: SCMP_ACT_NOTIFY cannot be used for "
					 "the write syscall", i);
	return 0;
}

static int parse_rule(yajl_val v, const char *where, struct oci_scmp_rule *rule,
		      struct shim_error *err)
{
	yajl_val args = NULL;
	int r;

	if (!YAJL_IS_OBJECT(v))
		return json_fail(err, where, "must be an object");
	if ((r = json_get_strv(v, "names", where, &rule->names, err)) < 0)
		return -1;
	if (r == 1 || !rule->names[0])
		return json_fail(err, where, "names: must list at least one syscall");
	if (parse_action(v, "action", "errnoRet", where, &rule->action, err) < 0 ||
	    json_get_array(v, "args", where, &args, err) < 0)
		return -1;
	if (rule->action.kind == ACT_NOTIFY && refuses_notify(rule->names, where, err) < 0)
		return -1;
	if (!args || !args->u.array.len)
		return 0;
	rule->args = calloc(args->u.array.len, sizeof(*rule->args));
	if (!rule->args)
		return shim_fail(err, ENOMEM, "%s", where);
	for (size_t i = 0; i < args->u.array.len; i++) {
		char elem[128];

		snprintf(elem, sizeof(elem), "%s.args[%zu]", where, i);
		if (parse_arg(args->u.array.values[i], elem, &rule->args[i], err) < 0)
			return -1;
		rule->n_args++;
	}
	return 0;
}

/* "SCMP_ARCH_X86_64" -> "x86_64", libseccomp's name */
static int parse_archs(yajl_val obj, struct oci_seccomp *s, struct shim_error *err)
{
	if (json_get_strv(obj, "architectures", "linux.seccomp", &s->architectures, err) < 0)
		return -1;
	for (size_t i = 0; s->architectures && s->architectures[i]; i++) {
		char *a = s->architectures[i];

		if (strncmp(a, "SCMP_ARCH_", 10) != 0 || !a[10])
			return json_fail(err, "linux.seccomp.architectures", "\"%s\" is not an SCMP_ARCH_ name", a);
		memmove(a, a + 10, strlen(a + 10) + 1);
		for (char *p = a; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	}
	return 0;
}

static int parse_flags(yajl_val obj, struct oci_seccomp *s, struct shim_error *err)
{
	char **flags = NULL;

	if (json_get_strv(obj, "flags", "linux.seccomp", &flags, err) < 0)
		return -1;
	for (size_t i = 0; flags && flags[i]; i++) {
		size_t k;

		for (k = 0; k < sizeof(flag_names) / sizeof(flag_names[0]); k++)
			if (strcmp(flag_names[k].name, flags[i]) == 0)
				break;
		if (k == sizeof(flag_names) / sizeof(flag_names[0])) {
			json_fail(err, "linux.seccomp.flags", "unknown flag \"%s\"", flags[i]);
			strv_free(flags);
			return -1;
		}
		s->flags |= flag_names[k].flag;
	}
	strv_free(flags);
	return 0;
}

bool oci_seccomp_uses_notify(const struct oci_seccomp *s)
{
	/* a NOTIFY defaultAction is refused by the parser */
	for (size_t i = 0; i < s->n_rules; i++)
		if (s->rules[i].action.kind == ACT_NOTIFY)
			return true;
	return false;
}

int oci_seccomp_parse(yajl_val obj, struct oci_seccomp *s, struct shim_error *err)
{
	yajl_val rules = NULL;

	memset(s, 0, sizeof(*s));
	s->present = true;
	if (json_get_string(obj, "listenerPath", "linux.seccomp", &s->listener_path, err) < 0 ||
	    json_get_string(obj, "listenerMetadata", "linux.seccomp", &s->listener_metadata, err) < 0)
		goto fail;
	if (s->listener_path && s->listener_path[0] != '/') {
		json_fail(err, "linux.seccomp.listenerPath", "must be an absolute path");
		goto fail;
	}
	if (parse_action(obj, "defaultAction", "defaultErrnoRet", "linux.seccomp",
			 &s->default_action, err) < 0 ||
	    parse_archs(obj, s, err) < 0 || parse_flags(obj, s, err) < 0 ||
	    json_get_array(obj, "syscalls", "linux.seccomp", &rules, err) < 0)
		goto fail;
	/* every syscall not named, write with them (as above) */
	if (s->default_action.kind == ACT_NOTIFY) {
		json_fail(err, "linux.seccomp.defaultAction",
			  "SCMP_ACT_NOTIFY cannot be used as default action");
		goto fail;
	}
	if (rules && rules->u.array.len) {
		s->rules = calloc(rules->u.array.len, sizeof(*s->rules));
		if (!s->rules) {
			shim_fail(err, ENOMEM, "linux.seccomp.syscalls");
			goto fail;
		}
		for (size_t i = 0; i < rules->u.array.len; i++) {
			char where[64];

			snprintf(where, sizeof(where), "linux.seccomp.syscalls[%zu]", i);
			s->n_rules++;
			if (parse_rule(rules->u.array.values[i], where, &s->rules[i], err) < 0)
				goto fail;
		}
	}
	if (oci_seccomp_uses_notify(s) && !s->listener_path) {
		json_fail(err, "linux.seccomp.listenerPath", "SCMP_ACT_NOTIFY needs a seccomp agent here");
		goto fail;
	}
	return 0;
fail:
	oci_seccomp_release(s);
	return -1;
}

void oci_seccomp_release(struct oci_seccomp *s)
{
	for (size_t i = 0; i < s->n_rules; i++) {
		strv_free(s->rules[i].names);
		free(s->rules[i].args);
	}
	free(s->rules);
	strv_free(s->architectures);
	free(s->listener_path);
	free(s->listener_metadata);
	memset(s, 0, sizeof(*s));
}

const char *oci_seccomp_action_name(size_t i)
{
	return i < sizeof(action_names) / sizeof(action_names[0]) ? action_names[i] : NULL;
}

const char *oci_seccomp_op_name(size_t i)
{
	return i < sizeof(op_names) / sizeof(op_names[0]) ? op_names[i] : NULL;
}
