/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/mount_options.h"
#include "shim/filesystem/mount.h"
#include "shim/filesystem/mountinfo.h"
#include "shim/filesystem/move_root.h"
#include "shim/log.h"
#include "shim/procfs.h"

static bool at_or_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The mount point of a procfs or sysfs mount line, else NULL. */
static char *proc_or_sys_mountpoint(char *line)
{
	char *mp = mountinfo_point(line, "proc");

	return mp ? mp : mountinfo_point(line, "sysfs");
}

/* Detach it; a mount locked to its parent gets an empty tmpfs on top. */
static int hide_mount(const char *where, struct shim_error *err)
{
	struct mount_opts ro = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
					     MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC };
	_cleanup_close_ int cover = -1;

	if (umount2(where, MNT_DETACH) == 0) {
		log_debug("init: --no-pivot: the host's %s detached", where);
		return 0;
	}
	if (errno == ENOENT)	/* gone with a mount above it */
		return 0;
	cover = mount_new_fs("tmpfs", "tmpfs", &ro, NULL, err);
	if (cover < 0 || mount_attach(cover, AT_FDCWD, where, err) < 0)
		return shim_error_wrap(err, "--no-pivot: hiding the host's %s", where);
	log_debug("init: --no-pivot: the host's %s covered by an empty tmpfs", where);
	return 0;
}

struct points {
	char **v;
	size_t n, cap;
};

static int push(struct points *p, const char *path)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 8;
		char **v = realloc(p->v, cap * sizeof(*v));

		if (!v)
			return -1;
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n] = strdup(path);
	return p->v[p->n++] ? 0 : -1;
}

/* The host's procfs and sysfs mount points outside the rootfs. */
static int read_points(const char *rootfs, struct points *p, struct shim_error *err)
{
	int fd = procfs_open_self("mountinfo", O_RDONLY, err), r = 0;
	char *line = NULL;
	size_t len = 0;
	FILE *f;

	if (fd < 0)
		return shim_error_wrap(err, "--no-pivot");
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return shim_fail_errno(err, "--no-pivot: reading mountinfo");
	}
	while (r == 0 && getline(&line, &len, f) > 0) {
		char *mp = proc_or_sys_mountpoint(line);

		if (mp && !at_or_below(mp, rootfs) && push(p, mp) < 0)
			r = shim_fail(err, ENOMEM, "--no-pivot");
	}
	free(line);
	fclose(f);
	return r;
}

/* Deepest first: mounts come after their parents in mountinfo. */
static int hide_host_proc_and_sys(const char *rootfs, struct shim_error *err)
{
	struct points p = { 0 };
	int r = read_points(rootfs, &p, err);

	for (size_t i = p.n; i-- > 0;) {
		if (r == 0 && hide_mount(p.v[i], err) < 0)
			r = -1;
		free(p.v[i]);
	}
	free(p.v);
	return r;
}

int move_root(int root_fd, const char *rootfs, struct shim_error *err)
{
	char real[PATH_MAX];

	if (!realpath(rootfs, real))
		return shim_fail_errno(err, "root.path: %s", rootfs);
	if (hide_host_proc_and_sys(real, err) < 0)
		return -1;
	if (fchdir(root_fd) < 0)
		return shim_fail_errno(err, "chdir to the rootfs");
	if (mount_attach(root_fd, AT_FDCWD, "/", err) < 0)
		return shim_error_wrap(err, "--no-pivot: moving the rootfs onto /");
	if (chroot(".") < 0)
		return shim_fail_errno(err, "--no-pivot: chroot");
	if (chdir("/") < 0)
		return shim_fail_errno(err, "chdir /");
	return 0;
}
