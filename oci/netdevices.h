/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/netdevices.h: linux.netDevices, the host interfaces a container takes
 * into its network namespace ("eth1": {"name": "ctr0"}).
 */
#ifndef OCI_NETDEVICES_H
#define OCI_NETDEVICES_H

#include <stdbool.h>
#include <yajl/yajl_tree.h>

#include <stddef.h>

#include "oci/base/error.h"

/* linux.netDevices: a host interface moved into the container's network
 * namespace, renamed there to name (the host's name when not given). */
struct oci_net_device {
	char *host;
	char *name;
};

/* A name the kernel takes for an interface: 1 to 15 bytes, not "." or
 * "..", without '/', ':' or white space (dev_valid_name). */
bool oci_ifname_valid(const char *name);

/* *devs (n of them) from lx (the "linux" object): the container needs a
 * network namespace of its own (has_net_ns), the names must be valid and
 * the names in the container distinct. */
int oci_net_devices_parse(yajl_val lx, bool has_net_ns, struct oci_net_device **devs, size_t *n,
			  struct shim_error *err);

void oci_net_devices_free(struct oci_net_device *devs, size_t n);

#endif
