/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/criu/criu_common.h: what checkpoint.c and restore.c both build
 * (criu_common.c). */
#ifndef SHIM_CRIU_COMMON_H
#define SHIM_CRIU_COMMON_H

#include <stdbool.h>

#include "oci/base/error.h"
#include "oci/spec.h"
#include "shim/criu/criu_rpc.h"

/* What both verbs take from the command line. */
struct criu_flags {
	const char *image_path;		/* default ./checkpoint */
	const char *work_path;		/* logs; default the image folder */
	bool tcp_established, ext_unix_sk, shell_job, file_locks, auto_dedup;
	int cg_mode;			/* enum criu_cg_mode; CRIU_CG_DEFAULT if unset */
};

/* The image folder and the work folder (-1: none given, CRIU works in the
 * image folder), open for a call to CRIU. */
struct criu_dirs {
	int image, work;
};

#define CRIU_DIRS_NONE { -1, -1 }

/* For __attribute__((cleanup)): both closed. */
void criu_dirs_close(struct criu_dirs *d);

/* Where CRIU's log is: the work folder, else the image folder. */
static inline int criu_log_dir(const struct criu_dirs *d)
{
	return d->work >= 0 ? d->work : d->image;
}

/* The image folder (made 0700 when make), and the work folder (made, when
 * one is given). */
int criu_open_dirs(const struct criu_flags *f, bool make, struct criu_dirs *d,
		   struct shim_error *err);

/* Options both verbs send: folders, log, root, the flags, cgroup mode. */
void criu_common_opts(struct bytebuf *o, const struct criu_flags *f, const struct criu_dirs *d,
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
