/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * no-syscall NAME[,NAME...] COMMAND [ARG]...: run COMMAND where the named
 * syscalls fail with ENOSYS, as on a kernel that lacks them. NAME@N=VALUE
 * fails only the calls whose argument N (its low 32 bits) is VALUE. The seccomp
 * filter is inherited by everything COMMAND starts, so the tests can force
 * shim's fallbacks (clone3, close_range, openat2, ...) for real.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct {
	const char *name;
	int nr;
} known[] = {
	{ "clone3", SYS_clone3 },           { "close_range", SYS_close_range },
	{ "openat2", SYS_openat2 },         { "pidfd_open", SYS_pidfd_open },
	{ "pidfd_send_signal", SYS_pidfd_send_signal },
	{ "fsopen", SYS_fsopen },           { "mount_setattr", SYS_mount_setattr },
	{ "open_tree", SYS_open_tree },     { "prctl", SYS_prctl },
	{ "mremap", SYS_mremap },
};

int main(int argc, char **argv)
{
	struct sock_filter f[64];
	unsigned int n = 0, i;
	char names[256], *save = NULL;

	if (argc < 3) {
		fprintf(stderr, "usage: no-syscall NAME[,NAME...] COMMAND [ARG]...\n");
		return 2;
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	snprintf(names, sizeof(names), "%s", argv[1]);
	for (char *name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		char *at = strchr(name, '@');
		unsigned int arg = 0, value = 0;

		if (at) {
			*at = '\0';
			if (sscanf(at + 1, "%u=%i", &arg, (int *)&value) != 2 || arg > 5) {
				fprintf(stderr, "no-syscall: \"%s\": NAME@N=VALUE\n", at + 1);
				return 2;
			}
		}
		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (strcmp(known[i].name, name) == 0)
				break;
		if (i == sizeof(known) / sizeof(known[0]) || n + 6 > 64) {
			fprintf(stderr, "no-syscall: unknown syscall \"%s\"\n", name);
			return 2;
		}
		if (!at) {
			f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)known[i].nr, 0, 1);
			f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
			continue;
		}
		/* that syscall with that argument; then nr again for the rest */
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)known[i].nr, 0, 4);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						      offsetof(struct seccomp_data, args) + 8 * arg);
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

	struct sock_fprog prog = { .len = (unsigned short)n, .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
		perror("no-syscall: seccomp");
		return 2;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
