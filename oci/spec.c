/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/spec.c: config.json -> struct oci_spec. Unknown members are ignored,
 * as the runtime spec asks; a member of the wrong type or value is an error
 * that names its JSON path. No syscalls here: the caller reads the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/resource.h>

#include "oci/base/cleanup.h"
#include "oci/devices.h"
#include "oci/idlist.h"
#include "oci/json.h"
#include "oci/netdevices.h"
#include "oci/refused.h"
#include "oci/spec.h"

#define ID_MAX 4294967294ULL	/* (uid_t)-1 means "no change" to setuid() */

static const char *const ns_names[OCI_NS_COUNT] = {
	[OCI_NS_PID] = "pid",       [OCI_NS_NETWORK] = "network",
	[OCI_NS_MOUNT] = "mount",   [OCI_NS_IPC] = "ipc",
	[OCI_NS_UTS] = "uts",       [OCI_NS_USER] = "user",
	[OCI_NS_CGROUP] = "cgroup", [OCI_NS_TIME] = "time",
};

const char *oci_ns_type_name(enum oci_ns_type type)
{
	return type < OCI_NS_COUNT ? ns_names[type] : "?";
}

static const struct {
	const char *name;
	int resource;
} rlimit_names[] = {
	{ "RLIMIT_AS", RLIMIT_AS },         { "RLIMIT_CORE", RLIMIT_CORE },
	{ "RLIMIT_CPU", RLIMIT_CPU },       { "RLIMIT_DATA", RLIMIT_DATA },
	{ "RLIMIT_FSIZE", RLIMIT_FSIZE },   { "RLIMIT_LOCKS", RLIMIT_LOCKS },
	{ "RLIMIT_MEMLOCK", RLIMIT_MEMLOCK }, { "RLIMIT_MSGQUEUE", RLIMIT_MSGQUEUE },
	{ "RLIMIT_NICE", RLIMIT_NICE },     { "RLIMIT_NOFILE", RLIMIT_NOFILE },
	{ "RLIMIT_NPROC", RLIMIT_NPROC },   { "RLIMIT_RSS", RLIMIT_RSS },
	{ "RLIMIT_RTPRIO", RLIMIT_RTPRIO }, { "RLIMIT_RTTIME", RLIMIT_RTTIME },
	{ "RLIMIT_SIGPENDING", RLIMIT_SIGPENDING }, { "RLIMIT_STACK", RLIMIT_STACK },
};

static const char *const propagations[] = {
	"shared", "slave", "private", "unbindable",
	"rshared", "rslave", "rprivate", "runbindable", NULL,
};

/* The value of path.key must be absolute; the path is made only for the error. */
static int must_be_absolute(const char *path, const char *key, const char *value,
			    struct shim_error *err)
{
	if (value[0] != '/')
		return json_member_fail(err, path, key, "must be an absolute path, not \"%s\"",
					value);
	return 0;
}

/* An object of strings as a key, value, ..., NULL vector. */
static int parse_string_map(yajl_val obj, const char *path, char ***out, struct shim_error *err)
{
	size_t n = obj->u.object.len;

	*out = calloc(2 * n + 1, sizeof(char *));
	if (!*out)
		return shim_fail(err, ENOMEM, "%s", path);
	for (size_t i = 0; i < n; i++) {
		yajl_val v = obj->u.object.values[i];

		if (!YAJL_IS_STRING(v))
			return json_fail(err, path, "\"%s\" must be a string", obj->u.object.keys[i]);
		(*out)[2 * i] = strdup(obj->u.object.keys[i]);
		(*out)[2 * i + 1] = strdup(v->u.string);
		if (!(*out)[2 * i] || !(*out)[2 * i + 1])
			return shim_fail(err, ENOMEM, "%s", path);
	}
	return 0;
}

static int parse_user(yajl_val user, struct oci_user *out, struct shim_error *err)
{
	uint64_t n;
	int r;
	yajl_val gids = NULL;

	if ((r = json_get_u64(user, "uid", "process.user", ID_MAX, &n, err)) < 0)
		return -1;
	if (r == 1)
		return json_fail(err, "process.user.uid", "missing");
	out->uid = (uid_t)n;
	if ((r = json_get_u64(user, "gid", "process.user", ID_MAX, &n, err)) < 0)
		return -1;
	if (r == 1)
		return json_fail(err, "process.user.gid", "missing");
	out->gid = (gid_t)n;
	if ((r = json_get_u64(user, "umask", "process.user", 0777, &n, err)) < 0)
		return -1;
	out->has_umask = r == 0;
	out->umask = (mode_t)n;
	if (json_get_array(user, "additionalGids", "process.user", &gids, err) < 0)
		return -1;
	if (!gids)
		return 0;
	out->additional_gids = calloc(gids->u.array.len + 1, sizeof(gid_t));
	if (!out->additional_gids)
		return shim_fail(err, ENOMEM, "process.user.additionalGids");
	for (size_t i = 0; i < gids->u.array.len; i++) {
		yajl_val g = gids->u.array.values[i];
		char where[64];

		if (!YAJL_IS_INTEGER(g) || YAJL_GET_INTEGER(g) < 0 ||
		    (unsigned long long)YAJL_GET_INTEGER(g) > ID_MAX)
			return json_fail(err, json_path_at(where, sizeof(where),
							   "process.user.additionalGids", i),
					 "must be a gid (0 to %llu)", ID_MAX);
		out->additional_gids[i] = (gid_t)YAJL_GET_INTEGER(g);
		out->n_additional_gids++;
	}
	return 0;
}

