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

/* The network namespace the devices go to must be the container's own. */
static int check_namespace(const struct oci_spec *s, struct shim_error *err)
{
	if (!oci_spec_namespace(s, OCI_NS_NETWORK))
		return json_fail(err, "linux.netDevices", "needs a network namespace of the "
				 "container's own (linux.namespaces has no network entry, so the "
				 "container would share the runtime's)");
	return 0;
}

int oci_net_devices_parse(yajl_val lx, struct oci_spec *s, struct shim_error *err)
{
	yajl_val devs = NULL;
	size_t n;

	if (json_get_object(lx, "netDevices", "linux", &devs, err) < 0)
		return -1;
	if (!devs || devs->u.object.len == 0)
		return 0;
	n = devs->u.object.len;
	s->net_devices = calloc(n, sizeof(*s->net_devices));
	if (!s->net_devices)
		return shim_fail(err, ENOMEM, "linux.netDevices");
	for (size_t i = 0; i < n; i++) {
		s->n_net_devices = i + 1;
		if (parse_one(devs->u.object.keys[i], devs->u.object.values[i],
			      &s->net_devices[i], err) < 0)
			return -1;
		for (size_t j = 0; j < i; j++) {
			if (strcmp(s->net_devices[j].host, s->net_devices[i].host) == 0)
				return json_fail(err, "linux.netDevices", "\"%s\" is listed twice",
						 s->net_devices[i].host);
			if (strcmp(s->net_devices[j].name, s->net_devices[i].name) == 0)
				return json_fail(err, "linux.netDevices", "\"%s\" and \"%s\" are both "
						 "named \"%s\" in the container",
						 s->net_devices[j].host, s->net_devices[i].host,
						 s->net_devices[i].name);
		}
	}
	return check_namespace(s, err);
}

void oci_net_devices_free(struct oci_spec *s)
{
	for (size_t i = 0; i < s->n_net_devices; i++) {
		free(s->net_devices[i].host);
		free(s->net_devices[i].name);
	}
	free(s->net_devices);
	s->net_devices = NULL;
	s->n_net_devices = 0;
}
