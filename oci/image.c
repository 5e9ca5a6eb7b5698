/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/image.c: index.json, image manifests and image configs of an OCI
 * image layout (image-spec 1.0/1.1), read with the same typed getters as
 * config.json so that errors name the file and the JSON path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/image.h"
#include "oci/json.h"

int oci_digest_check(const char *digest, const char *where, struct shim_error *err)
{
	const char *hex = digest + strlen("sha256:");

	if (strncmp(digest, "sha256:", 7) != 0)
		return json_fail(err, where, "\"%s\": only sha256 digests are supported", digest);
	if (strlen(hex) != 64 || strspn(hex, "0123456789abcdef") != 64)
		return json_fail(err, where, "\"%s\": not a sha256 digest", digest);
	return 0;
}

static void descriptor_release(struct oci_descriptor *d)
{
	free(d->media_type);
	free(d->digest);
	free(d->ref_name);
	free(d->os);
	free(d->arch);
	memset(d, 0, sizeof(*d));
}

static int descriptor_parse(yajl_val v, const char *path, struct oci_descriptor *d,
			    struct shim_error *err)
{
	yajl_val ann = NULL, platform = NULL;
	char where[512];
	int r;

	if (!YAJL_IS_OBJECT(v))
		return json_fail(err, path, "must be an object");
	if (json_get_string(v, "mediaType", path, &d->media_type, err) < 0)
		return -1;
	if ((r = json_get_string(v, "digest", path, &d->digest, err)) < 0)
		return -1;
	snprintf(where, sizeof(where), "%s.digest", path);
	if (r == 1)
		return json_fail(err, where, "missing");
	if (oci_digest_check(d->digest, where, err) < 0)
		return -1;
	if ((r = json_get_i64(v, "size", path, JSON_RANGE(0, INT64_MAX), &d->size, err)) < 0)
		return -1;
	if (r == 1)
		return json_fail(err, path, "size: missing");
	if (json_get_object(v, "annotations", path, &ann, err) < 0 ||
	    json_get_object(v, "platform", path, &platform, err) < 0)
		return -1;
	snprintf(where, sizeof(where), "%s.annotations", path);
	if (ann && json_get_string(ann, OCI_REF_NAME, where, &d->ref_name, err) < 0)
		return -1;
	snprintf(where, sizeof(where), "%s.platform", path);
	if (platform && (json_get_string(platform, "os", where, &d->os, err) < 0 ||
			 json_get_string(platform, "architecture", where, &d->arch, err) < 0))
		return -1;
	return 0;
}

/* key: [ descriptor, ... ] into a calloc'd array. */
static int descriptors_parse(yajl_val obj, const char *key, struct oci_descriptor **out,
			     size_t *n, struct shim_error *err)
{
	yajl_val arr = NULL;

	if (json_get_array(obj, key, "", &arr, err) < 0)
		return -1;
	if (!arr)
		return json_fail(err, key, "missing");
	*out = calloc(arr->u.array.len + 1, sizeof(**out));
	if (!*out)
		return shim_fail(err, ENOMEM, "%s", key);
	for (*n = 0; *n < arr->u.array.len; ++*n) {
		char where[64];

		snprintf(where, sizeof(where), "%s[%zu]", key, *n);
		if (descriptor_parse(arr->u.array.values[*n], where, &(*out)[*n], err) < 0) {
			++*n;	/* release what this one holds too */
			return -1;
		}
	}
	return 0;
}

static yajl_val parse_object(const char *json, size_t len, const char *what,
			     struct shim_error *err)
{
	yajl_val tree = json_parse(json, len, what, err);

	if (tree && !YAJL_IS_OBJECT(tree)) {
		json_free(tree);
		shim_fail(err, 0, "%s must be a JSON object", what);
		return NULL;
	}
	if (!tree)
		shim_error_wrap(err, "%s", what);
	return tree;
}

static int schema_check(yajl_val tree, struct shim_error *err)
{
	uint64_t v;
	int r = json_get_u64(tree, "schemaVersion", "", 2, &v, err);

	if (r < 0)
		return -1;
	if (r == 1 || v != 2)
		return json_fail(err, "schemaVersion", "must be 2");
	return 0;
}

