/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/fsutil.h"
#include "shim/procfs.h"
#include "shim/syscalls.h"

static int handle = -1;

bool procfs_is(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC;
}

/* A new procfs instance, mounted nowhere. */
static int fresh_instance(void)
{
	_cleanup_close_ int fs = sys_fsopen("proc", FSOPEN_CLOEXEC);

	if (fs < 0 || sys_fsconfig(fs, SHIM_FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return -1;
	return sys_fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
			   MOUNT_ATTR_NOEXEC);
}

int procfs_fd(struct shim_error *err)
{
	int fd;

	if (handle >= 0)
		return handle;
	fd = fresh_instance();
	/* refused (a user namespace that does not own our PID namespace) */
	if (fd < 0)
		fd = open("/proc", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return shim_fail_errno(err, "opening procfs");
	if (!procfs_is(fd)) {
		close(fd);
		return shim_fail(err, EXDEV, "/proc is not procfs");
	}
	handle = fd;
	return fd;
}

/* path below the handle: no link, no other mount on the way; on procfs. */
static int open_below(const char *path, int flags, struct shim_error *err)
{
	int proc = procfs_fd(err), fd;

	if (proc < 0)
		return -1;
	fd = openat2_retry(proc, path, flags | O_NOFOLLOW | O_NOCTTY,
			   RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV);
	if (fd < 0)
		return shim_fail_errno(err, "open /proc/%s", path);
	if (!procfs_is(fd)) {
		close(fd);
		return shim_fail(err, EXDEV, "/proc/%s is not on procfs", path);
	}
	return fd;
}

int procfs_write(const char *path, const char *text, struct shim_error *err)
{
	_cleanup_close_ int fd = open_below(path, O_WRONLY, err);

	if (fd < 0)
		return -1;
	if (write_all(fd, text) < 0)
		return shim_fail_errno(err, "writing /proc/%s", path);
	return 0;
}

/* Our PID as the handle's instance numbers it ("self" is a symlink the
 * scoped walks refuse); -1 with err filled. */
static int self_pid(int proc, struct shim_error *err)
{
	char pid[32];
	ssize_t n = readlinkat(proc, "self", pid, sizeof(pid) - 1);

	if (n <= 0)
		return shim_fail_errno(err, "readlink /proc/self");
	pid[n] = '\0';
	return atoi(pid);
}

#define SELF 0	/* for below_pid: the calling process */
#define BELOW_MAX 96

/* "PID/file" below the handle, for pid or, given SELF, for us as the
 * handle's instance numbers us. */
static int below_pid(char path[BELOW_MAX], int pid, const char *file, struct shim_error *err)
{
	if (pid == SELF) {
		int proc = procfs_fd(err);

		pid = proc < 0 ? -1 : self_pid(proc, err);
		if (pid < 0)
			return -1;
	}
	return path_format(path, BELOW_MAX, err, "%d/%s", pid, file);
}

int procfs_write_pid(int pid, const char *file, const char *text, struct shim_error *err)
{
	char path[BELOW_MAX];

	return below_pid(path, pid, file, err) < 0 ? -1 : procfs_write(path, text, err);
}

int procfs_write_self(const char *file, const char *text, struct shim_error *err)
{
	return procfs_write_pid(SELF, file, text, err);
}

int procfs_open_self(const char *file, int flags, struct shim_error *err)
{
	char path[BELOW_MAX];

	return below_pid(path, SELF, file, err) < 0 ? -1 : open_below(path, flags | O_CLOEXEC, err);
}

int procfs_open_self_ns(const char *name, struct shim_error *err)
{
	return procfs_open_pid_ns(SELF, name, err);
}

/* A magic link below the handle (ns/NAME, fd/N), which a scoped openat2
 * refuses: the handle is ours, with nothing mounted in it, so a plain
 * openat is safe, and the caller checks what it got. */
static int open_magic(int pid, const char *file, int flags, char path[BELOW_MAX],
		      struct shim_error *err)
{
	int proc = procfs_fd(err), fd;

	if (proc < 0 || below_pid(path, pid, file, err) < 0)
		return -1;
	fd = openat(proc, path, flags | O_CLOEXEC);
	if (fd < 0)
		return shim_fail_errno(err, "open /proc/%s", path);
	return fd;
}

int procfs_open_pid_ns(int pid, const char *name, struct shim_error *err)
{
	char file[64], path[BELOW_MAX];
	struct statfs sf;
	int fd;

	if (path_format(file, sizeof(file), err, "ns/%s", name) < 0 ||
	    (fd = open_magic(pid, file, O_RDONLY, path, err)) < 0)
		return -1;
	if (fstatfs(fd, &sf) < 0 || sf.f_type != NSFS_MAGIC) {
		close(fd);
		return shim_fail(err, EXDEV, "/proc/%s is not a namespace", path);
	}
	return fd;
}

void procfs_release(void)
{
	if (handle >= 0)
		close(handle);
	handle = -1;
}

int procfs_reopen(int fd_dir, int fd, int flags, struct shim_error *err)
{
	char name[16];
	struct stat want, got;
	int out;

	snprintf(name, sizeof(name), "%d", fd);
	out = openat(fd_dir, name, flags | O_CLOEXEC);
	if (out < 0)
		return shim_fail_errno(err, "reopening fd %d through /proc/self/fd", fd);
	if (fstat(fd, &want) < 0 || fstat(out, &got) < 0 || want.st_dev != got.st_dev ||
	    want.st_ino != got.st_ino) {
		close(out);
		return shim_fail(err, EXDEV, "reopening fd %d through /proc: another file", fd);
	}
	return out;
}
