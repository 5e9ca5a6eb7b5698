/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "oci/base/bytebuf.h"

void bytebuf_put(struct bytebuf *b, const void *data, size_t len)
{
	if (b->failed || !len)
		return;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		uint8_t *p;

		while (cap < b->len + len)
			cap *= 2;
		p = realloc(b->data, cap);
		if (!p) {
			b->failed = true;
			return;
		}
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
}

void bytebuf_free(struct bytebuf *b)
{
	free(b->data);
	*b = (struct bytebuf){ 0 };
}
