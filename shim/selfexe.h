/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/selfexe.h: the runtime never enters a container as the host's binary
 * file (CVE-2019-5736). A process that joins a container's namespaces can
 * be reached there: through /proc/PID/exe, or by the container making the
 * runtime exec itself (an entrypoint that is a symlink to /proc/self/exe, a
 * script starting "#!/proc/self/exe"); whoever reopens that file for
 * writing once the runtime exits rewrites the host's binary.
 *
 * So create, run and exec first move onto a protected copy: their own
 * binary through a detached clone of its mount made read-only (open_tree +
 * mount_setattr: nothing to copy; nobody can reach that mount to make it
 * writable again, and every reopen of /proc/PID/exe goes through it, so it
 * fails with EROFS). Where the kernel lets them set their exe (root on the
 * host: CAP_SYS_RESOURCE), they map themselves again from that file in
 * place (shim/selfmap.h): no mapping of the original path is left, which
 * the kernel checks, and no second exec is paid (under TCG about 1 ms of
 * the 3); otherwise they re-execute through it. Where making mounts is not
 * allowed, they re-execute from a memfd copy sealed against writes,
 * shrinking and growing (only the ELF's loadable bytes are copied). Either
 * way the file on disk is never writable through anything a container can
 * reach. The binary is
 * linked statically, so no dynamic loader runs in any process executing
 * the runtime's code: a container that makes it exec itself with
 * LD_PRELOAD or its own libc in its rootfs gets none of them loaded.
 *
 * Why the bind first: under QEMU's TCG a fresh memfd copy is fresh code to
 * translate on every run (73 ms a `run` in the guest); the bind executes
 * the very pages already cached. Natively both cost about a millisecond.
 */
#ifndef SHIM_SELFEXE_H
#define SHIM_SELFEXE_H

#include "oci/base/error.h"

/* Returns 0 when already running from a protected copy or moved onto one
 * in place; otherwise execs one with argv and the same environment (does
 * not return), or fails. */
int selfexe_ensure_sealed(char **argv, struct shim_error *err);

#endif
