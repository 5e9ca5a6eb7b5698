/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/base/clock.h"
#include "oci/state.h"
#include "shim/clone.h"
#include "shim/fd.h"
#include "shim/hooks.h"
#include "shim/log.h"
#include "shim/pidfd.h"

#define OUTPUT_KEPT 1024

extern char **environ;

struct hook_child {
	const struct oci_hook *hook;
	int in, out;		/* the child's ends */
	int fd_dir;		/* for fd_close_from, or -1 */
	pid_t runtime;		/* its parent */
};

static int hook_main(void *arg)
{
	struct hook_child *c = arg;
	char *default_args[] = { c->hook->path, NULL };
	struct shim_error err = { 0 };
	char text[512];
	sigset_t none;

	/* A runtime killed while its hook runs takes the hook along (kept
	 * across execve): nothing is left running that nobody waits for. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != c->runtime)
		return 127;
	if (dup2(c->in, STDIN_FILENO) < 0 || dup2(c->out, STDOUT_FILENO) < 0 ||
	    dup2(c->out, STDERR_FILENO) < 0)
		return 127;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (fd_close_from(c->fd_dir, 3, &err) < 0) {
		dprintf(STDERR_FILENO, "%s", shim_error_text(&err, text, sizeof(text)));
		return 127;
	}
	execve(c->hook->path, c->hook->args ? c->hook->args : default_args,
	       c->hook->env ? c->hook->env : environ);
	dprintf(STDERR_FILENO, "exec: %s", shim_errno_text(errno, text, sizeof(text)));
	return 127;
}

/* Collect the hook's output until it exits or its time is up; 1 if it
 * exited, 0 on timeout. */
static int watch(int pidfd, int out, unsigned int timeout_s, char *kept, size_t len)
{
	long deadline = timeout_s ? clock_ms() + timeout_s * 1000L : -1;
	size_t got = 0;

	for (;;) {
		struct pollfd p[2] = { { .fd = pidfd, .events = POLLIN }, { .fd = out, .events = POLLIN } };
		long left = deadline < 0 ? -1 : deadline - clock_ms();
		char buf[512];
		ssize_t n;

		if (deadline >= 0 && left <= 0)
			return 0;
		if (poll(p, out >= 0 ? 2 : 1, (int)left) < 0 && errno != EINTR)
			return 0;
		if (out >= 0 && (p[1].revents & (POLLIN | POLLHUP))) {
			n = read(out, buf, sizeof(buf));
			if (n <= 0)
				out = -1;	/* EOF: keep waiting for the exit */
			for (ssize_t i = 0; i < n && got + 1 < len; i++)
				kept[got++] = buf[i];
			kept[got] = '\0';
		}
		if (p[0].revents & POLLIN)
			return 1;
	}
}

static void tidy_output(char *text)
{
	size_t n = strlen(text);

	while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
		text[--n] = '\0';
	for (char *p = text; *p; p++)
		if (*p == '\n')
			*p = ' ';
}

/* "bad system call": strsignal's text as runc's errors say it */
static const char *signal_text(int sig, char *text, size_t len)
{
	snprintf(text, len, "%s", strsignal(sig));
	text[0] = (char)tolower((unsigned char)text[0]);
	return text;
}

int hooks_run_one(const struct oci_hook *hook, const char *where, const char *state,
		  int fd_dir, struct shim_error *err)
{
	int in[2], out[2], status = 0, pidfd = -1;
	char kept[OUTPUT_KEPT] = "", sig[64];
	struct hook_child c = { .hook = hook, .runtime = getpid(), .fd_dir = fd_dir };
	bool exited;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) < 0)
		return shim_fail_errno(err, "%s: socketpair", where);
	if (pipe2(out, O_CLOEXEC) < 0) {
		close(in[0]), close(in[1]);
		return shim_fail_errno(err, "%s: pipe", where);
	}
	c.in = in[1];
	c.out = out[1];
	if (clone_with_pidfd(0, -1, hook_main, &c, &pidfd, err) < 0) {
		close(in[0]), close(in[1]), close(out[0]), close(out[1]);
		return shim_error_wrap(err, "%s", where);
	}
	close(in[1]);
	close(out[1]);
	/* a hook that does not read its state must not block us */
	fcntl(in[0], F_SETFL, O_NONBLOCK);
	if (send(in[0], state, strlen(state), MSG_NOSIGNAL) < 0 && errno != EAGAIN && errno != EPIPE) {
		char text[SHIM_ERRNO_TEXT_MAX];

		log_debug("%s: writing the state: %s", where, shim_errno_text(errno, text, sizeof(text)));
	}
	close(in[0]);
	exited = watch(pidfd, out[0], hook->timeout, kept, sizeof(kept)) == 1;
	close(out[0]);
	if (!exited)
		pidfd_signal(pidfd, SIGKILL, NULL);
	pidfd_reap(pidfd, &status, NULL);
	close(pidfd);
	tidy_output(kept);
	if (!exited)
		return shim_fail(err, ETIMEDOUT, "%s (%s): timed out after %u s", where, hook->path,
				 hook->timeout);
	if (status > 128)
		return shim_fail(err, 0, "%s (%s): killed by signal %d (%s)%s%s", where, hook->path,
				 status - 128, signal_text(status - 128, sig, sizeof(sig)),
				 kept[0] ? ": " : "", kept);
	if (status != 0)
		return shim_fail(err, 0, "%s (%s): exited with status %d%s%s", where, hook->path,
				 status, kept[0] ? ": " : "", kept);
	return 0;
}

bool hooks_any(const struct oci_hooks *h, enum oci_hook_kind kind)
{
	return h->n[kind] > 0;
}

int hooks_run(const struct oci_hooks *h, enum oci_hook_kind kind, const char *state_json,
	      int fd_dir, struct shim_error *err)
{
	for (size_t i = 0; i < h->n[kind]; i++) {
		char where[64];

		snprintf(where, sizeof(where), "hooks.%s[%zu]", oci_hook_kind_name(kind), i);
		if (hooks_run_one(&h->list[kind][i], where, state_json, fd_dir, err) < 0)
			return shim_error_wrap(err, "error running %s hook #%zu",
					       oci_hook_kind_name(kind), i);
	}
	return 0;
}

void hooks_run_warn(const struct oci_hooks *h, enum oci_hook_kind kind, const char *state_json)
{
	for (size_t i = 0; i < h->n[kind]; i++) {
		struct shim_error err = { 0 };
		char where[64], text[2048];

		snprintf(where, sizeof(where), "hooks.%s[%zu]", oci_hook_kind_name(kind), i);
		if (hooks_run_one(&h->list[kind][i], where, state_json, -1, &err) < 0)
			log_warn("error running %s hook #%zu: %s", oci_hook_kind_name(kind), i,
				 shim_error_text(&err, text, sizeof(text)));
	}
}

char *hooks_state_json(const struct oci_spec *spec, const char *id, pid_t pid, const char *status,
		       const char *bundle, struct shim_error *err)
{
	struct oci_state_view st = {
		.oci_version = spec->oci_version,
		.id = id,
		.pid = pid,
		.status = status,
		.bundle = bundle,
		.annotations = spec->annotations,
	};

	return oci_state_to_json(&st, false, false, err);
}
