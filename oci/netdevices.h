/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/netdevices.h: linux.netDevices, the host interfaces a container takes
 * into its network namespace ("eth1": {"name": "ctr0"}).
 */
#ifndef OCI_NETDEVICES_H
#define OCI_NETDEVICES_H

#include <stdbool.h>
#include <yajl/yajl_tree.h>

#include "oci/spec.h"

/* A name the kernel takes for an interface: 1 to 15 bytes, not "." or
 * "..", without '/', ':' or white space (dev_valid_name). */
bool oci_ifname_valid(const char *name);

/* Fill s->net_devices from lx (the "linux" object), after
 * s->namespaces: the container needs a network namespace of its own, the
 * names must be valid and the names in the container distinct. */
int oci_net_devices_parse(yajl_val lx, struct oci_spec *s, struct shim_error *err);

void oci_net_devices_free(struct oci_spec *s);

#endif
