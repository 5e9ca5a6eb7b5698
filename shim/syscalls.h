/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/syscalls.h: the one place that calls syscall(2) directly.
 *
 * Each wrapper is named sys_<call>, returns what the kernel returns (-1 with
 * errno on failure, like libc), and fails with ENOSYS when the headers this
 * is built against lack the syscall number. Callers decide the fallback;
 * nothing here retries or falls back on its own. The kernel version that
 * introduced each call is noted beside it.
 */
#ifndef SHIM_SYSCALLS_H
#define SHIM_SYSCALLS_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define SHIM_ENOSYS() (errno = ENOSYS, -1)

/* --- the new mount API (5.2), mount_setattr (5.12) --- */

#ifndef FSOPEN_CLOEXEC
#define FSOPEN_CLOEXEC 0x00000001
#endif
#ifndef FSPICK_CLOEXEC
#define FSPICK_CLOEXEC 0x00000001
#define FSPICK_SYMLINK_NOFOLLOW 0x00000002
#define FSPICK_NO_AUTOMOUNT 0x00000004
#define FSPICK_EMPTY_PATH 0x00000008
#endif
#ifndef FSMOUNT_CLOEXEC
#define FSMOUNT_CLOEXEC 0x00000001
#endif
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_SYMLINKS 0x00000001
#define MOVE_MOUNT_F_AUTOMOUNTS 0x00000002
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#define MOVE_MOUNT_T_SYMLINKS 0x00000010
#define MOVE_MOUNT_T_AUTOMOUNTS 0x00000020
#define MOVE_MOUNT_T_EMPTY_PATH 0x00000040
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

/* fsconfig() commands; glibc's sys/mount.h has them as an enum. */
#define SHIM_FSCONFIG_SET_FLAG 0
#define SHIM_FSCONFIG_SET_STRING 1
#define SHIM_FSCONFIG_SET_BINARY 2
#define SHIM_FSCONFIG_SET_PATH 3
#define SHIM_FSCONFIG_SET_PATH_EMPTY 4
#define SHIM_FSCONFIG_SET_FD 5
#define SHIM_FSCONFIG_CMD_CREATE 6
#define SHIM_FSCONFIG_CMD_RECONFIGURE 7

/* mount_setattr() (5.12) */
struct shim_mount_attr {
	uint64_t attr_set;
	uint64_t attr_clr;
	uint64_t propagation;
	uint64_t userns_fd;
};
#define SHIM_MOUNT_ATTR_SIZE_VER0 32

static inline int sys_fsopen(const char *fs_name, unsigned int flags)
{
#ifdef __NR_fsopen
	return (int)syscall(__NR_fsopen, fs_name, flags);
#else
	(void)fs_name, (void)flags;
	return SHIM_ENOSYS();
#endif
}

static inline int sys_fspick(int dfd, const char *path, unsigned int flags)
{
#ifdef __NR_fspick
	return (int)syscall(__NR_fspick, dfd, path, flags);
#else
	(void)dfd, (void)path, (void)flags;
	return SHIM_ENOSYS();
#endif
}

static inline int sys_fsconfig(int fd, unsigned int cmd, const char *key,
			       const void *value, int aux)
{
#ifdef __NR_fsconfig
	return (int)syscall(__NR_fsconfig, fd, cmd, key, value, aux);
#else
	(void)fd, (void)cmd, (void)key, (void)value, (void)aux;
	return SHIM_ENOSYS();
#endif
}

static inline int sys_fsmount(int fs_fd, unsigned int flags, unsigned int attr_flags)
{
#ifdef __NR_fsmount
	return (int)syscall(__NR_fsmount, fs_fd, flags, attr_flags);
#else
	(void)fs_fd, (void)flags, (void)attr_flags;
	return SHIM_ENOSYS();
#endif
}

static inline int sys_move_mount(int from_dfd, const char *from_path, int to_dfd,
				 const char *to_path, unsigned int flags)
{
#ifdef __NR_move_mount
	return (int)syscall(__NR_move_mount, from_dfd, from_path, to_dfd, to_path, flags);
#else
	(void)from_dfd, (void)from_path, (void)to_dfd, (void)to_path, (void)flags;
	return SHIM_ENOSYS();
#endif
}

static inline int sys_open_tree(int dfd, const char *path, unsigned int flags)
{
#ifdef __NR_open_tree
	return (int)syscall(__NR_open_tree, dfd, path, flags);
#else
	(void)dfd, (void)path, (void)flags;
	return SHIM_ENOSYS();
#endif
}

static inline int sys_mount_setattr(int dfd, const char *path, unsigned int flags,
				    struct shim_mount_attr *attr, size_t size)
{
#ifdef __NR_mount_setattr
	return (int)syscall(__NR_mount_setattr, dfd, path, flags, attr, size);
#else
	(void)dfd, (void)path, (void)flags, (void)attr, (void)size;
	return SHIM_ENOSYS();
#endif
}

/* --- pidfd: pidfd_send_signal (5.1), pidfd_open (5.3), pidfd_getfd (5.6) --- */

static inline int sys_pidfd_open(pid_t pid, unsigned int flags)
{
#ifdef __NR_pidfd_open
	return (int)syscall(__NR_pidfd_open, pid, flags);
#else
	(void)pid, (void)flags;
	return SHIM_ENOSYS();
#endif
}

static inline int sys_pidfd_send_signal(int pidfd, int sig, siginfo_t *info,
					unsigned int flags)
{
#ifdef __NR_pidfd_send_signal
	return (int)syscall(__NR_pidfd_send_signal, pidfd, sig, info, flags);
#else
	(void)pidfd, (void)sig, (void)info, (void)flags;
	return SHIM_ENOSYS();
#endif
}

/* --- close_range (5.9; CLOSE_RANGE_CLOEXEC 5.11) --- */

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static inline int sys_close_range(unsigned int first, unsigned int last, unsigned int flags)
{
#ifdef __NR_close_range
	return (int)syscall(__NR_close_range, first, last, flags);
#else
	(void)first, (void)last, (void)flags;
	return SHIM_ENOSYS();
#endif
}

#endif /* SHIM_SYSCALLS_H */
