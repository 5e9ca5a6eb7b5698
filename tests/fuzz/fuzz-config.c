/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-config: libFuzzer target for the config.json parser (oci_spec_parse,
 * with linux.resources, hooks, seccomp, mounts and ID maps), and for the
 * state.json and descriptors.json parsers on the same input (restore reads
 * descriptors.json from the checkpoint's folder). Each may refuse the input; none
 * may crash, leak, hang, or refuse without a message. And json_parse, which
 * both stand on, builds the tree yajl_tree_parse builds from the input, or
 * refuses it with yajl's message (its own refusals, nesting and a NUL,
 * aside): its way without yajl for common text must change nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/descriptors.h"
#include "oci/json.h"
#include "oci/spec.h"
#include "oci/state.h"
#include "tests/unit/json_same.h"

static void json_parse_agrees_with_yajl(const uint8_t *data, size_t size)
{
	struct shim_error err = { 0 };
	char want[1100];
	yajl_val mine, theirs;
	char *text;

	/* yajl_tree_parse reads a C string */
	if (memchr(data, '\0', size) || !(text = strndup((const char *)data, size)))
		return;
	mine = json_parse(text, size, "input", &err);
	if (!mine && (strstr(err.msg, ": nested deeper than ") || strstr(err.msg, "NUL byte"))) {
		free(text);
		return;
	}
	theirs = yajl_tree_and_message(text, want, sizeof(want));
	if ((mine && !theirs) || (!mine && theirs) || (mine && !same_tree(mine, theirs)) ||
	    (!mine && strcmp(err.msg, want) != 0))
		abort();
	json_free(mine);
	yajl_tree_free(theirs);
	free(text);
}

/* What oci_descriptors_parse takes, oci_descriptors_to_json writes back
 * so that it parses to the same names. */
static void descriptors_round_trip(const uint8_t *data, size_t size)
{
	struct shim_error err = { 0 };
	char *names[3], *again[3], *text;
	const char *given[3];

	if (oci_descriptors_parse((const char *)data, size, names, &err) < 0) {
		if (!err.msg[0])
			abort();
		return;
	}
	for (int i = 0; i < 3; i++)
		given[i] = names[i] ? names[i] : "";
	text = oci_descriptors_to_json(given, &err);
	if (!text || oci_descriptors_parse(text, strlen(text), again, &err) < 0)
		abort();
	for (int i = 0; i < 3; i++)
		if (strcmp(given[i], again[i] ? again[i] : "") != 0)
			abort();
	oci_descriptors_free(names);
	oci_descriptors_free(again);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shim_error err = { 0 };
	struct oci_spec *s = oci_spec_parse((const char *)data, size, &err);
	struct oci_state *st;

	if (!s && !err.msg[0])
		abort();	/* refused without saying why */
	oci_spec_free(s);
	memset(&err, 0, sizeof(err));
	st = oci_state_parse((const char *)data, size, &err);
	if (!st && !err.msg[0])
		abort();
	oci_state_free(st);
	descriptors_round_trip(data, size);
	json_parse_agrees_with_yajl(data, size);
	return 0;
}
