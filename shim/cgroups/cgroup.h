/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/cgroups/cgroup.h: the container's cgroup v2 folder (cgroupfs, no systemd).
 *
 * create makes the folder, turns the controllers on in its ancestors'
 * cgroup.subtree_control, writes linux.resources and attaches the device
 * program; the init is then cloned straight into it (CLONE_INTO_CGROUP), so
 * it never runs a single instruction outside. delete kills what is left
 * (cgroup.kill), waits until the folder is empty and removes it.
 */
#ifndef SHIM_CGROUP_H
#define SHIM_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "oci/resources.h"

#define CGROUP_ROOT "/sys/fs/cgroup"

/* Is a cgroup v2 hierarchy mounted at CGROUP_ROOT? */
bool cgroup2_mounted(void);

/* The folder, relative to CGROUP_ROOT ("/a/b"), for linux.cgroupsPath:
 * absolute as given; relative (or absent: the container ID) under the
 * parent of the runtime's own cgroup, as runc does (its own has
 * processes: no controller can be enabled below it). */
int cgroup_resolve(const char *cgroups_path, const char *id, char *out, size_t len,
		   struct shim_error *err);

/* Make (or reuse) the folder and apply r. Returns an O_DIRECTORY fd. */
int cgroup_create(const char *rel, const struct oci_resources *r, struct shim_error *err);

/* Open an existing container folder. */
int cgroup_open(const char *rel, struct shim_error *err);

/* Write r's settings (and device rules, replacing the old program). */
int cgroup_apply(int dir_fd, const char *rel, const struct oci_resources *r,
		 struct shim_error *err);

/* Kill everything in it, wait until it is empty, remove it. A missing folder
 * is not an error. */
int cgroup_destroy(const char *rel, struct shim_error *err);

/* sig to every process in the folder rel (open as dir_fd) and below it:
 * cgroup.kill for SIGKILL, else each through a pidfd checked to be still
 * inside rel. Nothing outside the container's cgroup is ever signalled. */
int cgroup_signal_all(int dir_fd, const char *rel, int sig, struct shim_error *err);

/* cgroup.freeze, waiting until cgroup.events says it took effect. */
int cgroup_freeze(int dir_fd, bool frozen, struct shim_error *err);

/* 1 frozen, 0 not, -1 unknown (no such file). */
int cgroup_is_frozen(int dir_fd);

/* The cgroup v2 folder of pid (0: ourselves), from /proc/PID/cgroup. */
int cgroup_of_pid(pid_t pid, char *out, size_t len, struct shim_error *err);

/* Is path the folder rel or one below it? */
bool cgroup_is_below(const char *path, const char *rel);

/* A cgroup path read back from the state folder (what is the record's
 * name, for the error): absolute, clean (no "..", ".", empty part) and not
 * the hierarchy's root, so that joined to the root it stays below it. The
 * folder may have been rewritten: it is never trusted as it is. */
int cgroup_check_record(const char *rel, const char *what, struct shim_error *err);

/* The PIDs in cgroup.procs (malloc'd). */
int cgroup_pids(int dir_fd, pid_t **pids, size_t *n, struct shim_error *err);

/* Read a small cgroup file of the folder into buf (NUL-terminated). */
int cgroup_read(int dir_fd, const char *file, char *buf, size_t len, struct shim_error *err);

/* A warning for each field of r that was given and is ignored. */
void cgroup_warn_ignored(const struct oci_resources *r);

#endif
