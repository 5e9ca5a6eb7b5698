/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/fd.h: fd hygiene: close everything from N up, --preserve-fds. */
#ifndef SHIM_FD_H
#define SHIM_FD_H

#include <stdbool.h>
#include <stddef.h>

#include "oci/base/error.h"

/* Close every fd >= first: close_range(first, ~0U), or, where the kernel
 * lacks it (ENOSYS) or a seccomp filter refuses it (EPERM), one by one as
 * fd_dir lists them: an fd folder of ours on the runtime's own procfs
 * (procfs_open_self("fd", ...): a dup is read, fd_dir is closed with the
 * rest unless below first), never the container's /proc, which it may
 * have shaped. fd_dir -1: /proc/self/fd, for ENOSYS only, where /proc is
 * the host's. */
int fd_close_from(int fd_dir, unsigned int first, struct shim_error *err);

/* Does the kernel have close_range (Linux 5.9)? */
bool fd_have_close_range(void);

/* The fallback: close what /proc/self/fd lists from first up. */
int fd_close_from_proc(unsigned int first, struct shim_error *err);

/* The same from dir_fd, an fd folder of ours (taken, closed at the end),
 * sparing the n_keep fds of keep. */
int fd_close_listed(int dir_fd, unsigned int first, const int *keep, size_t n_keep,
		    struct shim_error *err);

/* Close every fd >= first but the n_keep fds of keep (-1s and fds below
 * first are skipped; at most FD_MAX_KEEP): close_range over the gaps
 * between them, or, where the kernel lacks it or a filter refuses it, one
 * by one as fd_dir lists them (as fd_close_from; fd_dir is kept). */
#define FD_MAX_KEEP 64
int fd_close_sparing(int fd_dir, unsigned int first, const int *keep, size_t n_keep,
		     struct shim_error *err);

/* --preserve-fds N: fds 3 .. 3+N-1 must all be open. */
int fd_check_preserved(unsigned int n, struct shim_error *err);

/* Socket activation's listen fds (3 up), then the --preserve-fds ones
 * after them, must all be open; errors name LISTEN_FDS or the flag. */
int fd_check_passed(unsigned int listen, unsigned int preserve, struct shim_error *err);

/* Clear FD_CLOEXEC on 3 .. 3+N-1 so they survive exec. */
int fd_pass_preserved(unsigned int n, struct shim_error *err);

/* Close both fds of a pair (either may be -1) and set them to -1. */
void fd_close_pair(int fds[2]);

/* One fd over a unix socket (SCM_RIGHTS), and back (received cloexec). */
int fd_send(int sock, int fd, struct shim_error *err);
/* The same, with data (at least one byte) as the message. */
int fd_send_with(int sock, int fd, const char *data, size_t len, struct shim_error *err);
int fd_recv(int sock, struct shim_error *err);

/* A stream socket connected to the unix socket at path; what names it
 * in errors ("--console-socket"). */
int fd_connect_unix(const char *path, const char *what, struct shim_error *err);

#endif
