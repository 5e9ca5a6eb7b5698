/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

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

int sync_recv(int fd, struct sync_msg *msg, struct shim_error *err)
{
	ssize_t n;

	do
		n = recv(fd, msg, sizeof(*msg), 0);
	while (n < 0 && errno == EINTR);
	if (n == 0)
		return 0;
	if (n < 0)
		return shim_fail_errno(err, "reading from the init");
	if (n != (ssize_t)sizeof(*msg) || msg->type < SYNC_READY || msg->type > SYNC_CONTINUE)
		return shim_fail(err, EPROTO, "bad message from the init");
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

int sync_expect(int sync_fd, enum sync_type want, struct sync_msg *msg, struct shim_error *err)
{
	int r = sync_recv(sync_fd, msg, err);

	if (r < 0)
		return -1;
	if (r == 0)
		return shim_fail(err, 0, "the container's init exited during setup");
	if (msg->type == SYNC_ERROR) {
		*err = msg->error;
		return -1;
	}
	if (msg->type != want)
		return shim_fail(err, EPROTO, "unexpected message %d from the init", msg->type);
	return 0;
}

int sync_await_ready(int sync_fd, struct shim_error *err)
{
	struct sync_msg msg;

	return sync_expect(sync_fd, SYNC_READY, &msg, err);
}
