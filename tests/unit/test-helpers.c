/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The small pure pieces: mount options, IDs, state JSON and
 * files, fds. */
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

TEST(errors_read_errno_as_runc_does)
{
	char text[256];

	shim_fail(&err, ENOENT, "open %s", "/x");
	CHECK(strcmp(shim_error_text(&err, text, sizeof(text)),
		     "open /x: no such file or directory") == 0);
	CHECK(strcmp(shim_errno_text(EPERM, text, sizeof(text)), "operation not permitted") == 0);
	shim_fail(&err, 0, "plain");
	CHECK(strcmp(shim_error_text(&err, text, sizeof(text)), "plain") == 0);
	return 0;
}

TEST(mount_options_sort_into_attributes_and_parameters)
{
	char *opts[] = { "nosuid", "strictatime", "mode=755", "size=65536k", "ro", "newinstance", NULL };
	struct mount_opts o;

	CHECK(mount_opts_parse(opts, "mounts[0]", &o, &err) == 0);
	CHECK(o.attr_set == (MOUNT_ATTR_NOSUID | MOUNT_ATTR_STRICTATIME | MOUNT_ATTR_RDONLY));
	CHECK(o.attr_clr & MOUNT_ATTR__ATIME);
	CHECK(o.n_fs_params == 3);
	CHECK_STR(o.fs_params[0], "mode=755");
	CHECK_STR(o.fs_params[2], "newinstance");
	CHECK(!o.bind && !o.propagation);
	return 0;
}

TEST(later_mount_options_win)
{
	char *opts[] = { "ro", "rw", "noexec", "exec", NULL };
	struct mount_opts o;

	CHECK(mount_opts_parse(opts, "mounts[0]", &o, &err) == 0);
	CHECK(o.attr_set == 0);
	CHECK(o.attr_clr == (MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOEXEC));
	return 0;
}

TEST(atime_undoes_noatime_and_asks_for_relatime)
{
	char *opts[] = { "noatime", "atime", NULL };
	char *alone[] = { "atime", NULL };
	char *strict[] = { "strictatime", "atime", NULL };
	struct mount_opts o;

	CHECK(mount_opts_parse(opts, "mounts[0]", &o, &err) == 0);
	CHECK((o.attr_set & MOUNT_ATTR__ATIME) == MOUNT_ATTR_RELATIME);
	CHECK((o.attr_clr & MOUNT_ATTR__ATIME) == MOUNT_ATTR__ATIME);
	CHECK(mount_opts_parse(alone, "mounts[0]", &o, &err) == 0);
	CHECK((o.attr_clr & MOUNT_ATTR__ATIME) == MOUNT_ATTR__ATIME);
	CHECK((o.attr_set & MOUNT_ATTR__ATIME) == MOUNT_ATTR_RELATIME);
	/* as mount(8): "atime" only undoes noatime */
	CHECK(mount_opts_parse(strict, "mounts[0]", &o, &err) == 0);
	CHECK((o.attr_set & MOUNT_ATTR__ATIME) == MOUNT_ATTR_STRICTATIME);
	return 0;
}

TEST(nostrictatime_undoes_only_strictatime)
{
	char *opts[] = { "rstrictatime", "rnostrictatime", NULL };
	char *noatime[] = { "noatime", "nostrictatime", NULL };
	char *alone[] = { "nostrictatime", "rnorelatime", "iversion", "noiversion", NULL };
	struct mount_opts o;

	CHECK(mount_opts_parse(opts, "mounts[0]", &o, &err) == 0);
	CHECK((o.rattr_set & MOUNT_ATTR__ATIME) == MOUNT_ATTR_RELATIME);
	CHECK((o.rattr_clr & MOUNT_ATTR__ATIME) == MOUNT_ATTR__ATIME);
	CHECK(o.attr_set == 0 && o.attr_clr == 0);
	CHECK(mount_opts_parse(noatime, "mounts[0]", &o, &err) == 0);
	CHECK((o.attr_set & MOUNT_ATTR__ATIME) == MOUNT_ATTR_NOATIME);
	CHECK(mount_opts_parse(alone, "mounts[0]", &o, &err) == 0);
	CHECK(o.attr_set == 0 && o.attr_clr == 0 && o.rattr_set == 0 && o.rattr_clr == 0);
	CHECK(o.n_fs_params == 0);
	return 0;
}

TEST(ratime_undoes_rnoatime)
{
	char *opts[] = { "rnoatime", "ratime", NULL };
	struct mount_opts o;

	CHECK(mount_opts_parse(opts, "mounts[0]", &o, &err) == 0);
	CHECK((o.rattr_set & MOUNT_ATTR__ATIME) == MOUNT_ATTR_RELATIME);
	CHECK((o.rattr_clr & MOUNT_ATTR__ATIME) == MOUNT_ATTR__ATIME);
	return 0;
}