static int parse_rlimits(yajl_val arr, struct oci_process *p, struct shim_error *err)
{
	p->rlimits = calloc(arr->u.array.len + 1, sizeof(*p->rlimits));
	if (!p->rlimits)
		return shim_fail(err, ENOMEM, "process.rlimits");
	for (size_t i = 0; i < arr->u.array.len; i++) {
		yajl_val rl = arr->u.array.values[i];
		struct oci_rlimit *out = &p->rlimits[i];
		_cleanup_free_ char *type = NULL;
		char where[64];
		size_t k;
		int r;

		json_path_at(where, sizeof(where), "process.rlimits", i);
		if (!YAJL_IS_OBJECT(rl))
			return json_fail(err, where, "must be an object");
		if ((r = json_get_string(rl, "type", where, &type, err)) < 0)
			return -1;
		if (r == 1)
			return json_fail(err, where, "type: missing");
		for (k = 0; k < sizeof(rlimit_names) / sizeof(rlimit_names[0]); k++)
			if (strcmp(rlimit_names[k].name, type) == 0)
				break;
		if (k == sizeof(rlimit_names) / sizeof(rlimit_names[0]))
			return json_fail(err, where, "type: unknown rlimit \"%s\"", type);
		out->resource = rlimit_names[k].resource;
		for (size_t j = 0; j < i; j++)
			if (p->rlimits[j].resource == out->resource)
				return json_fail(err, where, "type: %s given twice", type);
		if ((r = json_get_u64(rl, "hard", where, UINT64_MAX, &out->hard, err)) != 0)
			return r < 0 ? -1 : json_fail(err, where, "hard: missing");
		if ((r = json_get_u64(rl, "soft", where, UINT64_MAX, &out->soft, err)) != 0)
			return r < 0 ? -1 : json_fail(err, where, "soft: missing");
		if (out->soft > out->hard)
			return json_fail(err, where, "soft limit is above the hard limit");
		p->n_rlimits++;
	}
	return 0;
}

/* Add "where name" to the list of unknown names. */
static int note_unknown_cap(struct oci_capabilities *c, const char *where, const char *name,
			    struct shim_error *err)
{
	size_t n = strv_len(c->unknown);
	char **grown = realloc(c->unknown, (n + 2) * sizeof(char *));

	if (!grown)
		return shim_fail(err, ENOMEM, "%s", where);
	c->unknown = grown;
	c->unknown[n + 1] = NULL;
	if (asprintf(&c->unknown[n], "%s %s", where, name) < 0) {
		c->unknown[n] = NULL;
		return shim_fail(err, ENOMEM, "%s", where);
	}
	return 0;
}

static int parse_cap_set(yajl_val caps, const char *key, struct oci_capabilities *c,
			 uint64_t *mask, struct shim_error *err)
{
	char where[64];
	char **names = NULL;
	int r = 0;

	if (json_get_strv(caps, key, "process.capabilities", &names, err) < 0)
		return -1;
	for (size_t i = 0; r == 0 && names && names[i]; i++) {
		int cap = oci_cap_from_name(names[i]);

		if (cap >= 0) {
			*mask |= 1ULL << cap;
			continue;
		}
		snprintf(where, sizeof(where), "process.capabilities.%s[%zu]", key, i);
		r = note_unknown_cap(c, where, names[i], err);
	}
	strv_free(names);
	return r;
}

static int parse_caps(yajl_val caps, struct oci_capabilities *c, struct shim_error *err)
{
	c->present = true;
	if (parse_cap_set(caps, "bounding", c, &c->bounding, err) < 0 ||
	    parse_cap_set(caps, "effective", c, &c->effective, err) < 0 ||
	    parse_cap_set(caps, "inheritable", c, &c->inheritable, err) < 0 ||
	    parse_cap_set(caps, "permitted", c, &c->permitted, err) < 0 ||
	    parse_cap_set(caps, "ambient", c, &c->ambient, err) < 0)
		return -1;
	return 0;
}

static int parse_oom_score_adj(yajl_val v, struct oci_process *p, struct shim_error *err)
{
	if (!v)
		return 0;
	if (!YAJL_IS_INTEGER(v) || YAJL_GET_INTEGER(v) < -1000 || YAJL_GET_INTEGER(v) > 1000)
		return json_fail(err, "process.oomScoreAdj", "must be an integer from -1000 to 1000");
	p->has_oom_score_adj = true;
	p->oom_score_adj = (int)YAJL_GET_INTEGER(v);
	return 0;
}

static int parse_console_size(yajl_val proc, struct oci_process *p, struct shim_error *err)
{
	yajl_val size = NULL;
	uint64_t rows = 0, cols = 0;
	int r1, r2;

	if (json_get_object(proc, "consoleSize", "process", &size, err) < 0)
		return -1;
	if (!size)
		return 0;
	if ((r1 = json_get_u64(size, "height", "process.consoleSize", UINT16_MAX, &rows, err)) < 0 ||
	    (r2 = json_get_u64(size, "width", "process.consoleSize", UINT16_MAX, &cols, err)) < 0)
		return -1;
	if (r1 || r2)
		return json_fail(err, "process.consoleSize", "needs height and width");
	p->has_console_size = true;
	p->console_rows = (uint16_t)rows;
	p->console_cols = (uint16_t)cols;
	return 0;
}

