/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-config: libFuzzer target for the config.json parser (oci_spec_parse,
 * with linux.resources, hooks, seccomp, mounts and ID maps), and for the
 * state.json parser on the same input. Either may refuse the input; neither
 * may crash, leak, hang, or refuse without a message. And json_parse, which
 * both stand on, builds the tree yajl_tree_parse builds from the input, or
 * refuses it with yajl's message (its own refusals, nesting and a NUL,
 * aside): its way without yajl for common text must change nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	json_parse_agrees_with_yajl(data, size);
	return 0;
}