TEST(bind_and_propagation_options)
{
	char *opts[] = { "rbind", "rslave", "defaults", NULL };
	struct mount_opts o;

	CHECK(mount_opts_parse(opts, "mounts[0]", &o, &err) == 0);
	CHECK(o.bind && o.rbind);
	CHECK(o.propagation == MS_SLAVE && o.propagation_recursive);
	CHECK(o.n_fs_params == 0);
	return 0;
}

TEST(unsupported_mount_options_are_named)
{
	char *opts[] = { "rw", "remount", NULL };
	struct mount_opts o;

	CHECK(mount_opts_parse(opts, "mounts[0]", &o, &err) == -1);
	CHECK_STR(err.msg, "mounts[0].options[1]: \"remount\" is not supported");
	return 0;
}

/* features' mountOptions: sorted, each one parsed, "remount" not among
 * them; the VFS's flags (sync, lazytime, ...) go to fsconfig as they are. */
TEST(known_mount_options_are_sorted_and_each_is_taken)
{
	const char *prev = "", *name;
	size_t i, as_params = 0;

	for (i = 0; (name = mount_option_known_name(i)); i++) {
		char copy[32];
		char *opts[] = { copy, NULL };
		struct mount_opts o;

		CHECK((size_t)snprintf(copy, sizeof(copy), "%s", name) < sizeof(copy));
		CHECK(strcmp(prev, name) < 0);
		CHECK(strcmp(name, "remount") != 0);
		CHECK(mount_opts_parse(opts, "mounts[0]", &o, &err) == 0);
		as_params += o.n_fs_params;
		prev = name;
	}
	CHECK(i == 61);
	CHECK(as_params == 7);
	return 0;
}

TEST(tmpcopyup_is_kept_with_its_index_and_is_no_fs_parameter)
{
	char *opts[] = { "nosuid", "tmpcopyup", "mode=755", NULL };
	struct mount_opts o;

	CHECK(mount_opts_parse(opts, "mounts[0]", &o, &err) == 0);
	CHECK(o.tmpcopyup && o.tmpcopyup_index == 1);
	CHECK(o.n_fs_params == 1);
	CHECK_STR(o.fs_params[0], "mode=755");
	return 0;
}

TEST(recursive_mount_options_are_kept_apart)
{
	char *opts[] = { "rbind", "ro", "rnosuid", "rnoatime", "rrw", "nosymfollow", NULL };
	struct mount_opts o;

	CHECK(mount_opts_parse(opts, "mounts[0]", &o, &err) == 0);
	CHECK(o.attr_set == (MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSYMFOLLOW));
	CHECK(o.rattr_set == (MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOATIME));
	CHECK(o.rattr_clr == (MOUNT_ATTR__ATIME | MOUNT_ATTR_RDONLY));
	return 0;
}

TEST(a_bind_mount_names_an_option_it_cannot_take)
{
	char *opts[] = { "bind", "ro", "size=1m", "bogus", NULL };
	struct mount_opts o;

	CHECK(mount_opts_parse(opts, "mounts[4]", &o, &err) == 0);
	CHECK(mount_opts_check_bind(&o, &err) == -1);
	CHECK_STR(err.msg, "mounts[4].options[3]: \"bogus\" is no option of a bind mount");
	return 0;
}

TEST(a_bind_mount_takes_filesystem_data_as_runc_does)
{
	char *opts[] = { "rbind", "mode=755", "size=1k", NULL };
	struct mount_opts o;

	CHECK(mount_opts_parse(opts, "mounts[4]", &o, &err) == 0);
	CHECK(o.rbind && o.n_fs_params == 2);
	CHECK(mount_opts_check_bind(&o, &err) == 0);
	return 0;
}

TEST(an_env_entry_set_replaces_what_the_env_said_of_its_key)
{
	char **env = NULL;

	CHECK(strv_env_set(&env, "A=1") == 0 && strv_env_set(&env, "AB=2") == 0 &&
	      strv_env_set(&env, "A=3") == 0);
	CHECK(strv_len(env) == 2);
	CHECK_STR(env[0], "AB=2");
	CHECK_STR(env[1], "A=3");
	strv_free(env);
	return 0;
}

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

TEST(a_path_that_does_not_fit_fails_instead_of_being_cut)
{
	char buf[16];

	CHECK(path_format(buf, sizeof(buf), &err, "%s/%s", "/run", "shim") == 0);
	CHECK_STR(buf, "/run/shim");
	CHECK(path_format(buf, sizeof(buf), &err, "%s/%s", "/run/shim", "a-long-id") < 0);
	CHECK(err.errnum == ENAMETOOLONG);
	CHECK_STR(err.msg, "/run/shim/a-lon...: longer than 15 bytes");
	/* exactly full fits */
	CHECK(path_format(buf, sizeof(buf), &err, "%s", "123456789012345") == 0);
	return 0;
}

