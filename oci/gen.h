/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/gen.h: small helpers over yajl_gen for the JSON the runtime writes. */
#ifndef OCI_GEN_H
#define OCI_GEN_H

#include <stdbool.h>
#include <yajl/yajl_gen.h>

#include "oci/base/error.h"

void gen_str(yajl_gen g, const char *s);
void gen_key_str(yajl_gen g, const char *key, const char *value);
void gen_key_int(yajl_gen g, const char *key, long long value);
void gen_key_bool(yajl_gen g, const char *key, bool value);
/* key: [ strings... ] from a NULL-terminated vector */
void gen_key_strv(yajl_gen g, const char *key, const char *const *v);
/* key: { k: v, ... } from a NULL-terminated key, value, ... vector */
void gen_key_map(yajl_gen g, const char *key, char *const *kv);

/* The generated text as a malloc'd string (frees g), or NULL with err. */
char *gen_finish(yajl_gen g, struct shim_error *err);

#endif
