/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/bundle.h: a bundle folder: its config.json parsed, its rootfs found. */
#ifndef SHIM_BUNDLE_H
#define SHIM_BUNDLE_H

#include "oci/base/error.h"
#include "oci/spec.h"

struct bundle {
	char *path;		/* absolute, resolved */
	char *rootfs;		/* absolute, resolved (NULL for a saved config) */
	struct oci_spec *spec;
	char *text;		/* config.json as read */
	size_t len;
};

/* The error names the file: "BUNDLE/config.json: process.cwd: ..." */
int bundle_load(const char *dir, struct bundle *b, struct shim_error *err);

/* The config create saved in the state folder (STORE_CONFIG), for exec and
 * the poststart/poststop hooks: what the container was made from, even if
 * the bundle moved or changed since. A state folder from before that copy
 * existed falls back to the bundle itself. */
int bundle_load_saved(int state_dir_fd, const char *bundle_path, struct bundle *b,
		      struct shim_error *err);

void bundle_release(struct bundle *b);

#endif
