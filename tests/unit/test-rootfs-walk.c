/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/filesystem/rootfs_walk.c: rootfs_make_path on a temporary tree laid out as a
 * hostile image would be (dangling links, "..", absolute targets, loops,
 * a folder swapped for a link while the walk runs). Each test checks
 * where the entries landed, and that nothing appeared beside the root. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shim/filesystem/rootfs_walk.h"
#include "tests/unit/helpers.h"
#include "tests/unit/tap.h"

static char base[64];	/* holds root/ and outside/ */
static int root_fd = -1;

/* A fresh base/root and base/outside; root_fd opened on the root. 1 when
 * openat2 is missing (valgrind knows no openat2): the test is skipped. */
static int fresh_tree(void)
{
	char path[PATH_MAX];

	if (root_fd >= 0)
		close(root_fd);
	if (base[0])
		unit_remove_tree(base);
	snprintf(base, sizeof(base), "/tmp/shim-walk-test.XXXXXX");
	if (!mkdtemp(base))
		return -1;
	snprintf(path, sizeof(path), "%s/root", base);
	if (mkdir(path, 0755) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/outside", base);
	if (mkdir(path, 0755) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/root", base);
	root_fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		return -1;
	return unit_have_openat2() ? 0 : 1;
}

#define FRESH_TREE()                                                             \
	do {                                                                     \
		int _r = fresh_tree();                                           \
		if (_r == 1)                                                     \
			SKIP("no openat2 here (valgrind knows none)");           \
		CHECK(_r == 0);                                                  \
	} while (0)

/* stat of base/REL (not following a last link) */
static int stat_at(const char *rel, struct stat *st)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	return lstat(path, st);
}

static bool is_dir(const char *rel)
{
	struct stat st;

	return stat_at(rel, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_empty_file(const char *rel)
{
	struct stat st;

	return stat_at(rel, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
}

static int link_at(const char *target, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	return symlink(target, path);
}

/* Entries in base/outside, and in base itself besides root and outside. */
static int strays(void)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/outside", base);
	d = opendir(path);
	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	if (d)
		closedir(d);
	d = opendir(base);
	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
		     strcmp(e->d_name, "root") != 0 && strcmp(e->d_name, "outside") != 0;
	if (d)
		closedir(d);
	return n;
}

/* rootfs_make_path's fd is the entry at base/rel. */
static bool fd_is(int fd, const char *rel)
{
	struct stat a, b;

	return fd >= 0 && fstat(fd, &a) == 0 && stat_at(rel, &b) == 0 && a.st_ino == b.st_ino &&
	       a.st_dev == b.st_dev;
}

static int make(const char *path, bool as_file, struct shim_error *err)
{
	memset(err, 0, sizeof(*err));
	return rootfs_make_path(root_fd, path, as_file, err);
}

TEST(an_existing_path_is_opened_and_nothing_is_made)
{
	struct shim_error err;
	int fd;

	FRESH_TREE();
	fd = make("/", false, &err);
	CHECK(fd_is(fd, "root"));
	close(fd);
	CHECK(strays() == 0);
	return 0;
}

TEST(missing_folders_are_made_from_the_root_down)
{
	struct shim_error err;
	int fd;

	FRESH_TREE();
	fd = make("/a/b/c", false, &err);
	CHECK(fd_is(fd, "root/a/b/c"));
	CHECK(is_dir("root/a/b/c"));
	close(fd);
	return 0;
}

TEST(as_file_makes_the_last_part_an_empty_file)
{
	struct shim_error err;
	struct stat st;
	int fd;

	FRESH_TREE();
	fd = make("/etc/hosts", true, &err);
	CHECK(fd_is(fd, "root/etc/hosts"));
	CHECK(is_dir("root/etc"));
	CHECK(is_empty_file("root/etc/hosts"));
	CHECK(stat_at("root/etc/hosts", &st) == 0 && (st.st_mode & 0111) == 0);
	close(fd);
	return 0;
}

TEST(a_path_without_its_leading_slash_is_inside_the_root_too)
{
	struct shim_error err;
	int fd;

	FRESH_TREE();
	fd = make("rel/x", false, &err);
	CHECK(fd_is(fd, "root/rel/x"));
	close(fd);
	CHECK(make("", false, &err) < 0 && err.errnum == EINVAL);
	return 0;
}

TEST(dotdot_in_the_path_stops_at_the_root)
{
	struct shim_error err;
	int fd;

	FRESH_TREE();
	fd = make("/../../../outside/x", false, &err);
	CHECK(fd_is(fd, "root/outside/x"));
	close(fd);
	CHECK(strays() == 0);
	return 0;
}

TEST(a_dangling_absolute_link_is_followed_inside_the_root)
{
	struct shim_error err;
	int fd;

	FRESH_TREE();
	/* "/outside" here means the root's, never base/outside */
	CHECK(link_at("/outside/deep", "root/l") == 0);
	fd = make("/l/x", false, &err);
	CHECK(fd_is(fd, "root/outside/deep/x"));
	close(fd);
	CHECK(strays() == 0);
	return 0;
}

TEST(a_dangling_relative_link_climbing_out_lands_in_the_root)
{
	struct shim_error err;
	int fd;

	FRESH_TREE();
	{
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/root/d", base);
		CHECK(mkdir(path, 0755) == 0);
	}
	CHECK(link_at("../../../../outside/f", "root/d/l") == 0);
	fd = make("/d/l/leaf", true, &err);
	CHECK(fd_is(fd, "root/outside/f/leaf"));
	CHECK(is_empty_file("root/outside/f/leaf"));
	close(fd);
	CHECK(strays() == 0);
	return 0;
}

TEST(a_chain_of_dangling_links_is_followed_to_its_end)
{
	struct shim_error err;
	int fd;

	FRESH_TREE();
	CHECK(link_at("/l2", "root/l1") == 0);
	CHECK(link_at("real", "root/l2") == 0);
	fd = make("/l1/x", false, &err);
	CHECK(fd_is(fd, "root/real/x"));
	close(fd);
	return 0;
}

TEST(a_link_loop_fails_with_eloop_and_makes_nothing_outside)
{
	struct shim_error err;

	FRESH_TREE();
	CHECK(link_at("/b", "root/a") == 0);
	CHECK(link_at("/a", "root/b") == 0);
	CHECK(make("/a/x", false, &err) < 0);
	CHECK(err.errnum == ELOOP);
	CHECK(strays() == 0);
	return 0;
}

TEST(a_file_on_the_way_fails_with_enotdir)
{
	struct shim_error err;
	int fd;

	FRESH_TREE();
	fd = make("/f", true, &err);
	CHECK(fd >= 0);
	close(fd);
	CHECK(make("/f/x", false, &err) < 0);
	CHECK(err.errnum == ENOTDIR);
	return 0;
}

TEST(a_link_target_too_long_fails_with_enametoolong)
{
	struct shim_error err;
	char target[PATH_MAX - 8];

	FRESH_TREE();
	memset(target, 'a', sizeof(target) - 1);
	target[sizeof(target) - 1] = '\0';
	for (size_t i = 200; i < sizeof(target) - 1; i += 200)
		target[i] = '/';
	CHECK(link_at(target, "root/long") == 0);
	CHECK(make("/long/and/then/some/more/parts", false, &err) < 0);
	CHECK(err.errnum == ENAMETOOLONG);
	return 0;
}

/* The swapper: root/r, a folder, and root/s, a link to the folder beside
 * the root, change places until told to stop. */
static atomic_bool stop;

static void *swap_loop(void *arg)
{
	char r[PATH_MAX], s[PATH_MAX];

	(void)arg;
	snprintf(r, sizeof(r), "%s/root/r", base);
	snprintf(s, sizeof(s), "%s/root/s", base);
	while (!atomic_load(&stop))
		renameat2(AT_FDCWD, r, AT_FDCWD, s, RENAME_EXCHANGE);
	return NULL;
}

TEST(a_folder_swapped_for_a_link_to_the_host_never_leads_out)
{
	char outside[PATH_MAX], path[PATH_MAX];
	pthread_t t;
	int made = 0;

	FRESH_TREE();
	snprintf(path, sizeof(path), "%s/root/r", base);
	CHECK(mkdir(path, 0755) == 0);
	snprintf(outside, sizeof(outside), "%s/outside", base);
	CHECK(link_at(outside, "root/s") == 0);
	atomic_store(&stop, false);
	CHECK(pthread_create(&t, NULL, swap_loop, NULL) == 0);
	for (int i = 0; i < 2000; i++) {
		struct shim_error err;
		char name[64];
		int fd;

		snprintf(name, sizeof(name), "/r/x%d/y", i);
		fd = make(name, i % 2, &err);
		if (fd >= 0) {
			made++;
			close(fd);
		}
	}
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	printf("# %d of 2000 made while r and s were swapped\n", made);
	CHECK(made > 0);
	CHECK(strays() == 0);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(an_existing_path_is_opened_and_nothing_is_made);
	RUN(missing_folders_are_made_from_the_root_down);
	RUN(as_file_makes_the_last_part_an_empty_file);
	RUN(a_path_without_its_leading_slash_is_inside_the_root_too);
	RUN(dotdot_in_the_path_stops_at_the_root);
	RUN(a_dangling_absolute_link_is_followed_inside_the_root);
	RUN(a_dangling_relative_link_climbing_out_lands_in_the_root);
	RUN(a_chain_of_dangling_links_is_followed_to_its_end);
	RUN(a_link_loop_fails_with_eloop_and_makes_nothing_outside);
	RUN(a_file_on_the_way_fails_with_enotdir);
	RUN(a_link_target_too_long_fails_with_enametoolong);
	RUN(a_folder_swapped_for_a_link_to_the_host_never_leads_out);
	if (root_fd >= 0)
		close(root_fd);
	if (base[0])
		unit_remove_tree(base);
	TAP_DONE();
}
