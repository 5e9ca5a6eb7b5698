/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/devices.c: linux.devices. Each entry is a node the runtime makes at
 * its path in the container, and nothing more: as with runc, whether the
 * container may use it is for linux.resources.devices alone (an engine
 * that passes a device adds an allow rule for it, as docker --device
 * does), so an explicit deny is never weakened by a listed node.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/base/cleanup.h"
#include "oci/devices.h"
#include "oci/json.h"

#define DEV_ID_MAX 0xfffffffeULL

static int parse_one(yajl_val d, const char *where, struct oci_device *out,
		     struct shim_error *err)
{
	_cleanup_free_ char *type = NULL;
	uint64_t n;
	int r;

	if (!YAJL_IS_OBJECT(d))
		return json_fail(err, where, "must be an object");
	if ((r = json_get_string(d, "path", where, &out->path, err)) != 0)
		return r < 0 ? -1 : json_fail(err, where, "path: missing");
	if (out->path[0] != '/' || strstr(out->path, "/../") || !strcmp(out->path, "/"))
		return json_fail(err, where, "path: \"%s\" must be an absolute file path", out->path);
	if ((r = json_get_string(d, "type", where, &type, err)) != 0)
		return r < 0 ? -1 : json_fail(err, where, "type: missing");
	if (strlen(type) != 1 || !strchr("cbup", type[0]))
		return json_fail(err, where, "type: \"%s\" is not c, b, u or p", type);
	out->type = type[0];
	if ((r = json_get_u64(d, "major", where, DEV_ID_MAX, &n, err)) < 0)
		return -1;
	if (r == 1 && out->type != 'p')
		return json_fail(err, where, "major: missing (a %c device needs it)", out->type);
	out->major = (uint32_t)n;
	if ((r = json_get_u64(d, "minor", where, DEV_ID_MAX, &n, err)) < 0)
		return -1;
	if (r == 1 && out->type != 'p')
		return json_fail(err, where, "minor: missing (a %c device needs it)", out->type);
	out->minor = (uint32_t)n;
	out->file_mode = 0666;
	if ((r = json_get_u64(d, "fileMode", where, 07777, &n, err)) < 0)
		return -1;
	if (r == 0)
		out->file_mode = (uint32_t)n;
	if ((r = json_get_u64(d, "uid", where, DEV_ID_MAX, &n, err)) < 0)
		return -1;
	out->uid = r == 0 ? (uint32_t)n : 0;
	if ((r = json_get_u64(d, "gid", where, DEV_ID_MAX, &n, err)) < 0)
		return -1;
	out->gid = r == 0 ? (uint32_t)n : 0;
	return 0;
}

int oci_devices_parse(yajl_val lx, struct oci_device **devices, size_t *n,
		      struct shim_error *err)
{
	yajl_val arr = NULL;

	if (json_get_array(lx, "devices", "linux", &arr, err) < 0)
		return -1;
	if (!arr)
		return 0;
	*devices = calloc(arr->u.array.len + 1, sizeof(**devices));
	if (!*devices)
		return shim_fail(err, ENOMEM, "linux.devices");
	for (size_t i = 0; i < arr->u.array.len; i++) {
		char where[64];

		snprintf(where, sizeof(where), "linux.devices[%zu]", i);
		(*n)++;
		if (parse_one(arr->u.array.values[i], where, &(*devices)[i], err) < 0)
			return -1;
	}
	return 0;
}

void oci_devices_free(struct oci_device *devices, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(devices[i].path);
	free(devices);
}
