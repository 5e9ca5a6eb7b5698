/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/mount_options.h: a mount's "options" array, sorted into what the new
 * mount API wants: per-mount attributes for fsmount()/mount_setattr(),
 * propagation, bind or rbind, and the rest as filesystem parameters for
 * fsconfig() ("mode=755" -> SET_STRING, "newinstance" -> SET_FLAG).
 */
#ifndef SHIM_MOUNT_OPTIONS_H
#define SHIM_MOUNT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "shim/error.h"

struct mount_opts {
	uint64_t attr_set, attr_clr;	/* MOUNT_ATTR_* */
	uint64_t propagation;		/* MS_PRIVATE, MS_SLAVE, ... or 0 */
	bool propagation_recursive;
	bool bind, rbind;
	bool idmap, idmap_recursive;	/* "idmap", "ridmap" */
	const char *fs_params[64];	/* borrowed from the options array */
	unsigned int n_fs_params;
};

/* options is NULL-terminated (or NULL). The error names the option. */
int mount_opts_parse(char *const *options, struct mount_opts *out, struct shim_error *err);

#endif
