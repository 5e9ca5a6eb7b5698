/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "oci/base/utc.h"
#include "shim/log.h"

static int log_fd = -1;
static bool log_json, log_debug_on;

int log_setup(const char *path, const char *format, bool debug, struct shim_error *err)
{
	log_debug_on = debug;
	if (format && strcmp(format, "json") == 0)
		log_json = true;
	else if (format && strcmp(format, "text") != 0)
		return shim_fail(err, 0, "--log-format: \"%s\" is not text or json", format);
	if (!path)
		return 0;
	log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (log_fd < 0)
		return shim_fail_errno(err, "--log %s", path);
	return 0;
}

int log_release(void)
{
	if (log_fd >= 0 && !log_debug_on) {
		close(log_fd);
		log_fd = -1;
	}
	return log_fd;
}

/* JSON string body: quotes, backslashes and control characters escaped. */
static void escape(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (; *in && o + 7 < len; in++) {
		unsigned char c = (unsigned char)*in;

		if (c == '"' || c == '\\')
			o += (size_t)snprintf(out + o, len - o, "\\%c", c);
		else if (c < 0x20)
			o += (size_t)snprintf(out + o, len - o, "\\u%04x", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
}

/* One line to fd: the time to the microsecond, so --debug shows where a
 * create spends its time. */
static void record_to(int fd, const char *level, const char *msg)
{
	char when[80], esc[4096], line[4400];
	struct timespec ts;
	int n;

	if (fd < 0)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	utc_format(when, sizeof(when), &ts, 6);
	escape(msg, esc, sizeof(esc));
	if (log_json)
		n = snprintf(line, sizeof(line), "{\"level\":\"%s\",\"msg\":\"%s\",\"time\":\"%s\"}\n",
			     level, esc, when);
	else
		n = snprintf(line, sizeof(line), "time=\"%s\" level=%s msg=\"%s\"\n", when, level, esc);
	if (n > 0 && write(fd, line, (size_t)n) < 0)
		return;
}

static void record(const char *level, const char *msg)
{
	record_to(log_fd, level, msg);
}

void log_error(const char *msg)
{
	fprintf(stderr, "shim: %s\n", msg);
	record("error", msg);
}

void log_debug(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	if (!log_debug_on)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* as runc: to --log, or else to stderr */
	record_to(log_fd >= 0 ? log_fd : STDERR_FILENO, "debug", msg);
}

void log_warn(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* as runc: to the log when there is one, else to stderr */
	if (log_fd < 0)
		fprintf(stderr, "shim: warning: %s\n", msg);
	record("warning", msg);
}
