/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The seccomp program shim loads: libseccomp's filter behind the ENOSYS
 * stub, tried in a forked child on the host's kernel. */
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yajl/yajl_tree.h>

#include "oci/seccomp.h"
#include "shim/fd.h"
#include "shim/seccomp.h"
#include "tests/unit/tap.h"

static struct shim_error err;

/* valgrind does not know seccomp(2): there, these tests are skipped. */
static bool seccomp_usable(void)
{
	uint32_t allow = SECCOMP_RET_ALLOW;

	return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &allow) == 0;
}

#define NEEDS_SECCOMP()                                                          \
	do {                                                                     \
		if (!seccomp_usable())                                           \
			SKIP("seccomp(2) is not available (valgrind does not know it)"); \
	} while (0)

/* What fn(arg) returned (0-254) in a child under the profile; -1 when the
 * child died or the profile failed. */
static int under(const char *profile, int (*fn)(long), long arg)
{
	yajl_val v = yajl_tree_parse(profile, NULL, 0);
	struct oci_seccomp s = { 0 };
	struct seccomp_program *p;
	int status;
	pid_t pid;

	if (!v || oci_seccomp_parse(v, &s, &err) < 0 || seccomp_build(&s, &p, &err) < 0) {
		oci_seccomp_release(&s);
		if (v)
			yajl_tree_free(v);
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		if (seccomp_install(p, -1, NULL, &err) < 0)
			_exit(255);
		_exit(fn(arg));
	}
	seccomp_program_free(p);
	oci_seccomp_release(&s);
	yajl_tree_free(v);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status) == 255 ? -1 : WEXITSTATUS(status);
}

static int call_errno(long nr)
{
	return syscall(nr, 0L, 0L, 0L, 0L, 0L, 0L) < 0 ? errno : 0;
}

/* The errno syscall nr got under the profile, or 0 for success. */
static int errno_under(const char *profile, long nr)
{
	return under(profile, call_errno, nr);
}

#define OLD_PROFILE(deflt)                                                        \
	"{\"defaultAction\": \"" deflt "\", \"syscalls\": [{\"names\": [\"exit_group\", " \
	"\"exit\", \"rseq\"], \"action\": \"SCMP_ACT_ALLOW\"}]}"

TEST(a_syscall_newer_than_the_profile_gets_enosys)
{
	NEEDS_SECCOMP();
	CHECK(errno_under(OLD_PROFILE("SCMP_ACT_ERRNO"), SYS_faccessat2) == ENOSYS);
	return 0;
}

TEST(an_older_unnamed_syscall_gets_the_default_errno)
{
	NEEDS_SECCOMP();
	CHECK(errno_under(OLD_PROFILE("SCMP_ACT_ERRNO"), SYS_mkdirat) == EPERM);
	return 0;
}

TEST(the_stub_answers_before_a_killing_default)
{
	NEEDS_SECCOMP();
	CHECK(errno_under(OLD_PROFILE("SCMP_ACT_KILL_PROCESS"), SYS_clone3) == ENOSYS);
	CHECK(errno_under(OLD_PROFILE("SCMP_ACT_KILL_PROCESS"), SYS_mkdirat) == -1);
	return 0;
}

TEST(a_profile_naming_a_newer_syscall_moves_the_threshold)
{
	const char *p = "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": "
			"[\"exit_group\", \"pidfd_open\"], \"action\": \"SCMP_ACT_ALLOW\"}]}";

	NEEDS_SECCOMP();
	CHECK(errno_under(p, SYS_pidfd_open) == EINVAL);	/* allowed: pid 0 */
	CHECK(errno_under(p, SYS_clone3) == ENOSYS);
	CHECK(errno_under(p, SYS_pidfd_send_signal) == EPERM);	/* 424, below 434 */
	return 0;
}

/* close_range refused with errnoRet (0: the default, EPERM) */
#define NO_CLOSE_RANGE(ret)                                                        \
	"{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": " \
	"[\"close_range\"], \"action\": \"SCMP_ACT_ERRNO\"" ret "}]}"

/* 0 when fd_close_from (from a folder listing /proc/self/fd, or -1)
 * closed both of two fds and itself succeeded, 1 when it failed and left
 * them, 2 otherwise. */
static int close_from_two(long with_folder)
{
	int a = open("/dev/null", O_RDONLY), b = open("/dev/null", O_RDONLY);
	int dir = with_folder ? open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	int r = fd_close_from(dir, (unsigned int)a, &err);

	if (r == 0 && fcntl(a, F_GETFD) < 0 && fcntl(b, F_GETFD) < 0)
		return 0;
	if (r < 0 && fcntl(a, F_GETFD) >= 0 && fcntl(b, F_GETFD) >= 0)
		return 1;
	return 2;
}

TEST(close_from_lists_the_fd_folder_where_close_range_is_refused)
{
	NEEDS_SECCOMP();
	CHECK(under(NO_CLOSE_RANGE(""), close_from_two, 1) == 0);
	CHECK(under(NO_CLOSE_RANGE(""), close_from_two, 0) == 1);
	return 0;
}

TEST(close_from_lists_the_fd_folder_where_close_range_is_missing)
{
	NEEDS_SECCOMP();
	CHECK(under(NO_CLOSE_RANGE(", \"errnoRet\": 38"), close_from_two, 1) == 0);
	CHECK(under(NO_CLOSE_RANGE(", \"errnoRet\": 38"), close_from_two, 0) == 0);
	return 0;
}

/* 0 when fd_close_sparing, with close_range refused, closed two fds
 * around a kept one by the fd folder's list, and kept that one. */
static int close_sparing_one(long unused)
{
	int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int a = open("/dev/null", O_RDONLY), b = open("/dev/null", O_RDONLY);
	int c = open("/dev/null", O_RDONLY);
	int keep[1] = { b };

	(void)unused;
	if (fd_close_sparing(dir, (unsigned int)a, keep, 1, &err) < 0)
		return 1;
	return fcntl(a, F_GETFD) < 0 && fcntl(b, F_GETFD) >= 0 && fcntl(c, F_GETFD) < 0 &&
			       fcntl(dir, F_GETFD) >= 0
		       ? 0 : 2;
}

TEST(close_sparing_lists_the_fd_folder_where_close_range_is_refused)
{
	NEEDS_SECCOMP();
	CHECK(under(NO_CLOSE_RANGE(""), close_sparing_one, 0) == 0);
	CHECK(under(NO_CLOSE_RANGE(", \"errnoRet\": 38"), close_sparing_one, 0) == 0);
	return 0;
}

static int have_close_range(long unused)
{
	(void)unused;
	return fd_have_close_range();
}

TEST(close_range_is_missing_only_on_enosys)
{
	NEEDS_SECCOMP();
	CHECK(have_close_range(0) == 1);
	CHECK(under(NO_CLOSE_RANGE(""), have_close_range, 0) == 1);
	CHECK(under(NO_CLOSE_RANGE(", \"errnoRet\": 38"), have_close_range, 0) == 0);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(a_syscall_newer_than_the_profile_gets_enosys);
	RUN(an_older_unnamed_syscall_gets_the_default_errno);
	RUN(the_stub_answers_before_a_killing_default);
	RUN(a_profile_naming_a_newer_syscall_moves_the_threshold);
	RUN(close_from_lists_the_fd_folder_where_close_range_is_refused);
	RUN(close_from_lists_the_fd_folder_where_close_range_is_missing);
	RUN(close_sparing_lists_the_fd_folder_where_close_range_is_refused);
	RUN(close_range_is_missing_only_on_enosys);
	TAP_DONE();
}
