/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/devices.h: linux.devices, for oci/spec.c. */
#ifndef OCI_DEVICES_H
#define OCI_DEVICES_H

#include <yajl/yajl_tree.h>

#include <stddef.h>
#include <stdint.h>

#include "oci/base/error.h"

/* linux.devices[]: a node the runtime makes in the container (and allows). */
struct oci_device {
	char *path;		/* absolute, in the container */
	char type;		/* 'c', 'b', 'u' (unbuffered char), 'p' (FIFO) */
	uint32_t major, minor;
	uint32_t file_mode;	/* permission bits; 0666 when not given, as runc */
	uint32_t uid, gid;
};

/* linux.devices of the linux object lx into *devices (n of them): the
 * nodes only, no rule. */
int oci_devices_parse(yajl_val lx, struct oci_device **devices, size_t *n,
		      struct shim_error *err);
void oci_devices_free(struct oci_device *devices, size_t n);

#endif
