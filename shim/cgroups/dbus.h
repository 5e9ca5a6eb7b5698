/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/cgroups/dbus.h: the least of D-Bus that shim needs to call systemd's
 * Manager: method calls over systemd's private socket (peer to peer, as
 * systemctl does as root), their replies or error names.
 *
 * shim is a static binary (the CVE-2019-5736 defence copies it into a
 * sealed memfd), so libsystemd's sd-bus, a shared library, cannot be
 * used: dlopen from a static glibc binary brings a second libc into the
 * process. The wire format is small: little-endian messages, the body
 * marshalled here by the caller with the dbus_put_* helpers.
 */
#ifndef SHIM_DBUS_H
#define SHIM_DBUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oci/base/bytebuf.h"
#include "oci/base/error.h"

#define DBUS_SYSTEMD_PRIVATE "/run/systemd/private"

/* Bodies are marshalled into a struct bytebuf (offsets from its start,
 * which the header pads to 8). */
void dbus_put_u32(struct bytebuf *b, uint32_t v);
void dbus_put_u64(struct bytebuf *b, uint64_t v);
void dbus_put_bool(struct bytebuf *b, bool v);
void dbus_put_string(struct bytebuf *b, const char *s);	/* 's' and 'o' */
void dbus_put_signature(struct bytebuf *b, const char *sig);	/* 'g', a variant's */
void dbus_put_bytes(struct bytebuf *b, const void *p, size_t n);	/* an ay's elements */
/* An array: begin writes a length to fill and the padding to its first
 * element (even when it has none); end fills the length. */
struct dbus_array {
	size_t len_at, start;
};
struct dbus_array dbus_array_begin(struct bytebuf *b, size_t elem_align);
void dbus_array_end(struct bytebuf *b, struct dbus_array a);
void dbus_struct_begin(struct bytebuf *b);

/* A connection to path (DBUS_SYSTEMD_PRIVATE), authenticated. -1 with err. */
int dbus_connect(const char *path, struct shim_error *err);

/* A method call: member on interface at object path, with body (of
 * signature sig; both may be NULL). */
struct dbus_method {
	const char *path, *interface, *member;
	const char *sig;
	const struct bytebuf *body;
};

/* Make the call m and wait for its reply. Returns 0, or 1 when the reply
 * is the error named error_ok (NULL: none is), or -1 with err naming the
 * D-Bus error and its message. */
int dbus_call(int fd, const struct dbus_method *m, const char *error_ok, struct shim_error *err);

#endif
