/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/procfs.h: every write the runtime makes to procfs goes through one
 * handle it made and checked itself, never through a path the container
 * can shape (CVE-2025-52881: a /proc/sys overmounted or swapped by a racing
 * container process turns a sysctl write into a write to a host knob).
 *
 * The handle is a fresh procfs instance (fsopen("proc") + fsmount: a
 * detached mount nobody else can reach or mount over), or, where a new
 * instance is refused, /proc opened without following links; either way
 * fstatfs must say PROC_SUPER_MAGIC. Files below it are opened with
 * openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
 * RESOLVE_NO_XDEV), so no link and no mount on the way is followed, and
 * checked to be procfs again.
 */
#ifndef SHIM_PROCFS_H
#define SHIM_PROCFS_H

#include <stdbool.h>

#include "oci/base/error.h"

/* Is fd on procfs (fstatfs says PROC_SUPER_MAGIC)? */
bool procfs_is(int fd);

/* The process's handle, opened on first use and kept (O_CLOEXEC; a clone
 * inherits it, close_range removes it before the container's exec). */
int procfs_fd(struct shim_error *err);

/* Write text to path below the handle ("sys/net/ipv4/ip_forward"). */
int procfs_write(const char *path, const char *text, struct shim_error *err);

/* Write text to self's file ("oom_score_adj"), "self" read as the PID the
 * handle's instance gives us (it is a symlink, which the walk refuses). */
int procfs_write_self(const char *file, const char *text, struct shim_error *err);

/* Open self's file ("mountinfo") with flags, self read as for writes. */
int procfs_open_self(const char *file, int flags, struct shim_error *err);

/* Open self's namespace file ns/NAME ("time_for_children"), checked to
 * be one. */
int procfs_open_self_ns(const char *name, struct shim_error *err);

/* The same for process pid (one the caller holds: its child, unreaped). */
int procfs_open_pid_ns(int pid, const char *name, struct shim_error *err);

/* Open what our fd names anew, with flags (an O_PATH fd of exec.fifo,
 * opened for writing), through fd_dir, our fd folder on the handle
 * (procfs_open_self("fd", O_RDONLY | O_DIRECTORY)), which the init keeps
 * when it lets go of the handle. */
int procfs_reopen(int fd_dir, int fd, int flags, struct shim_error *err);

/* Close the handle (the next use opens a new one): the init keeps none
 * once it holds process.user's credentials. */
void procfs_release(void);

/* Write text to /proc/PID/file (uid_map, gid_map, setgroups). */
int procfs_write_pid(int pid, const char *file, const char *text, struct shim_error *err);

#endif
