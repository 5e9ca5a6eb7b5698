/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/json.h: typed reads from a yajl tree that name the JSON path of what
 * is wrong ("process.args[2]: must be a string"). Each get_* returns 0 and
 * sets *out, 1 when the key is absent (out untouched), -1 with err filled.
 */
#ifndef OCI_JSON_H
#define OCI_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_tree.h>

#include "oci/base/error.h"
#include "oci/base/strv.h"

/* How deep arrays and objects may nest in any JSON the runtime reads. */
#define JSON_MAX_DEPTH 512
#define JSON_MAX_DEPTH_TEXT "512"

/* Parse JSON text of len bytes (no NUL inside) into a tree of yajl
 * values (oci/json_tree.c); what names it in errors ("config"). JSON
 * nested deeper than JSON_MAX_DEPTH or with a NUL byte in a string or
 * member name is refused, naming the JSON path. Free the root with
 * json_free(), never yajl_tree_free(). */
yajl_val json_parse(const char *json, size_t len, const char *what, struct shim_error *err);
void json_free(yajl_val root);

/* The value of key in obj, or NULL when absent (or obj not an object). */
yajl_val json_member(yajl_val obj, const char *key);

int json_fail(struct shim_error *err, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* json_fail at "path.key": the path is made only for the error. */
int json_member_fail(struct shim_error *err, const char *path, const char *key,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* "prefix[i]" in buf, cut to size as snprintf cuts: the path of an
 * array's element, which a parse names for each one it reads and seldom
 * uses, made without printf. Returns buf. */
const char *json_path_at(char *buf, size_t size, const char *prefix, size_t i);

int json_get_string(yajl_val obj, const char *key, const char *path,
		    char **out, struct shim_error *err);
int json_get_bool(yajl_val obj, const char *key, const char *path,
		  bool *out, struct shim_error *err);
int json_get_u64(yajl_val obj, const char *key, const char *path,
		 uint64_t max, uint64_t *out, struct shim_error *err);
/* The bounds a json_get_i64 value must be within: JSON_RANGE(-1, 100). */
struct json_range {
	int64_t min, max;
};
#define JSON_RANGE(lo, hi) ((struct json_range){ (lo), (hi) })
int json_get_i64(yajl_val obj, const char *key, const char *path,
		 struct json_range range, int64_t *out, struct shim_error *err);
/* An array of strings, as a NULL-terminated malloc'd vector. */
int json_get_strv(yajl_val obj, const char *key, const char *path,
		  char ***out, struct shim_error *err);
/* An object or array member that must have that type when present. */
int json_get_object(yajl_val obj, const char *key, const char *path,
		    yajl_val *out, struct shim_error *err);
int json_get_array(yajl_val obj, const char *key, const char *path,
		   yajl_val *out, struct shim_error *err);


#endif