TEST(close_from_proc_closes_from_first_up)
{
	int a = open("/dev/null", O_RDONLY), b = open("/dev/null", O_RDONLY);

	CHECK(a >= 3 && b > a);
	CHECK(fd_close_from_proc((unsigned int)b, &err) == 0);
	CHECK(fcntl(a, F_GETFD) >= 0);
	CHECK(fcntl(b, F_GETFD) < 0);
	close(a);
	return 0;
}

TEST(close_listed_spares_the_kept_fds)
{
	int a = open("/dev/null", O_RDONLY), b = open("/dev/null", O_RDONLY);
	int c = open("/dev/null", O_RDONLY), dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY);
	int keep[2] = { b, -1 };

	CHECK(a >= 3 && b > a && c > b && dir > c);
	CHECK(fd_close_listed(dir, (unsigned int)a, keep, 2, &err) == 0);
	CHECK(fcntl(a, F_GETFD) < 0);
	CHECK(fcntl(b, F_GETFD) >= 0);
	CHECK(fcntl(c, F_GETFD) < 0);
	CHECK(fcntl(dir, F_GETFD) < 0);
	close(b);
	return 0;
}

TEST(close_sparing_closes_the_gaps_between_the_kept_fds)
{
	int fd[6], dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int keep[5];

	for (int i = 0; i < 6; i++)
		fd[i] = open("/dev/null", O_RDONLY);
	CHECK(dir >= 3 && fd[0] > dir && fd[5] == fd[0] + 5);
	/* out of order, twice, below first and -1: all taken in their stride */
	keep[0] = fd[4], keep[1] = fd[1], keep[2] = fd[2], keep[3] = -1, keep[4] = fd[4];
	CHECK(fd_close_sparing(dir, (unsigned int)fd[1], keep, 5, &err) == 0);
	CHECK(fcntl(fd[0], F_GETFD) >= 0);	/* below first */
	CHECK(fcntl(fd[1], F_GETFD) >= 0 && fcntl(fd[2], F_GETFD) >= 0);
	CHECK(fcntl(fd[3], F_GETFD) < 0);
	CHECK(fcntl(fd[4], F_GETFD) >= 0);
	CHECK(fcntl(fd[5], F_GETFD) < 0);
	CHECK(fcntl(dir, F_GETFD) >= 0);	/* below first too */
	close(fd[0]), close(fd[1]), close(fd[2]), close(fd[4]), close(dir);
	return 0;
}

TEST(close_sparing_refuses_more_kept_fds_than_it_holds)
{
	int keep[FD_MAX_KEEP + 1];

	for (int i = 0; i <= FD_MAX_KEEP; i++)
		keep[i] = -1;
	CHECK(fd_close_sparing(-1, 1000, keep, FD_MAX_KEEP + 1, &err) < 0);
	CHECK(err.errnum == E2BIG);
	return 0;
}

TEST(preserved_fds_must_be_open)
{
	int fd = dup2(0, 3);

	CHECK(fd == 3);
	close(4);
	CHECK(fd_check_preserved(1, &err) == 0);
	CHECK(fd_check_preserved(2, &err) == -1);
	CHECK_STR(err.msg, "--preserve-fds 2: fd 4 (preserved-fd 1) is not open");
	close(3);
	return 0;
}

TEST(start_time_of_self_is_stable)
{
	unsigned long long a, b;

	CHECK(proc_start_time(getpid(), &a, &err) == 0);
	CHECK(proc_start_time(getpid(), &b, &err) == 0);
	CHECK(a == b && a > 0);
	return 0;
}

TEST(a_pid_with_another_start_time_is_not_opened)
{
	unsigned long long t;
	int fd = 7;

	CHECK(proc_start_time(getpid(), &t, &err) == 0);
	if (sys_pidfd_open(getpid(), 0) < 0 && errno == ENOSYS)
		SKIP("no pidfd_open here (valgrind does not know it)");
	CHECK(pidfd_open_verified(getpid(), t + 1, &fd, &err) == 0 && fd == -1);
	CHECK(pidfd_open_verified(getpid(), t, &fd, &err) == 1 && fd >= 0);
	close(fd);
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

TEST(the_last_capability_is_the_kernels_cap_last_cap)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "re");
	int want = -1;

	CHECK(f != NULL);
	CHECK(fscanf(f, "%d", &want) == 1);
	fclose(f);
	CHECK(caps_last() == want);
	CHECK(caps_last() == want);	/* asked again: the same answer */
	return 0;
}

