/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/filesystem/copyup.h: a tmpfs mount's "tmpcopyup" option (runc's and crun's):
 * what the image has in the folder the tmpfs covers is copied into the new
 * tmpfs before it is attached, so the folder keeps its contents, now
 * writable and private to the container.
 *
 * The image is the container's: nothing in it is followed. Folders,
 * regular files, symlinks (as links), FIFOs, sockets and device nodes are
 * made again with their mode (all twelve bits, whatever the umask) and
 * owner; a regular file's bytes are read from an fd opened O_NOFOLLOW and
 * checked to be the file that was listed. Hard links become copies;
 * xattrs and times are not kept (as runc). At most COPYUP_MAX_DEPTH
 * folders deep, else create fails naming the path.
 */
#ifndef SHIM_COPYUP_H
#define SHIM_COPYUP_H

#include "oci/base/error.h"

#define COPYUP_MAX_DEPTH 128

/* Copy the entries of the folder src into the folder dst (both fds of
 * folders, opened for reading); where names src in errors ("/dir1"). */
int copyup_tree(int src, int dst, const char *where, struct shim_error *err);

#endif
