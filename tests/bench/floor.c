/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * floor ROOTFS ARG...: the least a runtime must ask of the kernel to run
 * ARG in ROOTFS as runc's default spec says, and nothing else: the
 * reference tests/bench/runtimes measures shim, crun and runc against.
 *
 * A cgroup folder below the caller's (cgroup v2) with the device program
 * the default spec's linux.resources.devices (deny all) and the devices
 * every container gets make (shim/cgroups/devices_bpf.c's devices_attach, which
 * shim calls too: runc and crun load one of their own); clone3 into it and into
 * new PID, network, IPC, UTS, mount and cgroup namespaces, with a pidfd;
 * in the child, the loopback interface up (runc and crun bring it up in
 * every network namespace they make), every mount of the default spec
 * through the new mount API (the rootfs bound on itself, proc, /dev tmpfs
 * with its six nodes and links, devpts, shm, mqueue, sysfs, cgroup2, the
 * masked paths, the read-only paths, then the root read-only),
 * pivot_root, the hostname, the rlimit, the capabilities cut to the
 * default three, no_new_privs, close_range, exec; in the parent, waitid
 * on the pidfd, then the folder removed. No config is read, no state
 * written, no check made beyond the syscalls' own: a floor, not a
 * runtime. Exit status: ARG's, or 1xx for a step that failed (said on
 * stderr). With FLOOR_STAGES=1 in the environment, each step's time since
 * the start goes to stderr ("floor: 1.234 ms cgroup"), for a comparison
 * with shim's --debug stages; the clock reads cost a syscall each.
 *
 * On a cgroup v1 host (tests/bench/native on a hybrid one), the folder is
 * made in the devices hierarchy instead, with the same rules written to
 * devices.deny and devices.allow, and the parent joins it for the clone
 * (no CLONE_INTO_CGROUP) and leaves it after.
 */
#include <errno.h>
#include <net/if.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "oci/mount_options.h"
#include "shim/cgroups/devices_bpf.h"
#include "shim/syscalls.h"

static struct timespec started;
static bool staged;

static void stage(const char *what)
{
	struct timespec now;

	if (!staged)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	fprintf(stderr, "floor: %.3f ms %s\n",
		(double)(now.tv_sec - started.tv_sec) * 1e3 +
			(double)(now.tv_nsec - started.tv_nsec) / 1e6, what);
}

#define NS_FLAGS (CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNS | \
		  CLONE_NEWCGROUP)

static void die(const char *what)
{
	fprintf(stderr, "floor: %s: %s\n", what, strerror(errno));
	_exit(120);
}

