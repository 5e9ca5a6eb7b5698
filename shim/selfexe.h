/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/selfexe.h: the runtime never enters a container as the host's binary
 * file (CVE-2019-5736). A process that joins a container's namespaces can
 * be reached there: through /proc/PID/exe, or by the container making the
 * runtime exec itself (an entrypoint that is a symlink to /proc/self/exe, a
 * script starting "#!/proc/self/exe"); whoever reopens that file for
 * writing once the runtime exits rewrites the host's binary.
 *
 * So create, run and exec first re-execute themselves from a copy in a
 * memfd, sealed (F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)
 * before the exec: /proc/self/exe is then that copy, which nobody can
 * change, and the file on disk is not open anywhere in the container. Only
 * the ELF's loadable bytes are copied (its debug sections stay behind).
 * The binary is linked statically, so no dynamic loader runs in any process
 * executing the runtime's code: a container that makes it exec itself with
 * LD_PRELOAD or its own libc in its rootfs gets none of them loaded.
 */
#ifndef SHIM_SELFEXE_H
#define SHIM_SELFEXE_H

#include <stdbool.h>

#include "shim/error.h"

/* Returns 0 when already running from the sealed copy; otherwise execs it
 * with argv and the same environment (does not return), or fails. */
int selfexe_ensure_sealed(char **argv, struct shim_error *err);

/* Is /proc/self/exe a sealed copy? */
bool selfexe_is_sealed(void);

#endif
