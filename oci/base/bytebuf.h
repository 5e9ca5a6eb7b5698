/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/base/bytebuf.h: a growing byte buffer, for the messages the runtime
 * encodes itself (CRIU's protobuf requests, D-Bus calls to systemd). A
 * failed allocation marks the buffer failed and later puts do nothing, so
 * an encoder checks once, at the end.
 */
#ifndef SHIM_BYTEBUF_H
#define SHIM_BYTEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bytebuf {
	uint8_t *data;
	size_t len, cap;
	bool failed;		/* out of memory: what uses it fails */
};

/* Append len bytes of data, growing the buffer (doubling, from 256). */
void bytebuf_put(struct bytebuf *b, const void *data, size_t len);

/* Free the bytes; the buffer is empty again. */
void bytebuf_free(struct bytebuf *b);

#endif
