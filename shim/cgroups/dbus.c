/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/cgroups/dbus.h"
#include "shim/fsutil.h"

#define REPLY_TIMEOUT_MS 25000
#define MESSAGE_MAX (1u << 20)

enum { TYPE_CALL = 1, TYPE_RETURN = 2, TYPE_ERROR = 3 };
enum { FIELD_PATH = 1, FIELD_INTERFACE = 2, FIELD_MEMBER = 3, FIELD_ERROR_NAME = 4,
       FIELD_REPLY_SERIAL = 5, FIELD_SIGNATURE = 8 };

static void pad(struct bytebuf *b, size_t align)
{
	static const uint8_t zeros[8];

	bytebuf_put(b, zeros, (align - b->len % align) % align);
}

void dbus_put_u32(struct bytebuf *b, uint32_t v)
{
	pad(b, 4);
	bytebuf_put(b, &v, 4);	/* little-endian, as the header says ('l') */
}

void dbus_put_u64(struct bytebuf *b, uint64_t v)
{
	pad(b, 8);
	bytebuf_put(b, &v, 8);
}

void dbus_put_bool(struct bytebuf *b, bool v)
{
	dbus_put_u32(b, v ? 1 : 0);
}

void dbus_put_string(struct bytebuf *b, const char *s)
{
	dbus_put_u32(b, (uint32_t)strlen(s));
	bytebuf_put(b, s, strlen(s) + 1);
}

void dbus_put_signature(struct bytebuf *b, const char *sig)
{
	uint8_t n = (uint8_t)strlen(sig);

	bytebuf_put(b, &n, 1);
	bytebuf_put(b, sig, strlen(sig) + 1);
}

void dbus_put_bytes(struct bytebuf *b, const void *p, size_t n)
{
	bytebuf_put(b, p, n);
}

struct dbus_array dbus_array_begin(struct bytebuf *b, size_t elem_align)
{
	struct dbus_array a;

	dbus_put_u32(b, 0);
	a.len_at = b->len - 4;
	pad(b, elem_align);
	a.start = b->len;
	return a;
}

void dbus_array_end(struct bytebuf *b, struct dbus_array a)
{
	/* the length counts the elements, not the padding before them */
	uint32_t n = (uint32_t)(b->len - a.start);

	if (!b->failed)
		memcpy(b->data + a.len_at, &n, 4);
}

void dbus_struct_begin(struct bytebuf *b)
{
	pad(b, 8);
}

