/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/selfmap.h: moving the running program onto another file holding
 * the very same bytes (its binary seen through another mount), without
 * an exec. shim/selfexe.h uses it to run from a read-only bind of its
 * binary for the price of a few mmaps instead of a second exec.
 *
 * What an exec from that file would give, and how it is had in place:
 * - every mapping of the program comes from the new file: the segments
 *   the program never writes (headers, code, read-only data) are mapped
 *   again from it at the same addresses (the same bytes, so the code
 *   running while it happens goes on unchanged); the writable segment,
 *   whose pages the program has written, is copied to anonymous memory
 *   moved over it (mremap), its RELRO part made read-only again;
 * - /proc/PID/exe names the new file (prctl PR_SET_MM_EXE_FILE, which
 *   needs CAP_SYS_RESOURCE in the host's user namespace). The kernel
 *   refuses it (EBUSY) while any mapping of the old file is left, so a
 *   mapping missed here cannot go unnoticed.
 * The file must be the one the program was executed from (its ELF and
 * program headers are compared with the loaded ones first). Call it while
 * the process has one thread and no signal handler that writes the
 * program's data: a write to the writable segment between its copy and
 * the move would be lost. RELRO is made read-only again as the loader
 * made it (static glibc and ld.so both do).
 */
#ifndef SHIM_SELFMAP_H
#define SHIM_SELFMAP_H

#include <stdbool.h>

#include "oci/base/error.h"

/* Whether this process may set its exe (CAP_SYS_RESOURCE in the host's
 * user namespace), asked of the kernel without changing anything. */
bool selfmap_allowed(void);

/* Maps the running program again from fd (opened for reading, the same
 * file's bytes) and makes fd its exe. On failure the program still runs,
 * partly mapped from fd (the same bytes), and /proc/self/exe is unchanged. */
int selfmap_adopt(int fd, struct shim_error *err);

#endif
