/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sd-notify MSG...: send each MSG as one datagram to $NOTIFY_SOCKET (a
 * path, or "@name" in the abstract namespace), as sd_notify(3) does; what
 * a service in the container says to systemd. Exit 0 once all are sent.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	size_t n = path ? strlen(path) : 0;
	socklen_t len;
	int fd;

	if (!n || n >= sizeof(addr.sun_path)) {
		fprintf(stderr, "sd-notify: no NOTIFY_SOCKET\n");
		return 2;
	}
	memcpy(addr.sun_path, path, n);
	if (path[0] == '@')
		addr.sun_path[0] = '\0';
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (path[0] == '@' ? 0 : 1));
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	for (int i = 1; fd >= 0 && i < argc; i++)
		if (sendto(fd, argv[i], strlen(argv[i]), 0, (struct sockaddr *)&addr, len) < 0) {
			perror("sd-notify: sendto");
			return 1;
		}
	return fd < 0 ? 1 : 0;
}
