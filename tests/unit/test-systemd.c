/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --systemd-cgroup: the slice and unit cgroupsPath names, and the D-Bus
 * marshalling of a call's body (the calls themselves run against systemd
 * in the systemd guest: tests/bats/systemd.bats). */
#include <stdint.h>
#include <string.h>

#include "shim/dbus.h"
#include "shim/systemd.h"
#include "tests/unit/tap.h"

static struct shim_error err;

TEST(the_default_scope_is_shim_id_in_system_slice)
{
	struct systemd_scope s;

	CHECK(systemd_scope_names(NULL, "c1", &s, &err) == 0);
	CHECK_STR(s.slice, "system.slice");
	CHECK_STR(s.unit, "shim-c1.scope");
	CHECK(s.holder_pidfd == -1);
	return 0;
}

TEST(slice_prefix_name_names_the_slice_and_the_scope)
{
	struct systemd_scope s;

	CHECK(systemd_scope_names("machine.slice:libpod:abc", "c1", &s, &err) == 0);
	CHECK_STR(s.slice, "machine.slice");
	CHECK_STR(s.unit, "libpod-abc.scope");
	/* empty parts take the defaults; the name, the container's ID */
	CHECK(systemd_scope_names(":pfx:", "c1", &s, &err) == 0);
	CHECK_STR(s.slice, "system.slice");
	CHECK_STR(s.unit, "pfx-c1.scope");
	return 0;
}

TEST(a_cgroups_path_that_is_no_slice_prefix_name_is_refused)
{
	const char *bad[] = { "system.slice:x", "a:b:c:d", "foo:x:y", "a/b.slice:x:y",
			      "system.slice:x/y:z", "/abs/path" };
	struct systemd_scope s;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(systemd_scope_names(bad[i], "c1", &s, &err) < 0);
		CHECK(strstr(err.msg, "linux.cgroupsPath"));
	}
	return 0;
}

TEST(a_body_is_marshalled_little_endian_and_aligned)
{
	static const uint8_t want[] = {
		2, 0, 0, 0, 'a', 'b', 0, 0,		/* "ab", padded to 4 */
		0, 0, 0, 0, 0, 0, 0, 0,		/* a(sv): length 0, then to 8 */
		1, 0, 0, 0,				/* b: true */
		0, 0, 0, 0,				/* to 8 */
		0x10, 0, 0, 0, 0, 0, 0, 0,		/* t */
	};
	struct dbus_buf b = { 0 };
	struct dbus_array a;
	int same;

	dbus_put_string(&b, "ab");
	a = dbus_array_begin(&b, 8);
	dbus_array_end(&b, a);
	dbus_put_bool(&b, true);
	dbus_put_u64(&b, 16);
	same = !b.failed && b.len == sizeof(want) && memcmp(b.p, want, sizeof(want)) == 0;
	dbus_buf_free(&b);
	CHECK(same);
	return 0;
}

TEST(an_array_length_counts_its_elements_not_the_padding)
{
	struct dbus_buf b = { 0 };
	struct dbus_array a;
	uint32_t n;

	dbus_put_u32(&b, 7);
	a = dbus_array_begin(&b, 8);	/* 4 + 4 for the length, nothing to pad */
	dbus_struct_begin(&b);
	dbus_put_string(&b, "x");
	dbus_array_end(&b, a);
	memcpy(&n, b.p + a.len_at, 4);
	dbus_buf_free(&b);
	CHECK(a.len_at == 4 && a.start == 8);
	CHECK(n == 6);	/* u32 1, "x", NUL */
	return 0;
}

TEST(systemd_unreachable_is_named)
{
	CHECK(dbus_connect("/nonexistent/systemd/private", &err) < 0);
	CHECK(strstr(err.msg, "/nonexistent/systemd/private"));
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(the_default_scope_is_shim_id_in_system_slice);
	RUN(slice_prefix_name_names_the_slice_and_the_scope);
	RUN(a_cgroups_path_that_is_no_slice_prefix_name_is_refused);
	RUN(a_body_is_marshalled_little_endian_and_aligned);
	RUN(an_array_length_counts_its_elements_not_the_padding);
	RUN(systemd_unreachable_is_named);
	TAP_DONE();
}
