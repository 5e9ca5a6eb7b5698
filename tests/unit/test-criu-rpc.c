/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/criu/criu_rpc.c: CRIU's RPC messages, byte for byte as protobuf has them. */
#include <stdlib.h>
#include <string.h>

#include "shim/criu/criu_rpc.h"
#include "tests/unit/tap.h"

#define BYTES(...) ((const uint8_t[]){ __VA_ARGS__ })
#define SAME(buf, ...)                                                           \
	((buf).len == sizeof((const uint8_t[]){ __VA_ARGS__ }) &&               \
	 memcmp((buf).data, BYTES(__VA_ARGS__), (buf).len) == 0)

static void dump_bytes(const struct bytebuf *b)
{
	printf("#");
	for (size_t i = 0; i < b->len; i++)
		printf(" %02x", b->data[i]);
	printf("\n");
}

TEST(a_dump_request_encodes_its_type_and_nested_options)
{
	struct bytebuf opts = { 0 }, req;

	pb_int32(&opts, CRIU_OPT_IMAGES_DIR_FD, 5);
	pb_int32(&opts, CRIU_OPT_PID, 42);
	pb_string(&opts, CRIU_OPT_LOG_FILE, "dump.log");
	CHECK(pb_request(&req, CRIU_REQ_DUMP, &opts, false) == 0);
	dump_bytes(&req);
	CHECK(SAME(req, 0x08, 0x01, 0x12, 0x0e, 0x08, 0x05, 0x10, 0x2a, 0x52, 0x08,
		   'd', 'u', 'm', 'p', '.', 'l', 'o', 'g'));
	CHECK(opts.data == NULL);	/* consumed */
	bytebuf_free(&req);
	return 0;
}

TEST(a_field_above_15_takes_a_two_byte_key)
{
	struct bytebuf b = { 0 };

	pb_varint(&b, CRIU_OPT_MANAGE_CGROUPS_MODE, CRIU_CG_SOFT);
	CHECK(SAME(b, 0x90, 0x02, 0x03));
	bytebuf_free(&b);
	return 0;
}

TEST(a_negative_int32_is_ten_bytes_long)
{
	struct bytebuf b = { 0 };

	pb_int32(&b, 2, -1);
	CHECK(SAME(b, 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01));
	bytebuf_free(&b);
	return 0;
}

TEST(an_external_mount_and_an_inherited_fd_are_key_value_messages)
{
	struct bytebuf b = { 0 };

	pb_ext_mount(&b, "/a", "/b");
	pb_inherit_fd(&b, "p", 1);
	CHECK(SAME(b, 0xba, 0x01, 0x08, 0x0a, 0x02, '/', 'a', 0x12, 0x02, '/', 'b',
		   0xda, 0x01, 0x05, 0x0a, 0x01, 'p', 0x10, 0x01));
	bytebuf_free(&b);
	return 0;
}

TEST(a_notify_answer_says_success)
{
	struct bytebuf req;

	CHECK(pb_request(&req, CRIU_REQ_NOTIFY, NULL, true) == 0);
	CHECK(SAME(req, 0x08, 0x06, 0x18, 0x01));
	bytebuf_free(&req);
	return 0;
}

TEST(a_restore_answer_gives_the_pid)
{
	struct criu_resp r;
	const uint8_t msg[] = { 0x08, 0x02, 0x10, 0x01, 0x22, 0x02, 0x08, 0x4d };

	CHECK(criu_resp_decode(msg, sizeof(msg), &r) == 0);
	CHECK(r.type == CRIU_REQ_RESTORE && r.success && r.restored_pid == 77);
	return 0;
}