int oci_index_parse(const char *json, size_t len, const char *what,
		    struct oci_index *out, struct shim_error *err)
{
	yajl_val tree = parse_object(json, len, what, err);
	int r = -1;

	memset(out, 0, sizeof(*out));
	if (tree && schema_check(tree, err) == 0)
		r = descriptors_parse(tree, "manifests", &out->manifests, &out->n_manifests, err);
	if (tree && r < 0)
		shim_error_wrap(err, "%s", what);
	json_free(tree);
	if (r < 0)
		oci_index_release(out);
	return r;
}

int oci_manifest_parse(const char *json, size_t len, const char *what,
		       struct oci_manifest *out, struct shim_error *err)
{
	yajl_val tree = parse_object(json, len, what, err), config = NULL;
	int r = -1;

	memset(out, 0, sizeof(*out));
	if (!tree)
		return -1;
	if (schema_check(tree, err) < 0 || json_get_object(tree, "config", "", &config, err) < 0)
		r = -1;
	else if (!config)
		r = json_fail(err, "config", "missing");
	else if (descriptor_parse(config, "config", &out->config, err) == 0)
		r = descriptors_parse(tree, "layers", &out->layers, &out->n_layers, err);
	if (r < 0)
		shim_error_wrap(err, "%s", what);
	json_free(tree);
	if (r < 0)
		oci_manifest_release(out);
	return r;
}

static int labels_parse(yajl_val labels, char ***out, struct shim_error *err)
{
	size_t len = YAJL_IS_OBJECT(labels) ? labels->u.object.len : 0, k = 0;

	*out = calloc(2 * len + 1, sizeof(char *));
	if (!*out)
		return shim_fail(err, ENOMEM, "config.Labels");
	for (size_t i = 0; i < len; i++) {
		yajl_val v = labels->u.object.values[i];

		if (!YAJL_IS_STRING(v))
			return json_fail(err, "config.Labels", "\"%s\": must be a string",
					 labels->u.object.keys[i]);
		if (!((*out)[k++] = strdup(labels->u.object.keys[i])) ||
		    !((*out)[k++] = strdup(v->u.string)))
			return shim_fail(err, ENOMEM, "config.Labels");
	}
	return 0;
}

static int is_null(yajl_val obj, const char *key)
{
	yajl_val v = json_member(obj, key);

	return v && YAJL_IS_NULL(v);
}

static int image_process_parse(yajl_val conf, struct oci_image_config *out,
			       struct shim_error *err)
{
	yajl_val labels = NULL;

	if (!conf || YAJL_IS_NULL(conf))
		return 0;
	if (!YAJL_IS_OBJECT(conf))
		return json_fail(err, "config", "must be an object");
	/* Docker writes null for what it does not set: as if absent. */
	if ((!is_null(conf, "User") &&
	     json_get_string(conf, "User", "config", &out->user, err) < 0) ||
	    (!is_null(conf, "Env") &&
	     json_get_strv(conf, "Env", "config", &out->env, err) < 0) ||
	    (!is_null(conf, "Entrypoint") &&
	     json_get_strv(conf, "Entrypoint", "config", &out->entrypoint, err) < 0) ||
	    (!is_null(conf, "Cmd") &&
	     json_get_strv(conf, "Cmd", "config", &out->cmd, err) < 0) ||
	    (!is_null(conf, "WorkingDir") &&
	     json_get_string(conf, "WorkingDir", "config", &out->working_dir, err) < 0) ||
	    (!is_null(conf, "Labels") &&
	     json_get_object(conf, "Labels", "config", &labels, err) < 0))
		return -1;
	for (size_t i = 0; out->env && out->env[i]; i++)
		if (!strchr(out->env[i], '=')) {
			char where[64];

			snprintf(where, sizeof(where), "config.Env[%zu]", i);
			return json_fail(err, where, "\"%s\" is not NAME=VALUE", out->env[i]);
		}
	/* Docker takes a relative WorkingDir from "/". */
	if (out->working_dir && out->working_dir[0] != '/') {
		char *abs = NULL;

		if (asprintf(&abs, "/%s", out->working_dir) < 0)
			return shim_fail(err, ENOMEM, "config.WorkingDir");
		free(out->working_dir);
		out->working_dir = abs;
	}
	return labels_parse(labels, &out->labels, err);
}

