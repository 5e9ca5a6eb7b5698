/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/pidfd.h: the container's processes held by pidfds. A pidfd names one
 * process for its whole life, so a signal sent through it can never reach a
 * process that later got the same PID.
 */
#ifndef SHIM_PIDFD_H
#define SHIM_PIDFD_H

#include <stdbool.h>
#include <sys/types.h>

#include "oci/base/error.h"

/* Field 22 of /proc/PID/stat (start time in clock ticks since boot). */
int proc_start_time(pid_t pid, unsigned long long *out, struct shim_error *err);

/* A pidfd for pid if it is still the process that started at start_time:
 * 1 with *fd set; 0 when it is gone (no such process any more, or the PID
 * now names another one), which is no error; -1 with err filled. */
int pidfd_open_verified(pid_t pid, unsigned long long start_time, int *fd,
			struct shim_error *err);

/* true once the process has exited (zombie or reaped). */
bool pidfd_exited(int pidfd);

/* Wait up to timeout_ms (-1: forever) for exit; 1 exited, 0 timed out. */
int pidfd_wait_exit(int pidfd, int timeout_ms, struct shim_error *err);

int pidfd_signal(int pidfd, int sig, struct shim_error *err);

/* Reap a child by its pidfd; *status is the shell-style exit status
 * (the code, or 128 + the signal that killed it). */
int pidfd_reap(int pidfd, int *status, struct shim_error *err);

/* Send pidfd over SCM_RIGHTS to the unix socket at path (--pidfd-socket). */
/* How a child of ours exited ("exit status 1", "killed by signal 9"),
 * without reaping it; what it can tell otherwise. */
void pidfd_describe_exit(int pidfd, char *buf, size_t len);

int pidfd_send_to_socket(const char *path, int pidfd, struct shim_error *err);

/* For a child of ours that must not live on: SIGKILL, then reap it. */
void pidfd_kill_and_reap(int pidfd);

#endif
