/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/base/strv.h"
#include "oci/mount_options.h"
#include "shim/log.h"
#include "shim/notify.h"
#include "shim/pidfd.h"
#include "shim/signals.h"

#define NOTIFY_IN_CONTAINER "/run/notify"
#define NOTIFY_SOCK "notify.sock"

bool notify_asked(void)
{
	const char *s = getenv("NOTIFY_SOCKET");

	return s && *s;
}

/* The mount of the notify folder, last of the config's. */
static int add_mount(struct oci_spec *spec, const char *source, struct shim_error *err)
{
	static char *const options[] = { "bind", "nosuid", "nodev", "noexec", "ro", NULL };
	struct oci_mount *grown = realloc(spec->mounts, (spec->n_mounts + 1) * sizeof(*grown));
	struct oci_mount *m;

	if (!grown)
		return shim_fail(err, ENOMEM, "NOTIFY_SOCKET");
	spec->mounts = grown;
	m = &spec->mounts[spec->n_mounts];
	*m = (struct oci_mount){ .bind = true };
	spec->n_mounts++;
	m->destination = strdup(NOTIFY_IN_CONTAINER);
	m->type = strdup("bind");
	m->source = strdup(source);
	m->options = strv_copy(options);
	if (!m->destination || !m->type || !m->source || !m->options)
		return shim_fail(err, ENOMEM, "NOTIFY_SOCKET");
	return mount_opts_parse(m->options, "NOTIFY_SOCKET's mount", &m->opts, err);
}

int notify_prepare(int dir_fd, const char *state_dir, struct oci_spec *spec,
		   struct shim_error *err)
{
	char source[PATH_MAX];

	if (mkdirat(dir_fd, NOTIFY_DIR, 0755) < 0)
		return shim_fail_errno(err, "NOTIFY_SOCKET: mkdir %s/%s", state_dir, NOTIFY_DIR);
	if ((size_t)snprintf(source, sizeof(source), "%s/%s", state_dir, NOTIFY_DIR) >= sizeof(source))
		return shim_fail(err, ENAMETOOLONG, "NOTIFY_SOCKET: %s", state_dir);
	if (add_mount(spec, source, err) < 0)
		return -1;
	/* what the config said of NOTIFY_SOCKET replaced */
	if (strv_env_set(&spec->process.env,
			 "NOTIFY_SOCKET=" NOTIFY_IN_CONTAINER "/" NOTIFY_SOCK) < 0)
		return shim_fail(err, ENOMEM, "NOTIFY_SOCKET");
	log_debug("NOTIFY_SOCKET: %s bound at %s in the container", source, NOTIFY_IN_CONTAINER);
	return 0;
}

int notify_listen(int dir_fd, int *out, struct shim_error *err)
{
	_cleanup_close_ int dir = openat(dir_fd, NOTIFY_DIR, O_PATH | O_DIRECTORY | O_NOFOLLOW |
					 O_CLOEXEC);
	_cleanup_close_ int sock = -1;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	*out = -1;
	if (dir < 0 && errno == ENOENT)
		return 0;
	if (dir < 0)
		return shim_fail_errno(err, "NOTIFY_SOCKET: %s", NOTIFY_DIR);
	/* through our fd of the folder, whatever its path: no link followed */
	snprintf(addr.sun_path, sizeof(addr.sun_path), "/proc/self/fd/%d/" NOTIFY_SOCK, dir);
	sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return shim_fail_errno(err, "NOTIFY_SOCKET: socket");
	if (unlinkat(dir, NOTIFY_SOCK, 0) < 0 && errno != ENOENT)
		return shim_fail_errno(err, "NOTIFY_SOCKET: removing the old %s", NOTIFY_SOCK);
	if (bind(sock, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		return shim_fail_errno(err, "NOTIFY_SOCKET: bind %s/%s", NOTIFY_DIR, NOTIFY_SOCK);
	if (fchmodat(dir, NOTIFY_SOCK, 0777, 0) < 0)
		return shim_fail_errno(err, "NOTIFY_SOCKET: chmod %s", NOTIFY_SOCK);
	*out = TAKE_FD(sock);
	return 1;
}

/* The caller's socket: a path, or "@name" in the abstract namespace. */
static int host_address(struct sockaddr_un *addr, socklen_t *len, struct shim_error *err)
{
	const char *s = getenv("NOTIFY_SOCKET");
	size_t n = s ? strlen(s) : 0;

	*addr = (struct sockaddr_un){ .sun_family = AF_UNIX };
	if (!n || n >= sizeof(addr->sun_path))
		return shim_fail(err, EINVAL, "NOTIFY_SOCKET: \"%s\" is no socket address", s ? s : "");
	memcpy(addr->sun_path, s, n);
	if (s[0] == '@')
		addr->sun_path[0] = '\0';
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (s[0] == '@' ? 0 : 1));
	return 0;
}

static bool says_ready(const char *msg, size_t len)
{
	for (const char *p = msg; p < msg + len;) {
		const char *nl = memchr(p, '\n', (size_t)(msg + len - p));

		if (strncmp(p, "READY=", 6) == 0)
			return true;
		if (!nl)
			break;
		p = nl + 1;
	}
	return false;
}

/* One datagram from the container, passed on; 1 when it said READY=. */
static int pass_on(int sock, int out, const struct sockaddr_un *to, socklen_t to_len, pid_t pid,
		   struct shim_error *err)
{
	char msg[4097], mainpid[32];
	ssize_t n = recv(sock, msg, sizeof(msg) - 1, MSG_DONTWAIT);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : shim_fail_errno(err, "NOTIFY_SOCKET: recv");
	msg[n] = '\0';
	if (sendto(out, msg, (size_t)n, MSG_NOSIGNAL, (const struct sockaddr *)to, to_len) < 0)
		return shim_fail_errno(err, "NOTIFY_SOCKET: sending to the caller's socket");
	if (!says_ready(msg, (size_t)n))
		return 0;
	snprintf(mainpid, sizeof(mainpid), "MAINPID=%d\n", (int)pid);
	if (sendto(out, mainpid, strlen(mainpid), MSG_NOSIGNAL, (const struct sockaddr *)to,
		   to_len) < 0)
		return shim_fail_errno(err, "NOTIFY_SOCKET: sending MAINPID");
	log_debug("NOTIFY_SOCKET: READY from the container, MAINPID=%d", (int)pid);
	return 1;
}

int notify_until_ready(int sock, int pidfd, pid_t pid, struct shim_error *err)
{
	_cleanup_close_ int out = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0), sfd = -1;
	struct sockaddr_un to;
	socklen_t to_len = 0;
	sigset_t set;

	if (out < 0)
		return shim_fail_errno(err, "NOTIFY_SOCKET: socket");
	if (host_address(&to, &to_len, err) < 0)
		return -1;
	signals_forwarded(&set);
	sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	for (;;) {
		struct pollfd p[3] = {
			{ .fd = sock, .events = POLLIN },
			{ .fd = pidfd, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};
		struct signalfd_siginfo si;
		int r;

		if (poll(p, sfd >= 0 ? 3 : 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return shim_fail_errno(err, "NOTIFY_SOCKET: poll");
		}
		if (p[0].revents && (r = pass_on(sock, out, &to, to_len, pid, err)) != 0)
			return r < 0 ? -1 : 0;
		/* what it sent before it exited was read first */
		if (p[1].revents && !p[0].revents)
			return 0;
		if (sfd >= 0 && p[2].revents && read(sfd, &si, sizeof(si)) == sizeof(si))
			pidfd_signal(pidfd, (int)si.ssi_signo, NULL);
	}
}
