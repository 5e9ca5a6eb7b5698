/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "oci/base/strv.h"
#include "oci/gen.h"
#include "oci/json.h"
#include "oci/state.h"

struct oci_state_view oci_state_view(const struct oci_state *st)
{
	return (struct oci_state_view){
		.oci_version = st->oci_version, .id = st->id, .status = st->status,
		.bundle = st->bundle, .rootfs = st->rootfs, .created = st->created,
		.owner = st->owner, .pid = st->pid, .annotations = st->annotations,
		.init_start_time = st->init_start_time, .cgroup_path = st->cgroup_path,
		.has_poststart = st->has_poststart, .has_poststop = st->has_poststop,
	};
}

static bool copy_string(char **to, const char *from)
{
	return !from || (*to = strdup(from));
}

struct oci_state *oci_state_from_view(const struct oci_state_view *v, struct shim_error *err)
{
	struct oci_state *st = calloc(1, sizeof(*st));

	if (!st)
		goto nomem;
	st->pid = v->pid;
	st->init_start_time = v->init_start_time;
	st->has_poststart = v->has_poststart;
	st->has_poststop = v->has_poststop;
	if (!copy_string(&st->oci_version, v->oci_version) || !copy_string(&st->id, v->id) ||
	    !copy_string(&st->status, v->status) || !copy_string(&st->bundle, v->bundle) ||
	    !copy_string(&st->rootfs, v->rootfs) || !copy_string(&st->created, v->created) ||
	    !copy_string(&st->owner, v->owner) || !copy_string(&st->cgroup_path, v->cgroup_path) ||
	    (v->annotations && !(st->annotations = strv_copy(v->annotations))))
		goto nomem;
	return st;
nomem:
	oci_state_free(st);
	shim_fail(err, ENOMEM, "state");
	return NULL;
}