static int parse_io_priority(yajl_val proc, struct oci_process *p, struct shim_error *err)
{
	static const char *const classes[] = { "IOPRIO_CLASS_RT", "IOPRIO_CLASS_BE", "IOPRIO_CLASS_IDLE" };
	yajl_val io = NULL;
	_cleanup_free_ char *class = NULL;
	int64_t prio = 0;
	int r;

	if (json_get_object(proc, "ioPriority", "process", &io, err) < 0)
		return -1;
	if (!io)
		return 0;
	if ((r = json_get_string(io, "class", "process.ioPriority", &class, err)) != 0)
		return r < 0 ? -1 : json_fail(err, "process.ioPriority.class", "missing");
	for (size_t i = 0; i < 3; i++)
		if (strcmp(class, classes[i]) == 0)
			p->io_class = (int)i + 1;
	if (!p->io_class)
		return json_fail(err, "process.ioPriority.class", "\"%s\" is not IOPRIO_CLASS_RT, "
				 "_BE or _IDLE", class);
	if (json_get_i64(io, "priority", "process.ioPriority", JSON_RANGE(0, 7), &prio, err) < 0)
		return -1;
	p->io_priority = (int)prio;
	p->has_io_priority = true;
	return 0;
}

static const char *const sched_policies[] = {
	"SCHED_OTHER", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH", "SCHED_ISO", "SCHED_IDLE",
	"SCHED_DEADLINE",
};

static const char *const sched_flags[] = {
	"SCHED_FLAG_RESET_ON_FORK", "SCHED_FLAG_RECLAIM", "SCHED_FLAG_DL_OVERRUN",
	"SCHED_FLAG_KEEP_POLICY", "SCHED_FLAG_KEEP_PARAMS", "SCHED_FLAG_UTIL_CLAMP_MIN",
	"SCHED_FLAG_UTIL_CLAMP_MAX",
};

static int parse_scheduler(yajl_val proc, struct oci_process *p, struct shim_error *err)
{
	const char *where = "process.scheduler";
	yajl_val sc = NULL;
	_cleanup_free_ char *policy = NULL;
	char **flags = NULL;
	int64_t nice = 0, prio = 0;
	size_t k;
	int r;

	if (json_get_object(proc, "scheduler", "process", &sc, err) < 0)
		return -1;
	if (!sc)
		return 0;
	if ((r = json_get_string(sc, "policy", where, &policy, err)) != 0)
		return r < 0 ? -1 : json_fail(err, "process.scheduler.policy", "missing");
	for (k = 0; k < sizeof(sched_policies) / sizeof(sched_policies[0]); k++)
		if (strcmp(policy, sched_policies[k]) == 0)
			break;
	if (k == sizeof(sched_policies) / sizeof(sched_policies[0]))
		return json_fail(err, "process.scheduler.policy", "unknown policy \"%s\"", policy);
	p->sched.policy = (uint32_t)k;	/* SCHED_OTHER 0 ... SCHED_DEADLINE 6 */
	if (json_get_i64(sc, "nice", where, JSON_RANGE(-20, 19), &nice, err) < 0 ||
	    json_get_i64(sc, "priority", where, JSON_RANGE(0, 99), &prio, err) < 0 ||
	    json_get_u64(sc, "runtime", where, UINT64_MAX, &p->sched.runtime, err) < 0 ||
	    json_get_u64(sc, "deadline", where, UINT64_MAX, &p->sched.deadline, err) < 0 ||
	    json_get_u64(sc, "period", where, UINT64_MAX, &p->sched.period, err) < 0 ||
	    json_get_strv(sc, "flags", where, &flags, err) < 0)
		return -1;
	p->sched.nice = (int32_t)nice;
	p->sched.priority = (uint32_t)prio;
	for (size_t i = 0; flags && flags[i]; i++) {
		for (k = 0; k < sizeof(sched_flags) / sizeof(sched_flags[0]); k++)
			if (strcmp(flags[i], sched_flags[k]) == 0)
				break;
		if (k == sizeof(sched_flags) / sizeof(sched_flags[0])) {
			char elem[64];

			snprintf(elem, sizeof(elem), "process.scheduler.flags[%zu]", i);
			json_fail(err, elem, "unknown flag \"%s\"", flags[i]);
			strv_free(flags);
			return -1;
		}
		p->sched.flags |= 1ULL << k;
	}
	strv_free(flags);
	p->has_scheduler = true;
	return 0;
}

/* "0-3,7": CPU numbers and ranges, as taskset and the cpuset files take. */
/* A CPU list, checked and kept as its bits in mask. */
static int parse_cpu_list(const char *list, const char *where, unsigned long *mask,
			  struct shim_error *err)
{
	unsigned long big = 0;
	int r = idlist_parse(list, mask, &big);

