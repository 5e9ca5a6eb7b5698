/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/payload/seccomp-agent: a seccomp agent for tests.
 *
 *   seccomp-agent SOCKET STATE-FILE ERRNO
 *
 * Listens on SOCKET, takes the container process state and the notify fd
 * the runtime sends (SCM_RIGHTS), writes the state to STATE-FILE, then
 * answers every notified syscall with -ERRNO until the container is gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int receive(int conn, char *state, size_t len)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = state, .iov_len = len - 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	ssize_t n = recvmsg(conn, &msg, 0);
	int fd;

	if (n <= 0 || !(cm = CMSG_FIRSTHDR(&msg)) || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	state[n] = '\0';
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

int main(int argc, char **argv)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	static char state[65536];
	int s, conn, nfd, answer;
	FILE *f;

	if (argc != 4 || strlen(argv[1]) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "usage: seccomp-agent SOCKET STATE-FILE ERRNO\n");
		return 2;
	}
	answer = atoi(argv[3]);
	strcpy(addr.sun_path, argv[1]);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(s, 1) < 0) {
		perror("seccomp-agent: listen");
		return 1;
	}
	conn = accept(s, NULL, NULL);
	nfd = conn < 0 ? -1 : receive(conn, state, sizeof(state));
	if (nfd < 0) {
		fprintf(stderr, "seccomp-agent: no notify fd received\n");
		return 1;
	}
	f = fopen(argv[2], "w");
	if (!f || fputs(state, f) < 0 || fclose(f) != 0)
		return 1;
	for (;;) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;

		memset(&req, 0, sizeof(req));
		if (ioctl(nfd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR)
				continue;
			return 0;	/* ENOENT/EBADF...: the filter's processes are gone */
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.error = -answer;
		ioctl(nfd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}
