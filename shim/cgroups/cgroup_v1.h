/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/cgroups/cgroup_v1.h: a cgroup v1 (or hybrid) host, where /sys/fs/cgroup is
 * no cgroup2 but a tmpfs of v1 hierarchies. The container gets
 * a folder in each hierarchy mounted there (devices, memory, pids,
 * cpu, cpuacct, cpuset, freezer, blkio, hugetlb, net_cls, net_prio, rdma:
 * where two share a hierarchy, the same folder; on a hybrid host also
 * name=systemd's and the unified cgroup2's, which nothing is written to),
 * at an absolute cgroupsPath in each, or a relative one below the
 * runtime's own folder of each hierarchy (as runc's), all recorded in
 * ROOT/ID/cgroup-v1. create writes linux.resources as v1 files
 * (memory.limit_in_bytes, cpu.shares, cpu.cfs_quota_us, blkio throttles,
 * hugetlb limits, net_cls.classid, ...) and the device rules (deny all, then the config's
 * and the defaults, in order) and puts the init in every folder right
 * after the clone, long before start lets it run the container's command;
 * exec holds each process until it has joined them; pause and resume use
 * freezer.state; delete thaws, kills what is left and removes them. A
 * field v1 has no file for (unified, cpu burst and idle) is refused,
 * named, before anything is made.
 */
#ifndef SHIM_CGROUP_V1_H
#define SHIM_CGROUP_V1_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "oci/resources.h"

#define CGROUP_V1_ROOT "/sys/fs/cgroup"
#define STORE_CGROUP_V1 "cgroup-v1"

/* The hierarchies the container gets a folder in; on a hybrid host also
 * name=systemd's (systemd/) and the unified cgroup2 (unified/), which no
 * limit is written to but systemd-aware tools read, as runc's. */
enum cgroup_v1_ctrl { V1_DEVICES, V1_MEMORY, V1_PIDS, V1_CPU, V1_CPUSET, V1_FREEZER, V1_BLKIO,
		      V1_HUGETLB, V1_NET_CLS, V1_NET_PRIO, V1_RDMA, V1_CPUACCT, V1_SYSTEMD,
		      V1_UNIFIED, V1_N };

/* The container's folders: an fd in each hierarchy mounted (-1 where
 * none is), and each one's path below its hierarchy; rel is the devices
 * folder's, which names the container in messages. */
struct cgroup_v1 {
	int fd[V1_N];
	char path[V1_N][PATH_MAX];
	char rel[PATH_MAX];
};

/* Is this a cgroup v1 host: a v1 devices hierarchy at
 * /sys/fs/cgroup/devices (and no cgroup2 at /sys/fs/cgroup)? */
bool cgroup_v1_host(void);

/* Each hierarchy's folder path for linux.cgroupsPath, into cg->path:
 * absolute, the same in every one; relative (or absent: the container ID),
 * below the runtime's own folder of that hierarchy, as runc's. */
int cgroup_v1_resolve(const char *cgroups_path, const char *id, struct cgroup_v1 *cg,
		      struct shim_error *err);

/* The record of cg's paths for ROOT/ID/cgroup-v1: the devices folder's
 * first (all a record older than the others held), then "NAME PATH" a
 * hierarchy. Malloc'd. */
char *cgroup_v1_record_text(const struct cgroup_v1 *cg);

/* Refuse, naming the field, what a v1 host has no file for. */
int cgroup_v1_check(const struct oci_resources *r, struct shim_error *err);

/* Make the folders cg->path names (refused if the devices one has
 * processes) and write r. */
int cgroup_v1_create(const struct oci_resources *r, struct cgroup_v1 *cg, struct shim_error *err);

/* The folder paths ROOT/ID/cgroup-v1 records (dir_fd: ROOT/ID) into
 * cg->path, each checked to be one shim could have written (absolute, no
 * ".." part), no folder opened; -1 with errnum ENOENT when the container
 * has none. */
int cgroup_v1_read_record(int dir_fd, struct cgroup_v1 *cg, struct shim_error *err);

