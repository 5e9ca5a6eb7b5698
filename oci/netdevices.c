/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/json.h"
#include "oci/netdevices.h"

#define IFNAME_MAX 15	/* IFNAMSIZ - 1 */

bool oci_ifname_valid(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > IFNAME_MAX || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	for (const char *c = name; *c; c++)
		if (*c == '/' || *c == ':' || isspace((unsigned char)*c))
			return false;
	return true;
}

static int parse_one(const char *host, yajl_val v, struct oci_net_device *d,
		     struct shim_error *err)
{
	char where[64];

	snprintf(where, sizeof(where), "linux.netDevices.%s", host);
	if (!YAJL_IS_OBJECT(v))
		return json_fail(err, where, "must be an object");
	if (!oci_ifname_valid(host))
		return json_fail(err, where, "\"%s\" is not an interface name (1 to 15 characters, "
				 "no '/', ':' or spaces)", host);
	d->host = strdup(host);
	if (!d->host || json_get_string(v, "name", where, &d->name, err) < 0)
		return d->host ? -1 : shim_fail(err, ENOMEM, "%s", where);
	if (d->name && !*d->name) {	/* empty: the host's name, as runc */
		free(d->name);
		d->name = NULL;
	}
	if (d->name && !oci_ifname_valid(d->name))
		return json_fail(err, where, "name \"%s\" is not an interface name (1 to 15 "
				 "characters, no '/', ':' or spaces)", d->name);
	if (!d->name && !(d->name = strdup(host)))
		return shim_fail(err, ENOMEM, "%s", where);
	return 0;
}

int oci_net_devices_parse(yajl_val lx, bool has_net_ns, struct oci_net_device **devs, size_t *n,
			  struct shim_error *err)
{
	yajl_val obj = NULL;
	struct oci_net_device *d;

	if (json_get_object(lx, "netDevices", "linux", &obj, err) < 0)
		return -1;
	if (!obj || obj->u.object.len == 0)
		return 0;
	d = *devs = calloc(obj->u.object.len, sizeof(*d));
	if (!d)
		return shim_fail(err, ENOMEM, "linux.netDevices");
	for (size_t i = 0; i < obj->u.object.len; i++) {
		*n = i + 1;
		if (parse_one(obj->u.object.keys[i], obj->u.object.values[i], &d[i], err) < 0)
			return -1;
		for (size_t j = 0; j < i; j++) {
			if (strcmp(d[j].host, d[i].host) == 0)
				return json_fail(err, "linux.netDevices", "\"%s\" is listed twice",
						 d[i].host);
			if (strcmp(d[j].name, d[i].name) == 0)
				return json_fail(err, "linux.netDevices", "\"%s\" and \"%s\" are both "
						 "named \"%s\" in the container", d[j].host, d[i].host,
						 d[i].name);
		}
	}
	/* the network namespace the devices go to must be the container's own */
	if (!has_net_ns)
		return json_fail(err, "linux.netDevices", "needs a network namespace of the "
				 "container's own (linux.namespaces has no network entry, so the "
				 "container would share the runtime's)");
	return 0;
}

void oci_net_devices_free(struct oci_net_device *devs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(devs[i].host);
		free(devs[i].name);
	}
	free(devs);
}