	if (r == -2)
		return json_fail(err, where, "\"%s\": CPU %lu is past %d", list, big, IDLIST_MAX - 1);
	if (r < 0)
		return json_fail(err, where, "\"%s\" is not a CPU list such as 0-3,7", list);
	return 0;
}

static int parse_cpu_affinity(yajl_val proc, struct oci_process *p, struct shim_error *err)
{
	yajl_val aff = NULL;

	if (json_get_object(proc, "execCPUAffinity", "process", &aff, err) < 0)
		return -1;
	if (!aff)
		return 0;
	if (json_get_string(aff, "initial", "process.execCPUAffinity", &p->cpus_initial, err) < 0 ||
	    json_get_string(aff, "final", "process.execCPUAffinity", &p->cpus_final, err) < 0)
		return -1;
	if ((p->cpus_initial &&
	     parse_cpu_list(p->cpus_initial, "process.execCPUAffinity.initial",
			    p->cpus_initial_mask, err) < 0) ||
	    (p->cpus_final && parse_cpu_list(p->cpus_final, "process.execCPUAffinity.final",
					      p->cpus_final_mask, err) < 0))
		return -1;
	return 0;
}

/* user_optional: exec's process.json, where runc takes a missing user as
 * uid 0, gid 0 (config.json must say it: runtime-spec requires it). */
static int parse_process(yajl_val proc, struct oci_process *p, bool user_optional,
			 struct shim_error *err)
{
	yajl_val user = NULL, rlimits = NULL, caps = NULL;
	int r;

	if (json_get_bool(proc, "terminal", "process", &p->terminal, err) < 0 ||
	    parse_console_size(proc, p, err) < 0)
		return -1;
	if ((r = json_get_object(proc, "user", "process", &user, err)) < 0)
		return -1;
	if (r == 1 && !user_optional)
		return json_fail(err, "process.user", "missing");
	if (r == 0 && parse_user(user, &p->user, err) < 0)
		return -1;
	if ((r = json_get_strv(proc, "args", "process", &p->args, err)) < 0)
		return -1;
	if (r == 1 || !p->args[0])
		return json_fail(err, "process.args", "must name the program to run");
	if (json_get_strv(proc, "env", "process", &p->env, err) < 0)
		return -1;
	for (size_t i = 0; p->env && p->env[i]; i++)
		if (!strchr(p->env[i], '=')) {
			char where[48];

			snprintf(where, sizeof(where), "process.env[%zu]", i);
			return json_fail(err, where, "\"%s\" is not NAME=VALUE", p->env[i]);
		}
	if ((r = json_get_string(proc, "cwd", "process", &p->cwd, err)) < 0)
		return -1;
	if (r == 1)
		return json_fail(err, "process.cwd", "missing");
	if (must_be_absolute("process", "cwd", p->cwd, err) < 0)
		return -1;
	if ((r = json_get_array(proc, "rlimits", "process", &rlimits, err)) < 0)
		return -1;
	if (rlimits && parse_rlimits(rlimits, p, err) < 0)
		return -1;
	if (json_get_object(proc, "capabilities", "process", &caps, err) < 0 ||
	    (caps && parse_caps(caps, &p->caps, err) < 0))
		return -1;
	if (json_get_bool(proc, "noNewPrivileges", "process", &p->no_new_privileges, err) < 0)
		return -1;
	if (parse_io_priority(proc, p, err) < 0 || parse_cpu_affinity(proc, p, err) < 0 ||
	    parse_scheduler(proc, p, err) < 0)
		return -1;
	if (json_get_string(proc, "apparmorProfile", "process", &p->apparmor_profile, err) < 0 ||
	    json_get_string(proc, "selinuxLabel", "process", &p->selinux_label, err) < 0)
		return -1;
	return parse_oom_score_adj(json_member(proc, "oomScoreAdj"), p, err);
}

static int parse_mappings(yajl_val obj, const char *key, const char *path,
			  struct oci_id_mapping **out, size_t *n, struct shim_error *err)
{
	yajl_val arr = NULL;

	if (json_get_array(obj, key, path, &arr, err) < 0)
		return -1;
	if (!arr || !arr->u.array.len)
		return 0;
	*out = calloc(arr->u.array.len, sizeof(**out));
	if (!*out)
		return shim_fail(err, ENOMEM, "%s.%s", path, key);
	for (size_t i = 0; i < arr->u.array.len; i++) {
		yajl_val m = arr->u.array.values[i];
		uint64_t c = 0, h = 0, size = 0;
		char where[96];
		int r1, r2, r3;

		snprintf(where, sizeof(where), "%s.%s[%zu]", path, key, i);
		if ((r1 = json_get_u64(m, "containerID", where, UINT32_MAX, &c, err)) < 0 ||
		    (r2 = json_get_u64(m, "hostID", where, UINT32_MAX, &h, err)) < 0 ||
		    (r3 = json_get_u64(m, "size", where, UINT32_MAX, &size, err)) < 0)
			return -1;
		if (r1 || r2 || r3 || size == 0)
			return json_fail(err, where, "needs containerID, hostID and a size above 0");
		(*out)[i] = (struct oci_id_mapping){ (uint32_t)c, (uint32_t)h, (uint32_t)size };
		(*n)++;
	}
	return 0;
}

