/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/payload/recvtty: the other end of --console-socket, for tests.
 *
 *   recvtty SOCKET OUT   listen on SOCKET, take one pty master sent over
 *                        SCM_RIGHTS, write its name line ("received") to
 *                        stdout, then copy what the container writes to
 *                        OUT until the pty closes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int receive_fd(int conn)
{
	char byte, cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(conn, &msg, 0) <= 0 || !(cm = CMSG_FIRSTHDR(&msg)) || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

int main(int argc, char **argv)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int s, conn, master, out;
	char buf[4096];
	ssize_t n;

	if (argc != 3 || strlen(argv[1]) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "usage: recvtty SOCKET OUT\n");
		return 2;
	}
	strcpy(addr.sun_path, argv[1]);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(s, 1) < 0) {
		perror("recvtty: listen");
		return 1;
	}
	/* the socket exists: tell the test it may start the container */
	printf("listening\n");
	fflush(stdout);
	conn = accept(s, NULL, NULL);
	master = conn < 0 ? -1 : receive_fd(conn);
	if (master < 0) {
		fprintf(stderr, "recvtty: no fd received\n");
		return 1;
	}
	printf("received %s\n", isatty(master) ? "a terminal" : "something else");
	fflush(stdout);
	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	while ((n = read(master, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			return 1;
	return 0;
}
