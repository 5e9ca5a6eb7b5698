/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/bundle.h: a bundle folder: its config.json parsed, its rootfs found. */
#ifndef SHIM_BUNDLE_H
#define SHIM_BUNDLE_H

#include "oci/spec.h"
#include "shim/error.h"

struct bundle {
	char *path;		/* absolute, resolved */
	char *rootfs;		/* absolute, resolved */
	struct oci_spec *spec;
};

/* The error names the file: "BUNDLE/config.json: process.cwd: ..." */
int bundle_load(const char *dir, struct bundle *b, struct shim_error *err);
void bundle_release(struct bundle *b);

#endif
