/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/store.c and oci/state.c: container IDs, state.json, records, staged files. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "oci/base/cleanup.h"
#include "oci/base/error.h"
#include "oci/base/strv.h"
#include "oci/mount_options.h"
#include "oci/state.h"
#include "shim/caps.h"
#include "shim/fd.h"
#include "shim/fsutil.h"
#include "shim/pidfd.h"
#include "shim/store.h"
#include "shim/syscalls.h"
#include "tests/unit/tap.h"

static struct shim_error err;

TEST(container_ids)
{
	CHECK(store_check_id("web-1_a.b+c", &err) == 0);
	CHECK(store_check_id("../x", &err) == -1);
	CHECK(store_check_id(".hidden", &err) == -1);
	CHECK(store_check_id("a/b", &err) == -1);
	CHECK(store_check_id("", &err) == -1);
	CHECK_STR(err.msg, "invalid container ID format: \"\"");
	return 0;
}

TEST(state_round_trips_with_private_fields)
{
	char *ann[] = { "k", "v", NULL };
	struct oci_state_view st = {
		.oci_version = "1.2.0", .id = "c1", .pid = 42, .status = "created",
		.bundle = "/b", .rootfs = "/b/rootfs", .created = "2026-01-01T00:00:00.000000001Z",
		.owner = "", .annotations = ann, .init_start_time = 123456789012ULL,
	};
	char *json = oci_state_to_json(&st, true, false, &err);
	struct oci_state *back = oci_state_parse(json, strlen(json), &err);

	CHECK(back);
	CHECK_STR(back->id, "c1");
	CHECK(back->pid == 42);
	CHECK(back->init_start_time == 123456789012ULL);
	CHECK_STR(back->annotations[1], "v");
	free(json);
	oci_state_free(back);
	return 0;
}

TEST(a_state_copied_from_its_view_is_the_state_read_back_from_its_json)
{
	char *ann[] = { "k", "v", "k2", "", NULL };
	struct oci_state_view st = {
		.oci_version = "1.2.0", .id = "c1", .pid = 42, .status = "created",
		.bundle = "/b", .rootfs = "/b/rootfs", .created = "2026-01-01T00:00:00.000000001Z",
		.owner = "", .annotations = ann, .init_start_time = 123456789012ULL,
		.cgroup_path = "/c1", .has_poststop = true,
	};
	char *json = oci_state_to_json(&st, true, false, &err);
	struct oci_state *read = oci_state_parse(json, strlen(json), &err);
	struct oci_state *copy = oci_state_from_view(&st, &err);
	struct oci_state_view rv, cv;
	char *a, *b;

	CHECK(json && read && copy);
	rv = oci_state_view(read);
	cv = oci_state_view(copy);
	a = oci_state_to_json(&rv, true, false, &err);
	b = oci_state_to_json(&cv, true, false, &err);
	CHECK(a && b);
	CHECK_STR(a, b);
	CHECK_STR(b, json);
	CHECK(copy->id != st.id && copy->annotations != ann);	/* its own strings */
	CHECK(copy->has_poststop && !copy->has_poststart);
	free(a);
	free(b);
	free(json);
	oci_state_free(read);
	oci_state_free(copy);
	return 0;
}

TEST(public_state_hides_private_fields)
{
	struct oci_state_view st = {
		.oci_version = "1.2.0", .id = "c1", .pid = 1, .status = "running",
		.bundle = "/b", .rootfs = "/b/r", .created = "t", .owner = "",
		.init_start_time = 5,
	};
	char *json = oci_state_to_json(&st, false, true, &err);

	CHECK(json && !strstr(json, "initStartTime") && strstr(json, "\n  \"id\": \"c1\""));
	free(json);
	return 0;
}

TEST(a_broken_state_file_is_refused)
{
	CHECK(oci_state_parse("[]", 2, &err) == NULL);
	CHECK_STR(err.msg, "the state must be a JSON object");
	CHECK(oci_state_parse("{\"id\":", 6, &err) == NULL);
	CHECK(strncmp(err.msg, "invalid JSON: ", 14) == 0);
	CHECK(oci_state_parse("{\"id\":\"c1\"}", 11, &err) == NULL);
	CHECK_STR(err.msg, "ociVersion: missing");
	return 0;
}

