/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-config: libFuzzer target for the config.json parser (oci_spec_parse,
 * with linux.resources, hooks, seccomp, mounts and ID maps), and for the
 * state.json parser on the same input. Either may refuse the input; neither
 * may crash, leak, hang, or refuse without a message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/spec.h"
#include "oci/state.h"

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
	return 0;
}
