/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/mount_options.c: a mount's options sorted into what the new mount API takes. */
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

int main(void)
{
	TAP_START();
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
	TAP_DONE();
}
