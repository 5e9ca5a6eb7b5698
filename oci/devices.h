/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/devices.h: linux.devices, for oci/spec.c. */
#ifndef OCI_DEVICES_H
#define OCI_DEVICES_H

#include <yajl/yajl_tree.h>

#include "oci/spec.h"

/* linux.devices of the linux object into s (and their allow rules into
 * s->resources, which must be parsed first). */
int oci_devices_parse(yajl_val lx, struct oci_spec *s, struct shim_error *err);
void oci_devices_free(struct oci_spec *s);

/* When r replaces the device rules (has_devices), allow each of devs
 * (linux.devices; FIFOs need no rule) after them: create does it for the
 * config's own resources, `update` for new ones. */
int oci_devices_allow(struct oci_resources *r, const struct oci_device *devs, size_t n,
		      struct shim_error *err);

#endif
