/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/hooks.h"
#include "oci/json.h"

static const char *const kind_names[HOOK_KINDS] = {
	"prestart", "createRuntime", "createContainer", "startContainer", "poststart", "poststop",
};

const char *oci_hook_kind_name(enum oci_hook_kind kind)
{
	return kind_names[kind];
}

static int parse_hook(yajl_val v, const char *where, struct oci_hook *h, struct shim_error *err)
{
	uint64_t timeout = 0;
	int r;

	if (!YAJL_IS_OBJECT(v))
		return json_fail(err, where, "must be an object");
	if ((r = json_get_string(v, "path", where, &h->path, err)) < 0)
		return -1;
	if (r == 1 || h->path[0] != '/')
		return json_fail(err, where, "path: must be an absolute path");
	if (json_get_strv(v, "args", where, &h->args, err) < 0 ||
	    json_get_strv(v, "env", where, &h->env, err) < 0 ||
	    (r = json_get_u64(v, "timeout", where, 86400, &timeout, err)) < 0)
		return -1;
	if (r == 0 && timeout == 0)
		return json_fail(err, where, "timeout: must be greater than zero");
	h->timeout = (unsigned int)timeout;
	return 0;
}

int oci_hooks_parse(yajl_val obj, struct oci_hooks *h, struct shim_error *err)
{
	memset(h, 0, sizeof(*h));
	for (int k = 0; k < HOOK_KINDS; k++) {
		char where[64];
		yajl_val arr = NULL;

		snprintf(where, sizeof(where), "hooks");
		if (json_get_array(obj, kind_names[k], where, &arr, err) < 0)
			goto fail;
		if (!arr || !arr->u.array.len)
			continue;
		h->list[k] = calloc(arr->u.array.len, sizeof(struct oci_hook));
		if (!h->list[k]) {
			shim_fail(err, ENOMEM, "hooks");
			goto fail;
		}
		for (size_t i = 0; i < arr->u.array.len; i++) {
			snprintf(where, sizeof(where), "hooks.%s[%zu]", kind_names[k], i);
			h->n[k]++;
			if (parse_hook(arr->u.array.values[i], where, &h->list[k][i], err) < 0)
				goto fail;
		}
	}
	return 0;
fail:
	oci_hooks_release(h);
	return -1;
}

void oci_hooks_release(struct oci_hooks *h)
{
	for (int k = 0; k < HOOK_KINDS; k++) {
		for (size_t i = 0; i < h->n[k]; i++) {
			free(h->list[k][i].path);
			strv_free(h->list[k][i].args);
			strv_free(h->list[k][i].env);
		}
		free(h->list[k]);
	}
	memset(h, 0, sizeof(*h));
}
