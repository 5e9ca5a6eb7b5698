/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/images/passwd.c: a User resolved in a root's /etc/passwd and /etc/group,
 * and a uid's name. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shim/images/passwd.h"
#include "shim/syscalls.h"
#include "tests/unit/helpers.h"
#include "tests/unit/tap.h"

static int root = -1;
static struct shim_error err;

/* The files are read with openat2: where it is missing (valgrind), each
 * test is skipped (NEED_OPENAT2). */
static void write_at(const char *path, const char *text)
{
	if (unit_write_at(root, path, text) < 0)
		abort();
}

TEST(a_user_name_gives_its_uid_and_gid)
{
	uint32_t uid, gid;

	NEED_OPENAT2();
	CHECK(passwd_resolve(root, "app", &uid, &gid, &err) == 0);
	CHECK(uid == 1000 && gid == 1001);
	CHECK(passwd_resolve(root, "app:staff", &uid, &gid, &err) == 0);
	CHECK(uid == 1000 && gid == 50);
	return 0;
}

TEST(a_numeric_user_without_an_entry_gets_gid_0)
{
	uint32_t uid, gid;

	NEED_OPENAT2();
	CHECK(passwd_resolve(root, "4242", &uid, &gid, &err) == 0);
	CHECK(uid == 4242 && gid == 0);
	CHECK(passwd_resolve(root, "4242:7", &uid, &gid, &err) == 0);
	CHECK(uid == 4242 && gid == 7);
	return 0;
}

TEST(an_unknown_user_is_named)
{
	uint32_t uid, gid;

	NEED_OPENAT2();
	CHECK(passwd_resolve(root, "nobody-here", &uid, &gid, &err) < 0);
	CHECK_STR(err.msg, "config.User \"nobody-here\": user \"nobody-here\": not in the image's "
		  "/etc/passwd");
	return 0;
}

TEST(a_uid_gives_its_name_and_bad_lines_are_skipped)
{
	char name[64];

	NEED_OPENAT2();
	CHECK(passwd_user_name(root, 1000, name, sizeof(name)));
	CHECK_STR(name, "app");
	CHECK(passwd_user_name(root, 0, name, sizeof(name)));
	CHECK_STR(name, "root");
	/* "broken:x:" has no uid, "odd:x:12x:" no number */
	CHECK(!passwd_user_name(root, 12, name, sizeof(name)));
	CHECK(!passwd_user_name(root, 77, name, sizeof(name)));
	return 0;
}

TEST(a_uid_gives_its_home_when_it_has_one)
{
	char home[64];

	NEED_OPENAT2();
	CHECK(passwd_user_home(root, 1000, home, sizeof(home)));
	CHECK_STR(home, "/home/app");
	/* "odd" has an empty home; a home longer than the buffer is none */
	CHECK(!passwd_user_home(root, 12, home, sizeof(home)));
	CHECK(!passwd_user_home(root, 0, home, 4));
	return 0;
}

int main(void)
{
	char dir[] = "/tmp/test-passwd.XXXXXX";

	if (!mkdtemp(dir) || (root = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    mkdirat(root, "etc", 0755) < 0)
		return 1;
	write_at("etc/passwd", "root:x:0:0:root:/root:/bin/sh\nbroken:x:\nodd:x:12x:1::/:\n"
		 "app:x:1000:1001::/home/app:/bin/sh\n");
	write_at("etc/group", "root:x:0:\nstaff:x:50:app\n");
	TAP_START();
	RUN(a_user_name_gives_its_uid_and_gid);
	RUN(a_numeric_user_without_an_entry_gets_gid_0);
	RUN(an_unknown_user_is_named);
	RUN(a_uid_gives_its_name_and_bad_lines_are_skipped);
	RUN(a_uid_gives_its_home_when_it_has_one);
	unlinkat(root, "etc/passwd", 0);
	unlinkat(root, "etc/group", 0);
	unlinkat(root, "etc", AT_REMOVEDIR);
	rmdir(dir);
	TAP_DONE();
}
