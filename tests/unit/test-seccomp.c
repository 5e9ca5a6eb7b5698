/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The seccomp program shim loads: libseccomp's filter behind the ENOSYS
 * stub, tried in a forked child on the host's kernel. */
#include <errno.h>
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

/* The errno each syscall nr got in a child under the profile, or 0 for
 * success; -1 when the child died or the profile failed. */
static int errno_under(const char *profile, long nr)
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
		long r;

		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		if (seccomp_install(p, -1, NULL, &err) < 0)
			_exit(255);
		r = syscall(nr, 0L, 0L, 0L, 0L, 0L, 0L);
		_exit(r < 0 ? errno : 0);
	}
	seccomp_program_free(p);
	oci_seccomp_release(&s);
	yajl_tree_free(v);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status) == 255 ? -1 : WEXITSTATUS(status);
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

int main(void)
{
	TAP_START();
	RUN(a_syscall_newer_than_the_profile_gets_enosys);
	RUN(an_older_unnamed_syscall_gets_the_default_errno);
	RUN(the_stub_answers_before_a_killing_default);
	RUN(a_profile_naming_a_newer_syscall_moves_the_threshold);
	TAP_DONE();
}