static int parse_mounts(yajl_val arr, struct oci_spec *s, struct shim_error *err)
{
	s->mounts = calloc(arr->u.array.len + 1, sizeof(*s->mounts));
	if (!s->mounts)
		return shim_fail(err, ENOMEM, "mounts");
	for (size_t i = 0; i < arr->u.array.len; i++) {
		yajl_val m = arr->u.array.values[i];
		struct oci_mount *out = &s->mounts[i];
		char where[48];
		int r;

		s->n_mounts++;
		json_path_at(where, sizeof(where), "mounts", i);
		if (!YAJL_IS_OBJECT(m))
			return json_fail(err, where, "must be an object");
		if ((r = json_get_string(m, "destination", where, &out->destination, err)) < 0)
			return -1;
		if (r == 1)
			return json_member_fail(err, where, "destination", "missing");
		if (must_be_absolute(where, "destination", out->destination, err) < 0)
			return -1;
		if (json_get_string(m, "type", where, &out->type, err) < 0 ||
		    json_get_string(m, "source", where, &out->source, err) < 0 ||
		    json_get_strv(m, "options", where, &out->options, err) < 0 ||
		    parse_mappings(m, "uidMappings", where, &out->uid_mappings, &out->n_uid_mappings, err) < 0 ||
		    parse_mappings(m, "gidMappings", where, &out->gid_mappings, &out->n_gid_mappings, err) < 0 ||
		    mount_opts_parse(out->options, where, &out->opts, err) < 0)
			return -1;
		out->bind = out->opts.bind || (out->type && strcmp(out->type, "bind") == 0);
		/* ID mappings idmap the mount, with or without the idmap
		 * option, as runc reads them (ridmap: recursively) */
		if (out->n_uid_mappings || out->n_gid_mappings)
			out->opts.idmap = true;
	}
	return 0;
}

static int parse_namespaces(yajl_val arr, struct oci_spec *s, struct shim_error *err)
{
	s->namespaces = calloc(arr->u.array.len + 1, sizeof(*s->namespaces));
	if (!s->namespaces)
		return shim_fail(err, ENOMEM, "linux.namespaces");
	for (size_t i = 0; i < arr->u.array.len; i++) {
		yajl_val ns = arr->u.array.values[i];
		struct oci_namespace *out = &s->namespaces[i];
		_cleanup_free_ char *type = NULL;
		char where[48];
		int t, r;

		json_path_at(where, sizeof(where), "linux.namespaces", i);
		if (!YAJL_IS_OBJECT(ns))
			return json_fail(err, where, "must be an object");
		if ((r = json_get_string(ns, "type", where, &type, err)) < 0)
			return -1;
		if (r == 1)
			return json_member_fail(err, where, "type", "missing");
		for (t = 0; t < OCI_NS_COUNT; t++)
			if (strcmp(ns_names[t], type) == 0)
				break;
		if (t == OCI_NS_COUNT)
			return json_member_fail(err, where, "type", "unknown namespace type \"%s\"",
						type);
		if (oci_spec_namespace(s, (enum oci_ns_type)t))
			return json_member_fail(err, where, "type", "namespace \"%s\" given twice",
						type);
		out->type = (enum oci_ns_type)t;
		s->n_namespaces++;
		if (json_get_string(ns, "path", where, &out->path, err) < 0)
			return -1;
		if (out->path && must_be_absolute(where, "path", out->path, err) < 0)
			return -1;
	}
	return 0;
}

static int parse_abs_paths(yajl_val linux_obj, const char *key, char ***out,
			   struct shim_error *err)
{
	if (json_get_strv(linux_obj, key, "linux", out, err) < 0)
		return -1;
	for (size_t i = 0; *out && (*out)[i]; i++) {
		char elem[64];

		if ((*out)[i][0] != '/')
			return must_be_absolute("linux", json_path_at(elem, sizeof(elem), key, i),
						(*out)[i], err);
	}
	return 0;
}

static int parse_personality(yajl_val lx, struct oci_spec *s, struct shim_error *err)
{
	yajl_val per = NULL, flags;
	_cleanup_free_ char *domain = NULL;
	int r;

	if (json_get_object(lx, "personality", "linux", &per, err) < 0)
		return -1;
	if (!per)
		return 0;
	if ((r = json_get_string(per, "domain", "linux.personality", &domain, err)) < 0)
		return -1;
	if (r == 1 || (strcmp(domain, "LINUX") != 0 && strcmp(domain, "LINUX32") != 0))
		return json_fail(err, "linux.personality.domain", "must be \"LINUX\" or \"LINUX32\"");
	flags = json_member(per, "flags");
	if (flags && !(YAJL_IS_ARRAY(flags) && flags->u.array.len == 0) && !YAJL_IS_NULL(flags))
		return json_fail(err, "linux.personality.flags", "personality flags are not supported");
	s->has_personality = true;
	s->personality = strcmp(domain, "LINUX32") == 0 ? PER_LINUX32 : PER_LINUX;
	return 0;
}

static int parse_time_offset(yajl_val offsets, const char *clock, struct oci_time_offset *out,
			     struct shim_error *err)
{
	char where[48];
	yajl_val o = NULL;
	uint64_t ns = 0;

