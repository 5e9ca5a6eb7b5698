/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/mount_options.h: a mount's "options" array, sorted into what the new
 * mount API wants: per-mount attributes for fsmount()/mount_setattr() (on
 * the top mount; the "r" forms, runc's recursive options, with AT_RECURSIVE
 * over every mount below too), propagation, bind or rbind, and the rest as
 * filesystem parameters for fsconfig() ("mode=755" -> SET_STRING,
 * "newinstance" -> SET_FLAG; "sync", "dirsync", "lazytime", "mand" and their
 * opposites are the VFS's own superblock flags, taken the same way). Nothing
 * is dropped: a parameter no filesystem takes fails in fsconfig, and a bind
 * mount, which has no filesystem to give it to, refuses it by name.
 */
#ifndef OCI_MOUNT_OPTIONS_H
#define OCI_MOUNT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oci/base/error.h"

/* The attribute bits (the kernel's ABI; glibc before 2.36 lacks them). */
#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#define MOUNT_ATTR_NOSUID 0x00000002
#define MOUNT_ATTR_NODEV 0x00000004
#define MOUNT_ATTR_NOEXEC 0x00000008
#define MOUNT_ATTR__ATIME 0x00000070
#define MOUNT_ATTR_RELATIME 0x00000000
#define MOUNT_ATTR_NOATIME 0x00000010
#define MOUNT_ATTR_STRICTATIME 0x00000020
#define MOUNT_ATTR_NODIRATIME 0x00000080
#endif
#ifndef MOUNT_ATTR_NOSYMFOLLOW
#define MOUNT_ATTR_NOSYMFOLLOW 0x00200000	/* 5.14 */
#endif

#define MOUNT_MAX_FS_PARAMS 64

struct mount_opts {
	uint64_t attr_set, attr_clr;	/* MOUNT_ATTR_*, the top mount */
	uint64_t rattr_set, rattr_clr;	/* MOUNT_ATTR_*, recursively ("rro", ...) */
	uint64_t propagation;		/* MS_PRIVATE, MS_SLAVE, ... or 0 */
	bool propagation_recursive;
	bool bind, rbind;
	bool idmap, idmap_recursive;	/* "idmap", "ridmap" */
	bool tmpcopyup;			/* a tmpfs filled from its folder */
	unsigned int tmpcopyup_index;	/* j of options[j] */
	const char *fs_params[MOUNT_MAX_FS_PARAMS];	/* borrowed from the options */
	unsigned int fs_param_index[MOUNT_MAX_FS_PARAMS];	/* j of options[j] */
	unsigned int n_fs_params;
	char where[32];			/* "mounts[3]", for messages */
};

/* The i-th (from 0) of the option names taken, in alphabetical order, or
 * NULL past the last: the table's and the VFS's superblock flags (what
 * `shim features` lists as mountOptions). */
const char *mount_option_known_name(size_t i);

/* options is NULL-terminated (or NULL); where names the mount ("mounts[3]")
 * and errors name "mounts[3].options[1]". */
int mount_opts_parse(char *const *options, const char *where, struct mount_opts *out,
		     struct shim_error *err);

/* A bind mount takes no filesystem parameter: "key=value" data is
 * ignored (the kernel takes none for a bind, and runc passes it), the
 * first bare word that is no flag refused, named. */
int mount_opts_check_bind(const struct mount_opts *o, struct shim_error *err);

#endif
