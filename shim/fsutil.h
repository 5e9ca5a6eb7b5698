/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/fsutil.h: small file and folder helpers shared by the modules. */
#ifndef SHIM_FSUTIL_H
#define SHIM_FSUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "oci/base/error.h"

/* snprintf into buf, but a text that does not fit fails (ENAMETOOLONG,
 * naming its start) instead of being cut short: a cut path names another
 * file. */
int path_format(char *buf, size_t len, struct shim_error *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* path as an absolute path, cleaned lexically: empty and "." parts
 * dropped, ".." takes the part before it away (never above "/"). False
 * when the result does not fit in len. */
bool path_clean(const char *path, char *out, size_t len);

/* "/run/x/bundle": absolute, and its own clean form (no part of it
 * empty, "." or "..", no slash at its end): joined below a hierarchy's
 * root, it stays below it. */
bool path_is_plain_absolute(const char *path);

/* mkdir -p: missing parents with parent_mode, the last part with mode.
 * The error names the part that could not be made. */
int mkdir_p(const char *path, mode_t parent_mode, mode_t mode, struct shim_error *err);

/* write() all of text to fd, retrying short writes and EINTR. */
int write_all(int fd, const char *text);

/* The same for len bytes of buf. */
int write_all_bytes(int fd, const void *buf, size_t len);

/* Read a whole regular file of at most max bytes, NUL-terminated; its
 * length in *len unless len is NULL. */
char *read_small_file(const char *path, size_t max, size_t *len, struct shim_error *err);

/* As read_small_file, from an open fd; what names it in errors. Refuses
 * anything but a regular file (a FIFO, /dev/zero) and more than max bytes. */
char *read_small_fd(int fd, const char *what, size_t max, size_t *len, struct shim_error *err);

/* As read_small_fd, and also from a pipe or a socket (exec -p -,
 * /dev/fd/N): never from a device, at most max bytes. */
char *read_small_stream(int fd, const char *what, size_t max, size_t *len, struct shim_error *err);

/* realpath(3) of a folder by one walk: path opened O_PATH | O_DIRECTORY
 * (links followed, as realpath does, but no magic link: ELOOP for
 * /proc/self/fd/N and the like), its name read back from
 * /proc/self/fd, where glibc's realpath walks the path once more for every
 * part of it. Returns the malloc'd absolute path; keeps the fd in *fd
 * unless fd is NULL. Failure is errno's (ENOENT, ENOTDIR, EACCES...); err
 * says what. */
char *real_dir_open(const char *path, int *fd, const char *what, struct shim_error *err);

/* How often openat2 is tried again when it says EAGAIN (a rename or mount
 * raced with a RESOLVE_IN_ROOT or RESOLVE_BENEATH walk). */
#define OPENAT2_RETRIES 256

/* openat2 with O_CLOEXEC added, tried again on EAGAIN up to OPENAT2_RETRIES
 * times. Returns the fd, or -1 with errno set (a thin syscall wrapper). */
int openat2_retry(int dirfd, const char *path, int flags, uint64_t resolve);

/* read_small_fd of path resolved inside root_fd (RESOLVE_IN_ROOT, no magic
 * links), opened without blocking: the container's /etc/passwd and the like.
 * A missing file fails with errnum ENOENT. */
char *read_file_in_root(int root_fd, const char *path, size_t max, size_t *len,
			struct shim_error *err);

/* rm -rf dirfd/name without following symlinks; absent is fine. */
int remove_tree_at(int dirfd, const char *name, struct shim_error *err);

/* Remove everything inside the folder dirfd/name ("." for dirfd itself). */
int empty_dir_at(int dirfd, const char *name, struct shim_error *err);

#endif
