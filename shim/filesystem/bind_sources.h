/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/filesystem/bind_sources.h: where a bind mount's source is, and opening the
 * sources for an init in a new user namespace.
 *
 * An init in a new user namespace resolves a bind source as the
 * container's root, a host user it maps to: a source below a folder only
 * host root may search (0700, as a bundle under /root often is) fails with
 * EACCES there. So, once the ID maps are written, a helper forked from the
 * runtime joins the init's mount namespace (setns on its pidfd: the very
 * mounts the init sees, with their locks), and clones each source with
 * open_tree(OPEN_TREE_CLONE) with the runtime's privileges; the detached
 * trees go to the init over the sync socket (SYNC_MOUNT_FD, the mount's
 * index), before SYNC_CONTINUE. The init only attaches them. A source the
 * helper could not open is left to the init, which reports it.
 */
#ifndef SHIM_BIND_SOURCES_H
#define SHIM_BIND_SOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "oci/spec.h"

/* Is m a bind mount (type "bind" or a bind option)? recursive: rbind. */
bool mount_is_bind(const struct oci_mount *m, bool *recursive);

/* m's source as a host path (relative ones are under the bundle); -1
 * without a source. */
int bind_source_path(const struct oci_mount *m, const char *bundle, char *buf, size_t len);

/* Runtime side: clone every bind source of spec in the mount namespace
 * of the init held by pidfd, and send them over sync_fd. skip[i] >= 0
 * (may be NULL) marks mounts already prepared (idmapped copies). */
int bind_sources_send(int pidfd, const struct oci_spec *spec, const char *bundle,
		      const int *skip, int sync_fd, struct shim_error *err);

#endif
