/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "oci/base/error.h"

static int vfail(struct shim_error *err, int errnum, const char *fmt, va_list ap)
{
	if (err) {
		err->errnum = errnum;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	return -1;
}

int shim_fail(struct shim_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(err, errnum, fmt, ap);
	va_end(ap);
	return -1;
}

int shim_fail_errno(struct shim_error *err, const char *fmt, ...)
{
	int errnum = errno;
	va_list ap;

	va_start(ap, fmt);
	vfail(err, errnum, fmt, ap);
	va_end(ap);
	return -1;
}

int shim_error_wrap(struct shim_error *err, const char *fmt, ...)
{
	char prefix[512], old[sizeof(err->msg)], joined[sizeof(prefix) + sizeof(old) + 2];
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(joined, sizeof(joined), "%s: %s", prefix, old);
	/* Keep the start (the outer context) when it does not all fit. */
	memcpy(err->msg, joined, sizeof(err->msg) - 1);
	err->msg[sizeof(err->msg) - 1] = '\0';
	return -1;
}

const char *shim_errno_text(int errnum, char *buf, size_t len)
{
	snprintf(buf, len, "%s", strerror(errnum));
	if (buf[0] >= 'A' && buf[0] <= 'Z')
		buf[0] = (char)(buf[0] - 'A' + 'a');
	return buf;
}

const char *shim_error_text(const struct shim_error *err, char *buf, size_t len)
{
	char text[SHIM_ERRNO_TEXT_MAX];

	if (err->errnum)
		snprintf(buf, len, "%s: %s", err->msg,
			 shim_errno_text(err->errnum, text, sizeof(text)));
	else
		snprintf(buf, len, "%s", err->msg);
	return buf;
}
