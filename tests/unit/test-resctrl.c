/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux.intelRdt: parsing, the schemata text and its comparison, and the
 * group steps run against a folder laid out as resctrl lays its root out
 * (the guest's TCG CPU has no RDT, so no real resctrl can be mounted). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/spec.h"
#include "shim/cgroups/resctrl.h"
#include "shim/fsutil.h"
#include "tests/unit/helpers.h"
#include "tests/unit/tap.h"

static struct shim_error err;

#define MINIMAL "{\"ociVersion\":\"1.2.0\",\"root\":{\"path\":\"rootfs\"}," \
		"\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"user\":{\"uid\":0,\"gid\":0}}"

static struct oci_spec *parse(const char *linux_json)
{
	char text[2048];

	snprintf(text, sizeof(text), MINIMAL ",\"linux\":%s}", linux_json);
	memset(&err, 0, sizeof(err));
	return oci_spec_parse(text, strlen(text), &err);
}

TEST(intel_rdt_members_are_read)
{
	struct oci_spec *s = parse("{\"intelRdt\":{\"closID\":\"gold\",\"l3CacheSchema\":\"L3:0=7f0\","
				   "\"memBwSchema\":\"MB:0=20\",\"schemata\":[\"L2:0=f\","
				   "\"L2CODE:0=3\"],\"enableCMT\":true,\"enableMBM\":true,"
				   "\"enableMonitoring\":true}}");

	CHECK(s);
	CHECK(s->intel_rdt.present);
	CHECK_STR(s->intel_rdt.clos_id, "gold");
	CHECK_STR(s->intel_rdt.l3_cache_schema, "L3:0=7f0");
	CHECK_STR(s->intel_rdt.mem_bw_schema, "MB:0=20");
	CHECK_STR(s->intel_rdt.schemata, "L2:0=f\nL2CODE:0=3\n");
	CHECK(s->intel_rdt.enable_cmt && s->intel_rdt.enable_mbm);
	CHECK(s->intel_rdt.enable_monitoring);
	oci_spec_free(s);
	return 0;
}

TEST(a_clos_id_that_is_no_group_name_is_refused)
{
	const char *bad[] = { "\"../x\"", "\"a/b\"", "\"info\"", "\"..\"", "\"\"", "\"mon_groups\"" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char json[128];

		snprintf(json, sizeof(json), "{\"intelRdt\":{\"closID\":%s}}", bad[i]);
		CHECK(!parse(json));
		CHECK(strstr(err.msg, "linux.intelRdt.closID"));
	}
	return 0;
}

TEST(schemata_is_an_array_of_lines_as_runtime_spec_1_3_has_it)
{
	struct oci_spec *s = parse("{\"intelRdt\":{\"schemata\":[]}}");

	CHECK(s);
	CHECK(s->intel_rdt.schemata == NULL);
	oci_spec_free(s);
	CHECK(!parse("{\"intelRdt\":{\"schemata\":\"L2:0=f\"}}"));
	CHECK(strstr(err.msg, "linux.intelRdt.schemata"));
	CHECK(!parse("{\"intelRdt\":{\"schemata\":[\"L2:0=f\\nL3:0=1\"]}}"));
	CHECK(strstr(err.msg, "linux.intelRdt.schemata: [0]: one line each"));
	return 0;
}

TEST(a_mem_bw_schema_must_be_one_mb_line)
{
	CHECK(!parse("{\"intelRdt\":{\"memBwSchema\":\"L3:0=1\"}}"));
	CHECK(strstr(err.msg, "linux.intelRdt.memBwSchema"));
	CHECK(!parse("{\"intelRdt\":{\"memBwSchema\":\"MB:0=1\\nMB:1=2\"}}"));
	CHECK(strstr(err.msg, "linux.intelRdt.memBwSchema"));
	return 0;
}

TEST(schema_text_follows_the_spec_rules)
{
	struct oci_intel_rdt r = { .present = true };
	char text[256];

	r.l3_cache_schema = "L3:0=7f0;1=1f";
	CHECK(oci_intel_rdt_schema_text(&r, text, sizeof(text), &err) == 0);
	CHECK_STR(text, "L3:0=7f0;1=1f\n");
	/* with memBwSchema, l3CacheSchema's MB line gives way */
	r.l3_cache_schema = "L3:0=7f0\nMB:0=90";
	r.mem_bw_schema = "MB:0=20";
	CHECK(oci_intel_rdt_schema_text(&r, text, sizeof(text), &err) == 0);
	CHECK_STR(text, "L3:0=7f0\nMB:0=20\n");
	r.l3_cache_schema = NULL;
	CHECK(oci_intel_rdt_schema_text(&r, text, sizeof(text), &err) == 0);
	CHECK_STR(text, "MB:0=20\n");
	r.mem_bw_schema = NULL;
	CHECK(oci_intel_rdt_schema_text(&r, text, sizeof(text), &err) == 0);
	CHECK_STR(text, "");
	CHECK(!oci_intel_rdt_has_schema(&r));
	r.l3_cache_schema = "L3:0=7f0;1=1f";
	CHECK(oci_intel_rdt_schema_text(&r, text, 8, &err) < 0);
	return 0;
}

TEST(schemata_compare_as_numbers)
{
	const char *current = "    L3:0=007f0;1=0001f\n    MB:0=100;1= 70\n";

	CHECK(oci_intel_rdt_schema_matches("L3:0=7f0;1=1f\n", current));
	CHECK(oci_intel_rdt_schema_matches("L3:1=1f\nMB:0=100\n", current));
	CHECK(!oci_intel_rdt_schema_matches("L3:0=7f1\n", current));
	CHECK(!oci_intel_rdt_schema_matches("MB:0=10\n", current));
	CHECK(!oci_intel_rdt_schema_matches("L3:2=1\n", current));
	CHECK(!oci_intel_rdt_schema_matches("L2:0=f\n", current));
	CHECK(!oci_intel_rdt_schema_matches("L3:0\n", current));
	return 0;
}

/* A folder laid out as a resctrl root: info/, and group "gold" made
 * beforehand with its schemata and tasks. */
static char root_path[64];

static int write_file(const char *rel, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root_path, rel);
	return unit_write_at(AT_FDCWD, path, text);
}

