/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/images/layer.h: apply one image layer (a tar, plain, gzip or zstd) onto a
 * rootfs folder, the way the image spec's changesets say: whiteouts first
 * (".wh.NAME" removes NAME, ".wh..wh..opq" empties its folder), then every
 * other entry. Every path is resolved inside the rootfs (openat2
 * RESOLVE_IN_ROOT), so a symlink in the image can never send a write out.
 */
#ifndef SHIM_LAYER_H
#define SHIM_LAYER_H

#include "oci/base/error.h"

/* fd: the layer blob, open for reading (seekable: it is read twice);
 * what names it in errors. */
int layer_apply(int rootfd, int fd, const char *what, struct shim_error *err);

/* Feed the layer's uncompressed tar (fd, rewound first) to sink, block
 * by block: its digest is the image config's diff_id. */
int layer_uncompressed(int fd, const char *what, void (*sink)(void *, const void *, size_t),
		       void *arg, struct shim_error *err);

#endif
