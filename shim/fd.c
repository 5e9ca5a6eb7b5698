/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/fd.h"
#include "shim/syscalls.h"

static bool kept(long fd, const int *keep, size_t n_keep)
{
	for (size_t i = 0; i < n_keep; i++)
		if (keep[i] == fd)
			return true;
	return false;
}

int fd_close_listed(int dir_fd, unsigned int first, const int *keep, size_t n_keep,
		    struct shim_error *err)
{
	DIR *d = fdopendir(dir_fd);
	struct dirent *e;

	if (!d) {
		close(dir_fd);
		return shim_fail_errno(err, "closing fds: reading the fd folder");
	}
	while ((e = readdir(d))) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);

		if (*end || e->d_name[0] == '.' || fd < (long)first || fd == dirfd(d) ||
		    kept(fd, keep, n_keep))
			continue;
		close((int)fd);
	}
	closedir(d);
	return 0;
}

int fd_close_from_proc(unsigned int first, struct shim_error *err)
{
	int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dir < 0)
		return shim_fail_errno(err, "closing fds: open /proc/self/fd");
	return fd_close_listed(dir, first, NULL, 0, err);
}

/* close_range's fallback: what a dup of fd_dir (our fd folder) lists. */
static int close_as_listed(int fd_dir, unsigned int first, const int *keep, size_t n_keep,
			   struct shim_error *err)
{
	int dir = fcntl(fd_dir, F_DUPFD_CLOEXEC, 0);

	if (dir < 0)
		return shim_fail_errno(err, "closing fds: dup of the fd folder");
	return fd_close_listed(dir, first, keep, n_keep, err);
}

int fd_close_from(int fd_dir, unsigned int first, struct shim_error *err)
{
	if (sys_close_range(first, ~0U, 0) == 0)
		return 0;
	if (fd_dir < 0 && errno == ENOSYS)
		return fd_close_from_proc(first, err);
	if (fd_dir < 0 || (errno != ENOSYS && errno != EPERM))
		return shim_fail_errno(err, "close_range(%u, ~0U)", first);
	return close_as_listed(fd_dir, first, NULL, 0, err);
}

/* The kept fds from first up, sorted, each once. */
static size_t sorted_keep(unsigned int first, const int *keep, size_t n_keep, unsigned int *out)
{
	size_t n = 0;

	for (size_t i = 0; i < n_keep; i++) {
		size_t j;

		if (keep[i] < 0 || (unsigned int)keep[i] < first)
			continue;
		for (j = n; j > 0 && out[j - 1] >= (unsigned int)keep[i]; j--)
			;
		if (j < n && out[j] == (unsigned int)keep[i])
			continue;
		memmove(out + j + 1, out + j, (n - j) * sizeof(*out));
		out[j] = (unsigned int)keep[i];
		n++;
	}
	return n;
}

int fd_close_sparing(int fd_dir, unsigned int first, const int *keep, size_t n_keep,
		     struct shim_error *err)
{
	unsigned int sorted[FD_MAX_KEEP], from = first;
	size_t n;

	if (n_keep > FD_MAX_KEEP)
		return shim_fail(err, E2BIG, "closing fds: more than %d to keep", FD_MAX_KEEP);
	n = sorted_keep(first, keep, n_keep, sorted);
	for (size_t i = 0; i <= n; i++) {
		unsigned int to = i < n ? sorted[i] : 0;

		if (i < n && to == from) {	/* nothing between two kept fds */
			from = to + 1;
			continue;
		}
		if (sys_close_range(from, i < n ? to - 1 : ~0U, 0) < 0)
			goto listed;
		from = to + 1;
	}
	return 0;
listed:
	if (errno != ENOSYS && errno != EPERM)
		return shim_fail_errno(err, "close_range(%u, ...)", from);
	return close_as_listed(fd_dir, first, keep, n_keep, err);
}

bool fd_have_close_range(void)
{
	/* an empty range: closes nothing where the call exists */
	return sys_close_range(~0U, ~0U, 0) == 0 || errno != ENOSYS;
}

int fd_check_preserved(unsigned int n, struct shim_error *err)
{
	for (unsigned int fd = 3; fd < 3 + n; fd++)
		if (fcntl((int)fd, F_GETFD) < 0)
			return shim_fail_errno(err, "--preserve-fds %u: fd %u (preserved-fd %u) is not open",
					       n, fd, fd - 3);
	return 0;
}

int fd_check_passed(unsigned int listen, unsigned int preserve, struct shim_error *err)
{
	unsigned int first = 3 + listen;

	if (!listen)
		return fd_check_preserved(preserve, err);
	for (unsigned int fd = 3; fd < first + preserve; fd++)
		if (fcntl((int)fd, F_GETFD) < 0)
			return fd < first
				? shim_fail_errno(err, "LISTEN_FDS %u: fd %u is not open", listen, fd)
				: shim_fail_errno(err, "--preserve-fds %u: fd %u (preserved-fd %u) is not "
						  "open", preserve, fd, fd - 3);
	return 0;
}

int fd_pass_preserved(unsigned int n, struct shim_error *err)
{
	for (unsigned int fd = 3; fd < 3 + n; fd++) {
		int flags = fcntl((int)fd, F_GETFD);

		if (flags < 0 || fcntl((int)fd, F_SETFD, flags & ~FD_CLOEXEC) < 0)
			return shim_fail_errno(err, "--preserve-fds: fd %u", fd);
	}
	return 0;
}

int fd_send(int sock, int fd, struct shim_error *err)
{
	return fd_send_with(sock, fd, "", 1, err);
}

int fd_send_with(int sock, int fd, const char *data, size_t len, struct shim_error *err)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	/* sendmsg only reads the buffer; iovec has no const member */
	union {
		const void *in;
		void *base;
	} bytes = { .in = data };
	struct iovec iov = { .iov_base = bytes.base, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (sendmsg(sock, &msg, MSG_NOSIGNAL) < 0)
		return shim_fail_errno(err, "sending an fd");
	return 0;
}

int fd_recv(int sock, struct shim_error *err)
{
	char byte, cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	ssize_t n;
	int fd;

	do
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return shim_fail_errno(err, "receiving an fd");
	cm = CMSG_FIRSTHDR(&msg);
	if (n == 0 || !cm || cm->cmsg_type != SCM_RIGHTS || cm->cmsg_len != CMSG_LEN(sizeof(int)))
		return shim_fail(err, EPROTO, "receiving an fd: none came");
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

int fd_connect_unix(const char *path, const char *what, struct shim_error *err)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int s;

	if (strlen(path) >= sizeof(addr.sun_path))
		return shim_fail(err, ENAMETOOLONG, "%s %s", what, path);
	strcpy(addr.sun_path, path);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return shim_fail_errno(err, "%s: socket", what);
	if (connect(s, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		shim_fail_errno(err, "%s: connect %s", what, path);
		close(s);
		return -1;
	}
	return s;
}

void fd_close_pair(int fds[2])
{
	fds[0] = safe_close(fds[0]);
	fds[1] = safe_close(fds[1]);
}
