/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/payload/seccomp-agent: a seccomp agent for tests.
 *
 *   seccomp-agent SOCKET STATE-FILE ERRNO [CONNECTIONS]
 *
 * Listens on SOCKET for CONNECTIONS runtimes (default 1: the init; one
 * more for each exec), each in a child of its own: takes the container
 * process state and the notify fd the runtime sends (SCM_RIGHTS), writes
 * the state to STATE-FILE (STATE-FILE.N for the N-th connection after the
 * first), then answers every notified syscall with -ERRNO until that
 * filter's processes are gone (its fd polls POLLHUP). Exits once they all
 * are.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
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

/* One runtime's connection: its state to path, then its notifications. */
static int serve(int conn, const char *path, int answer)
{
	static char state[65536];
	int nfd = receive(conn, state, sizeof(state));
	FILE *f;

	if (nfd < 0) {
		fprintf(stderr, "seccomp-agent: no notify fd received\n");
		return 1;
	}
	f = fopen(path, "w");
	if (!f || fputs(state, f) < 0 || fclose(f) != 0)
		return 1;
	for (;;) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;
		struct pollfd p = { .fd = nfd, .events = POLLIN };

		/* POLLHUP: the filter's processes are gone (RECV would wait on) */
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			return 1;
		if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
			return 0;
		if (!(p.revents & POLLIN))
			continue;
		memset(&req, 0, sizeof(req));
		if (ioctl(nfd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR)
				continue;
			return 0;	/* ENOENT: its process died meanwhile */
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.error = -answer;
		ioctl(nfd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int s, answer, n, failed = 0, status;

	if (argc < 4 || argc > 5 || strlen(argv[1]) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "usage: seccomp-agent SOCKET STATE-FILE ERRNO [CONNECTIONS]\n");
		return 2;
	}
	answer = atoi(argv[3]);
	n = argc == 5 ? atoi(argv[4]) : 1;
	strcpy(addr.sun_path, argv[1]);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(s, n) < 0) {
		perror("seccomp-agent: listen");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		int conn = accept(s, NULL, NULL);
		char path[4096];

		if (conn < 0)
			return 1;
		if (i == 0)
			snprintf(path, sizeof(path), "%s", argv[2]);
		else
			snprintf(path, sizeof(path), "%s.%d", argv[2], i);
		if (fork() == 0)
			_exit(serve(conn, path, answer));
		close(conn);
	}
	close(s);
	while (wait(&status) > 0)
		failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	return failed;
}
