/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mountfd-flags CALL [cloexec]: open one mount-API fd with CALL (fsopen,
 * fspick, fsmount or open_tree; open_tree clones "/") without, or with,
 * its *_CLOEXEC flag, and print "cloexec" if the fd has FD_CLOEXEC set,
 * "inherit" if not. Exit 0 when it printed, 1 with a message otherwise.
 */
#include <stdio.h>
#include <string.h>

#include "../../shim/syscalls.h"

static int tmpfs_fsmount(unsigned int flags)
{
	int ctx = sys_fsopen("tmpfs", FSOPEN_CLOEXEC);
	int fd;

	if (ctx < 0)
		return -1;
	if (sys_fsconfig(ctx, SHIM_FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		close(ctx);
		return -1;
	}
	fd = sys_fsmount(ctx, flags, 0);
	close(ctx);
	return fd;
}

static int open_with(const char *call, int cloexec)
{
	if (strcmp(call, "fsopen") == 0)
		return sys_fsopen("tmpfs", cloexec ? FSOPEN_CLOEXEC : 0);
	if (strcmp(call, "fspick") == 0)
		return sys_fspick(AT_FDCWD, "/", cloexec ? FSPICK_CLOEXEC : 0);
	if (strcmp(call, "fsmount") == 0)
		return tmpfs_fsmount(cloexec ? FSMOUNT_CLOEXEC : 0);
	if (strcmp(call, "open_tree") == 0)
		return sys_open_tree(AT_FDCWD, "/",
				     OPEN_TREE_CLONE | (cloexec ? OPEN_TREE_CLOEXEC : 0));
	errno = EINVAL;
	return -1;
}

int main(int argc, char **argv)
{
	int cloexec, fd, flags;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "cloexec") != 0)) {
		fprintf(stderr, "usage: mountfd-flags fsopen|fspick|fsmount|open_tree [cloexec]\n");
		return 1;
	}
	cloexec = argc == 3;
	fd = open_with(argv[1], cloexec);
	if (fd < 0) {
		fprintf(stderr, "mountfd-flags: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	flags = fcntl(fd, F_GETFD);
	if (flags < 0) {
		fprintf(stderr, "mountfd-flags: F_GETFD: %s\n", strerror(errno));
		return 1;
	}
	puts(flags & FD_CLOEXEC ? "cloexec" : "inherit");
	return 0;
}