TEST(a_state_record_is_read_but_never_through_a_link_or_fifo)
{
	char dir[] = "/tmp/shim-record-XXXXXX";
	int fd;
	char *text;

	CHECK(mkdtemp(dir) != NULL);
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK(fd >= 0);
	CHECK(write_file_at(fd, "cgroup", "/shim/c1", &err) == 0);
	CHECK(symlinkat("/etc/hostname", fd, "link") == 0);
	CHECK(mkfifoat(fd, "fifo", 0600) == 0);
	text = store_read_record(fd, "cgroup", 64, &err);
	CHECK_STR(text, "/shim/c1");
	free(text);
	CHECK(store_read_record(fd, "absent", 64, &err) == NULL && err.errnum == ENOENT);
	CHECK(store_read_record(-1, "cgroup", 64, &err) == NULL && err.errnum == ENOENT);
	CHECK(store_read_record(fd, "link", 64, &err) == NULL && err.errnum == ELOOP);
	CHECK(store_read_record(fd, "fifo", 64, &err) == NULL);
	CHECK(store_read_record(fd, "cgroup", 4, &err) == NULL);
	close(fd);
	CHECK(remove_tree_at(AT_FDCWD, dir, &err) == 0);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folder's names but . and .., sorted, joined by spaces. */
static void names_in(int dir_fd, char *out, size_t len)
{
	char **names = NULL;
	size_t n = 0;
	DIR *d = fdopendir(openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	struct dirent *e;

	out[0] = '\0';
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			names = realloc(names, (n + 1) * sizeof(*names));
			names[n++] = strdup(e->d_name);
		}
	if (d)
		closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? " " : "", names[i]);
		free(names[i]);
	}
	free(names);
}

/* A new folder (dir: a mkdtemp template) holding state.json "old"; its fd. */
static int folder_with_old_state(char *dir)
{
	int fd;

	if (!mkdtemp(dir))
		return -1;
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0 && write_file_atomic_at(fd, "state.json", "old", &err) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Does the folder's file name hold text? */
static bool holds(int fd, const char *name, const char *text)
{
	char *got = store_read_record(fd, name, 64, &err);
	bool same = got && strcmp(got, text) == 0;

	free(got);
	return same;
}

/* The folder's names, as names_in lists them, are want. */
static bool names_are(int fd, const char *want)
{
	char names[256];

	names_in(fd, names, sizeof(names));
	return strcmp(names, want) == 0;
}

/* A staged file is written and synced beside its name, which keeps its
 * old text until the commit renames the new one over it. */
TEST(a_staged_file_takes_its_name_only_at_commit)
{
	char dir[] = "/tmp/shim-staged-XXXXXX";
	int fd = folder_with_old_state(dir);
	struct staged_file f;

	CHECK(fd >= 0);
	CHECK(file_stage_at(fd, "state.json", "new", &f, &err) == 0);
	CHECK(holds(fd, "state.json", "old") && holds(fd, f.tmp, "new"));
	CHECK(strncmp(f.tmp, ".state.json.", 12) == 0);
	CHECK(staged_file_commit(&f, &err) == 0);
	CHECK(f.tmp[0] == '\0');
	CHECK(holds(fd, "state.json", "new"));
	CHECK(names_are(fd, "state.json"));
	close(fd);
	CHECK(remove_tree_at(AT_FDCWD, dir, &err) == 0);
	return 0;
}

TEST(a_dropped_staged_file_leaves_the_old_one_alone)
{
	char dir[] = "/tmp/shim-staged-XXXXXX";
	int fd = folder_with_old_state(dir);
	struct staged_file f;

	CHECK(fd >= 0);
	CHECK(file_stage_at(fd, "state.json", "new", &f, &err) == 0);
	staged_file_drop(&f);
	staged_file_drop(&f);	/* twice: nothing more */
	CHECK(names_are(fd, "state.json"));
	CHECK(holds(fd, "state.json", "old"));
	close(fd);
	CHECK(remove_tree_at(AT_FDCWD, dir, &err) == 0);
	return 0;
}

/* A planted link under the name is replaced, never written through. */
TEST(a_staged_file_replaces_a_link_at_its_name)
{
	char dir[] = "/tmp/shim-staged-XXXXXX", target[64];
	int fd = folder_with_old_state(dir);
	struct staged_file f;

	CHECK(fd >= 0);
	CHECK(unlinkat(fd, "state.json", 0) == 0);
	CHECK(write_file_at(fd, "target", "kept", &err) == 0);
	snprintf(target, sizeof(target), "%s/target", dir);
	CHECK(symlinkat(target, fd, "state.json") == 0);
	CHECK(file_stage_at(fd, "state.json", "new", &f, &err) == 0);
	CHECK(staged_file_commit(&f, &err) == 0);
	CHECK(holds(fd, "target", "kept") && holds(fd, "state.json", "new"));
	CHECK(names_are(fd, "state.json target"));
	close(fd);
	CHECK(remove_tree_at(AT_FDCWD, dir, &err) == 0);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(container_ids);
	RUN(state_round_trips_with_private_fields);
	RUN(a_state_copied_from_its_view_is_the_state_read_back_from_its_json);
	RUN(public_state_hides_private_fields);
	RUN(a_broken_state_file_is_refused);
	RUN(a_state_record_is_read_but_never_through_a_link_or_fifo);
	RUN(a_staged_file_takes_its_name_only_at_commit);
	RUN(a_dropped_staged_file_leaves_the_old_one_alone);
	RUN(a_staged_file_replaces_a_link_at_its_name);
	TAP_DONE();
}