	snprintf(where, sizeof(where), "linux.timeOffsets.%s", clock);
	if (json_get_object(offsets, clock, "linux.timeOffsets", &o, err) < 0)
		return -1;
	if (!o)
		return 0;
	if (json_get_i64(o, "secs", where, JSON_RANGE(INT64_MIN / 2, INT64_MAX / 2), &out->secs,
			 err) < 0 ||
	    json_get_u64(o, "nanosecs", where, 999999999, &ns, err) < 0)
		return -1;
	out->nanosecs = (uint32_t)ns;
	return 0;
}

/* linux.timeOffsets: boottime and monotonic, for a new time namespace. */
static int parse_time_offsets(yajl_val lx, struct oci_spec *s, struct shim_error *err)
{
	yajl_val offsets = NULL;

	if (json_get_object(lx, "timeOffsets", "linux", &offsets, err) < 0)
		return -1;
	if (!offsets)
		return 0;
	s->has_time_offsets = true;
	if (parse_time_offset(offsets, "boottime", &s->boottime, err) < 0 ||
	    parse_time_offset(offsets, "monotonic", &s->monotonic, err) < 0)
		return -1;
	if (!oci_spec_namespace(s, OCI_NS_TIME) || oci_spec_namespace(s, OCI_NS_TIME)->path)
		return json_fail(err, "linux.timeOffsets", "needs a new time namespace in "
				 "linux.namespaces");
	return 0;
}

static const char *const mpol_modes[] = {	/* by MPOL_* number */
	"MPOL_DEFAULT", "MPOL_PREFERRED", "MPOL_BIND", "MPOL_INTERLEAVE", "MPOL_LOCAL",
	"MPOL_PREFERRED_MANY", "MPOL_WEIGHTED_INTERLEAVE",
};

static const struct {
	const char *name;
	unsigned int bit;
} mpol_flags[] = {
	{ "MPOL_F_NUMA_BALANCING", 1u << 13 },
	{ "MPOL_F_RELATIVE_NODES", 1u << 14 },
	{ "MPOL_F_STATIC_NODES", 1u << 15 },
};

const char *oci_memory_policy_mode_name(size_t i)
{
	return i < sizeof(mpol_modes) / sizeof(mpol_modes[0]) ? mpol_modes[i] : NULL;
}

const char *oci_memory_policy_flag_name(size_t i)
{
	return i < sizeof(mpol_flags) / sizeof(mpol_flags[0]) ? mpol_flags[i].name : NULL;
}

static int mpol_flag(const char *name, unsigned int *bit)
{
	for (size_t k = 0; k < sizeof(mpol_flags) / sizeof(mpol_flags[0]); k++)
		if (strcmp(mpol_flags[k].name, name) == 0) {
			*bit = mpol_flags[k].bit;
			return 0;
		}
	return -1;
}

static int parse_mpol_flags(yajl_val mp, struct oci_memory_policy *m, struct shim_error *err)
{
	char **flags = NULL;
	int r = 0;

	if (json_get_strv(mp, "flags", "linux.memoryPolicy", &flags, err) < 0)
		return -1;
	for (size_t i = 0; r == 0 && flags && flags[i]; i++) {
		unsigned int bit;
		char where[48];

		snprintf(where, sizeof(where), "linux.memoryPolicy.flags[%zu]", i);
		if (mpol_flag(flags[i], &bit) < 0)
			r = json_fail(err, where, "unknown flag \"%s\"", flags[i]);
		else
			m->flags |= bit;
	}
	strv_free(flags);
	return r;
}

/* linux.memoryPolicy: set_mempolicy's mode, node list and flags. */
static int parse_memory_policy(yajl_val lx, struct oci_spec *s, struct shim_error *err)
{
	struct oci_memory_policy *m = &s->memory_policy;
	unsigned long big = 0;
	yajl_val mp = NULL;
	char *mode = NULL;
	int r;

	if (json_get_object(lx, "memoryPolicy", "linux", &mp, err) < 0 || !mp)
		return mp ? -1 : 0;
	m->present = true;
	if ((r = json_get_string(mp, "mode", "linux.memoryPolicy", &mode, err)) != 0)
		return r < 0 ? -1 : json_fail(err, "linux.memoryPolicy.mode", "missing");
	for (m->mode = 0; m->mode < (int)(sizeof(mpol_modes) / sizeof(mpol_modes[0])); m->mode++)
		if (strcmp(mpol_modes[m->mode], mode) == 0)
			break;
	r = m->mode == (int)(sizeof(mpol_modes) / sizeof(mpol_modes[0]));
	if (r)
		json_fail(err, "linux.memoryPolicy.mode", "unknown mode \"%s\"", mode);
	free(mode);
	if (r || json_get_string(mp, "nodes", "linux.memoryPolicy", &m->nodes, err) < 0 ||
	    parse_mpol_flags(mp, m, err) < 0)
		return -1;
	m->has_nodes = m->nodes && *m->nodes;
	if (m->has_nodes && (r = idlist_parse(m->nodes, m->nodes_mask, &big)) < 0)
		return json_fail(err, "linux.memoryPolicy.nodes", "\"%s\" is not a node list such "
				 "as 0-1,3", m->nodes);
	return 0;
}

