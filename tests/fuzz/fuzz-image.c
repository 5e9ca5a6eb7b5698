/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-image: libFuzzer target for the image layout's JSON: the input read
 * as index.json, as an image manifest and as an image config; and, when it
 * is a valid image config, the bundle config.json made from it, which the
 * config parser must accept.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "oci/image.h"
#include "oci/json.h"
#include "oci/spec.h"

static void bundle_config_round_trip(const struct oci_image_config *c)
{
	struct shim_error err = { 0 };
	char **args = oci_image_args(c, &err);
	char *const sh[] = { "sh", NULL }, *const env[] = { NULL };
	struct oci_bundle_process p = { .cwd = c->working_dir ? c->working_dir : "/" };
	struct oci_spec *s;
	char *json;

	if (!args)
		abort();
	p.args = args[0] ? args : sh;
	p.env = c->env ? c->env : env;
	json = oci_spec_json_for_process(&p, c->labels, &err);
	if (!json)
		abort();
	s = oci_spec_parse(json, strlen(json), &err);
	/* args, env and labels are any strings: the result must parse */
	if (!s)
		abort();
	oci_spec_free(s);
	free(json);
	strv_free(args);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct shim_error err = { 0 };
	struct oci_index idx;
	struct oci_manifest m;
	struct oci_image_config c;

	if (oci_index_parse(text, size, "index.json", &idx, &err) == 0) {
		oci_index_pick(&idx, "latest", &err);
		oci_index_release(&idx);
	} else if (!err.msg[0]) {
		abort();
	}
	if (oci_manifest_parse(text, size, "manifest", &m, &err) == 0)
		oci_manifest_release(&m);
	if (oci_image_config_parse(text, size, "config", &c, &err) == 0) {
		bundle_config_round_trip(&c);
		oci_image_config_release(&c);
	}
	return 0;
}
