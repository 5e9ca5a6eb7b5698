/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/criu_common.h: what checkpoint.c and restore.c both build. */
#ifndef SHIM_CRIU_COMMON_H
#define SHIM_CRIU_COMMON_H

#include "oci/error.h"
#include "oci/spec.h"
#include "shim/checkpoint.h"
#include "shim/criu_rpc.h"

#define DESCRIPTORS_FILE "descriptors.json"

/* The image folder (made 0700 when make), and the work folder (made; the
 * image folder's fd again when none is given). */
int criu_open_dirs(const struct criu_flags *f, bool make, int *image_fd, int *work_fd,
		   struct shim_error *err);

/* Options both verbs send: folders, log, root, the flags, cgroup mode. */
void criu_common_opts(struct bytebuf *o, const struct criu_flags *f, int image_fd, int work_fd,
		      const char *log_file, const char *root);

/* A mount destination as CRIU names the mount: "//a/b/" is "/a/b". */
void criu_clean_path(const char *in, char *out, size_t len);

/* The name CRIU knows a bind mount by: its destination as the rootfs
 * resolves it (a link in the image, /var/run -> /run, leads the mount to
 * /run, where CRIU finds it), else as criu_clean_path gives it. */
void criu_mount_key(const char *rootfs, const char *dest, char *out, size_t len);

/* After a failure: CRIU's log lines with "Error" in them, as warnings. */
void criu_quote_log(int work_fd, const char *log_file);

#endif
