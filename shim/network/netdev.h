/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/network/netdev.h: linux.netDevices, host interfaces lent to a container.
 *
 * At create, once the init is set up in its network namespace, the
 * runtime (in its own namespace) holds that namespace with a bind mount at
 * ROOT/ID/netns, so the interfaces outlive the init (a virtual one would
 * be destroyed with the namespace, a physical one would come back under
 * its container name), writes the list to ROOT/ID/netdevices, then moves
 * each interface in under its new name with one request, adds its
 * permanent addresses again there (a move drops them) and sets it up.
 *
 * At delete, and when create fails after the hold: each interface is
 * found by the index it got in the container (not by name: the container
 * may give its name to an interface of its own), set down, moved back
 * under its host name and given the addresses it had on the host (not
 * what the container added); then the hold goes. One the container
 * destroyed is said so.
 */
#ifndef SHIM_NETDEV_H
#define SHIM_NETDEV_H

#include <sys/types.h>

#include "oci/base/error.h"
#include "oci/spec.h"

#define STORE_NETNS "netns"		/* the held network namespace */
#define STORE_NETDEV "netdevices"	/* one line each (shim/network/netdev.c) */

/* Move s's netDevices into the network namespace of init (the runtime's
 * child, unreaped); dir_fd is the state folder. */
int netdev_move_in(const struct oci_spec *s, pid_t init, int dir_fd, struct shim_error *err);

/* Give back what dir_fd's state folder lent; 0 when it lent nothing. Goes
 * on past a failure (each is logged) and reports the first. */
int netdev_move_back(int dir_fd, struct shim_error *err);

#endif
