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
 * agent with the container process state, then it is closed. The
 * program is libseccomp's, exported, with runc's ENOSYS stub in front.
 */
#ifndef SHIM_SECCOMP_H
#define SHIM_SECCOMP_H

#include "oci/base/error.h"
#include "oci/seccomp.h"

/* libseccomp's BPF with the ENOSYS stub in front (shim/seccomp_stub.h)
 * and the flags to load it with. */
struct seccomp_program;

/* *out is NULL when the profile is absent. */
int seccomp_build(const struct oci_seccomp *s, struct seccomp_program **out,
		  struct shim_error *err);
void seccomp_program_free(struct seccomp_program *p);

/* Load the built program into this process (seccomp(2)), and free it.
 * With agent_fd >= 0 (connected to listenerPath), send the agent the
 * filter's notify fd with agent_message (oci_process_state_to_json). */
int seccomp_install(struct seccomp_program *p, int agent_fd, const char *agent_message,
		    struct shim_error *err);

/* SCMP_ACT_NOTIFY: a socket connected to the agent at s's listenerPath,
 * made on the host before anything of the container's is entered. */
int seccomp_agent_connect(const struct oci_seccomp *s, struct shim_error *err);

#endif
