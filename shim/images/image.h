/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/images/image.h: an OCI image layout (skopeo's `oci:` transport, umoci's
 * layouts) unpacked into a runnable bundle: BUNDLE/rootfs holds the layers
 * in order, BUNDLE/config.json runs the image's Entrypoint + Cmd with its
 * Env, WorkingDir and User. Every blob is checked against its digest and
 * size before it is used.
 */
#ifndef SHIM_IMAGE_H
#define SHIM_IMAGE_H

#include "oci/base/error.h"

/* image: "LAYOUT" (one image in it) or "LAYOUT:NAME" (its ref.name).
 * bundle must not exist; on error nothing of it is left. */
int image_unpack(const char *image, const char *bundle, struct shim_error *err);

#endif
