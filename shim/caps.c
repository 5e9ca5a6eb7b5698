/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>

#include "shim/caps.h"
#include "shim/log.h"
#include "shim/syscalls.h"

static int last_cap(void)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "re");
	int n = CAP_LAST_CAP;

	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = CAP_LAST_CAP;
		fclose(f);
	}
	return n;
}

int caps_drop_bounding(const struct oci_capabilities *c, struct shim_error *err)
{
	int last = last_cap();

	if (!c->present)
		return 0;
	for (int cap = 0; cap <= last; cap++)
		if (!(c->bounding & (1ULL << cap)) && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
			return shim_fail_errno(err, "process.capabilities.bounding: dropping %d", cap);
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return shim_fail_errno(err, "process.capabilities: PR_SET_KEEPCAPS");
	return 0;
}

int caps_set(const struct oci_capabilities *c, struct shim_error *err)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };
	int last = last_cap();
	uint64_t known = (2ULL << last) - 1;

	if (!c->present)
		return 0;
	for (int i = 0; i < 2; i++) {
		data[i].effective = (uint32_t)((c->effective & known) >> (32 * i));
		data[i].permitted = (uint32_t)((c->permitted & known) >> (32 * i));
		data[i].inheritable = (uint32_t)((c->inheritable & known) >> (32 * i));
	}
	if (sys_capset(&hdr, data) < 0)
		return shim_fail_errno(err, "process.capabilities: capset");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		return shim_fail_errno(err, "process.capabilities.ambient: clear");
	/* The kernel allows an ambient cap only if it is permitted and
	 * inheritable; like runc, leave out those that are not (runc's own
	 * default spec lists ambient caps with no inheritable set). */
	for (int cap = 0; cap <= last; cap++)
		if ((c->ambient & c->inheritable & c->permitted & (1ULL << cap)) &&
		    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) < 0)
			return shim_fail_errno(err, "process.capabilities.ambient: raising %d", cap);
	return 0;
}

void caps_warn_unknown(const struct oci_capabilities *c)
{
	for (size_t i = 0; c->unknown && c->unknown[i]; i++)
		log_warn("%s: unknown capability, skipped", c->unknown[i]);
}
