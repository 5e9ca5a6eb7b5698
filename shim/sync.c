/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/fd.h"
#include "shim/procfs.h"
#include "shim/sync.h"

int sync_pair(int fds[2], struct shim_error *err)
{
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) < 0)
		return shim_fail_errno(err, "socketpair for the init");
	return 0;
}

int sync_send(int fd, enum sync_type type, const struct shim_error *error)
{
	struct sync_msg msg = { .type = type };
	ssize_t n;

	if (error)
		msg.error = *error;
	do
		n = send(fd, &msg, sizeof(msg), MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(msg) ? 0 : -1;
}

int sync_send_continue(int fd, pid_t pid)
{
	struct sync_msg msg = { .type = SYNC_CONTINUE, .pid = (int)pid };
	ssize_t n;

	do
		n = send(fd, &msg, sizeof(msg), MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(msg) ? 0 : -1;
}

int sync_send_fd(int sock, enum sync_type type, int value, int fd)
{
	struct sync_msg msg = { .type = type, .pid = value };
	struct shim_error ignored;

	return fd_send_with(sock, fd, (const char *)&msg, sizeof(msg), &ignored);
}

/* The fd that came with a message, if any. */
static int passed_fd(struct msghdr *m)
{
	struct cmsghdr *cm = CMSG_FIRSTHDR(m);
	int fd = -1;

	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
	    cm->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

int sync_recv(int fd, struct sync_msg *msg, struct shim_error *err)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = msg, .iov_len = sizeof(*msg) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	ssize_t n;

	do
		n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n == 0)
		return 0;
	if (n < 0)
		return shim_fail_errno(err, "reading from the init");
	msg->fd = passed_fd(&m);
	if (n != (ssize_t)sizeof(*msg) || msg->type < SYNC_READY || msg->type > SYNC_MOUNT_FD ||
	    (m.msg_flags & MSG_CTRUNC)) {
		if (msg->fd >= 0)
			close(msg->fd);
		return shim_fail(err, EPROTO, "bad message on the sync socket");
	}
	msg->error.msg[sizeof(msg->error.msg) - 1] = '\0';
	return 1;
}

int sync_report_setup(int fd, int setup_result, const struct shim_error *err)
{
	if (setup_result < 0) {
		sync_send(fd, SYNC_ERROR, err);
		return -1;
	}
	return sync_send(fd, SYNC_READY, NULL);
}

int sync_expect_either(int sync_fd, enum sync_type want, enum sync_type also,
		       struct sync_msg *msg, struct shim_error *err)
{
	int r = sync_recv(sync_fd, msg, err);

	if (r < 0)
		return -1;
	if (r == 0)
		return shim_fail(err, 0, "the container's init exited during setup");
	if (msg->fd >= 0 && msg->type != SYNC_MOUNT_FD)
		msg->fd = safe_close(msg->fd);
	if (msg->type == SYNC_ERROR) {
		*err = msg->error;
		return -1;
	}
	if (msg->type != want && msg->type != also) {
		safe_close(msg->fd);
		return shim_fail(err, EPROTO, "unexpected message %d on the sync socket", msg->type);
	}
	return 0;
}

int sync_expect(int sync_fd, enum sync_type want, struct sync_msg *msg, struct shim_error *err)
{
	return sync_expect_either(sync_fd, want, want, msg, err);
}

int sync_await_ready(int sync_fd, struct shim_error *err)
{
	struct sync_msg msg;

	return sync_expect(sync_fd, SYNC_READY, &msg, err);
}

int sync_fifo_open_writer(int fd_dir, int fifo, struct shim_error *err)
{
	int out = procfs_reopen(fd_dir, fifo, O_WRONLY, err);

	return out < 0 ? shim_error_wrap(err, "open for writing") : out;
}

int sync_fifo_signal(int out, struct shim_error *err)
{
	if (write(out, "0", 1) != 1)
		return shim_fail_errno(err, "write");
	return 0;
}

int sync_fifo_await_reader(int fd_dir, int fifo, struct shim_error *err)
{
	_cleanup_close_ int out = sync_fifo_open_writer(fd_dir, fifo, err);

	return out < 0 ? -1 : sync_fifo_signal(out, err);
}

/* Poll fifo and the init once, waiting at most timeout_ms (-1: for ever). */
static int poll_both(struct pollfd p[2], int timeout_ms, struct shim_error *err)
{
	while (poll(p, 2, timeout_ms) < 0)
		if (errno != EINTR)
			return shim_fail_errno(err, "start: poll");
	return 0;
}

int sync_fifo_await_exec(int fifo, int pidfd, struct shim_error *err)
{
	struct pollfd p[2] = { { .fd = fifo, .events = POLLIN }, { .fd = pidfd, .events = POLLIN } };

	do {
		if (poll_both(p, -1, err) < 0)
			return -1;
	} while (!(p[0].revents & (POLLHUP | POLLERR)) && !(p[1].revents & POLLIN));
	return 0;
}

int sync_fifo_take(int fifo, int pidfd, unsigned events[2], struct shim_error *err)
{
	struct pollfd p[2] = { { .fd = fifo, .events = POLLIN }, { .fd = pidfd, .events = POLLIN } };
	char byte;

	for (;;) {
		if (poll_both(p, -1, err) < 0)
			return -1;
		if (p[0].revents & POLLIN)
			break;
		if (p[1].revents & POLLIN) {
			/* the init exited: what it wrote before is there now,
			 * whatever the fifo said a moment earlier */
			if (poll_both(p, 0, err) < 0)
				return -1;
			break;
		}
		/* Hang-up without data: the init's open for writing came and
		 * went (a signal interrupted it; it restarts). The hang-up
		 * stays until it is back, so wait on the init a little, then
		 * look at both again. */
		if (poll(&p[1], 1, 10) < 0 && errno != EINTR)
			return shim_fail_errno(err, "start: poll");
	}
	events[0] = (unsigned)p[0].revents;
	events[1] = (unsigned)p[1].revents;
	if (!(p[0].revents & POLLIN))
		return 0;
	if (read(fifo, &byte, 1) != 1)
		return shim_fail_errno(err, "start: read exec.fifo");
	return 1;
}