/* The container's folder of the v1 hierarchy mounted at /sys/fs/cgroup/NAME
 * ("cpu,cpuacct", "systemd"), for its cgroup mount; NULL where it has none,
 * and for the unified cgroup2, which runc does not bind either. */
const char *cgroup_v1_folder_of(const struct cgroup_v1 *cg, const char *name);

/* Open the folders ROOT/ID/cgroup-v1 names; -1 with errnum ENOENT when the
 * container has none. */
int cgroup_v1_open_recorded(int dir_fd, struct cgroup_v1 *cg, struct shim_error *err);

/* No folder open: an initializer, and the same as a call. */
#define CGROUP_V1_NONE { .fd = { [0 ... V1_N - 1] = -1 } }
void cgroup_v1_init(struct cgroup_v1 *cg);

void cgroup_v1_close(struct cgroup_v1 *cg);

/* A struct cgroup_v1 closed when it goes out of scope. */
#define _cleanup_cgroup_v1_ __attribute__((cleanup(cgroup_v1_close)))

/* Has cg any folder open? */
bool cgroup_v1_is_open(const struct cgroup_v1 *cg);

/* Put pid in every folder. */
int cgroup_v1_enter(const struct cgroup_v1 *cg, pid_t pid, struct shim_error *err);

/* exec --cgroup [CONTROLLER[,CONTROLLER]:]PATH, after cgroup_v1_enter:
 * pid goes on into PATH below the container's folder of the controllers
 * named (all, without a list), as runc's exec. PATH may not lead out, nor
 * name a folder that is missing; a controller without a hierarchy here is
 * refused, named. */
int cgroup_v1_enter_sub(const struct cgroup_v1 *cg, const char *spec, pid_t pid,
			struct shim_error *err);

/* Write r (update): the limits, and the device rules when r has some. */
int cgroup_v1_apply(const struct cgroup_v1 *cg, const struct oci_resources *r,
		    struct shim_error *err);

/* memory.checkBeforeUpdate: a new memory limit below the folder's
 * memory.usage_in_bytes is refused (update). */
int cgroup_v1_check_before_update(const struct cgroup_v1 *cg, const struct oci_resources *r,
				  struct shim_error *err);

/* freezer.state FROZEN or THAWED, waiting until it took effect. */
int cgroup_v1_freeze(const struct cgroup_v1 *cg, bool frozen, struct shim_error *err);

/* 1 frozen, 0 not, -1 unknown. */
int cgroup_v1_is_frozen(const struct cgroup_v1 *cg);

/* The PIDs in the devices folder (malloc'd). */
int cgroup_v1_pids(const struct cgroup_v1 *cg, pid_t **pids, size_t *n, struct shim_error *err);

/* sig to each process in the devices folder, through a pidfd checked to
 * be still in it (kill --all). -1 when cg has no folder open. */
int cgroup_v1_signal_all(const struct cgroup_v1 *cg, int sig);

/* Thaw, kill what is in the folders cg->path names, wait until they are
 * empty, remove them. Missing folders are no error. */
int cgroup_v1_destroy(const struct cgroup_v1 *cg, struct shim_error *err);

/* In the init, on the container's /sys/fs/cgroup (a fresh tmpfs at
 * target): each hierarchy's folder of the container bound at its name,
 * and the host's links to them ("cpu" -> "cpu,cpuacct"), as runc lays it
 * out (shim/cgroups/cgroup_v1_mount.c). The caller makes it read-only after. */
int cgroup_v1_mount_in(int target, const struct cgroup_v1 *cg, struct shim_error *err);

/* For a staged init (shim/filesystem/rootfs.h rootfs_stage), in the helper while the
 * host's tree is there: each hierarchy's folder cloned as a detached
 * tree and the links read, kept in this process's memory (the init, cloned
 * from it, has them), so that cgroup_v1_mount_in binds those. */
int cgroup_v1_mount_stage(const struct cgroup_v1 *cg, struct shim_error *err);

/* The v1 rule text for r ("c 1:3 rwm", "a *:* rwm"), in line (size 48). */
void cgroup_v1_device_rule(const struct device_rule *r, char *line, size_t size);

#endif
