/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/base/cleanup.h: scope-bound cleanup. A variable declared with
 * _cleanup_close_ is closed, _cleanup_free_ freed, when it goes out of
 * scope; TAKE_FD / TAKE_PTR move ownership out so the cleanup skips it.
 */
#ifndef OCI_CLEANUP_H
#define OCI_CLEANUP_H

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

/* close() without retry on EINTR (the fd is gone either way); keeps errno. */
static inline int safe_close(int fd)
{
	if (fd >= 0) {
		int saved = errno;

		close(fd);
		errno = saved;
	}
	return -EBADF;
}

static inline void cleanup_closep(int *fd)
{
	safe_close(*fd);
}

static inline void cleanup_freep(void *p)
{
	free(*(void **)p);
}

#define _cleanup_close_ __attribute__((cleanup(cleanup_closep)))
#define _cleanup_free_ __attribute__((cleanup(cleanup_freep)))

#define TAKE_FD(fd) ({ int _fd = (fd); (fd) = -EBADF; _fd; })
#define TAKE_PTR(p) ({ __typeof__(p) _p = (p); (p) = NULL; _p; })

#endif
