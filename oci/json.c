/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/json.h"

yajl_val json_member(yajl_val obj, const char *key)
{
	if (!YAJL_IS_OBJECT(obj))
		return NULL;
	for (size_t i = 0; i < obj->u.object.len; i++)
		if (strcmp(obj->u.object.keys[i], key) == 0)
			return obj->u.object.values[i];
	return NULL;
}

static int json_vfail(struct shim_error *err, const char *path, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static int json_vfail(struct shim_error *err, const char *path, const char *fmt, va_list ap)
{
	char what[768];

	vsnprintf(what, sizeof(what), fmt, ap);
	return shim_fail(err, 0, "%s: %s", path, what);
}

int json_fail(struct shim_error *err, const char *path, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = json_vfail(err, path, fmt, ap);
	va_end(ap);
	return r;
}

/* "parent.key" or "key" at the top. */
static void join(char *buf, size_t len, const char *path, const char *key)
{
	if (path && *path)
		snprintf(buf, len, "%s.%s", path, key);
	else
		snprintf(buf, len, "%s", key);
}

/* Paths are made only for an error: a parse made some 200 it never used,
 * a quarter of its time. */
int json_member_fail(struct shim_error *err, const char *path, const char *key,
		     const char *fmt, ...)
{
	char where[512];
	va_list ap;
	int r;

	join(where, sizeof(where), path, key);
	va_start(ap, fmt);
	r = json_vfail(err, where, fmt, ap);
	va_end(ap);
	return r;
}

const char *json_path_at(char *buf, size_t size, const char *prefix, size_t i)
{
	char index[24], *d = index + sizeof(index);	/* "[" 20 digits "]" NUL */
	size_t n = 0;

	if (size == 0)
		return buf;
	*--d = '\0';
	*--d = ']';
	do
		*--d = (char)('0' + i % 10);
	while ((i /= 10) != 0);
	*--d = '[';
	for (; *prefix && n + 1 < size; prefix++)
		buf[n++] = *prefix;
	for (; *d && n + 1 < size; d++)
		buf[n++] = *d;
	buf[n] = '\0';
	return buf;
}

static int member_out_of_memory(struct shim_error *err, const char *path, const char *key)
{
	char where[512];

	join(where, sizeof(where), path, key);
	return shim_fail(err, ENOMEM, "%s", where);
}

int json_get_string(yajl_val obj, const char *key, const char *path,
		    char **out, struct shim_error *err)
{
	yajl_val v = json_member(obj, key);

	if (!v)
		return 1;
	if (!YAJL_IS_STRING(v))
		return json_member_fail(err, path, key, "must be a string");
	*out = strdup(v->u.string);
	if (!*out)
		return member_out_of_memory(err, path, key);
	return 0;
}

int json_get_bool(yajl_val obj, const char *key, const char *path,
		  bool *out, struct shim_error *err)
{
	yajl_val v = json_member(obj, key);

	if (!v)
		return 1;
	if (!YAJL_IS_TRUE(v) && !YAJL_IS_FALSE(v))
		return json_member_fail(err, path, key, "must be true or false");
	*out = YAJL_IS_TRUE(v);
	return 0;
}

int json_get_u64(yajl_val obj, const char *key, const char *path,
		 uint64_t max, uint64_t *out, struct shim_error *err)
{
	yajl_val v = json_member(obj, key);
	const char *raw;
	char *end;
	uint64_t n;

	if (!v)
		return 1;
	/* The raw text, so values past INT64_MAX (RLIM_INFINITY) survive. */
	raw = YAJL_IS_NUMBER(v) ? v->u.number.r : NULL;
	if (!raw || raw[0] == '-' || strpbrk(raw, ".eE"))
		return json_member_fail(err, path, key, "must be a non-negative integer");
	errno = 0;
	n = strtoull(raw, &end, 10);
	if (errno || *end || n > max)
		return json_member_fail(err, path, key, "%s is out of range (at most %" PRIu64 ")", raw,
				   max);
	*out = n;
	return 0;
}

int json_get_strv(yajl_val obj, const char *key, const char *path,
		  char ***out, struct shim_error *err)
{
	yajl_val v = json_member(obj, key);
	char **vec;
	size_t n;

	if (!v)
		return 1;
	if (!YAJL_IS_ARRAY(v))
		return json_member_fail(err, path, key, "must be an array of strings");
	n = v->u.array.len;
	vec = calloc(n + 1, sizeof(*vec));
	if (!vec)
		return member_out_of_memory(err, path, key);
	for (size_t i = 0; i < n; i++) {
		yajl_val s = v->u.array.values[i];

		if (!YAJL_IS_STRING(s)) {
			char where[512], elem[540];

			strv_free(vec);
			join(where, sizeof(where), path, key);
			snprintf(elem, sizeof(elem), "%s[%zu]", where, i);
			return json_fail(err, elem, "must be a string");
		}
		vec[i] = strdup(s->u.string);
		if (!vec[i]) {
			strv_free(vec);
			return member_out_of_memory(err, path, key);
		}
	}
	*out = vec;
	return 0;
}

/* A member that must pass is_type when present. */
static int get_typed(yajl_val obj, const char *key, const char *path, int (*is_type)(yajl_val),
		     const char *type_name, yajl_val *out, struct shim_error *err)
{
	yajl_val v = json_member(obj, key);

	if (!v)
		return 1;
	if (!is_type(v))
		return json_member_fail(err, path, key, "must be %s", type_name);
	*out = v;
	return 0;
}

static int is_object(yajl_val v)
{
	return YAJL_IS_OBJECT(v);
}

static int is_array(yajl_val v)
{
	return YAJL_IS_ARRAY(v);
}

int json_get_object(yajl_val obj, const char *key, const char *path,
		    yajl_val *out, struct shim_error *err)
{
	return get_typed(obj, key, path, is_object, "an object", out, err);
}

int json_get_array(yajl_val obj, const char *key, const char *path,
		   yajl_val *out, struct shim_error *err)
{
	return get_typed(obj, key, path, is_array, "an array", out, err);
}

int json_get_i64(yajl_val obj, const char *key, const char *path,
		 struct json_range range, int64_t *out, struct shim_error *err)
{
	int64_t min = range.min, max = range.max;
	yajl_val v = json_member(obj, key);

	if (!v)
		return 1;
	if (!YAJL_IS_INTEGER(v))
		return json_member_fail(err, path, key, "must be an integer");
	if (v->u.number.i < min || v->u.number.i > max)
		return json_member_fail(err, path, key, "%s is out of range (%" PRId64 " to %" PRId64 ")",
				   v->u.number.r, min, max);
	*out = v->u.number.i;
	return 0;
}
