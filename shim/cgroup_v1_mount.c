/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The container's /sys/fs/cgroup on a cgroup v1 host (shim/cgroup_v1.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/cleanup.h"
#include "shim/cgroup_v1.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/mount.h"

/* Bind the container's folder of the hierarchy name (host side) at
 * target/name; 0 when the container has none there. */
static int bind_hierarchy(int target, const char *name, const char *rel, struct shim_error *err)
{
	char path[PATH_MAX];
	_cleanup_close_ int src = -1;
	struct stat st;

	if (path_format(path, sizeof(path), err, "%s/%s%s", CGROUP_V1_ROOT, name, rel) < 0)
		return -1;
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	if (mkdirat(target, name, 0755) < 0 && errno != EEXIST)
		return shim_fail_errno(err, "mkdir /sys/fs/cgroup/%s", name);
	src = mount_clone_tree(AT_FDCWD, path, false, err);
	if (src < 0 || mount_attach(src, target, name, err) < 0)
		return shim_error_wrap(err, "binding %s", path);
	return 0;
}

/* The links to hierarchies ("cpu" -> "cpu,cpuacct") the container got. */
static int link_hierarchy(int host, int target, const char *name, struct shim_error *err)
{
	char link[NAME_MAX + 1];
	ssize_t n = readlinkat(host, name, link, sizeof(link) - 1);

	if (n <= 0)
		return 0;
	link[n] = '\0';
	if (strchr(link, '/') || faccessat(target, link, F_OK, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	if (symlinkat(link, target, name) < 0)
		return shim_fail_errno(err, "symlink /sys/fs/cgroup/%s", name);
	return 0;
}

int cgroup_v1_mount_in(int target, const char *rel, struct shim_error *err)
{
	DIR *d = opendir(CGROUP_V1_ROOT);
	struct dirent *e;
	int r = 0;

	if (!d)
		return shim_fail_errno(err, "open %s", CGROUP_V1_ROOT);
	/* the hierarchies first, then the links to them */
	for (int pass = 0; r == 0 && pass < 2; pass++) {
		rewinddir(d);
		while (r == 0 && (e = readdir(d))) {
			struct stat st;

			if (e->d_name[0] == '.' ||
			    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			if (pass == 0 && S_ISDIR(st.st_mode))
				r = bind_hierarchy(target, e->d_name, rel, err);
			else if (pass == 1 && S_ISLNK(st.st_mode))
				r = link_hierarchy(dirfd(d), target, e->d_name, err);
		}
	}
	closedir(d);
	if (r == 0)
		log_debug("init: /sys/fs/cgroup: the container's v1 folders (%s) bound in", rel);
	return r;
}