TEST(a_notification_gives_its_script_and_pid)
{
	struct criu_resp r;
	const uint8_t msg[] = { 0x08, 0x06, 0x10, 0x01, 0x2a, 0x10, 0x0a, 0x0c, 'p', 'o', 's', 't',
				'-', 'r', 'e', 's', 't', 'o', 'r', 'e', 0x10, 0x4d };

	CHECK(criu_resp_decode(msg, sizeof(msg), &r) == 0);
	CHECK(r.type == CRIU_REQ_NOTIFY && r.success && r.notify_pid == 77);
	CHECK_STR(r.notify_script, "post-restore");
	return 0;
}

TEST(a_failure_gives_errno_and_message)
{
	struct criu_resp r;
	const uint8_t msg[] = { 0x08, 0x01, 0x10, 0x00, 0x38, 0x05, 0x4a, 0x04, 'b', 'o', 'o', 'm' };

	CHECK(criu_resp_decode(msg, sizeof(msg), &r) == 0);
	CHECK(r.type == CRIU_REQ_DUMP && !r.success && r.cr_errno == 5);
	CHECK_STR(r.cr_errmsg, "boom");
	return 0;
}

TEST(a_version_answer_gives_major_minor_sublevel)
{
	struct criu_resp r;
	const uint8_t msg[] = { 0x08, 0x0a, 0x10, 0x01, 0x52, 0x06, 0x08, 0x03, 0x10, 0x11,
				0x20, 0x01 };

	CHECK(criu_resp_decode(msg, sizeof(msg), &r) == 0);
	CHECK(r.has_version && r.major == 3 && r.minor == 17 && r.sublevel == 1);
	return 0;
}

TEST(unknown_fields_of_every_wire_type_are_skipped)
{
	struct criu_resp r;
	const uint8_t msg[] = { 0x08, 0x01, 0x58, 0x00, 0x7d, 0, 0, 0, 0, 0x10, 0x01,
				0xf1, 0x01, 1, 2, 3, 4, 5, 6, 7, 8 };

	CHECK(criu_resp_decode(msg, sizeof(msg), &r) == 0);
	CHECK(r.type == CRIU_REQ_DUMP && r.success);
	return 0;
}

TEST(what_is_not_a_criu_resp_is_refused)
{
	struct criu_resp r;
	const uint8_t no_success[] = { 0x08, 0x01 };
	const uint8_t long_string[] = { 0x08, 0x01, 0x10, 0x01, 0x4a, 0x7f, 'a' };
	const uint8_t group_wire[] = { 0x08, 0x01, 0x10, 0x01, 0x0b };
	const uint8_t endless_varint[] = { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					   0xff, 0xff, 0x01, 0x10, 0x01 };
	const uint8_t cut_varint[] = { 0x08, 0x01, 0x10, 0x81 };
	const uint8_t field_zero[] = { 0x00, 0x01, 0x08, 0x01, 0x10, 0x01 };

	CHECK(criu_resp_decode(no_success, sizeof(no_success), &r) < 0);
	CHECK(criu_resp_decode(long_string, sizeof(long_string), &r) < 0);
	CHECK(criu_resp_decode(group_wire, sizeof(group_wire), &r) < 0);
	CHECK(criu_resp_decode(endless_varint, sizeof(endless_varint), &r) < 0);
	CHECK(criu_resp_decode(cut_varint, sizeof(cut_varint), &r) < 0);
	CHECK(criu_resp_decode(field_zero, sizeof(field_zero), &r) < 0);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(a_dump_request_encodes_its_type_and_nested_options);
	RUN(a_field_above_15_takes_a_two_byte_key);
	RUN(a_negative_int32_is_ten_bytes_long);
	RUN(an_external_mount_and_an_inherited_fd_are_key_value_messages);
	RUN(a_notify_answer_says_success);
	RUN(a_restore_answer_gives_the_pid);
	RUN(a_notification_gives_its_script_and_pid);
	RUN(a_failure_gives_errno_and_message);
	RUN(a_version_answer_gives_major_minor_sublevel);
	RUN(unknown_fields_of_every_wire_type_are_skipped);
	RUN(what_is_not_a_criu_resp_is_refused);
	TAP_DONE();
}
