/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/fsutil.h: small file and folder helpers shared by the modules. */
#ifndef SHIM_FSUTIL_H
#define SHIM_FSUTIL_H

#include <stddef.h>
#include <sys/types.h>

#include "shim/error.h"

/* mkdir -p: missing parents with parent_mode, the last part with mode.
 * The error names the part that could not be made. */
int mkdir_p(const char *path, mode_t parent_mode, mode_t mode, struct shim_error *err);

/* write() all of text to fd, retrying short writes and EINTR. */
int write_all(int fd, const char *text);

/* Open an existing file (a /proc or /sys knob) and write text to it. */
int write_text_file(const char *path, const char *text, struct shim_error *err);

/* Read a whole regular file of at most max bytes, NUL-terminated; its
 * length in *len unless len is NULL. */
char *read_small_file(const char *path, size_t max, size_t *len, struct shim_error *err);

/* rm -rf dirfd/name without following symlinks; absent is fine. */
int remove_tree_at(int dirfd, const char *name, struct shim_error *err);

/* Remove everything inside the folder dirfd/name ("." for dirfd itself). */
int empty_dir_at(int dirfd, const char *name, struct shim_error *err);

#endif