int oci_image_config_parse(const char *json, size_t len, const char *what,
			   struct oci_image_config *out, struct shim_error *err)
{
	yajl_val tree = parse_object(json, len, what, err), rootfs = NULL;
	int r = -1;

	memset(out, 0, sizeof(*out));
	if (!tree)
		return -1;
	if (json_get_string(tree, "os", "", &out->os, err) < 0 ||
	    json_get_string(tree, "architecture", "", &out->arch, err) < 0 ||
	    image_process_parse(json_member(tree, "config"), out, err) < 0 ||
	    json_get_object(tree, "rootfs", "", &rootfs, err) < 0 ||
	    (rootfs && json_get_strv(rootfs, "diff_ids", "rootfs", &out->diff_ids, err) < 0))
		r = -1;
	else if (out->os && strcmp(out->os, "linux") != 0)
		r = json_fail(err, "os", "\"%s\": only linux images run here", out->os);
	else
		r = 0;
	out->n_diff_ids = strv_len(out->diff_ids);
	if (r < 0)
		shim_error_wrap(err, "%s", what);
	json_free(tree);
	if (r < 0)
		oci_image_config_release(out);
	return r;
}

void oci_index_release(struct oci_index *idx)
{
	for (size_t i = 0; idx->manifests && i < idx->n_manifests; i++)
		descriptor_release(&idx->manifests[i]);
	free(idx->manifests);
	memset(idx, 0, sizeof(*idx));
}

void oci_manifest_release(struct oci_manifest *m)
{
	descriptor_release(&m->config);
	for (size_t i = 0; m->layers && i < m->n_layers; i++)
		descriptor_release(&m->layers[i]);
	free(m->layers);
	memset(m, 0, sizeof(*m));
}

void oci_image_config_release(struct oci_image_config *c)
{
	free(c->user);
	strv_free(c->env);
	strv_free(c->entrypoint);
	strv_free(c->cmd);
	free(c->working_dir);
	strv_free(c->labels);
	free(c->os);
	free(c->arch);
	strv_free(c->diff_ids);
	memset(c, 0, sizeof(*c));
}

static int platform_matches(const struct oci_descriptor *d)
{
	return (!d->os || strcmp(d->os, "linux") == 0) &&
	       (!d->arch || strcmp(d->arch, "amd64") == 0);
}

const struct oci_descriptor *oci_index_pick(const struct oci_index *idx, const char *ref,
					    struct shim_error *err)
{
	const struct oci_descriptor *found = NULL;
	size_t n = 0;

	for (size_t i = 0; i < idx->n_manifests; i++) {
		const struct oci_descriptor *d = &idx->manifests[i];

		if (ref && (!d->ref_name || strcmp(d->ref_name, ref) != 0))
			continue;
		if (!platform_matches(d))
			continue;
		found = d;
		n++;
	}
	if (n == 1)
		return found;
	if (n == 0 && ref)
		shim_fail(err, 0, "no image named \"%s\" for linux/amd64 in index.json", ref);
	else if (n == 0)
		shim_fail(err, 0, "index.json lists no image for linux/amd64");
	else
		shim_fail(err, 0, "index.json lists %zu images%s%s; name one with LAYOUT:NAME", n,
			  ref ? " named " : "", ref ? ref : "");
	return NULL;
}

char **oci_image_args(const struct oci_image_config *c, struct shim_error *err)
{
	size_t ne = strv_len(c->entrypoint), nc = strv_len(c->cmd), k = 0;
	char **args = calloc(ne + nc + 1, sizeof(char *));

	if (!args) {
		shim_fail(err, ENOMEM, "process.args");
		return NULL;
	}
	for (size_t i = 0; i < ne + nc; i++) {
		const char *s = i < ne ? c->entrypoint[i] : c->cmd[i - ne];

		if (!(args[k++] = strdup(s))) {
			strv_free(args);
			shim_fail(err, ENOMEM, "process.args");
			return NULL;
		}
	}
	return args;
}
