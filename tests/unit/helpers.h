/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/unit/helpers.h: what the unit tests share beside tap.h: probing
 * what the machine (or valgrind) offers, and files in a temporary tree.
 */
#ifndef UNIT_HELPERS_H
#define UNIT_HELPERS_H

#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "shim/fsutil.h"
#include "shim/syscalls.h"
#include "tests/unit/tap.h"

/* openat2, which valgrind (3.19, the CI's second run of the unit tests)
 * does not know. */
static inline bool unit_have_openat2(void)
{
	struct shim_open_how how = { .flags = O_PATH | O_CLOEXEC };
	int fd = sys_openat2(AT_FDCWD, "/", &how, sizeof(how));

	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/* In a TEST: skipped where openat2 is missing. */
#define NEED_OPENAT2()                                                           \
	do {                                                                     \
		if (!unit_have_openat2())                                        \
			SKIP("openat2 is not available (under valgrind)");       \
	} while (0)

/* path below dir (AT_FDCWD: as given) made to hold text: 0, or -1. */
static inline int unit_write_at(int dir, const char *path, const char *text)
{
	int fd = openat(dir, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	bool ok = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* An absolute path's tree removed, without following links. */
static inline void unit_remove_tree(const char *path)
{
	remove_tree_at(AT_FDCWD, path, NULL);
}

#endif
