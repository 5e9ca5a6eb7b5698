/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

#include "oci/descriptors.h"
#include "oci/gen.h"
#include "oci/json.h"

char *oci_descriptors_to_json(const char *const names[3], struct shim_error *err)
{
	yajl_gen g = yajl_gen_alloc(NULL);

	if (!g) {
		shim_fail(err, ENOMEM, "%s", OCI_DESCRIPTORS_FILE);
		return NULL;
	}
	yajl_gen_array_open(g);
	for (int i = 0; i < 3; i++)
		gen_str(g, names[i]);
	yajl_gen_array_close(g);
	return gen_finish(g, err);
}

void oci_descriptors_free(char *names[3])
{
	for (int i = 0; i < 3; i++) {
		free(names[i]);
		names[i] = NULL;
	}
}

int oci_descriptors_parse(const char *text, size_t len, char *names[3], struct shim_error *err)
{
	yajl_val v = json_parse(text, len, OCI_DESCRIPTORS_FILE, err);

	for (int i = 0; i < 3; i++)
		names[i] = NULL;
	if (!v)
		return -1;
	if (!YAJL_IS_ARRAY(v)) {
		json_free(v);
		return shim_fail(err, EINVAL, "%s: not an array", OCI_DESCRIPTORS_FILE);
	}
	for (size_t i = 0; i < v->u.array.len && i < 3; i++) {
		const char *name = YAJL_GET_STRING(v->u.array.values[i]);

		if (name && !(names[i] = strdup(name))) {
			oci_descriptors_free(names);
			json_free(v);
			return shim_fail(err, ENOMEM, "%s", OCI_DESCRIPTORS_FILE);
		}
	}
	json_free(v);
	return 0;
}
