/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "oci/base/cleanup.h"
#include "shim/log.h"
#include "shim/network/loopback.h"
#include "shim/network/netlink.h"

/* Every network namespace's first interface is its loopback (the kernel's
 * LOOPBACK_IFINDEX). */
#define LOOPBACK_INDEX 1

int loopback_up(const struct oci_spec *spec, struct shim_error *err)
{
	const struct oci_namespace *net = oci_spec_namespace(spec, OCI_NS_NETWORK);
	_cleanup_close_ int nl = -1;

	if (!net || net->path)
		return 0;
	nl = nl_open(err);
	if (nl < 0 || nl_link_set_up(nl, LOOPBACK_INDEX, true, err) < 0)
		return shim_error_wrap(err, "linux.namespaces: network: the loopback interface");
	log_debug("init: lo up in the new network namespace");
	return 0;
}
