/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The container's /sys/fs/cgroup on a cgroup v1 host (shim/cgroups/cgroup_v1.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/cgroups/cgroup_v1.h"
#include "shim/filesystem/mount.h"
#include "shim/fsutil.h"
#include "shim/log.h"

/* Bind the container's folder of the hierarchy name (host side) at
 * target/name; 0 when the container has none there. */
static int bind_hierarchy(int target, const char *name, const struct cgroup_v1 *cg,
			  struct shim_error *err)
{
	const char *folder = cgroup_v1_folder_of(cg, name);
	char path[PATH_MAX];
	_cleanup_close_ int src = -1;
	struct stat st;

	if (!folder)
		return 0;
	if (path_format(path, sizeof(path), err, "%s/%s%s", CGROUP_V1_ROOT, name, folder) < 0)
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

/* What a staged init binds (cgroup_v1_mount_stage): each hierarchy's
 * folder as a detached tree, each link's target, as the host had them. */
#define STAGED_MAX 32
static struct {
	bool done;
	size_t n;
	struct {
		char name[NAME_MAX + 1];
		int tree;		/* a hierarchy's folder, or -1: a link */
		char link[NAME_MAX + 1];
	} e[STAGED_MAX];
} staged;

int cgroup_v1_mount_stage(const struct cgroup_v1 *cg, struct shim_error *err)
{
	DIR *d = opendir(CGROUP_V1_ROOT);
	struct dirent *e;

	if (!d)
		return shim_fail_errno(err, "open %s", CGROUP_V1_ROOT);
	while ((e = readdir(d)) && staged.n < STAGED_MAX) {
		typeof(staged.e[0]) *s = &staged.e[staged.n];
		char path[PATH_MAX];
		struct stat st;
		ssize_t n;

		if (e->d_name[0] == '.' || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		snprintf(s->name, sizeof(s->name), "%s", e->d_name);
		s->tree = -1;
		if (S_ISLNK(st.st_mode)) {
			n = readlinkat(dirfd(d), e->d_name, s->link, sizeof(s->link) - 1);
			if (n <= 0)
				continue;
			s->link[n] = '\0';
		} else {
			const char *folder = cgroup_v1_folder_of(cg, e->d_name);

			/* a hierarchy the container has no folder in is left out */
			if (!S_ISDIR(st.st_mode) || !folder ||
			    path_format(path, sizeof(path), NULL, "%s/%s%s", CGROUP_V1_ROOT,
					e->d_name, folder) < 0 ||
			    stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
				continue;
			s->tree = mount_clone_tree(AT_FDCWD, path, false, err);
			if (s->tree < 0) {
				closedir(d);
				return shim_error_wrap(err, "cgroup v1: staging %s", path);
			}
		}
		staged.n++;
	}
	closedir(d);
	staged.done = true;
	return 0;
}

/* The staged view bound at target: hierarchies first, then links. */
static int mount_staged(int target, struct shim_error *err)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < staged.n; i++) {
			typeof(staged.e[0]) *s = &staged.e[i];

			if (pass == 0 && s->tree >= 0 &&
			    ((mkdirat(target, s->name, 0755) < 0 && errno != EEXIST) ||
			     mount_attach(s->tree, target, s->name, err) < 0))
				return shim_fail(err, err->errnum ? err->errnum : errno,
						 "binding the container's %s folder", s->name);
			if (pass == 1 && s->tree < 0 &&
			    faccessat(target, s->link, F_OK, AT_SYMLINK_NOFOLLOW) == 0 &&
			    symlinkat(s->link, target, s->name) < 0)
				return shim_fail_errno(err, "symlink /sys/fs/cgroup/%s", s->name);
		}
	return 0;
}

int cgroup_v1_mount_in(int target, const struct cgroup_v1 *cg, struct shim_error *err)
{
	const char *rel = cg->rel;
	DIR *d;
	struct dirent *e;
	int r = 0;

	if (staged.done) {
		log_debug("init: /sys/fs/cgroup: the container's v1 folders (%s), staged, bound in",
			  rel);
		return mount_staged(target, err);
	}
	d = opendir(CGROUP_V1_ROOT);
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
				r = bind_hierarchy(target, e->d_name, cg, err);
			else if (pass == 1 && S_ISLNK(st.st_mode))
				r = link_hierarchy(dirfd(d), target, e->d_name, err);
		}
	}
	closedir(d);
	if (r == 0)
		log_debug("init: /sys/fs/cgroup: the container's v1 folders (%s) bound in", rel);
	return r;
}
