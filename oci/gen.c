/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "oci/gen.h"

void gen_str(yajl_gen g, const char *s)
{
	yajl_gen_string(g, (const unsigned char *)s, strlen(s));
}

void gen_key_str(yajl_gen g, const char *key, const char *value)
{
	gen_str(g, key);
	gen_str(g, value ? value : "");
}

void gen_key_int(yajl_gen g, const char *key, long long value)
{
	gen_str(g, key);
	yajl_gen_integer(g, value);
}

void gen_key_bool(yajl_gen g, const char *key, bool value)
{
	gen_str(g, key);
	yajl_gen_bool(g, value);
}

void gen_key_strv(yajl_gen g, const char *key, const char *const *v)
{
	gen_str(g, key);
	yajl_gen_array_open(g);
	for (; v && *v; v++)
		gen_str(g, *v);
	yajl_gen_array_close(g);
}

void gen_key_map(yajl_gen g, const char *key, char *const *kv)
{
	gen_str(g, key);
	yajl_gen_map_open(g);
	for (; kv && kv[0] && kv[1]; kv += 2)
		gen_key_str(g, kv[0], kv[1]);
	yajl_gen_map_close(g);
}

char *gen_finish(yajl_gen g, struct shim_error *err)
{
	const unsigned char *buf;
	size_t len;
	char *out = NULL;

	if (yajl_gen_get_buf(g, &buf, &len) != yajl_gen_status_ok)
		shim_fail(err, 0, "generating JSON failed");
	else if (!(out = strndup((const char *)buf, len)))
		shim_fail(err, ENOMEM, "generating JSON");
	yajl_gen_free(g);
	return out;
}