/* fsopen + options + fsmount + move_mount onto root_fd/where. */
static void new_mount(int root_fd, const char *fs, const char *where, unsigned int attrs,
		      const char *const *opts)
{
	int fs_fd = sys_fsopen(fs, FSOPEN_CLOEXEC), m;

	if (fs_fd < 0)
		die(fs);
	for (; opts && opts[0]; opts += 2)
		if (sys_fsconfig(fs_fd, opts[1] ? SHIM_FSCONFIG_SET_STRING : SHIM_FSCONFIG_SET_FLAG,
				 opts[0], opts[1], 0) < 0)
			die(opts[0]);
	if (sys_fsconfig(fs_fd, SHIM_FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		die(where);
	m = sys_fsmount(fs_fd, FSMOUNT_CLOEXEC, attrs);
	if (m < 0 || sys_move_mount(m, "", root_fd, where, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		die(where);
	close(m);
	close(fs_fd);
}

/* A clone of from (below root_fd, or absolute), attrs set, on root_fd/where. */
static void bind_tree(int from_dir, const char *from, int root_fd, const char *where, uint64_t attrs)
{
	struct shim_mount_attr a = { .attr_set = attrs };
	int t = sys_open_tree(from_dir, from, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);

	if (t < 0)
		die(from);
	if (attrs && sys_mount_setattr(t, "", AT_EMPTY_PATH | AT_RECURSIVE, &a, sizeof(a)) < 0)
		die(where);
	if (sys_move_mount(t, "", root_fd, where, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		die(where);
	close(t);
}

static void make_dev(int root_fd)
{
	static const struct { const char *name; unsigned int major, minor; } nodes[] = {
		{ "dev/null", 1, 3 }, { "dev/zero", 1, 5 }, { "dev/full", 1, 7 },
		{ "dev/random", 1, 8 }, { "dev/urandom", 1, 9 }, { "dev/tty", 5, 0 },
	};
	static const char *const links[][2] = {
		{ "/proc/self/fd", "dev/fd" }, { "/proc/self/fd/0", "dev/stdin" },
		{ "/proc/self/fd/1", "dev/stdout" }, { "/proc/self/fd/2", "dev/stderr" },
		{ "pts/ptmx", "dev/ptmx" }, { "/proc/kcore", "dev/core" },
	};
	static const char *const tmpfs_dev[] = { "mode", "755", "size", "65536k", NULL };
	static const char *const devpts[] = { "newinstance", NULL, "ptmxmode", "0666", "mode",
					       "0620", "gid", "5", NULL };
	static const char *const shm[] = { "mode", "1777", "size", "65536k", NULL };

	new_mount(root_fd, "tmpfs", "dev", MOUNT_ATTR_NOSUID | MOUNT_ATTR_STRICTATIME, tmpfs_dev);
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++)
		if (mknodat(root_fd, nodes[i].name, S_IFCHR | 0666,
			    makedev(nodes[i].major, nodes[i].minor)) < 0)
			die(nodes[i].name);
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		if (symlinkat(links[i][0], root_fd, links[i][1]) < 0)
			die(links[i][1]);
	if (mkdirat(root_fd, "dev/pts", 0755) < 0 || mkdirat(root_fd, "dev/shm", 0755) < 0 ||
	    mkdirat(root_fd, "dev/mqueue", 0755) < 0)
		die("mkdir /dev/*");
	new_mount(root_fd, "devpts", "dev/pts", MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC, devpts);
	new_mount(root_fd, "tmpfs", "dev/shm",
		  MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC | MOUNT_ATTR_NODEV, shm);
	new_mount(root_fd, "mqueue", "dev/mqueue",
		  MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC | MOUNT_ATTR_NODEV, NULL);
}

/* maskedPaths: a folder gets a read-only tmpfs, a file /dev/null. */
static void mask_and_protect(int root_fd)
{
	static const char *const masked[] = {
		"proc/acpi", "proc/asound", "proc/kcore", "proc/keys", "proc/latency_stats",
		"proc/timer_list", "proc/timer_stats", "proc/sched_debug", "sys/firmware",
		"proc/scsi",
	};
	static const char *const readonly[] = {
		"proc/bus", "proc/fs", "proc/irq", "proc/sys", "proc/sysrq-trigger",
	};
	static const char *const ro_tmpfs[] = { "ro", NULL, NULL };
	struct stat st;

	for (size_t i = 0; i < sizeof(masked) / sizeof(masked[0]); i++) {
		if (fstatat(root_fd, masked[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			new_mount(root_fd, "tmpfs", masked[i], MOUNT_ATTR_RDONLY, ro_tmpfs);
		else
			bind_tree(root_fd, "dev/null", root_fd, masked[i], 0);
	}
	for (size_t i = 0; i < sizeof(readonly) / sizeof(readonly[0]); i++)
		if (fstatat(root_fd, readonly[i], &st, AT_SYMLINK_NOFOLLOW) == 0)
			bind_tree(root_fd, readonly[i], root_fd, readonly[i],
			     MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
				     MOUNT_ATTR_NOEXEC);
}

/* The default spec's three capabilities, in every set, the rest dropped. */
static void cut_capabilities(void)
{
	const uint64_t keep = (1ULL << CAP_AUDIT_WRITE) | (1ULL << CAP_KILL) |
			      (1ULL << CAP_NET_BIND_SERVICE);
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = {
		{ (uint32_t)keep, (uint32_t)keep, (uint32_t)keep },
		{ (uint32_t)(keep >> 32), (uint32_t)(keep >> 32), (uint32_t)(keep >> 32) },
	};

	for (int c = 0; c <= CAP_LAST_CAP; c++)
		if (!(keep & (1ULL << c)) && prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0)
			die("PR_CAPBSET_DROP");
	if (sys_capset(&h, d) < 0)
		die("capset");
	for (int c = 0; c <= CAP_LAST_CAP; c++)
		if ((keep & (1ULL << c)) && prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, c, 0, 0) < 0)
			die("PR_CAP_AMBIENT");
}

static void loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		die("lo");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		die("lo up");
	close(s);
}

static int child(const char *rootfs, char **args)
{
	struct shim_mount_attr private = { .propagation = MS_PRIVATE };
	struct shim_mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };
	static const char *const proc_opts[] = { NULL };
	static const char *const ro_opt[] = { "ro", NULL, NULL };
	struct rlimit nofile = { 1024, 1024 };
	int root_fd;

	stage("init: cloned");
	loopback_up();
	stage("init: lo up");
	if (sys_mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &private, sizeof(private)) < 0)
		die("making / private");
	bind_tree(AT_FDCWD, rootfs, AT_FDCWD, rootfs, 0);
	root_fd = open(rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		die(rootfs);
	new_mount(root_fd, "proc", "proc", 0, proc_opts);
	make_dev(root_fd);
	new_mount(root_fd, "sysfs", "sys",
		  MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC | MOUNT_ATTR_NODEV | MOUNT_ATTR_RDONLY, NULL);
	new_mount(root_fd, "cgroup2", "sys/fs/cgroup",
		  MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC | MOUNT_ATTR_NODEV | MOUNT_ATTR_RELATIME |
			  MOUNT_ATTR_RDONLY, ro_opt);
	stage("init: mounts");
	mask_and_protect(root_fd);
	stage("init: masked and read-only paths");
	if (fchdir(root_fd) < 0 || sys_pivot_root(".", ".") < 0 || umount2(".", MNT_DETACH) < 0 ||
	    chdir("/") < 0)
		die("pivot_root");
	if (sys_mount_setattr(AT_FDCWD, "/", 0, &ro, sizeof(ro)) < 0)
		die("root.readonly");
	if (sethostname("floor", 5) < 0 || setrlimit(RLIMIT_NOFILE, &nofile) < 0)
		die("hostname, rlimit");
	cut_capabilities();
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    sys_close_range(3, ~0U, CLOSE_RANGE_UNSHARE) < 0)
		die("no_new_privs, close_range");
	stage("init: exec");
	execvp(args[0], args);
	die(args[0]);
	return 127;
}

/* The default spec's one device rule, then the devices every container
 * gets, as one cgroup device program attached to the folder. */
static void device_program(int cg)
{
	static const struct device_rule deny_all = { .allow = false, .type = 'a', .major = -1,
						     .minor = -1,
						     .access = DEV_ACC_MKNOD | DEV_ACC_READ |
							       DEV_ACC_WRITE };
	struct shim_error err = { 0 };

	if (devices_attach(cg, &deny_all, 1, &err) < 0) {
		errno = err.errnum;
		die(err.msg);
	}
}

/* The caller's folder of hierarchy ctrl ("" for the unified one) from
 * /proc/self/cgroup, into out ("/" where it has none). */
static void own_folder(const char *ctrl, char *out, size_t len)
{
	char line[4096];
	FILE *f = fopen("/proc/self/cgroup", "re");

	char list[512], want[64];

	snprintf(out, len, "/");
	snprintf(want, sizeof(want), ",%s,", ctrl);
	while (f && fgets(line, sizeof(line), f)) {
		char *names = strchr(line, ':'), *path = names ? strchr(names + 1, ':') : NULL;

		if (!path)
			continue;
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		/* the whole name in the comma list: "cpu" is not "cpuset" */
		snprintf(list, sizeof(list), ",%s,", names + 1);
		if (*ctrl ? strstr(list, want) != NULL : names[1] == '\0')
			snprintf(out, len, "%s", path);
	}
	if (f)
		fclose(f);
}

static void write_file(const char *folder, const char *file, const char *text)
{
	char path[4300];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", folder, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		die(path);
	close(fd);
}

/* cgroup v1: the devices folder below own (the caller's devices folder)
 * with deny-all and the default devices, which the caller joins for the
 * clone. */
static void v1_folder(const char *own, char *folder, size_t len)
{
	static const char *const allow[] = { "c 1:3 rwm", "c 1:5 rwm", "c 1:7 rwm", "c 1:8 rwm",
					     "c 1:9 rwm", "c 5:0 rwm", "c 5:2 rwm", "c 136:* rwm" };
	char pid[32];

	snprintf(folder, len, "/sys/fs/cgroup/devices%s/floor-%d", strcmp(own, "/") ? own : "",
		 (int)getpid());
	if (mkdir(folder, 0755) < 0)
		die(folder);
	write_file(folder, "devices.deny", "a");
	for (size_t i = 0; i < sizeof(allow) / sizeof(allow[0]); i++)
		write_file(folder, "devices.allow", allow[i]);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	write_file(folder, "cgroup.procs", pid);
}

int main(int argc, char **argv)
{
	char self[4096] = "", own[4096] = "/", folder[4200];
	bool v1;
	struct shim_clone_args ca = { .flags = NS_FLAGS | CLONE_PIDFD | CLONE_INTO_CGROUP,
				      .exit_signal = SIGCHLD };
	siginfo_t info = { 0 };
	int cg, pidfd = -1;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: floor ROOTFS ARG...\n");
		return 2;
	}
	staged = getenv("FLOOR_STAGES") != NULL;
	clock_gettime(CLOCK_MONOTONIC, &started);
	v1 = access("/sys/fs/cgroup/cgroup.controllers", F_OK) != 0;
	if (v1) {
		own_folder("devices", own, sizeof(own));
		v1_folder(own, folder, sizeof(folder));
		ca.flags &= ~(uint64_t)CLONE_INTO_CGROUP;
		cg = -1;
	} else {
		/* a folder beside our own cgroup ("0::/path") */
		own_folder("", self, sizeof(self));
		*strrchr(self, '/') = '\0';
		snprintf(folder, sizeof(folder), "/sys/fs/cgroup%s/floor-%d", self, (int)getpid());
		if (mkdir(folder, 0755) < 0 ||
		    (cg = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
			die(folder);
		device_program(cg);
		ca.cgroup = (uint64_t)cg;
	}
	stage("cgroup and device program");
	ca.pidfd = (uint64_t)(uintptr_t)&pidfd;
	pid = sys_clone3(&ca, sizeof(ca));
	if (pid < 0)
		die("clone3");
	if (pid == 0)
		return child(argv[1], argv + 2);
	if (v1) {	/* back where we were, so that the folder can go */
		char back[4200], mine[32];

		snprintf(back, sizeof(back), "/sys/fs/cgroup/devices%s", own);
		snprintf(mine, sizeof(mine), "%d", (int)getpid());
		write_file(back, "cgroup.procs", mine);
	}
	stage("init cloned");
	if (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WEXITED) < 0)
		die("waitid");
	stage("the init is gone");
	if (cg >= 0)
		close(cg);
	if (rmdir(folder) < 0)
		die(folder);
	stage("cgroup removed");
	return info.si_code == CLD_EXITED ? info.si_status : 128 + info.si_status;
}