static char *read_rel(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root_path, rel);
	return read_small_file(path, 4096, NULL, &err);
}

static int fake_root(const char *mon_features)
{
	char path[256];

	strcpy(root_path, "/tmp/shim-resctrl.XXXXXX");
	if (!mkdtemp(root_path))
		return -1;
	snprintf(path, sizeof(path), "%s/info/L3_MON", root_path);
	if (mkdir_p(path, 0755, 0755, &err) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/gold", root_path);
	if (mkdir(path, 0755) < 0 || write_file("gold/schemata", "    L3:0=07f0\n    MB:0=20\n") < 0 ||
	    write_file("gold/tasks", "") < 0 || write_file("info/L3_MON/mon_features", mon_features) < 0)
		return -1;
	return open(root_path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static void drop_root(void)
{
	unit_remove_tree(root_path);
}

TEST(a_clos_id_group_made_beforehand_is_joined)
{
	struct oci_intel_rdt r = { .present = true, .clos_id = "gold" };
	_cleanup_close_ int root = fake_root("llc_occupancy\n"), group = -1;
	_cleanup_free_ char *tasks = NULL;
	bool made = true;

	CHECK(root >= 0);
	group = resctrl_prepare(root, &r, "c1", &made, &err);
	CHECK(group >= 0);
	CHECK(!made);
	CHECK(resctrl_add_task(group, -1, 4242, &err) == 0);
	tasks = read_rel("gold/tasks");
	drop_root();
	CHECK_STR(tasks, "4242");
	return 0;
}

TEST(a_clos_id_group_with_no_schema_must_exist)
{
	struct oci_intel_rdt r = { .present = true, .clos_id = "silver" };
	_cleanup_close_ int root = fake_root("");
	bool made;
	int group;

	CHECK(root >= 0);
	group = resctrl_prepare(root, &r, "c1", &made, &err);
	drop_root();
	CHECK(group < 0);
	CHECK(strstr(err.msg, "linux.intelRdt.closID"));
	CHECK(strstr(err.msg, "made beforehand"));
	return 0;
}

TEST(an_existing_clos_id_group_must_hold_the_schema_asked_for)
{
	struct oci_intel_rdt r = { .present = true, .clos_id = "gold",
				   .l3_cache_schema = "L3:0=7f0", .mem_bw_schema = "MB:0=20" };
	_cleanup_close_ int root = fake_root(""), group = -1;
	_cleanup_free_ char *schemata = NULL;
	bool made;
	int other;

	CHECK(root >= 0);
	group = resctrl_prepare(root, &r, "c1", &made, &err);
	r.mem_bw_schema = "MB:0=30";
	other = resctrl_prepare(root, &r, "c1", &made, &err);
	schemata = read_rel("gold/schemata");
	drop_root();
	CHECK(group >= 0);
	CHECK(other < 0);
	CHECK(strstr(err.msg, "linux.intelRdt.closID"));
	/* compared, never rewritten */
	CHECK_STR(schemata, "    L3:0=07f0\n    MB:0=20\n");
	return 0;
}

TEST(monitoring_asked_for_must_be_there)
{
	struct oci_intel_rdt r = { .present = true, .clos_id = "gold", .enable_cmt = true };
	_cleanup_close_ int root = fake_root("mbm_total_bytes\n"), group = -1;
	bool made;
	int cmt;

	CHECK(root >= 0);
	cmt = resctrl_prepare(root, &r, "c1", &made, &err);
	CHECK(cmt < 0);
	CHECK(strstr(err.msg, "linux.intelRdt.enableCMT"));
	r.enable_cmt = false;
	r.enable_mbm = true;
	group = resctrl_prepare(root, &r, "c1", &made, &err);
	drop_root();
	CHECK(group >= 0);
	return 0;
}

TEST(without_clos_id_the_group_is_the_containers_own)
{
	struct oci_intel_rdt r = { .present = true };
	_cleanup_close_ int root = fake_root(""), group = -1;
	struct stat st;
	char path[256];
	bool made = false;
	int there, gone;

	CHECK(root >= 0);
	group = resctrl_prepare(root, &r, "c1", &made, &err);
	snprintf(path, sizeof(path), "%s/c1", root_path);
	there = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	CHECK(resctrl_remove(root, "c1", &err) == 0);
	gone = stat(path, &st) < 0 && errno == ENOENT;
	CHECK(resctrl_remove(root, "c1", &err) == 0);	/* gone already */
	drop_root();
	CHECK(group >= 0 && made && there && gone);
	CHECK_STR(resctrl_group_name(&r, "c1"), "c1");
	return 0;
}

TEST(enable_monitoring_makes_the_containers_own_monitoring_group)
{
	struct oci_intel_rdt r = { .present = true, .clos_id = "gold", .enable_monitoring = true };
	_cleanup_close_ int root = fake_root(""), group = -1, mon = -1;
	_cleanup_free_ char *gold = NULL, *own = NULL;
	struct stat st;
	char path[256];
	bool made = false, group_made = true;
	int gone;

	CHECK(root >= 0);
	CHECK(mkdirat(root, "gold/mon_groups", 0755) == 0);
	group = resctrl_prepare(root, &r, "c1", &group_made, &err);
	CHECK(group >= 0 && !group_made);
	mon = resctrl_make_monitor(group, "c1", &made, &err);
	CHECK(mon >= 0 && made);
	/* resctrl makes a group's tasks file itself; the fake one needs it */
	CHECK(write_file("gold/mon_groups/c1/tasks", "") == 0);
	CHECK(resctrl_add_task(group, mon, 4242, &err) == 0);
	gold = read_rel("gold/tasks");
	own = read_rel("gold/mon_groups/c1/tasks");
	CHECK(unlinkat(root, "gold/mon_groups/c1/tasks", 0) == 0);
	CHECK(resctrl_remove_monitor(root, "gold", "c1", &err) == 0);
	snprintf(path, sizeof(path), "%s/gold/mon_groups/c1", root_path);
	gone = stat(path, &st) < 0 && errno == ENOENT;
	CHECK(resctrl_remove_monitor(root, "gold", "c1", &err) == 0);	/* gone already */
	drop_root();
	CHECK_STR(gold, "4242");
	CHECK_STR(own, "4242");
	CHECK(gone);
	return 0;
}

TEST(enable_monitoring_where_the_host_monitors_nothing_is_refused_named)
{
	struct oci_intel_rdt r = { .present = true, .clos_id = "gold", .enable_monitoring = true };
	_cleanup_close_ int root = fake_root(""), group = -1;
	bool made;
	int mon;

	CHECK(root >= 0);
	group = resctrl_prepare(root, &r, "c1", &made, &err);
	CHECK(group >= 0);
	mon = resctrl_make_monitor(group, "c1", &made, &err);
	drop_root();
	CHECK(mon < 0 && !made);
	CHECK(strstr(err.msg, "linux.intelRdt.enableMonitoring: this host's resctrl monitors "
			      "nothing"));
	return 0;
}

TEST(without_a_resctrl_mount_intel_rdt_is_refused_named)
{
	/* the host has no resctrl mounted (no RDT, or not mounted): named */
	int root = resctrl_open_root(&err);

	if (root >= 0) {
		close(root);
		SKIP("this host has resctrl mounted");
	}
	CHECK(strstr(err.msg, "linux.intelRdt"));
	CHECK(!resctrl_mounted());
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(intel_rdt_members_are_read);
	RUN(a_clos_id_that_is_no_group_name_is_refused);
	RUN(schemata_is_an_array_of_lines_as_runtime_spec_1_3_has_it);
	RUN(a_mem_bw_schema_must_be_one_mb_line);
	RUN(schema_text_follows_the_spec_rules);
	RUN(schemata_compare_as_numbers);
	RUN(a_clos_id_group_made_beforehand_is_joined);
	RUN(a_clos_id_group_with_no_schema_must_exist);
	RUN(an_existing_clos_id_group_must_hold_the_schema_asked_for);
	RUN(monitoring_asked_for_must_be_there);
	RUN(without_clos_id_the_group_is_the_containers_own);
	RUN(enable_monitoring_makes_the_containers_own_monitoring_group);
	RUN(enable_monitoring_where_the_host_monitors_nothing_is_refused_named);
	RUN(without_a_resctrl_mount_intel_rdt_is_refused_named);
	TAP_DONE();
}
