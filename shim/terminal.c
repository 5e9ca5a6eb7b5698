/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/fd.h"
#include "shim/filesystem/mount.h"
#include "shim/fsutil.h"
#include "shim/pidfd.h"
#include "shim/signals.h"
#include "shim/syscalls.h"
#include "shim/terminal.h"

#ifndef TIOCGPTPEER
#define TIOCGPTPEER _IO('T', 0x41)
#endif

int terminal_socket(bool terminal, const char *console_socket, int fds[2], struct shim_error *err)
{
	fds[0] = fds[1] = -1;
	if (!terminal)
		return 0;
	if (console_socket) {
		fds[1] = fd_connect_unix(console_socket, "--console-socket", err);
		return fds[1] < 0 ? -1 : 0;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
		return shim_fail_errno(err, "process.terminal: socketpair");
	return 0;
}

/* A pty node of the container's /dev, opened from its root with no magic
 * link followed (a /dev/ptmx the image made a link to /proc/self/fd/N
 * would open one of the runtime's fds) and checked to be a device. */
static int open_pty_node(const char *path, struct shim_error *err)
{
	_cleanup_close_ int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	int fd;

	if (root < 0)
		return shim_fail_errno(err, "process.terminal: open /");
	fd = openat2_retry(root, path, O_RDWR | O_NOCTTY, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
	if (fd < 0)
		return shim_fail_errno(err, "process.terminal: open %s in the container", path);
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode)) {
		close(fd);
		return shim_fail(err, EPERM, "process.terminal: %s in the container is not a device",
				 path);
	}
	return fd;
}

/* The slave of master: TIOCGPTPEER (4.13) needs no path; else ptsname. */
static int open_slave(int master, struct shim_error *err)
{
	char name[64];
	int fd = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	if (ptsname_r(master, name, sizeof(name)) != 0)
		return shim_fail_errno(err, "process.terminal: ptsname");
	return open_pty_node(name, err);
}

/* The target for /dev/console: what is there if it is a file or a device
 * (never through a link), else a new empty file (O_EXCL | O_NOFOLLOW). */
static int console_target(struct shim_error *err)
{
	_cleanup_close_ int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), dev = -1;
	struct stat st;
	int fd;

	if (root < 0)
		return shim_fail_errno(err, "open /");
	dev = openat2_retry(root, "/dev", O_PATH | O_DIRECTORY,
			    RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
	if (dev < 0)
		return shim_fail_errno(err, "open /dev without following links");
	fd = openat(dev, "console", O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		fd = openat(dev, "console", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY |
			    O_CLOEXEC, 0600);
	if (fd < 0)
		return shim_fail_errno(err, "/dev/console");
	if (fstat(fd, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode))) {
		close(fd);
		return shim_fail(err, EPERM, "/dev/console is not a file or a device (a link, a "
				 "folder): refusing to mount over it");
	}
	return fd;
}

/* The init's pty slave bound on /dev/console, as runc does (CVE-2025-52565:
 * the target is checked, no link on the way followed, and the bind made
 * onto that very fd). */
static int mount_console(int slave, struct shim_error *err)
{
	_cleanup_close_ int target = console_target(err), tree = -1;

	if (target < 0)
		return shim_error_wrap(err, "process.terminal");
	tree = mount_clone_tree(slave, "", false, err);
	if (tree < 0 || mount_attach(tree, target, "", err) < 0)
		return shim_error_wrap(err, "process.terminal: binding the pty on /dev/console");
	return 0;
}

int terminal_setup(int sock, const struct oci_process *p, bool console, struct shim_error *err)
{
	_cleanup_close_ int master = open_pty_node("/dev/ptmx", err);
	int slave, unlock = 0;

	if (master < 0)
		return -1;
	if (ioctl(master, TIOCSPTLCK, &unlock) < 0)
		return shim_fail_errno(err, "process.terminal: unlocking the pty");
	slave = open_slave(master, err);
	if (slave < 0)
		return -1;
	if (p->has_console_size) {
		struct winsize ws = { .ws_row = p->console_rows, .ws_col = p->console_cols };

		if (ioctl(slave, TIOCSWINSZ, &ws) < 0) {
			close(slave);
			return shim_fail_errno(err, "process.consoleSize");
		}
	}
	/* the process's user owns its terminal (the group stays devpts's gid=,
	 * tty), as with runc: a non-root process can then use it fully */
	if (fchown(slave, p->user.uid, (gid_t)-1) < 0) {
		close(slave);
		return shim_fail_errno(err, "process.terminal: chown of the pty to process.user.uid %u",
				       (unsigned)p->user.uid);
	}
	if (console && mount_console(slave, err) < 0) {
		close(slave);
		return -1;
	}
	if (fd_send(sock, master, err) < 0) {
		close(slave);
		return shim_error_wrap(err, "process.terminal: sending the pty master");
	}
	/* the caller leads a new session already (init and exec: setsid) */
	if (ioctl(slave, TIOCSCTTY, 0) < 0) {
		close(slave);
		return shim_fail_errno(err, "process.terminal: making the pty the controlling terminal");
	}
	for (int fd = 0; fd < 3; fd++)
		if (dup2(slave, fd) < 0) {
			close(slave);
			return shim_fail_errno(err, "process.terminal: dup2");
		}
	if (slave > 2)
		close(slave);
	return 0;
}

static void copy_size(int from, int to)
{
	struct winsize ws;

	if (ioctl(from, TIOCGWINSZ, &ws) == 0)
		ioctl(to, TIOCSWINSZ, &ws);
}

/* Move what is there from one fd to another; false at EOF or error. */
static bool pump(int from, int to)
{
	char buf[4096];
	ssize_t n = read(from, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	for (ssize_t off = 0; off < n;) {
		ssize_t w = write(to, buf + off, (size_t)(n - off));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return true;	/* the other side went away: drop, keep draining */
		off += w;
	}
	return true;
}

static int proxy_loop(int master, int pidfd, int sfd, int *status, struct shim_error *err)
{
	bool in_open = true, master_open = true;

	for (;;) {
		struct pollfd p[4] = {
			{ .fd = pidfd, .events = POLLIN },
			{ .fd = master_open ? master : -1, .events = POLLIN },
			{ .fd = in_open ? STDIN_FILENO : -1, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};
		struct signalfd_siginfo si;

		if (poll(p, 4, -1) < 0) {
			if (errno == EINTR)
				continue;
			return shim_fail_errno(err, "terminal: poll");
		}
		if (p[1].revents)
			master_open = pump(master, STDOUT_FILENO);
		if (p[2].revents)
			in_open = pump(STDIN_FILENO, master);
		if (p[3].revents && read(sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGWINCH)
				copy_size(STDIN_FILENO, master);
			else
				pidfd_signal(pidfd, (int)si.ssi_signo, NULL);
		}
		/* drain what the program wrote before it exited, then reap */
		if (p[0].revents && !(p[1].revents & POLLIN))
			return pidfd_reap(pidfd, status, err);
	}
}

int terminal_proxy(int master, int pidfd, int *status, struct shim_error *err)
{
	struct termios saved, raw;
	bool restore = false;
	_cleanup_close_ int sfd = -1;
	sigset_t set;
	int r;

	signals_forwarded(&set);
	sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (sfd < 0)
		return shim_fail_errno(err, "signalfd");
	if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved) == 0) {
		raw = saved;
		cfmakeraw(&raw);
		restore = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0;
		copy_size(STDIN_FILENO, master);
	}
	r = proxy_loop(master, pidfd, sfd, status, err);
	if (restore)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	return r;
}
