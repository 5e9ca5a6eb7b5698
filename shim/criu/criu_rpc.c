/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "shim/criu/criu_rpc.h"

enum { WIRE_VARINT = 0, WIRE_64 = 1, WIRE_LEN = 2, WIRE_32 = 5 };

static void put_varint(struct bytebuf *b, uint64_t v)
{
	uint8_t bytes[10];
	size_t n = 0;

	do {
		bytes[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			bytes[n] |= 0x80;
		n++;
	} while (v);
	bytebuf_put(b, bytes, n);
}

static void put_key(struct bytebuf *b, uint32_t field, unsigned int wire)
{
	put_varint(b, ((uint64_t)field << 3) | wire);
}

void pb_varint(struct bytebuf *b, uint32_t field, uint64_t value)
{
	put_key(b, field, WIRE_VARINT);
	put_varint(b, value);
}

void pb_bool(struct bytebuf *b, uint32_t field, bool value)
{
	pb_varint(b, field, value ? 1 : 0);
}

void pb_int32(struct bytebuf *b, uint32_t field, int32_t value)
{
	/* int32: a negative value is sign-extended to ten bytes */
	pb_varint(b, field, (uint64_t)(int64_t)value);
}

void pb_bytes(struct bytebuf *b, uint32_t field, const void *data, size_t len)
{
	put_key(b, field, WIRE_LEN);
	put_varint(b, len);
	bytebuf_put(b, data, len);
}

void pb_string(struct bytebuf *b, uint32_t field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

void pb_message(struct bytebuf *b, uint32_t field, struct bytebuf *sub)
{
	if (sub->failed)
		b->failed = true;
	else
		pb_bytes(b, field, sub->data ? sub->data : (const uint8_t *)"", sub->len);
	bytebuf_free(sub);
}

void pb_ext_mount(struct bytebuf *b, const char *key, const char *val)
{
	struct bytebuf m = { 0 };

	pb_string(&m, 1, key);
	pb_string(&m, 2, val);
	pb_message(b, CRIU_OPT_EXT_MNT, &m);
}

void pb_inherit_fd(struct bytebuf *b, const char *key, int32_t fd)
{
	struct bytebuf m = { 0 };

	pb_string(&m, 1, key);
	pb_int32(&m, 2, fd);
	pb_message(b, CRIU_OPT_INHERIT_FD, &m);
}

int pb_request(struct bytebuf *out, enum criu_req_type type, struct bytebuf *opts,
	       bool notify_success)
{
	*out = (struct bytebuf){ 0 };
	pb_varint(out, 1, (uint64_t)type);
	if (opts)
		pb_message(out, 2, opts);
	if (notify_success)
		pb_bool(out, 3, true);
	if (out->failed) {
		bytebuf_free(out);
		return -1;
	}
	return 0;
}

/* --- decoding --- */

struct pb_reader {
	const uint8_t *p, *end;
};

static int get_varint(struct pb_reader *r, uint64_t *v)
{
	*v = 0;
	for (unsigned int shift = 0; shift < 64; shift += 7) {
		uint8_t byte;

		if (r->p >= r->end)
			return -1;
		byte = *r->p++;
		*v |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80))
			return 0;
	}
	return -1;
}

/* The next field: its number, and either its varint or its bytes (other
 * wire types are skipped, reported with value 0). 0 at the end, -1 if the
 * bytes are not protobuf. */
static int next_field(struct pb_reader *r, uint32_t *field, uint64_t *value,
		      struct pb_reader *bytes)
{
	uint64_t key, len;

	if (r->p >= r->end)
		return 0;
	if (get_varint(r, &key) < 0 || (key >> 3) == 0 || (key >> 3) > UINT32_MAX)
		return -1;
	*field = (uint32_t)(key >> 3);
	*value = 0;
	*bytes = (struct pb_reader){ r->p, r->p };
	switch (key & 7) {
	case WIRE_VARINT:
		return get_varint(r, value) < 0 ? -1 : 1;
	case WIRE_64:
	case WIRE_32:
		len = (key & 7) == WIRE_64 ? 8 : 4;
		break;
	case WIRE_LEN:
		if (get_varint(r, &len) < 0)
			return -1;
		break;
	default:
		return -1;
	}
	if (len > (uint64_t)(r->end - r->p))
		return -1;
	*bytes = (struct pb_reader){ r->p, r->p + len };
	r->p += len;
	return 1;
}

static void copy_string(char *dst, size_t size, const struct pb_reader *s)
{
	size_t n = (size_t)(s->end - s->p);

	if (n >= size)
		n = size - 1;
	memcpy(dst, s->p, n);
	dst[n] = '\0';
	/* a string with a NUL in it ends there: nothing after it is shown */
}

/* A nested message of int32 fields: wanted[i] gets field i + 1. */
static int decode_ints(struct pb_reader sub, int32_t *wanted, size_t n, bool *seen)
{
	uint32_t field;
	uint64_t v;
	struct pb_reader bytes;
	int r;

	while ((r = next_field(&sub, &field, &v, &bytes)) > 0) {
		if (field <= n && bytes.p == bytes.end) {
			wanted[field - 1] = (int32_t)v;
			if (seen)
				seen[field - 1] = true;
		}
	}
	return r;
}

static int decode_notify(struct pb_reader sub, struct criu_resp *out)
{
	uint32_t field;
	uint64_t v;
	struct pb_reader bytes;
	int r;

	while ((r = next_field(&sub, &field, &v, &bytes)) > 0) {
		if (field == 1)
			copy_string(out->notify_script, sizeof(out->notify_script), &bytes);
		else if (field == 2)
			out->notify_pid = (int32_t)v;
	}
	return r;
}

static int decode_field(uint32_t field, uint64_t v, struct pb_reader bytes,
			struct criu_resp *out, bool seen[2])
{
	int32_t ints[4] = { 0 };
	bool got[4] = { false };

	switch (field) {
	case 1: out->type = (int32_t)v; seen[0] = true; return 0;
	case 2: out->success = v != 0; seen[1] = true; return 0;
	case 4:	/* criu_restore_resp { required int32 pid = 1; } */
		if (decode_ints(bytes, ints, 1, got) < 0)
			return -1;
		out->restored_pid = ints[0];
		return 0;
	case 5: return decode_notify(bytes, out);
	case 7: out->cr_errno = (int32_t)v; return 0;
	case 8:	/* criu_features { optional bool mem_track = 1; ... } */
		if (decode_ints(bytes, ints, 1, NULL) < 0)
			return -1;
		out->mem_track = ints[0] != 0;
		return 0;
	case 9: copy_string(out->cr_errmsg, sizeof(out->cr_errmsg), &bytes); return 0;
	case 10:	/* criu_version: major 1, minor 2, gitid 3, sublevel 4 */
		if (decode_ints(bytes, ints, 4, got) < 0)
			return -1;
		out->has_version = got[0] && got[1];
		out->major = ints[0];
		out->minor = ints[1];
		out->sublevel = ints[3];
		return 0;
	default:
		return 0;	/* dump, ps, status, ...: not read */
	}
}

int criu_resp_decode(const uint8_t *data, size_t len, struct criu_resp *out)
{
	struct pb_reader r = { data, data + len }, bytes;
	bool seen[2] = { false, false };
	uint32_t field;
	uint64_t v;
	int n;

	memset(out, 0, sizeof(*out));
	while ((n = next_field(&r, &field, &v, &bytes)) > 0)
		if (decode_field(field, v, bytes, out, seen) < 0)
			return -1;
	if (n < 0 || !seen[0] || !seen[1])
		return -1;
	return 0;
}
