/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --systemd-cgroup: the slice and unit cgroupsPath names, and the D-Bus
 * marshalling of a call's body (the calls themselves run against systemd
 * in the systemd guest: tests/bats/systemd.bats). */
#include <stdint.h>
#include <string.h>

#include "shim/cgroups/dbus.h"
#include "shim/cgroups/devices_bpf.h"
#include "shim/cgroups/systemd.h"
#include "shim/cgroups/systemd_props.h"
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
	struct bytebuf b = { 0 };
	struct dbus_array a;
	int same;

	dbus_put_string(&b, "ab");
	a = dbus_array_begin(&b, 8);
	dbus_array_end(&b, a);
	dbus_put_bool(&b, true);
	dbus_put_u64(&b, 16);
	same = !b.failed && b.len == sizeof(want) && memcmp(b.data, want, sizeof(want)) == 0;
	bytebuf_free(&b);
	CHECK(same);
	return 0;
}

TEST(an_array_length_counts_its_elements_not_the_padding)
{
	struct bytebuf b = { 0 };
	struct dbus_array a;
	uint32_t n;

	dbus_put_u32(&b, 7);
	a = dbus_array_begin(&b, 8);	/* 4 + 4 for the length, nothing to pad */
	dbus_struct_begin(&b);
	dbus_put_string(&b, "x");
	dbus_array_end(&b, a);
	memcpy(&n, b.data + a.len_at, 4);
	bytebuf_free(&b);
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

static const char proc_devices[] =
	"Character devices:\n  1 mem\n  4 /dev/vc/0\n  5 /dev/tty\n136 pts\n226 drm\n"
	"\nBlock devices:\n  7 loop\n  8 sd\n";

#define ACC_RWM (DEV_ACC_READ | DEV_ACC_WRITE | DEV_ACC_MKNOD)

/* The entries for rules, "node access" joined by ", " in text. */
static int allow_text(const struct device_rule *rules, size_t n, char *text, size_t size)
{
	struct systemd_device out[64];
	size_t got, at = 0;

	text[0] = '\0';
	if (systemd_device_allow(rules, n, proc_devices, out, &got) != 1)
		return 0;
	for (size_t i = 0; i < got; i++)
		at += (size_t)snprintf(text + at, size - at, "%s%s %s", i ? ", " : "", out[i].node,
				       out[i].access);
	return 1;
}

TEST(device_rules_after_deny_all_become_a_strict_allow_list)
{
	const struct device_rule rules[] = {
		{ true, 'c', 1, 3, ACC_RWM },		/* before the deny: gone */
		{ false, 'a', -1, -1, ACC_RWM },
		{ true, 'c', 226, -1, DEV_ACC_READ | DEV_ACC_WRITE },
		{ true, 'b', 8, 0, DEV_ACC_READ },
	};
	char text[2048];

	CHECK(allow_text(rules, 4, text, sizeof(text)) == 1);
	/* the config's, then the defaults every container gets */
	CHECK(strncmp(text, "char-drm rw, /dev/block/8:0 r, char-* m, block-* m, "
			    "/dev/char/1:3 rwm, ", 69) == 0);
	CHECK(strstr(text, "char-pts rwm, /dev/char/10:200 rwm"));
	return 0;
}

TEST(device_rules_systemd_cannot_say_leave_it_no_policy)
{
	const struct device_rule deny_after_allow[] = {
		{ false, 'a', -1, -1, ACC_RWM }, { true, 'c', 1, -1, ACC_RWM },
		{ false, 'c', 1, 3, ACC_RWM },
	};
	const struct device_rule unknown_major[] = {
		{ false, 'a', -1, -1, ACC_RWM }, { true, 'c', 99, -1, ACC_RWM },
	};
	const struct device_rule a_name_with_a_slash[] = {
		{ false, 'a', -1, -1, ACC_RWM }, { true, 'c', 4, -1, ACC_RWM },
	};
	const struct device_rule allow_all[] = { { true, 'a', -1, -1, ACC_RWM } };
	char text[2048];

	CHECK(allow_text(deny_after_allow, 3, text, sizeof(text)) == 0);
	CHECK(allow_text(unknown_major, 2, text, sizeof(text)) == 0);
	CHECK(allow_text(a_name_with_a_slash, 2, text, sizeof(text)) == 0);
	CHECK(allow_text(allow_all, 1, text, sizeof(text)) == 0);
	return 0;
}

TEST(allowed_cpus_and_io_limits_are_unit_properties)
{
	struct oci_resources r = { 0 };
	struct bytebuf b = { 0 };
	static const uint8_t cpus[] = { 11, 0, 0, 0, 'A', 'l', 'l', 'o', 'w', 'e', 'd', 'C', 'P',
					'U', 's', 0, 2, 'a', 'y', 0, 2, 0, 0, 0, 0x0d, 0x02 };
	int found;

	CHECK(oci_resources_add(&r, "cpuset.cpus", "0,2-3,9", "x", &err) == 0);
	CHECK(oci_resources_add(&r, "io.max", "8:0 rbps=1048576", "x", &err) == 0);
	systemd_resource_properties(&b, &r);
	/* AllowedCPUs: ay of 2 bytes, CPUs 0, 2, 3 then 9 */
	found = !b.failed && b.len > sizeof(cpus) && memcmp(b.data, cpus, sizeof(cpus)) == 0;
	found = found && memmem(b.data, b.len, "IOReadBandwidthMax", 18) &&
		memmem(b.data, b.len, "/dev/block/8:0", 14);
	bytebuf_free(&b);
	oci_resources_release(&r);
	CHECK(found);
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
	RUN(device_rules_after_deny_all_become_a_strict_allow_list);
	RUN(device_rules_systemd_cannot_say_leave_it_no_policy);
	RUN(allowed_cpus_and_io_limits_are_unit_properties);
	TAP_DONE();
}