static int parse_linux(yajl_val lx, struct oci_spec *s, struct shim_error *err)
{
	yajl_val namespaces = NULL, sysctl = NULL, res = NULL, seccomp = NULL;

	if (json_get_array(lx, "namespaces", "linux", &namespaces, err) < 0)
		return -1;
	if (namespaces && parse_namespaces(namespaces, s, err) < 0)
		return -1;
	if (parse_abs_paths(lx, "maskedPaths", &s->masked_paths, err) < 0 ||
	    parse_abs_paths(lx, "readonlyPaths", &s->readonly_paths, err) < 0)
		return -1;
	if (json_get_object(lx, "sysctl", "linux", &sysctl, err) < 0 ||
	    (sysctl && parse_string_map(sysctl, "linux.sysctl", &s->sysctl, err) < 0))
		return -1;
	for (size_t i = 0; s->sysctl && s->sysctl[i]; i += 2)
		if (!*s->sysctl[i] || strchr(s->sysctl[i], '/') || strstr(s->sysctl[i], ".."))
			return json_fail(err, "linux.sysctl", "\"%s\" is not a sysctl name", s->sysctl[i]);
	if (parse_personality(lx, s, err) < 0 || parse_time_offsets(lx, s, err) < 0 ||
	    oci_net_devices_parse(lx, oci_spec_namespace(s, OCI_NS_NETWORK) != NULL,
				  &s->net_devices, &s->n_net_devices, err) < 0 ||
	    oci_intel_rdt_parse(lx, &s->intel_rdt, err) < 0 ||
	    parse_memory_policy(lx, s, err) < 0 ||
	    parse_mappings(lx, "uidMappings", "linux", &s->uid_mappings, &s->n_uid_mappings, err) < 0 ||
	    parse_mappings(lx, "gidMappings", "linux", &s->gid_mappings, &s->n_gid_mappings, err) < 0)
		return -1;
	/* null is absent, as engines sometimes write it */
	if ((!YAJL_IS_NULL(json_member(lx, "cgroupsPath")) &&
	     json_get_string(lx, "cgroupsPath", "linux", &s->cgroups_path, err) < 0) ||
	    json_get_object(lx, "resources", "linux", &res, err) < 0)
		return -1;
	/* a cgroupfs path, or systemd's slice:prefix:name (--systemd-cgroup) */
	if (s->cgroups_path && strstr(s->cgroups_path, ".."))
		return json_fail(err, "linux.cgroupsPath", "\"%s\": a path without \"..\"",
				 s->cgroups_path);
	s->has_resources = res != NULL;
	if (res && oci_resources_parse(res, "linux.resources", &s->resources, err) < 0)
		return -1;
	/* only `update` has a memory limit to count it from: the cgroup's */
	if (s->resources.has_swap_alone)
		return json_fail(err, "linux.resources.memory", "swap: a swap limit needs a memory "
				 "limit (memory.limit)");
	if (oci_devices_parse(lx, &s->devices, &s->n_devices, err) < 0)
		return -1;
	if (json_get_object(lx, "seccomp", "linux", &seccomp, err) < 0 ||
	    (seccomp && oci_seccomp_parse(seccomp, &s->seccomp, err) < 0))
		return -1;
	if (json_get_string(lx, "rootfsPropagation", "linux", &s->rootfs_propagation, err) < 0 ||
	    json_get_string(lx, "mountLabel", "linux", &s->mount_label, err) < 0)
		return -1;
	if (s->rootfs_propagation) {
		size_t k;

		for (k = 0; propagations[k]; k++)
			if (strcmp(propagations[k], s->rootfs_propagation) == 0)
				break;
		if (!propagations[k])
			return json_fail(err, "linux.rootfsPropagation", "unknown propagation \"%s\"",
					 s->rootfs_propagation);
	}
	return 0;
}

static int parse_root(yajl_val tree, struct oci_spec *s, struct shim_error *err)
{
	yajl_val root = NULL;
	int r;

	if ((r = json_get_object(tree, "root", "", &root, err)) < 0)
		return -1;
	if (r == 1)
		return json_fail(err, "root", "missing");
	if ((r = json_get_string(root, "path", "root", &s->root_path, err)) < 0)
		return -1;
	if (r == 1 || !*s->root_path)
		return json_fail(err, "root.path", "missing");
	return json_get_bool(root, "readonly", "root", &s->root_readonly, err) < 0 ? -1 : 0;
}