TEST(a_real_folder_path_is_realpaths_answer_by_one_walk)
{
	char dir[] = "/tmp/shim-realpath-XXXXXX", link[64], sub[64], via[96];
	_cleanup_free_ char *want = NULL, *got = NULL, *by_link = NULL;
	struct stat st;
	int fd = -1;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	snprintf(link, sizeof(link), "%s/l", dir);
	CHECK(mkdir(sub, 0700) == 0 && symlink("a", link) == 0);
	snprintf(via, sizeof(via), "%s/../%s/l/", dir, strrchr(dir, '/') + 1);
	want = realpath(via, NULL);
	got = real_dir_open(via, &fd, "test", &err);
	CHECK(want && got);
	CHECK_STR(got, want);
	CHECK_STR(got, sub);
	CHECK(fd >= 0 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode));
	close(fd);
	by_link = real_dir_open(link, NULL, "test", &err);
	CHECK(by_link != NULL);
	CHECK_STR(by_link, sub);
	CHECK(real_dir_open("/nonexistent/x", NULL, "--bundle", &err) == NULL);
	CHECK(err.errnum == ENOENT);
	CHECK_STR(err.msg, "--bundle: /nonexistent/x");
	snprintf(via, sizeof(via), "%s/file", dir);
	CHECK(close(open(via, O_CREAT | O_WRONLY | O_CLOEXEC, 0600)) == 0);
	CHECK(real_dir_open(via, NULL, "root.path", &err) == NULL && err.errnum == ENOTDIR);
	CHECK(remove_tree_at(AT_FDCWD, dir, &err) == 0);
	return 0;
}

TEST(a_folder_named_through_one_of_our_fds_is_refused)
{
	char via[64];
	int fd = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (openat2_retry(AT_FDCWD, "/", O_PATH, 0) < 0 && errno == ENOSYS) {
		close(fd);
		SKIP("no openat2 here (valgrind does not know it)");
	}
	CHECK(fd >= 0);
	snprintf(via, sizeof(via), "/proc/self/fd/%d", fd);
	CHECK(real_dir_open(via, NULL, "root.path", &err) == NULL && err.errnum == ELOOP);
	close(fd);
	return 0;
}

TEST(a_folder_called_deleted_is_not_taken_for_a_removed_one)
{
	char dir[] = "/tmp/shim-realpath-XXXXXX", sub[64];
	_cleanup_free_ char *got = NULL;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(sub, sizeof(sub), "%s/b (deleted)", dir);
	CHECK(mkdir(sub, 0700) == 0);
	got = real_dir_open(sub, NULL, "--bundle", &err);
	CHECK(got != NULL);
	CHECK_STR(got, sub);
	CHECK(remove_tree_at(AT_FDCWD, dir, &err) == 0);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(errors_read_errno_as_runc_does);
	RUN(mount_options_sort_into_attributes_and_parameters);
	RUN(later_mount_options_win);
	RUN(atime_undoes_noatime_and_asks_for_relatime);
	RUN(nostrictatime_undoes_only_strictatime);
	RUN(ratime_undoes_rnoatime);
	RUN(bind_and_propagation_options);
	RUN(unsupported_mount_options_are_named);
	RUN(known_mount_options_are_sorted_and_each_is_taken);
	RUN(tmpcopyup_is_kept_with_its_index_and_is_no_fs_parameter);
	RUN(recursive_mount_options_are_kept_apart);
	RUN(a_bind_mount_names_an_option_it_cannot_take);
	RUN(a_bind_mount_takes_filesystem_data_as_runc_does);
	RUN(an_env_entry_set_replaces_what_the_env_said_of_its_key);
	RUN(container_ids);
	RUN(state_round_trips_with_private_fields);
	RUN(a_state_copied_from_its_view_is_the_state_read_back_from_its_json);
	RUN(public_state_hides_private_fields);
	RUN(a_broken_state_file_is_refused);
	RUN(a_path_that_does_not_fit_fails_instead_of_being_cut);
	RUN(close_from_proc_closes_from_first_up);
	RUN(close_listed_spares_the_kept_fds);
	RUN(close_sparing_closes_the_gaps_between_the_kept_fds);
	RUN(close_sparing_refuses_more_kept_fds_than_it_holds);
	RUN(preserved_fds_must_be_open);
	RUN(start_time_of_self_is_stable);
	RUN(a_pid_with_another_start_time_is_not_opened);
	RUN(a_state_record_is_read_but_never_through_a_link_or_fifo);
	RUN(a_staged_file_takes_its_name_only_at_commit);
	RUN(a_dropped_staged_file_leaves_the_old_one_alone);
	RUN(a_staged_file_replaces_a_link_at_its_name);
	RUN(the_last_capability_is_the_kernels_cap_last_cap);
	RUN(a_real_folder_path_is_realpaths_answer_by_one_walk);
	RUN(a_folder_named_through_one_of_our_fds_is_refused);
	RUN(a_folder_called_deleted_is_not_taken_for_a_removed_one);
	TAP_DONE();
}