static void gen_state(yajl_gen g, const struct oci_state_view *st, bool with_private)
{
	yajl_gen_map_open(g);
	gen_key_str(g, "ociVersion", st->oci_version);
	gen_key_str(g, "id", st->id);
	gen_key_int(g, "pid", st->pid);
	gen_key_str(g, "status", st->status);
	gen_key_str(g, "bundle", st->bundle);
	gen_key_str(g, "rootfs", st->rootfs);
	gen_key_str(g, "created", st->created);
	gen_key_str(g, "owner", st->owner);
	if (st->annotations && st->annotations[0])
		gen_key_map(g, "annotations", st->annotations);
	if (with_private) {
		gen_str(g, "shim");
		yajl_gen_map_open(g);
		gen_str(g, "initStartTime");
		yajl_gen_integer(g, (long long)st->init_start_time);
		if (st->cgroup_path)
			gen_key_str(g, "cgroupPath", st->cgroup_path);
		gen_str(g, "poststart");
		yajl_gen_bool(g, st->has_poststart);
		gen_str(g, "poststop");
		yajl_gen_bool(g, st->has_poststop);
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
}

static yajl_gen new_gen(bool pretty)
{
	yajl_gen g = yajl_gen_alloc(NULL);

	if (g && pretty) {
		yajl_gen_config(g, yajl_gen_beautify, 1);
		yajl_gen_config(g, yajl_gen_indent_string, "  ");
	}
	return g;
}

char *oci_state_to_json(const struct oci_state_view *st, bool with_private, bool pretty,
			struct shim_error *err)
{
	yajl_gen g = new_gen(pretty);

	if (!g) {
		shim_fail(err, ENOMEM, "state JSON");
		return NULL;
	}
	gen_state(g, st, with_private);
	return gen_finish(g, err);
}

char *oci_process_state_to_json(const struct oci_state_view *st, const char *metadata,
				struct shim_error *err)
{
	yajl_gen g = new_gen(false);

	if (!g) {
		shim_fail(err, ENOMEM, "container process state JSON");
		return NULL;
	}
	yajl_gen_map_open(g);
	gen_key_str(g, "ociVersion", st->oci_version);
	gen_key_strv(g, "fds", (const char *const[]){ "seccompFd", NULL });
	gen_key_int(g, "pid", st->pid);
	gen_key_str(g, "metadata", metadata ? metadata : "");
	gen_str(g, "state");
	gen_state(g, st, false);
	yajl_gen_map_close(g);
	return gen_finish(g, err);
}

char *oci_state_list_to_json(struct oci_state *const *states, size_t n,
			     struct shim_error *err)
{
	yajl_gen g = new_gen(false);

	if (!g) {
		shim_fail(err, ENOMEM, "state list JSON");
		return NULL;
	}
	yajl_gen_array_open(g);
	for (size_t i = 0; i < n; i++) {
		struct oci_state_view v = oci_state_view(states[i]);

		gen_state(g, &v, false);
	}
	yajl_gen_array_close(g);
	return gen_finish(g, err);
}

static int parse_fields(yajl_val tree, struct oci_state *st, struct shim_error *err)
{
	static const struct {
		const char *key;
		size_t offset;
	} strings[] = {
		{ "ociVersion", offsetof(struct oci_state, oci_version) },
		{ "id", offsetof(struct oci_state, id) },
		{ "status", offsetof(struct oci_state, status) },
		{ "bundle", offsetof(struct oci_state, bundle) },
		{ "rootfs", offsetof(struct oci_state, rootfs) },
		{ "created", offsetof(struct oci_state, created) },
		{ "owner", offsetof(struct oci_state, owner) },
	};
	yajl_val priv = NULL, ann;
	uint64_t n;
	int r;

	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		char **field = (char **)((char *)st + strings[i].offset);

		if ((r = json_get_string(tree, strings[i].key, "", field, err)) < 0)
			return -1;
		if (r == 1)
			return json_fail(err, strings[i].key, "missing");
	}
	if ((r = json_get_u64(tree, "pid", "", 4194304, &n, err)) < 0)
		return -1;
	st->pid = r == 0 ? (pid_t)n : 0;
	if (json_get_object(tree, "shim", "", &priv, err) < 0)
		return -1;
	if (priv && json_get_u64(priv, "initStartTime", "shim", UINT64_MAX, &n, err) < 0)
		return -1;
	st->init_start_time = priv ? n : 0;
	if (priv && (json_get_string(priv, "cgroupPath", "shim", &st->cgroup_path, err) < 0 ||
		     json_get_bool(priv, "poststart", "shim", &st->has_poststart, err) < 0 ||
		     json_get_bool(priv, "poststop", "shim", &st->has_poststop, err) < 0))
		return -1;
	ann = json_member(tree, "annotations");
	if (YAJL_IS_OBJECT(ann)) {
		size_t len = ann->u.object.len, k = 0;

		st->annotations = calloc(2 * len + 1, sizeof(char *));
		if (!st->annotations)
			return shim_fail(err, ENOMEM, "annotations");
		for (size_t i = 0; i < len; i++) {
			yajl_val v = ann->u.object.values[i];
			char *key, *value;

			if (!YAJL_IS_STRING(v))
				continue;
			key = strdup(ann->u.object.keys[i]);
			value = strdup(v->u.string);
			if (!key || !value) {
				free(key);
				free(value);
				return shim_fail(err, ENOMEM, "annotations");
			}
			st->annotations[k++] = key;
			st->annotations[k++] = value;
		}
	}
	return 0;
}

struct oci_state *oci_state_parse(const char *json, size_t len, struct shim_error *err)
{
	yajl_val tree = json_parse(json, len, "state", err);
	struct oci_state *st = NULL;

	if (!tree)
		return NULL;
	if (!YAJL_IS_OBJECT(tree))
		shim_fail(err, 0, "the state must be a JSON object");
	else if (!(st = calloc(1, sizeof(*st))))
		shim_fail(err, ENOMEM, "state");
	else if (parse_fields(tree, st, err) < 0) {
		oci_state_free(st);
		st = NULL;
	}
	json_free(tree);
	return st;
}

void oci_state_free(struct oci_state *st)
{
	if (!st)
		return;
	free(st->oci_version);
	free(st->id);
	free(st->status);
	free(st->bundle);
	free(st->rootfs);
	free(st->created);
	free(st->owner);
	strv_free(st->annotations);
	free(st->cgroup_path);
	free(st);
}
