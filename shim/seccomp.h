/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/seccomp.h: linux.seccomp through libseccomp.
 *
 * The filter is built before the init reports ready, so that a profile the
 * machine cannot take fails `create` with its JSON path, and loaded at the
 * last moment: right before execve when noNewPrivileges is set, else (it
 * then needs CAP_SYS_ADMIN) before the capabilities are dropped; in both
 * cases after close_range, so the profile may forbid close_range and
 * unshare. libseccomp's own no_new_privs default is turned off: that bit
 * is the config's to set. With SCMP_ACT_NOTIFY the runtime connects to
 * listenerPath before the clone; the socket survives close_range (moved
 * just above the kept fds) until the filter's notify fd has gone to the
 * agent with the container process state, then it is closed.
 */
#ifndef SHIM_SECCOMP_H
#define SHIM_SECCOMP_H

#include "oci/seccomp.h"
#include "shim/error.h"

/* *out is NULL when the profile is absent. */
int seccomp_build(const struct oci_seccomp *s, void **out, struct shim_error *err);

/* Load the built filter into this process, and free it. With agent_fd
 * >= 0 (connected to listenerPath), send the agent the filter's notify fd
 * with agent_message (oci_process_state_to_json). */
int seccomp_install(void *filter, int agent_fd, const char *agent_message, struct shim_error *err);

#endif
