/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/clone.h"
#include "shim/criu/criu.h"
#include "shim/log.h"
#include "shim/pidfd.h"
#include "shim/syscalls.h"

#define CRIU_MSG_MAX (64 * 1024)
#define FIRST_HIGH_FD 1000

struct child_ctx {
	int sock;
	const int *inherit;
	size_t n_inherit;
};

static void child_fail(const char *what)
{
	char text[300], errno_text[SHIM_ERRNO_TEXT_MAX];

	snprintf(text, sizeof(text), "criu swrk: %s: %s", what,
		 shim_errno_text(errno, errno_text, sizeof(errno_text)));
	log_error(text);
	_exit(127);
}

/* fd 3 the socket, 4... the inherited ones, each without FD_CLOEXEC
 * (dup2 clears it; an fd already in place would keep it, hence the move
 * up first), everything else closed. */
static int criu_child(void *arg)
{
	const struct child_ctx *c = arg;
	size_t n = c->n_inherit + 1;
	int high[64];
	char *argv[] = { "criu", "swrk", "3", NULL };
	sigset_t none;

	if (n > sizeof(high) / sizeof(high[0])) {
		errno = E2BIG;
		child_fail("too many fds to inherit");
	}
	for (size_t i = 0; i < n; i++) {
		high[i] = fcntl(i == 0 ? c->sock : c->inherit[i - 1], F_DUPFD, FIRST_HIGH_FD);
		if (high[i] < 0)
			child_fail("dup");
	}
	for (size_t i = 0; i < n; i++)
		if (dup2(high[i], 3 + (int)i) < 0)
			child_fail("dup2");
	if (sys_close_range(3 + (unsigned int)n, ~0U, 0) < 0)
		child_fail("close_range");
	/* what `restore` in the foreground blocks to forward is criu's again */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], argv);
	child_fail("exec criu (is it installed? Debian's package criu)");
	return 127;
}

static int send_request(int sock, struct bytebuf *req, struct shim_error *err)
{
	ssize_t n = send(sock, req->data, req->len, MSG_NOSIGNAL);

	if (n != (ssize_t)req->len)
		return shim_fail_errno(err, "criu: sending the request");
	return 0;
}

/* One message and the fd that came with it (or -1). 0 at EOF. */
static ssize_t recv_message(int sock, uint8_t *buf, size_t len, int *fd, struct shim_error *err)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int) * 4)];
	} control;
	struct iovec iov = { buf, len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = &control,
			      .msg_controllen = sizeof(control) };
	ssize_t n;

	*fd = -1;
	do
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return shim_fail_errno(err, "criu: reading its answer");
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		size_t count;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < count; i++) {
			int got;

			memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (*fd < 0)
				*fd = got;
			else
				close(got);
		}
	}
	if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
		*fd = safe_close(*fd);
		return shim_fail(err, EMSGSIZE, "criu: an answer longer than %zu bytes", len);
	}
	return n;
}

static const char *type_name(int type)
{
	switch (type) {
	case CRIU_REQ_DUMP: return "dump";
	case CRIU_REQ_RESTORE: return "restore";
	case CRIU_REQ_PRE_DUMP: return "pre-dump";
	case CRIU_REQ_NOTIFY: return "notify";
	case CRIU_REQ_VERSION: return "version";
	case CRIU_REQ_FEATURE_CHECK: return "feature-check";
	default: return "request";
	}
}

static int answer_notify(int sock, struct shim_error *err)
{
	struct bytebuf req;
	int r;

	if (pb_request(&req, CRIU_REQ_NOTIFY, NULL, true) < 0)
		return shim_fail(err, ENOMEM, "criu: encoding a notify answer");
	r = send_request(sock, &req, err);
	bytebuf_free(&req);
	return r;
}

/* Read answers until the final one; notifications go to the callback. */
static int converse(struct criu_call *call, int sock, struct criu_resp *resp,
		    struct shim_error *err)
{
	_cleanup_free_ uint8_t *buf = malloc(CRIU_MSG_MAX);

