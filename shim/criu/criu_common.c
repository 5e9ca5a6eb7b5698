/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What checkpoint.c and restore.c both build (shim/criu/criu_common.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/criu/criu_common.h"
#include "shim/filesystem/rootfs_walk.h"
#include "shim/fsutil.h"
#include "shim/log.h"

#define LOG_QUOTE_MAX (16 << 20)

void criu_dirs_close(struct criu_dirs *d)
{
	d->image = safe_close(d->image);
	d->work = safe_close(d->work);
}

int criu_open_dirs(const struct criu_flags *f, bool make, struct criu_dirs *d,
		   struct shim_error *err)
{
	d->image = d->work = -1;
	if (make && mkdir_p(f->image_path, 0700, 0700, err) < 0)
		return shim_error_wrap(err, "--image-path");
	d->image = open(f->image_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->image < 0)
		return shim_fail_errno(err, "--image-path: open %s", f->image_path);
	if (!f->work_path)
		return 0;
	if (mkdir_p(f->work_path, 0700, 0700, err) < 0)
		return shim_error_wrap(err, "--work-path");
	d->work = open(f->work_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->work < 0)
		return shim_fail_errno(err, "--work-path: open %s", f->work_path);
	return 0;
}

void criu_common_opts(struct bytebuf *o, const struct criu_flags *f, const struct criu_dirs *d,
		      const char *log_file, const char *root)
{
	pb_int32(o, CRIU_OPT_IMAGES_DIR_FD, d->image);
	if (d->work >= 0)
		pb_int32(o, CRIU_OPT_WORK_DIR_FD, d->work);
	pb_int32(o, CRIU_OPT_LOG_LEVEL, 4);
	pb_string(o, CRIU_OPT_LOG_FILE, log_file);
	pb_string(o, CRIU_OPT_ROOT, root);
	pb_bool(o, CRIU_OPT_MANAGE_CGROUPS, true);
	pb_varint(o, CRIU_OPT_MANAGE_CGROUPS_MODE, (uint64_t)f->cg_mode);
	pb_bool(o, CRIU_OPT_NOTIFY_SCRIPTS, true);
	pb_bool(o, CRIU_OPT_SHELL_JOB, f->shell_job);
	pb_bool(o, CRIU_OPT_TCP_ESTABLISHED, f->tcp_established);
	pb_bool(o, CRIU_OPT_EXT_UNIX_SK, f->ext_unix_sk);
	pb_bool(o, CRIU_OPT_FILE_LOCKS, f->file_locks);
	pb_bool(o, CRIU_OPT_AUTO_DEDUP, f->auto_dedup);
	pb_bool(o, CRIU_OPT_ORPHAN_PTS_MASTER, true);
}

void criu_clean_path(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (const char *p = in; *p && n + 1 < len; p++) {
		if (*p == '/' && n > 0 && out[n - 1] == '/')
			continue;
		out[n++] = *p;
	}
	if (n > 1 && out[n - 1] == '/')
		n--;
	if (n == 0 || out[0] != '/') {
		memmove(out + 1, out, n < len - 1 ? n : len - 2);
		out[0] = '/';
		n = n < len - 1 ? n + 1 : len - 1;
	}
	out[n] = '\0';
}

void criu_mount_key(const char *rootfs, const char *dest, char *out, size_t len)
{
	_cleanup_free_ char *real_root = realpath(rootfs, NULL);
	_cleanup_close_ int root = open(rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC), fd = -1;
	char link[64], real[PATH_MAX];
	size_t n;
	ssize_t got;

	criu_clean_path(dest, out, len);
	if (root < 0 || !real_root || (fd = rootfs_lookup(root, dest, O_PATH)) < 0)
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	got = readlink(link, real, sizeof(real) - 1);
	if (got <= 0)
		return;
	real[got] = '\0';
	n = strlen(real_root);
	/* a link in the rootfs: the mount is where it led (inside) */
	if (strncmp(real, real_root, n) == 0 && real[n] == '/' && strcmp(real + n, out) != 0) {
		log_debug("criu: mounts' %s is %s in the rootfs", out, real + n);
		criu_clean_path(real + n, out, len);
	}
}

void criu_quote_log(int work_fd, const char *log_file)
{
	_cleanup_close_ int fd = openat(work_fd, log_file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	_cleanup_free_ char *text = NULL;
	char *line, *save = NULL;
	int shown = 0;

	if (fd < 0)
		return;
	text = read_small_fd(fd, log_file, LOG_QUOTE_MAX, NULL, NULL);
	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line && shown < 20;
	     line = strtok_r(NULL, "\n", &save))
		if (strstr(line, "Error")) {
			log_warn("criu %s: %s", log_file, line);
			shown++;
		}
}