static int send_all(int fd, const void *data, size_t n)
{
	const uint8_t *p = data;

	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Read exactly n bytes, waiting at most REPLY_TIMEOUT_MS in all. */
static int recv_all(int fd, void *data, size_t n)
{
	uint8_t *p = data;

	while (n) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		ssize_t r;

		if (poll(&pfd, 1, REPLY_TIMEOUT_MS) <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		r = recv(fd, p, n, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = ECONNRESET;
			return -1;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* The SASL exchange: EXTERNAL, as our uid in hex of its decimal text.
 * BEGIN goes with AUTH, before the server's OK is read, as sd-bus's own
 * clients send it: systemd (252) reads the auth lines and what follows
 * them together, and a call sent right after a BEGIN of its own could sit
 * in its buffer unanswered (seen: 25 s timeouts on StopUnit). The first
 * call then leaves only after the OK, in a read of its own. */
static int authenticate(int fd, struct shim_error *err)
{
	char uid[16], line[128] = "AUTH EXTERNAL ", reply[256];
	size_t n = 0;

	snprintf(uid, sizeof(uid), "%u", (unsigned)getuid());
	for (const char *c = uid; *c; c++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%02x", *c);
	strcat(line, "\r\nBEGIN\r\n");
	if (send_all(fd, "", 1) < 0 || send_all(fd, line, strlen(line)) < 0)
		return shim_fail_errno(err, "D-Bus: authenticating");
	while (n < sizeof(reply) - 1) {
		if (recv_all(fd, reply + n, 1) < 0)
			return shim_fail_errno(err, "D-Bus: authenticating");
		if (reply[n++] == '\n')
			break;
	}
	reply[n] = '\0';
	if (strncmp(reply, "OK ", 3) != 0)
		return shim_fail(err, EACCES, "D-Bus: authentication refused (%.*s)",
				 (int)strcspn(reply, "\r\n"), reply);
	return 0;
}

int dbus_connect(const char *path, struct shim_error *err)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return shim_fail_errno(err, "D-Bus: socket");
	if (strlen(path) >= sizeof(addr.sun_path))
		return shim_fail(err, ENAMETOOLONG, "D-Bus: %s", path);
	strcpy(addr.sun_path, path);
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		return shim_fail_errno(err, "D-Bus: connecting to %s", path);
	if (authenticate(fd, err) < 0)
		return -1;
	return TAKE_FD(fd);
}

static void header_field(struct bytebuf *h, uint8_t code, const char *sig, const char *value)
{
	dbus_struct_begin(h);
	bytebuf_put(h, &code, 1);
	dbus_put_signature(h, sig);
	if (strcmp(sig, "g") == 0)
		dbus_put_signature(h, value);
	else
		dbus_put_string(h, value);
}

/* The fields of a received header we look at. */
struct reply_fields {
	uint32_t reply_serial;
	const char *error_name;
};

/* Walk the header fields array (little-endian, at offset 16 of msg). */
static int parse_fields(const uint8_t *msg, size_t end, struct reply_fields *f)
{
	size_t at = 16;

	while (at < end) {
		uint8_t code, sig_len;
		char sig;

		at = (at + 7) & ~(size_t)7;
		if (at + 3 > end)
			return -1;
		code = msg[at++];
		sig_len = msg[at++];
		if (sig_len != 1 || at + 2 > end)
			return -1;
		sig = (char)msg[at];
		at += 2;
		if (sig == 'u') {
			uint32_t v;

			at = (at + 3) & ~(size_t)3;
			if (at + 4 > end)
				return -1;
			memcpy(&v, msg + at, 4);
			at += 4;
			if (code == FIELD_REPLY_SERIAL)
				f->reply_serial = v;
		} else if (sig == 's' || sig == 'o') {
			uint32_t n;

			at = (at + 3) & ~(size_t)3;
			if (at + 4 > end)
				return -1;
			memcpy(&n, msg + at, 4);
			if (at + 4 + n + 1 > end || msg[at + 4 + n] != 0)
				return -1;
			if (code == FIELD_ERROR_NAME)
				f->error_name = (const char *)msg + at + 4;
			at += 4 + n + 1;
		} else if (sig == 'g') {
			if (at + 1 > end || at + 1 + (size_t)msg[at] + 1 > end)
				return -1;
			at += 1 + (size_t)msg[at] + 1;
		} else {
			return -1;
		}
	}
	return 0;
}

/* Read one message whole; *len its size. */
static uint8_t *read_message(int fd, size_t *len, struct shim_error *err)
{
	uint8_t fixed[16];
	uint32_t body_len, fields_len;
	size_t head, total;
	uint8_t *msg;

	if (recv_all(fd, fixed, sizeof(fixed)) < 0) {
		shim_fail_errno(err, "D-Bus: reading a reply");
		return NULL;
	}
	memcpy(&body_len, fixed + 4, 4);
	memcpy(&fields_len, fixed + 12, 4);
	head = (16 + (size_t)fields_len + 7) & ~(size_t)7;
	total = head + body_len;
	if (fixed[0] != 'l' || total > MESSAGE_MAX) {
		shim_fail(err, EPROTO, "D-Bus: a reply shim cannot read");
		return NULL;
	}
	msg = malloc(total);
	if (!msg) {
		shim_fail(err, ENOMEM, "D-Bus");
		return NULL;
	}
	memcpy(msg, fixed, sizeof(fixed));
	if (recv_all(fd, msg + 16, total - 16) < 0) {
		free(msg);
		shim_fail_errno(err, "D-Bus: reading a reply");
		return NULL;
	}
	*len = total;
	return msg;
}

/* An error reply's message: its body's first string, if it has one. */
static const char *error_text(const uint8_t *msg, size_t len)
{
	uint32_t fields_len, n;
	size_t body;

	memcpy(&fields_len, msg + 12, 4);
	body = (16 + (size_t)fields_len + 7) & ~(size_t)7;
	if (body + 4 > len)
		return "";
	memcpy(&n, msg + body, 4);
	if (body + 4 + n + 1 > len || msg[body + 4 + n] != 0)
		return "";
	return (const char *)msg + body + 4;
}

int dbus_call(int fd, const struct dbus_method *m, const char *error_ok, struct shim_error *err)
{
	const char *member = m->member, *sig = m->sig;
	const struct bytebuf *body = m->body;
	static uint32_t serial;
	struct bytebuf h = { 0 };
	struct dbus_array fields;
	uint8_t fixed[4] = { 'l', TYPE_CALL, 0, 1 };
	uint32_t body_len = body ? (uint32_t)body->len : 0, my_serial = ++serial;
	int r = -1;

	bytebuf_put(&h, fixed, 4);
	dbus_put_u32(&h, body_len);
	dbus_put_u32(&h, my_serial);
	fields = dbus_array_begin(&h, 8);
	header_field(&h, FIELD_PATH, "o", m->path);
	header_field(&h, FIELD_INTERFACE, "s", m->interface);
	header_field(&h, FIELD_MEMBER, "s", member);
	if (sig && *sig)
		header_field(&h, FIELD_SIGNATURE, "g", sig);
	dbus_array_end(&h, fields);
	pad(&h, 8);
	if (h.failed || (body && body->failed)) {
		bytebuf_free(&h);
		return shim_fail(err, ENOMEM, "D-Bus: %s", member);
	}
	if (send_all(fd, h.data, h.len) < 0 || (body_len && send_all(fd, body->data, body_len) < 0)) {
		bytebuf_free(&h);
		return shim_fail_errno(err, "D-Bus: sending %s", member);
	}
	bytebuf_free(&h);
	for (;;) {	/* signals may come first: ours is the reply to my_serial */
		struct reply_fields f = { 0 };
		size_t len;
		_cleanup_free_ uint8_t *msg = read_message(fd, &len, err);
		uint32_t fields_len;

		if (!msg)
			return shim_error_wrap(err, "%s", member);
		memcpy(&fields_len, msg + 12, 4);
		if (parse_fields(msg, 16 + (size_t)fields_len, &f) < 0)
			return shim_fail(err, EPROTO, "D-Bus: %s: a reply shim cannot read", member);
		if (f.reply_serial != my_serial || (msg[1] != TYPE_RETURN && msg[1] != TYPE_ERROR))
			continue;
		if (msg[1] == TYPE_RETURN)
			r = 0;
		else if (error_ok && f.error_name && strcmp(f.error_name, error_ok) == 0)
			r = 1;
		else
			r = shim_fail(err, EIO, "%s: %s: %s", member,
				      f.error_name ? f.error_name : "D-Bus error", error_text(msg, len));
		return r;
	}
}
