/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/base/error.h: the one error contract of the runtime.
 *
 * A function that can fail takes a `struct shim_error *err`, and on failure
 * fills it and returns -1 (or NULL). The message says what failed and on
 * which path, flag or JSON field; errnum is the errno it came from, or 0
 * for a plain validation error. Callers may prefix their own context with
 * shim_error_wrap() as the error travels up. Only main.c prints it and
 * picks the exit status; nothing below the CLI exits or aborts.
 */
#ifndef OCI_ERROR_H
#define OCI_ERROR_H

#include <stddef.h>

struct shim_error {
	int errnum;		/* errno, or 0 when there is none */
	char msg[1024];		/* "what: on which path" */
};

/* Fill err with a formatted message and errnum; returns -1. */
int shim_fail(struct shim_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* As shim_fail, with errnum = errno. Returns -1. */
int shim_fail_errno(struct shim_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prefix "context: " to an error already filled in; returns -1. */
int shim_error_wrap(struct shim_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The full text: "msg: errno text" or just "msg". */
const char *shim_error_text(const struct shim_error *err, char *buf, size_t len);

/* errnum's text as runc prints it (Go's syscall table): strerror's with
 * its first letter in lower case, "no such file or directory". */
#define SHIM_ERRNO_TEXT_MAX 128
const char *shim_errno_text(int errnum, char *buf, size_t len);

#endif
