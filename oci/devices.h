/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/devices.h: linux.devices, for oci/spec.c. */
#ifndef OCI_DEVICES_H
#define OCI_DEVICES_H

#include <yajl/yajl_tree.h>

#include "oci/spec.h"

/* linux.devices of the linux object into s: the nodes only, no rule. */
int oci_devices_parse(yajl_val lx, struct oci_spec *s, struct shim_error *err);
void oci_devices_free(struct oci_spec *s);

#endif
