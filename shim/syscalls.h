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
#include <sys/mount.h>	/* first: glibc's mount-API names win, ours fill gaps */
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "oci/mount_options.h"

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
/* MOUNT_ATTR_*: in oci/mount_options.h, which sorts options into them */
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

/* --- ioprio_set (2.6.13), which glibc does not wrap --- */

#define SHIM_IOPRIO_WHO_PROCESS 1
#define SHIM_IOPRIO_CLASS_SHIFT 13

static inline int sys_ioprio_set(int which, int who, int ioprio)
{
#ifdef __NR_ioprio_set
	return (int)syscall(__NR_ioprio_set, which, who, ioprio);
#else
	(void)which, (void)who, (void)ioprio;
	return SHIM_ENOSYS();
#endif
}

/* --- sched_setattr (3.14), which glibc 2.36 does not wrap --- */

struct shim_sched_attr {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

static inline int sys_sched_setattr(pid_t pid, struct shim_sched_attr *attr, unsigned int flags)
{
#ifdef __NR_sched_setattr
	return (int)syscall(__NR_sched_setattr, pid, attr, flags);
#else
	(void)pid, (void)attr, (void)flags;
	return SHIM_ENOSYS();
#endif
}

/* --- keyctl (2.6.10), which glibc does not wrap (libkeyutils does) --- */

#define SHIM_KEYCTL_GET_KEYRING_ID 0
#define SHIM_KEYCTL_JOIN_SESSION_KEYRING 1
#define SHIM_KEYCTL_SETPERM 5
#define SHIM_KEY_SPEC_SESSION_KEYRING (-3)

static inline long sys_keyctl(int cmd, unsigned long a2, unsigned long a3, unsigned long a4,
			      unsigned long a5)
{
#ifdef __NR_keyctl
	return syscall(__NR_keyctl, cmd, a2, a3, a4, a5);
#else
	(void)cmd, (void)a2, (void)a3, (void)a4, (void)a5;
	return SHIM_ENOSYS();
#endif
}

/* --- execveat (3.19), which fexecve needs /proc for before glibc 2.27 --- */

static inline int sys_execveat(int dfd, const char *path, char *const argv[],
			       char *const envp[], int flags)
{
#ifdef __NR_execveat
	return (int)syscall(__NR_execveat, dfd, path, argv, envp, flags);
#else
	(void)dfd, (void)path, (void)argv, (void)envp, (void)flags;
	return SHIM_ENOSYS();
#endif
}

/* --- memfd_create (3.17; sealing 3.17, MFD_EXEC 6.3) --- */

#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#endif
#ifndef MFD_ALLOW_SEALING
#define MFD_ALLOW_SEALING 0x0002U
#endif
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U	/* 6.3: executable even under vm.memfd_noexec */
#endif

static inline int sys_memfd_create(const char *name, unsigned int flags)
{
#ifdef __NR_memfd_create
	return (int)syscall(__NR_memfd_create, name, flags);
#else
	(void)name, (void)flags;
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

/* --- clone3 (5.3; CLONE_PIDFD 5.2, CLONE_INTO_CGROUP 5.7) --- */

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

struct shim_clone_args {
	uint64_t flags;
	uint64_t pidfd;
	uint64_t child_tid;
	uint64_t parent_tid;
	uint64_t exit_signal;
	uint64_t stack;
	uint64_t stack_size;
	uint64_t tls;
	uint64_t set_tid;
	uint64_t set_tid_size;
	uint64_t cgroup;
};

/* Fork-like when stack is 0: returns 0 in the child, the pid in the parent. */
static inline pid_t sys_clone3(struct shim_clone_args *args, size_t size)
{
#ifdef __NR_clone3
	return (pid_t)syscall(__NR_clone3, args, size);
#else
	(void)args, (void)size;
	return SHIM_ENOSYS();
#endif
}

/* The old clone (x86_64 argument order), fork-like with a NULL stack. */
static inline pid_t sys_clone_forklike(unsigned long flags)
{
	return (pid_t)syscall(__NR_clone, flags, NULL, NULL, NULL, 0);
}

/* --- waitid(P_PIDFD) (5.4) --- */
#ifndef P_PIDFD
#define P_PIDFD 3
#endif

/* --- pivot_root (2.3.41), which glibc does not wrap --- */
static inline int sys_pivot_root(const char *new_root, const char *put_old)
{
	return (int)syscall(__NR_pivot_root, new_root, put_old);
}

/* --- capset (2.2; version 3 headers 2.6.26), which glibc does not wrap --- */
#include <linux/capability.h>

static inline int sys_capset(struct __user_cap_header_struct *hdr,
			     struct __user_cap_data_struct *data)
{
	return (int)syscall(__NR_capset, hdr, data);
}

/* --- openat2 (5.6) --- */
#ifndef RESOLVE_IN_ROOT
#define RESOLVE_NO_XDEV 0x01
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS 0x04
#define RESOLVE_BENEATH 0x08
#define RESOLVE_IN_ROOT 0x10
#endif

struct shim_open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

static inline int sys_openat2(int dfd, const char *path, struct shim_open_how *how, size_t size)
{
#ifdef __NR_openat2
	return (int)syscall(__NR_openat2, dfd, path, how, size);
#else
	(void)dfd, (void)path, (void)how, (void)size;
	return SHIM_ENOSYS();
#endif
}

/* --- bpf (3.18; cgroup device programs 4.15), which glibc does not wrap --- */
#include <linux/bpf.h>

static inline int sys_bpf(int cmd, union bpf_attr *attr, unsigned int size)
{
#ifdef __NR_bpf
	return (int)syscall(__NR_bpf, cmd, attr, size);
#else
	(void)cmd, (void)attr, (void)size;
	return SHIM_ENOSYS();
#endif
}

/* --- seccomp (3.17; NEW_LISTENER 5.0, TSYNC_ESRCH 5.7) --- */
#include <linux/seccomp.h>

#ifndef SECCOMP_FILTER_FLAG_TSYNC_ESRCH
#define SECCOMP_FILTER_FLAG_TSYNC_ESRCH (1UL << 4)
#endif

static inline int sys_seccomp(unsigned int op, unsigned int flags, void *args)
{
#ifdef __NR_seccomp
	return (int)syscall(__NR_seccomp, op, flags, args);
#else
	(void)op, (void)flags, (void)args;
	return SHIM_ENOSYS();
#endif
}

/* --- set_mempolicy (2.6.7; MPOL_PREFERRED_MANY 5.15), glibc leaves it to libnuma --- */

static inline long sys_set_mempolicy(int mode, const unsigned long *nodemask,
				     unsigned long maxnode)
{
#ifdef __NR_set_mempolicy
	return syscall(__NR_set_mempolicy, mode, nodemask, maxnode);
#else
	(void)mode, (void)nodemask, (void)maxnode;
	return SHIM_ENOSYS();
#endif
}

#endif /* SHIM_SYSCALLS_H */