	if (!buf)
		return shim_fail(err, ENOMEM, "criu: answer buffer");
	for (;;) {
		int fd;
		ssize_t n = recv_message(sock, buf, CRIU_MSG_MAX, &fd, err);

		if (n <= 0)
			return n == 0 ? shim_fail(err, EPIPE, "criu: it exited before answering the "
						  "%s request", type_name(call->type)) : -1;
		if (criu_resp_decode(buf, (size_t)n, resp) < 0) {
			safe_close(fd);
			return shim_fail(err, EPROTO, "criu: an answer that is not a criu_resp");
		}
		if (!resp->success) {
			safe_close(fd);
			return shim_fail(err, resp->cr_errno, "criu %s failed%s%s", type_name(resp->type),
					 resp->cr_errmsg[0] ? ": " : "", resp->cr_errmsg);
		}
		if (resp->type != CRIU_REQ_NOTIFY) {
			safe_close(fd);
			if (resp->type != (int32_t)call->type)
				return shim_fail(err, EPROTO, "criu: a %s answer to a %s request",
						 type_name(resp->type), type_name(call->type));
			return 0;
		}
		log_debug("criu: notify %s (pid %d)", resp->notify_script, (int)resp->notify_pid);
		if (call->notify && call->notify(call->arg, resp, fd, err) < 0)
			return shim_error_wrap(err, "criu notify %s", resp->notify_script);
		if (!call->notify)
			safe_close(fd);
		if (answer_notify(sock, err) < 0)
			return -1;
	}
}

int criu_call(struct criu_call *call, struct criu_resp *resp, struct shim_error *err)
{
	int pair[2];
	_cleanup_close_ int sock = -1, pidfd = -1;
	struct child_ctx ctx = { .inherit = call->inherit, .n_inherit = call->n_inherit };
	struct bytebuf req;
	pid_t pid;
	int status = 0, r;

	memset(resp, 0, sizeof(*resp));
	if (pb_request(&req, call->type, call->opts, false) < 0)
		return shim_fail(err, ENOMEM, "criu: encoding the request");
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0) {
		bytebuf_free(&req);
		return shim_fail_errno(err, "criu: socketpair");
	}
	sock = pair[0];
	ctx.sock = pair[1];
	pid = clone_with_pidfd(0, call->cgroup_fd, criu_child, &ctx, &pidfd, err);
	close(pair[1]);
	if (pid < 0) {
		bytebuf_free(&req);
		return shim_error_wrap(err, "criu: starting criu swrk");
	}
	log_debug("criu swrk %d started for a %s request", (int)pid, type_name(call->type));
	r = call->started ? call->started(call->started_arg, pid, err) : 0;
	if (r == 0)
		r = send_request(sock, &req, err);
	bytebuf_free(&req);
	if (r == 0)
		r = converse(call, sock, resp, err);
	/* criu serves one request: our end closed, it exits (a pre-dump's
	 * criu waits for a next one until then) */
	sock = safe_close(sock);
	if (r < 0)
		pidfd_signal(pidfd, SIGKILL, NULL);
	if (pidfd_reap(pidfd, &status, r < 0 ? NULL : err) < 0 && r == 0)
		return -1;
	if (r == 0 && status != 0 && call->type != CRIU_REQ_PRE_DUMP)
		return shim_fail(err, 0, "criu %s: answered, then exited with status %d",
				 type_name(call->type), status);
	return r;
}

int criu_version(int *version, struct shim_error *err)
{
	struct criu_call call = { .type = CRIU_REQ_VERSION, .cgroup_fd = -1 };
	struct criu_resp resp;

	if (criu_call(&call, &resp, err) < 0)
		return -1;
	if (!resp.has_version)
		return shim_fail(err, EPROTO, "criu: its version answer holds no version");
	*version = resp.major * 10000 + resp.minor * 100 + resp.sublevel;
	return 0;
}

int criu_cg_mode_parse(const char *name)
{
	static const struct { const char *name; int mode; } modes[] = {
		{ "soft", CRIU_CG_SOFT }, { "full", CRIU_CG_FULL },
		{ "strict", CRIU_CG_STRICT }, { "ignore", CRIU_CG_IGNORE },
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(name, modes[i].name) == 0)
			return modes[i].mode;
	return -1;
}
