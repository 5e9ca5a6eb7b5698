/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-criu-resp: libFuzzer target for the decoder of CRIU's answers
 * (shim/criu/criu_rpc.c): any bytes either decode or are refused, never read
 * past their end; what decodes has NUL-terminated strings.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shim/criu/criu_rpc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct criu_resp r;

	if (criu_resp_decode(data, size, &r) < 0)
		return 0;
	if (strnlen(r.notify_script, sizeof(r.notify_script)) == sizeof(r.notify_script) ||
	    strnlen(r.cr_errmsg, sizeof(r.cr_errmsg)) == sizeof(r.cr_errmsg))
		abort();
	return 0;
}
