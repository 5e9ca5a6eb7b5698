/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/rootless.h: shim run without the host's root, as podman rootless and
 * `docker --rootless` run their runtime: by a user other than root, or as
 * root of a user namespace that does not map the host's.
 *
 * A caller other than root needs a user namespace for the container. The
 * kernel lets it write that namespace's maps itself only when each maps
 * just its own ID (its gid once setgroups is denied); anything more goes
 * through newuidmap and newgidmap (Debian's uidmap, ranges from
 * /etc/subuid and /etc/subgid). State goes under $XDG_RUNTIME_DIR/shim.
 * A cgroup is made where the caller may make one (a delegated tree); a
 * container with no limits and no linux.cgroupsPath does without when it
 * may not, as with runc. No device program is attached (the kernel lets no
 * unprivileged process do it): a container in a user namespace of its own
 * can make no device node and mounts nothing with devices, so only the
 * nodes bound in from the host, which the caller may open anyway, reach it.
 * What only the host's root may do is refused before anything is made,
 * naming the field or flag.
 */
#ifndef SHIM_ROOTLESS_H
#define SHIM_ROOTLESS_H

#include <stdbool.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "oci/spec.h"

/* The global --rootless: "auto" (the default), "true" or "false". */
int rootless_set_mode(const char *text, struct shim_error *err);

/* Does shim run rootless, as far as cgroups go (permission errors forgiven
 * to a container that asks for no limits): --rootless true, or (auto)
 * rootless_unprivileged()? */
bool rootless(void);

/* Is shim without the host's root, whatever --rootless says: an effective
 * uid other than 0, or uid 0 of a user namespace that is not the host's?
 * What it may not do is refused, and no device program is attached. */
bool rootless_unprivileged(void);

/* The default --root: $XDG_RUNTIME_DIR/shim when shim runs rootless as a
 * user other than root and XDG_RUNTIME_DIR is set, else /run/shim. */
const char *rootless_default_root(void);

/* What a container of an unprivileged shim cannot have, refused by name
 * (0 when shim has the host's root). */
int rootless_check(const struct oci_spec *s, bool systemd_cgroup, struct shim_error *err);

/* A caller other than root: the maps of the new user namespace of pid. */
int rootless_write_id_maps(pid_t pid, const struct oci_spec *s, struct shim_error *err);

/* Making the container's cgroup failed with failure: may it do without one?
 * Only rootless, for a permission error, with no limits and no
 * linux.cgroupsPath (err then holds why not, with the failure). */
bool rootless_cgroup_optional(const struct oci_spec *s, struct shim_error *failure);

#endif
