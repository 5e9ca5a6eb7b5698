/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <sys/prctl.h>

#include "shim/caps.h"
#include "shim/log.h"
#include "shim/syscalls.h"

/* The kernel's highest capability, asked of the kernel itself: a bounding
 * set query says EINVAL above it. No file is read, so nothing mounted over
 * the container's /proc/sys can make the runtime drop fewer caps than the
 * kernel has; and it is asked once a process (the answer cannot change). */
int caps_last(void)
{
	static int last = -1;
	int n = CAP_LAST_CAP;

	if (last >= 0)
		return last;
	while (n < 63 && prctl(PR_CAPBSET_READ, n + 1, 0, 0, 0) >= 0)
		n++;
	while (n > 0 && prctl(PR_CAPBSET_READ, n, 0, 0, 0) < 0)
		n--;
	last = n;
	return last;
}

int caps_drop_bounding(const struct oci_capabilities *c, struct shim_error *err)
{
	int last = caps_last();

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
	int last = caps_last();
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
