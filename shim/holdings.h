/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/holdings.h: what a container holds on the host, beside its state
 * folder: its cgroup v2 folder (cgroupfs, or systemd's transient scope),
 * a cgroup v1 host's folders, its resctrl groups, the network devices
 * lent to it and, without a mount namespace of its own, the mounts its
 * init made in the runtime's.
 *
 * create makes the first three (holdings_make) before the init exists,
 * each named in a record in ROOT/ID (written before what it names, so a
 * failure from there on finds it); netdev.c and inherited_mounts.c write
 * the other two's. One undo (holdings_undo) takes all of it back, in
 * one order, for a create that failed, for delete, and for `delete -f`
 * of a container whose state cannot be read.
 */
#ifndef SHIM_HOLDINGS_H
#define SHIM_HOLDINGS_H

#include <limits.h>
#include <stdbool.h>

#include "oci/base/error.h"
#include "oci/spec.h"
#include "shim/cgroups/cgroup_v1.h"
#include "shim/cgroups/systemd.h"

struct mount_snapshot;

/* Records a state folder holds only for some configs, each looked for by
 * an undo: all of them for a container loaded from its folder, only those
 * create wrote for the one it hands back (`run`'s delete probes no more). */
enum {
	RECORD_NETNS = 1 << 0,		/* linux.netDevices lent */
	RECORD_CGROUP_V1 = 1 << 1,	/* a cgroup v1 host's folders */
	RECORD_SYSTEMD_UNIT = 1 << 2,	/* --systemd-cgroup */
	RECORD_RESCTRL = 1 << 3,	/* a resctrl group of its own */
	RECORD_INHERITED_MOUNTS = 1 << 4,	/* mounts made in the runtime's namespace */
	RECORDS_ANY = (1 << 5) - 1,
};

/* What create made on the host before the init exists. */
struct holdings {
	char cgroup_rel[PATH_MAX];	/* the cgroup v2 folder below /sys/fs/cgroup, or "" */
	int cgroup_fd;			/* it, open, or -1 */
	struct systemd_scope scope;	/* --systemd-cgroup: the unit, its holder */
	struct cgroup_v1 v1;		/* a cgroup v1 host: the folders (none open else) */
	const struct oci_intel_rdt *rdt;	/* the config's linux.intelRdt */
	int rdt_group, rdt_monitor;	/* its resctrl group and monitoring group, or -1 */
	bool rdt_group_made, rdt_monitor_made;	/* made by this create (else joined) */
};

/* Nothing made, nothing open. */
void holdings_init(struct holdings *h);

/* The cgroup (a systemd scope with --systemd-cgroup), a cgroup v1 host's
 * folders and the resctrl groups, with their records in dir_fd. -1 with
 * err naming the config field; what was made is in h for holdings_undo. */
int holdings_make(struct holdings *h, const char *id, bool systemd_cgroup,
		  const struct oci_spec *s, int dir_fd, struct shim_error *err);

/* The RECORD_* bits create wrote, for the container it hands back. */
unsigned holdings_records(const struct holdings *h, const struct oci_spec *s, bool mounts);

/* Its fds closed; nothing on the host undone. */
void holdings_release(struct holdings *h);

/* What an undo takes back. */
struct holdings_undo {
	int dir_fd;			/* the state folder (its records), or -1 */
	const char *id;
	unsigned records;		/* RECORD_*: the records to look for */
	const char *cgroup_rel;		/* the cgroup v2 folder, or NULL */
	struct holdings *made;		/* a create that failed: what it made, NULL else */
	const struct mount_snapshot *mounts;	/* a create that failed: the mount table
						 * before its clone, or NULL */
};

/*
 * Everything given back, in this order: the network devices, the
 * inherited mounts, the systemd scope's holder, the cgroup v2 folder
 * (what is left in it is killed first), the v1 folders, the systemd unit,
 * the resctrl groups (a failed create's: those it made, a closID group
 * too). A failure to remove the cgroup v2 folder (processes that do not
 * die) is the one that fails, once the rest is undone; the others are
 * said as warnings.
 */
int holdings_undo(const struct holdings_undo *u, struct shim_error *err);

#endif