static int parse_tree(yajl_val tree, struct oci_spec *s, struct shim_error *err)
{
	yajl_val proc = NULL, mounts = NULL, lx = NULL, ann = NULL, hooks = NULL;
	int r;

	if (!YAJL_IS_OBJECT(tree))
		return shim_fail(err, 0, "the config must be a JSON object");
	if ((r = json_get_string(tree, "ociVersion", "", &s->oci_version, err)) < 0)
		return -1;
	if (r == 1)
		return json_fail(err, "ociVersion", "missing");
	/* the major version is the contract: 1.x only (1.0.2-dev, 1.2.0, ...) */
	if (strtoul(s->oci_version, NULL, 10) != 1 || !strchr("0123456789", s->oci_version[0]) ||
	    (s->oci_version[strspn(s->oci_version, "0123456789")] != '.' &&
	     s->oci_version[strspn(s->oci_version, "0123456789")] != '\0'))
		return json_fail(err, "ociVersion", "\"%s\": only runtime-spec 1.x is supported",
				 s->oci_version);
	if (parse_root(tree, s, err) < 0)
		return -1;
	if ((r = json_get_object(tree, "process", "", &proc, err)) < 0)
		return -1;
	s->has_process = r == 0;
	if (proc && parse_process(proc, &s->process, false, err) < 0)
		return -1;
	if (json_get_string(tree, "domainname", "", &s->domainname, err) < 0)
		return -1;
	if (json_get_string(tree, "hostname", "", &s->hostname, err) < 0)
		return -1;
	if (json_get_array(tree, "mounts", "", &mounts, err) < 0 ||
	    (mounts && parse_mounts(mounts, s, err) < 0))
		return -1;
	if (json_get_object(tree, "linux", "", &lx, err) < 0 ||
	    (lx && parse_linux(lx, s, err) < 0))
		return -1;
	if (json_get_object(tree, "hooks", "", &hooks, err) < 0 ||
	    (hooks && oci_hooks_parse(hooks, &s->hooks, err) < 0))
		return -1;
	if (json_get_object(tree, "annotations", "", &ann, err) < 0 ||
	    (ann && parse_string_map(ann, "annotations", &s->annotations, err) < 0))
		return -1;
	/* with a user namespace joined by path, they must match its own
	 * (checked at create, shim/userns_join.h) */
	if ((s->n_uid_mappings || s->n_gid_mappings) && !oci_spec_namespace(s, OCI_NS_USER))
		return json_fail(err, "linux.uidMappings", "mappings need a user namespace in linux.namespaces");
	if (oci_spec_namespace(s, OCI_NS_USER) && !oci_spec_namespace(s, OCI_NS_USER)->path &&
	    (!s->n_uid_mappings || !s->n_gid_mappings))
		return json_fail(err, "linux.uidMappings", "a new user namespace needs uidMappings and gidMappings");
	if (s->hostname && *s->hostname && !oci_spec_namespace(s, OCI_NS_UTS))
		return json_fail(err, "hostname", "setting it needs a uts namespace in linux.namespaces");
	if (s->domainname && *s->domainname && !oci_spec_namespace(s, OCI_NS_UTS))
		return json_fail(err, "domainname", "setting it needs a uts namespace in linux.namespaces");
	return 0;
}

struct oci_spec *oci_spec_parse(const char *json, size_t len, struct shim_error *err)
{
	yajl_val tree = json_parse(json, len, "config", err);
	struct oci_spec *s;

	if (!tree)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		shim_fail(err, ENOMEM, "config");
	else if (parse_tree(tree, s, err) < 0) {
		oci_spec_free(s);
		s = NULL;
	}
	json_free(tree);
	return s;
}

const struct oci_namespace *oci_spec_namespace(const struct oci_spec *spec,
					       enum oci_ns_type type)
{
	for (size_t i = 0; i < spec->n_namespaces; i++)
		if (spec->namespaces[i].type == type)
			return &spec->namespaces[i];
	return NULL;
}

void oci_process_release(struct oci_process *p)
{
	free(p->user.additional_gids);
	strv_free(p->args);
	strv_free(p->env);
	free(p->cwd);
	free(p->rlimits);
	strv_free(p->caps.unknown);
	free(p->cpus_initial);
	free(p->cpus_final);
	free(p->apparmor_profile);
	free(p->selinux_label);
	memset(p, 0, sizeof(*p));
}

int oci_process_parse(const char *json, size_t len, struct oci_process *p, struct shim_error *err)
{
	yajl_val tree = json_parse(json, len, "process", err);
	int r = -1;

	memset(p, 0, sizeof(*p));
	if (!tree)
		return -1;
	if (!YAJL_IS_OBJECT(tree))
		shim_fail(err, 0, "the process must be a JSON object");
	else
		r = parse_process(tree, p, true, err);
	json_free(tree);
	if (r < 0)
		oci_process_release(p);
	return r;
}

void oci_spec_free(struct oci_spec *s)
{
	if (!s)
		return;
	free(s->oci_version);
	free(s->root_path);
	oci_process_release(&s->process);
	oci_devices_free(s->devices, s->n_devices);
	free(s->hostname);
	free(s->domainname);
	for (size_t i = 0; i < s->n_mounts; i++) {
		free(s->mounts[i].destination);
		free(s->mounts[i].type);
		free(s->mounts[i].source);
		strv_free(s->mounts[i].options);
		free(s->mounts[i].uid_mappings);
		free(s->mounts[i].gid_mappings);
	}
	free(s->mounts);
	for (size_t i = 0; i < s->n_namespaces; i++)
		free(s->namespaces[i].path);
	free(s->namespaces);
	strv_free(s->masked_paths);
	strv_free(s->readonly_paths);
	free(s->rootfs_propagation);
	free(s->mount_label);
	free(s->memory_policy.nodes);
	oci_net_devices_free(s->net_devices, s->n_net_devices);
	oci_intel_rdt_release(&s->intel_rdt);
	strv_free(s->annotations);
	strv_free(s->sysctl);
	free(s->cgroups_path);
	oci_resources_release(&s->resources);
	oci_hooks_release(&s->hooks);
	oci_seccomp_release(&s->seccomp);
	free(s->uid_mappings);
	free(s->gid_mappings);
	free(s);
}
