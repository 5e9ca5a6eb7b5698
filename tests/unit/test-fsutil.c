/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/fsutil.c: path_format and the folder helpers. */
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
	RUN(a_path_that_does_not_fit_fails_instead_of_being_cut);
	RUN(a_real_folder_path_is_realpaths_answer_by_one_walk);
	RUN(a_folder_named_through_one_of_our_fds_is_refused);
	RUN(a_folder_called_deleted_is_not_taken_for_a_removed_one);
	TAP_DONE();
}
