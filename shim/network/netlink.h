/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/network/netlink.h: the few rtnetlink requests linux.netDevices needs, on a
 * NETLINK_ROUTE socket that works in the network namespace it was made in:
 * find an interface by name, list its addresses, move it to another
 * namespace under a new name (one request: the kernel moves, then
 * renames), bring it up or down, add an address.
 */
#ifndef SHIM_NETLINK_H
#define SHIM_NETLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oci/base/error.h"

/* A NETLINK_ROUTE socket in the caller's network namespace. */
int nl_open(struct shim_error *err);

/* A NETLINK_ROUTE socket in the namespace netns_fd names: the caller
 * steps in, opens it and steps back (a socket keeps its namespace). */
int nl_open_in(int netns_fd, struct shim_error *err);

/* What tells one interface from another a container could make. */
struct nl_link {
	int index;
	char kind[16];		/* IFLA_INFO_KIND ("veth"), "" for a physical one */
	bool peer_elsewhere;	/* linked to an interface in another namespace */
};

/* The interface named name, or at index (name NULL): its index, 0 (err
 * filled, errnum ENODEV) when there is none, -1 on other errors. */
int nl_link_get(int nl, const char *name, int index, struct nl_link *out,
		struct shim_error *err);

/* nl_link_get by name, for the index alone. */
int nl_link_index(int nl, const char *name, struct shim_error *err);

/* An address as the kernel reported it, enough to add it again. */
struct nl_addr {
	uint8_t family, prefixlen, scope;
	uint32_t flags;
	uint8_t local[16], address[16], broadcast[16];
	bool has_local, has_address, has_broadcast;
};

/* The permanent addresses of interface index (IPv6 link-local ones left
 * out: the kernel makes them anew). malloc'd array in *out. */
int nl_addrs(int nl, int index, struct nl_addr **out, size_t *n, struct shim_error *err);

/* Move interface index to the namespace netns_fd names, renamed to name. */
int nl_link_move(int nl, int index, int netns_fd, const char *name, struct shim_error *err);

/* Set IFF_UP on interface index, or clear it. */
int nl_link_set_up(int nl, int index, bool up, struct shim_error *err);

/* Add a to interface index; one already there is not an error. */
int nl_addr_add(int nl, int index, const struct nl_addr *a, struct shim_error *err);

#endif
