/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

#include "oci/base/cleanup.h"
#include "shim/cgroups/cgroup_v1.h"
#include "shim/filesystem/bind_sources.h"
#include "shim/filesystem/copyup.h"
#include "shim/filesystem/masks.h"
#include "shim/filesystem/mount.h"
#include "shim/filesystem/move_root.h"
#include "shim/filesystem/rootfs.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/procfs.h"
#include "shim/syscalls.h"

static int host_cgroup2 = -1;

void rootfs_probe_host(void)
{
	if (host_cgroup2 < 0)
		host_cgroup2 = access("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0;
}

static bool host_has_cgroup2(void)
{
	rootfs_probe_host();
	return host_cgroup2 == 1;
}

/* Files of /proc that a mount may cover: what lxcfs emulates (as runc). */
static const char *const proc_mount_allowed[] = {
	"/proc/cpuinfo", "/proc/diskstats", "/proc/meminfo", "/proc/stat", "/proc/swaps",
	"/proc/uptime", "/proc/loadavg", "/proc/slabinfo", "/proc/net/dev",
	"/proc/sys/kernel/ns_last_pid", NULL,
};

/* Is clean (a cleaned destination) one of the lxcfs files of /proc? */
static bool proc_file_allowed(const char *clean)
{
	for (size_t i = 0; proc_mount_allowed[i]; i++)
		if (strcmp(clean, proc_mount_allowed[i]) == 0)
			return true;
	return false;
}

/*
 * Nothing but procfs itself is mounted on /proc, and below it only the
 * files lxcfs emulates (CVE-2025-52881: a bind over /proc/sys/... turns the
 * runtime's or the container's writes into writes to a host knob). The
 * destination as written is judged here; where it resolves, on the very fd
 * the mount is attached to (check_proc_target), so that a link swapped in
 * between cannot lead it into /proc either.
 */
static int check_proc_destination(const struct oci_mount *m, bool bind, struct shim_error *err)
{
	char clean[PATH_MAX];
	struct statfs sf;

	if (!path_clean(m->destination, clean, sizeof(clean)))
		return shim_fail(err, ENAMETOOLONG, "destination: too long");
	if (strcmp(clean, "/proc") == 0) {
		if (!bind && strcmp(m->type, "proc") == 0)
			return 0;
		/* a bind of a procfs (rootless setups bind the host's /proc) */
		if (bind && m->source && m->source[0] == '/' && statfs(m->source, &sf) == 0 &&
		    sf.f_type == PROC_SUPER_MAGIC)
			return 0;
		return shim_fail(err, EPERM, "destination /proc: only a proc filesystem may be "
				 "mounted there");
	}
	if (strncmp(clean, "/proc/", 6) == 0 && !proc_file_allowed(clean))
		return shim_fail(err, EPERM, "destination %s is inside /proc: only a proc filesystem "
				 "on /proc itself and the files lxcfs emulates (/proc/cpuinfo, "
				 "/proc/meminfo, ...) may be mounted there", m->destination);
	return 0;
}

/* The target fd a mount is about to be attached to lies on procfs: only
 * the lxcfs files may be covered (the destination as written says which). */
static int check_proc_target(const struct oci_mount *m, int target, struct shim_error *err)
{
	char clean[PATH_MAX];

	if (!procfs_is(target))
		return 0;
	if (path_clean(m->destination, clean, sizeof(clean)) && proc_file_allowed(clean))
		return 0;
	return shim_fail(err, EPERM, "destination %s is inside /proc (it resolves there in the "
			 "rootfs): only proc itself and the files lxcfs emulates may be mounted there",
			 m->destination);
}

/* A bound tree whose root is a procfs or a sysfs (a rootless setup binds
 * the host's): kept as an anchor (struct rootfs_anchors) once attached. */
static bool is_proc_or_sysfs(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 && (sf.f_type == PROC_SUPER_MAGIC || sf.f_type == SYSFS_MAGIC);
}

/* prepared: a tree the runtime made (an idmapped copy, shim/filesystem/idmap.h, or
 * the source it cloned, shim/filesystem/bind_sources.h), or -1. */
static int mount_bind(int root_fd, const struct oci_mount *m, const char *bundle, int prepared,
		      int *anchor, struct shim_error *err)
{
	const struct mount_opts *o = &m->opts;
	_cleanup_close_ int tree = -1, target = -1;
	char source[PATH_MAX];
	struct stat st;

	if (bind_source_path(m, bundle, source, sizeof(source)) < 0)
		return shim_fail(err, 0, "source: missing for a bind mount (or too long)");
	if (prepared >= 0) {
		tree = fcntl(prepared, F_DUPFD_CLOEXEC, 0);
		if (tree < 0 || fstat(tree, &st) < 0)
			return shim_fail_errno(err, "source %s (prepared by the runtime)", source);
	} else {
		/* one walk of the path, and the type of what was cloned, not of
		 * what the path named a moment before */
		tree = mount_clone_tree(AT_FDCWD, source, o->rbind, err);
		if (tree < 0)
			return shim_fail(err, err->errnum, "source %s", source);
		if (fstat(tree, &st) < 0)
			return shim_fail_errno(err, "source %s", source);
	}
	/* as runc: "ro" makes the top mount read-only, "rro" every one */
	if (mount_set_attrs(tree, "", o->attr_set, o->attr_clr, false, err) < 0 ||
	    mount_set_attrs(tree, "", o->rattr_set, o->rattr_clr, true, err) < 0)
		return -1;
	target = rootfs_make_path(root_fd, m->destination, !S_ISDIR(st.st_mode), err);
	if (target < 0 || check_proc_target(m, target, err) < 0 ||
	    mount_attach(tree, target, "", err) < 0)
		return -1;
	if (is_proc_or_sysfs(tree))
		*anchor = TAKE_FD(tree);
	return 0;
}

/* As runc: linux.mountLabel goes to every new filesystem as its context=
 * option, but proc, sysfs and cgroup, which take none, and mqueue, whose
 * root is labelled once mounted (mqueue_label). */
static bool takes_context(const char *type)
{
	static const char *const none[] = { "proc", "sysfs", "cgroup", "cgroup2", "mqueue" };

	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		if (strcmp(type, none[i]) == 0)
			return false;
	return true;
}

/* The root of a new mqueue mount labelled as linux.mountLabel says. */
static int mqueue_label(int mnt, const char *label, struct shim_error *err)
{
	_cleanup_close_ int dir = openat(mnt, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dir < 0 || fsetxattr(dir, "security.selinux", label, strlen(label), 0) < 0)
		return shim_fail_errno(err, "linux.mountLabel \"%s\" on the mqueue root", label);
	return 0;
}

/* What a mount may need beside its entry. */
struct fs_ctx {
	const char *label;		/* linux.mountLabel, or NULL */
	const struct cgroup_v1 *cgroup_v1;	/* a cgroup v1 host: the container's folders, or NULL */
	const char *bundle;		/* what a relative bind source is below */
};

/* "cgroup" on a cgroup v1 host, as runc lays it out: a tmpfs with the
 * container's own folder of each hierarchy bound in, all read-only as the
 * mount's options say (the tmpfs is filled first). */
static int mount_cgroup_v1(int root_fd, const struct oci_mount *m, const struct mount_opts *o,
			   const struct cgroup_v1 *cg, struct shim_error *err)
{
	struct mount_opts t = *o;
	_cleanup_close_ int mnt = -1, target = -1, top = -1;

	t.attr_set &= ~(uint64_t)MOUNT_ATTR_RDONLY;
	t.rattr_set = t.rattr_clr = 0;
	t.n_fs_params = 1;
	t.fs_params[0] = "mode=755";
	t.fs_param_index[0] = 0;
	mnt = mount_new_fs("tmpfs", "cgroup", &t, NULL, err);
	if (mnt < 0 || (target = rootfs_make_path(root_fd, m->destination, false, err)) < 0 ||
	    mount_attach(mnt, target, "", err) < 0)
		return -1;
	top = rootfs_open(root_fd, m->destination, O_PATH | O_DIRECTORY, err);
	if (top < 0 || cgroup_v1_mount_in(top, cg, err) < 0)
		return -1;
	return mount_set_attrs(top, "", o->attr_set | o->rattr_set, o->attr_clr | o->rattr_clr,
			       true, err);
}

/* As runc: a tmpfs without mode= takes the mode of the folder it covers,
 * all twelve bits (a tmpfs over /tmp keeps its sticky bit); mode buf
 * holds the parameter added to *o. */
static void tmpfs_mode_of_folder(int root_fd, const struct oci_mount *m, struct mount_opts *o,
				 char *buf, size_t len)
{
	_cleanup_close_ int fd = -1;
	struct stat st;

	for (unsigned int i = 0; i < o->n_fs_params; i++)
		if (strncmp(o->fs_params[i], "mode=", 5) == 0)
			return;
	if (o->n_fs_params >= MOUNT_MAX_FS_PARAMS)
		return;
	/* not there yet: it is made 0755, the tmpfs keeps its own 1777 */
	fd = rootfs_open(root_fd, m->destination, O_PATH, NULL);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode))
		return;
	snprintf(buf, len, "mode=%04o", (unsigned int)(st.st_mode & 07777));
	log_debug("%s: tmpfs %s takes its folder's %s", o->where, m->destination, buf);
	o->fs_param_index[o->n_fs_params] = o->n_fs_params;
	o->fs_params[o->n_fs_params++] = buf;
}

/* proc and sysfs (as runc requires: their masked and read-only paths are
 * found under them by path) and the /dev the runtime fills (its devices
 * are opened without following links) are mounted on a folder of the
 * image, never through a link put in its place. */
static bool wants_plain_folder(const char *type, const char *destination)
{
	char clean[PATH_MAX];

	return strcmp(type, "proc") == 0 || strcmp(type, "sysfs") == 0 ||
	       (path_clean(destination, clean, sizeof(clean)) && strcmp(clean, "/dev") == 0);
}

/* The destination's last component itself (made when missing), refused
 * unless it is a folder: the fd is what the mount is attached to. */
static int open_plain_folder(int root_fd, const struct oci_mount *m, const char *type,
			     struct shim_error *err)
{
	struct shim_error missing = { 0 };
	int fd = rootfs_open(root_fd, m->destination, O_PATH | O_NOFOLLOW, &missing);
	struct stat st;

	if (fd < 0 && missing.errnum != ENOENT) {
		*err = missing;
		return -1;
	}
	if (fd < 0) {
		fd = rootfs_make_path(root_fd, m->destination, false, err);
		if (fd < 0)
			return -1;
		close(fd);
		fd = rootfs_open(root_fd, m->destination, O_PATH | O_NOFOLLOW, err);
		if (fd < 0)
			return -1;
	}
	if (fstat(fd, &st) < 0) {
		close(fd);
		return shim_fail_errno(err, "stat %s in the rootfs", m->destination);
	}
	if (!S_ISDIR(st.st_mode)) {
		close(fd);
		return shim_fail(err, 0, "%s must be mounted on ordinary directory: %s is %s "
				 "in the rootfs", type, m->destination,
				 S_ISLNK(st.st_mode) ? "a symbolic link" : "not a folder");
	}
	return fd;
}

/* tmpcopyup: what the image has in the folder goes into the new tmpfs
 * (shim/filesystem/copyup.h); a folder the image lacks gives nothing to copy. */
static int tmpfs_copy_up(int root_fd, const struct oci_mount *m, int mnt, struct shim_error *err)
{
	struct shim_error missing = { 0 };
	_cleanup_close_ int src = rootfs_open(root_fd, m->destination, O_RDONLY | O_DIRECTORY,
					      &missing);
	_cleanup_close_ int dst = -1;

	if (src < 0 && missing.errnum == ENOENT)
		return 0;
	if (src < 0) {
		*err = missing;
		return -1;
	}
	dst = openat(mnt, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dst < 0)
		return shim_fail_errno(err, "tmpcopyup: opening the new tmpfs");
	log_debug("%s: tmpcopyup: copying %s into the new tmpfs", m->opts.where, m->destination);
	return copyup_tree(src, dst, m->destination, err);
}

static int mount_fs(int root_fd, const struct oci_mount *m, const struct mount_opts *given,
		    const struct fs_ctx *x, int *anchor, struct shim_error *err)
{
	_cleanup_close_ int mnt = -1, target = -1;
	const char *type = m->type, *label = x->label;
	const char *context;
	bool fill_first;
	struct mount_opts with_mode = *given;
	const struct mount_opts *o = &with_mode;
	char mode[16];

	if (strcmp(type, "tmpfs") == 0)
		tmpfs_mode_of_folder(root_fd, m, &with_mode, mode, sizeof(mode));

	/* On a cgroup v2 host, "cgroup" (what runc's spec says) means cgroup2. */
	if (strcmp(type, "cgroup") == 0 && host_has_cgroup2())
		type = "cgroup2";
	else if (strcmp(type, "cgroup") == 0 && x->cgroup_v1)
		return mount_cgroup_v1(root_fd, m, o, x->cgroup_v1, err);
	context = label && *label && takes_context(type) ? label : NULL;
	/* a read-only /dev is filled first, made read-only last (dev_finish);
	 * a read-only tmpcopyup tmpfs is filled, then made read-only */
	fill_first = (strcmp(m->destination, "/dev") == 0 || o->tmpcopyup) &&
		     ((o->attr_set | o->rattr_set) & MOUNT_ATTR_RDONLY);
	if (fill_first) {
		struct mount_opts rw = *o;

		rw.attr_set &= ~(uint64_t)MOUNT_ATTR_RDONLY;
		rw.rattr_set &= ~(uint64_t)MOUNT_ATTR_RDONLY;
		mnt = mount_new_fs(type, m->source, &rw, context, err);
	} else {
		mnt = mount_new_fs(type, m->source, o, context, err);
	}
	if (mnt >= 0 && o->tmpcopyup && tmpfs_copy_up(root_fd, m, mnt, err) < 0)
		return -1;
	if (mnt >= 0 && o->tmpcopyup && fill_first && strcmp(m->destination, "/dev") != 0 &&
	    mount_set_attrs(mnt, "", MOUNT_ATTR_RDONLY, 0, false, err) < 0)
		return -1;
	if (mnt >= 0 && label && *label && strcmp(type, "mqueue") == 0 &&
	    mqueue_label(mnt, label, err) < 0)
		return -1;
	/* Where a fresh cgroup mount is refused (a cgroup v1 host, or a cgroup
	 * namespace whose root we do not own), bind the host's hierarchy. */
	if (mnt < 0 && err->errnum == EPERM && strncmp(type, "cgroup", 6) == 0) {
		mnt = mount_clone_tree(AT_FDCWD, "/sys/fs/cgroup", true, err);
		if (mnt >= 0 && mount_set_attrs(mnt, "", o->attr_set | o->rattr_set,
						 o->attr_clr | o->rattr_clr, true, err) < 0)
			return -1;
	}
	if (mnt < 0)
		return -1;
	target = wants_plain_folder(type, m->destination) ?
			 open_plain_folder(root_fd, m, type, err) :
			 rootfs_make_path(root_fd, m->destination, false, err);
	if (target < 0 || check_proc_target(m, target, err) < 0 ||
	    mount_attach(mnt, target, "", err) < 0)
		return -1;
	/* a new proc or sysfs is an anchor (struct rootfs_anchors) */
	if (strcmp(type, "proc") == 0 || strcmp(type, "sysfs") == 0)
		*anchor = TAKE_FD(mnt);
	return 0;
}

static int mount_one(int root_fd, const struct oci_mount *m, const struct fs_ctx *x,
		     int prepared, int *anchor, struct shim_error *err)
{
	const struct mount_opts *o = &m->opts;
	bool bind = m->bind;

	if (!bind && (!m->type || !*m->type))
		return shim_fail(err, 0, "type: missing (and no bind option)");
	if (bind && mount_opts_check_bind(o, err) < 0)
		return -1;
	for (unsigned int i = 0; bind && i < o->n_fs_params; i++)
		log_debug("%s.options[%u]: \"%s\" ignored: a bind mount takes no data", o->where,
			  o->fs_param_index[i], o->fs_params[i]);
	if (check_proc_destination(m, bind, err) < 0)
		return -1;
	if (o->idmap && !bind)
		return shim_fail(err, EINVAL, "idmap: only a bind mount can be idmapped");
	if (o->tmpcopyup && (bind || strcmp(m->type, "tmpfs") != 0))
		return shim_fail(err, EINVAL, "options[%u]: \"tmpcopyup\" is for a tmpfs only",
				 o->tmpcopyup_index);
	if ((bind ? mount_bind(root_fd, m, x->bundle, prepared, anchor, err)
		  : mount_fs(root_fd, m, o, x, anchor, err)) < 0)
		return -1;
	if (o->propagation) {
		_cleanup_close_ int target = rootfs_open(root_fd, m->destination, O_PATH, err);

		if (target < 0 || mount_set_propagation(target, "", o->propagation,
							o->propagation_recursive, err) < 0)
			return -1;
	}
	return 0;
}

static const struct {
	const char *name;
	unsigned int major, minor;
} default_devices[] = {
	{ "null", 1, 3 }, { "zero", 1, 5 }, { "full", 1, 7 },
	{ "random", 1, 8 }, { "urandom", 1, 9 }, { "tty", 5, 0 },
};

static const struct {
	const char *name, *target;
} default_links[] = {
	{ "fd", "/proc/self/fd" }, { "stdin", "/proc/self/fd/0" },
	{ "stdout", "/proc/self/fd/1" }, { "stderr", "/proc/self/fd/2" },
	{ "ptmx", "pts/ptmx" }, { "core", "/proc/kcore" },
};

/* mknod, or where that is not allowed, a bind of the host's device. */
static int make_device(int root_fd, int dev_fd, const char *name, dev_t dev,
		       struct shim_error *err)
{
	char path[64];
	_cleanup_close_ int tree = -1, target = -1;

	if (mknodat(dev_fd, name, S_IFCHR | 0666, dev) == 0 || errno == EEXIST)
		return 0;
	if (errno != EPERM)
		return shim_fail_errno(err, "mknod /dev/%s", name);
	snprintf(path, sizeof(path), "/dev/%s", name);
	tree = mount_clone_tree(AT_FDCWD, path, false, err);
	target = tree < 0 ? -1 : rootfs_make_path(root_fd, path, true, err);
	return target < 0 ? -1 : mount_attach(tree, target, "", err);
}

static int dev_setup(int root_fd, struct shim_error *err)
{
	_cleanup_close_ int dev_fd = rootfs_open(root_fd, "/dev", O_RDONLY | O_DIRECTORY, err);

	if (dev_fd < 0)
		return -1;
	for (size_t i = 0; i < sizeof(default_devices) / sizeof(default_devices[0]); i++)
		if (make_device(root_fd, dev_fd, default_devices[i].name,
				makedev(default_devices[i].major, default_devices[i].minor), err) < 0)
			return -1;
	for (size_t i = 0; i < sizeof(default_links) / sizeof(default_links[0]); i++)
		if (symlinkat(default_links[i].target, dev_fd, default_links[i].name) < 0 &&
		    errno != EEXIST)
			return shim_fail_errno(err, "symlink /dev/%s", default_links[i].name);
	return 0;
}

/* The host's node at the same path, bound on a new empty file: where mknod
 * is refused (a user namespace). */
static int bind_host_device(int dir, const char *name, const char *path, struct shim_error *err)
{
	_cleanup_close_ int tree = mount_clone_tree(AT_FDCWD, path, false, err), target = -1;

	if (tree < 0)
		return -1;
	target = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (target < 0)
		return shim_fail_errno(err, "creating %s", path);
	return mount_attach(tree, target, "", err);
}

/* linux.devices[i]: made in its folder (resolved in the rootfs), with its
 * mode (umask is 0 here) and owner; what the image had there gives way. */
static int make_listed_device(int root_fd, const struct oci_device *d, struct shim_error *err)
{
	const char *name = strrchr(d->path, '/') + 1;
	mode_t type = d->type == 'b' ? S_IFBLK : d->type == 'p' ? S_IFIFO : S_IFCHR;
	char parent[PATH_MAX];
	_cleanup_close_ int dir = -1;
	struct stat st;

	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return shim_fail(err, EINVAL, "path: \"%s\" names no file", d->path);
	if (path_format(parent, sizeof(parent), err, "%.*s", (int)(name - 1 - d->path),
			d->path) < 0)
		return -1;
	dir = rootfs_make_path(root_fd, parent[0] ? parent : "/", false, err);
	if (dir < 0)
		return -1;
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISDIR(st.st_mode))
			return shim_fail(err, EISDIR, "path: %s is a folder in the rootfs", d->path);
		if (unlinkat(dir, name, 0) < 0)
			return shim_fail_errno(err, "removing what the rootfs has at %s", d->path);
	}
	if (mknodat(dir, name, type | d->file_mode, makedev(d->major, d->minor)) < 0) {
		if (errno != EPERM || type == S_IFIFO)
			return shim_fail_errno(err, "mknod %s", d->path);
		return bind_host_device(dir, name, d->path, err);
	}
	if (fchownat(dir, name, d->uid, d->gid, AT_SYMLINK_NOFOLLOW) < 0)
		return shim_fail_errno(err, "chown %s", d->path);
	return 0;
}

/* A /dev mount asked read-only: now that its nodes, links and the mount
 * points below it are made. */
/* An empty file at /dev/console, unless something is there already. */
static int make_console_target(int dev, struct shim_error *err)
{
	int fd = openat(dev, "console", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY |
			O_CLOEXEC, 0600);

	if (fd < 0 && errno != EEXIST)
		return shim_fail_errno(err, "creating /dev/console");
	if (fd >= 0)
		close(fd);
	return 0;
}

static int dev_finish(int root_fd, const struct oci_spec *spec, struct shim_error *err)
{
	_cleanup_close_ int dev = -1;
	for (size_t i = spec->n_mounts; i-- > 0;) {
		const struct oci_mount *m = &spec->mounts[i];

		if (strcmp(m->destination, "/dev") != 0)
			continue;
		if (m->bind || !((m->opts.attr_set | m->opts.rattr_set) & MOUNT_ATTR_RDONLY))
			return 0;
		dev = rootfs_open(root_fd, "/dev", O_PATH | O_DIRECTORY, err);
		if (dev < 0)
			return shim_error_wrap(err, "mounts[%zu] (/dev): making it read-only", i);
		/* the pty is bound on /dev/console later (shim/terminal.c):
		 * its target made while /dev may still be written */
		if (spec->process.terminal && make_console_target(dev, err) < 0)
			return shim_error_wrap(err, "mounts[%zu] (/dev)", i);
		if (mount_set_attrs(dev, "", MOUNT_ATTR_RDONLY, 0, false, err) < 0)
			return shim_error_wrap(err, "mounts[%zu] (/dev): making it read-only", i);
		return 0;
	}
	return 0;
}

static bool config_mounts_fresh_dev(const struct oci_spec *spec)
{
	for (size_t i = 0; i < spec->n_mounts; i++) {
		const struct oci_mount *m = &spec->mounts[i];

		if (strcmp(m->destination, "/dev") == 0)
			return m->type && strcmp(m->type, "bind") != 0;
	}
	return false;
}

static int pivot(int root_fd, struct shim_error *err)
{
	if (fchdir(root_fd) < 0)
		return shim_fail_errno(err, "chdir to the rootfs");
	/* The old root ends up stacked under the new one at "."; detach it. */
	if (sys_pivot_root(".", ".") < 0)
		return shim_fail_errno(err, "pivot_root");
	if (umount2(".", MNT_DETACH) < 0)
		return shim_fail_errno(err, "detaching the old root");
	if (chdir("/") < 0)
		return shim_fail_errno(err, "chdir /");
	return 0;
}

static int final_propagation(const char *name, struct shim_error *err)
{
	bool recursive = name[0] == 'r';
	const char *base = name + recursive;
	uint64_t prop = strcmp(base, "shared") == 0  ? MS_SHARED
			: strcmp(base, "slave") == 0 ? MS_SLAVE
			: strcmp(base, "private") == 0 ? MS_PRIVATE
						       : MS_UNBINDABLE;

	if (mount_set_propagation(AT_FDCWD, "/", prop, recursive, err) < 0)
		return shim_error_wrap(err, "linux.rootfsPropagation %s", name);
	return 0;
}

/* Step 3 and 4 below root_fd: the config's mounts, then /dev. */
static int mount_config(int root_fd, const struct oci_spec *spec, const struct fs_ctx *x,
			const int *prepared, struct rootfs_anchors *anchors, struct shim_error *err)
{
	anchors->fd = spec->n_mounts ? malloc(spec->n_mounts * sizeof(int)) : NULL;
	if (spec->n_mounts && !anchors->fd)
		return shim_fail(err, ENOMEM, "mounts: out of memory");
	anchors->n = spec->n_mounts;
	for (size_t i = 0; i < spec->n_mounts; i++)
		anchors->fd[i] = -1;
	for (size_t i = 0; i < spec->n_mounts; i++) {
		const struct oci_mount *m = &spec->mounts[i];

		log_debug("init: mounts[%zu]: %s on %s", i, m->type ? m->type : "bind",
			  m->destination);
		if (mount_one(root_fd, m, x, prepared ? prepared[i] : -1, &anchors->fd[i], err) < 0)
			return shim_error_wrap(err, "mounts[%zu] (%s)", i, m->destination);
	}
	if (config_mounts_fresh_dev(spec) && dev_setup(root_fd, err) < 0)
		return shim_error_wrap(err, "/dev");
	for (size_t i = 0; i < spec->n_devices; i++)
		if (make_listed_device(root_fd, &spec->devices[i], err) < 0)
			return shim_error_wrap(err, "linux.devices[%zu]", i);
	if (dev_finish(root_fd, spec, err) < 0)
		return -1;
	log_debug("init: /dev, %zu linux.devices made", spec->n_devices);
	return 0;
}

int rootfs_mount_all(const struct oci_spec *spec, const struct rootfs_inputs *in,
		     struct rootfs_anchors *anchors, struct shim_error *err)
{
	_cleanup_close_ int self = -1, root_fd = -1;
	const struct fs_ctx x = { .label = spec->mount_label, .cgroup_v1 = in->cgroup_v1,
				  .bundle = in->bundle };
	const char *rootfs = in->rootfs;

	if (!rootfs) {
		root_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (root_fd < 0)
			return shim_fail_errno(err, "root.path: the staged root");
	} else {
		if (mount_set_propagation(AT_FDCWD, "/", MS_SLAVE, true, err) < 0)
			return shim_error_wrap(err, "making / rslave");
		self = mount_clone_tree(AT_FDCWD, rootfs, true, err);
		if (self < 0 || mount_attach(self, AT_FDCWD, rootfs, err) < 0)
			return shim_error_wrap(err, "root.path: binding %s on itself", rootfs);
		root_fd = open(rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (root_fd < 0)
			return shim_fail_errno(err, "root.path: %s", rootfs);
	}
	if (mount_config(root_fd, spec, &x, in->prepared, anchors, err) < 0)
		return -1;
	return TAKE_FD(root_fd);
}

int rootfs_mount_inherited(const struct oci_spec *spec, const struct rootfs_inputs *in,
			   struct shim_error *err)
{
	_cleanup_close_ int root_fd = open(in->rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct rootfs_anchors anchors __attribute__((cleanup(rootfs_anchors_release))) = { 0 };
	const struct fs_ctx x = { .label = spec->mount_label, .cgroup_v1 = in->cgroup_v1,
				  .bundle = in->bundle };

	if (root_fd < 0)
		return shim_fail_errno(err, "root.path: %s", in->rootfs);
	log_debug("init: no mount namespace of its own: %zu mounts made in the runtime's, below %s",
		  spec->n_mounts, in->rootfs);
	return mount_config(root_fd, spec, &x, in->prepared, &anchors, err);
}

int rootfs_enter(int root_fd, const char *rootfs, bool no_pivot, struct shim_error *err)
{
	int r;

	if (!rootfs) {
		close(root_fd);
		return 0;
	}
	log_debug("init: %s", no_pivot ? "--no-pivot: moving the rootfs onto / and chroot"
					: "pivot_root");
	r = no_pivot ? move_root(root_fd, rootfs, err) : pivot(root_fd, err);
	close(root_fd);
	return r;
}

/*
 * stdio on the host's null device (a detached run's) is reopened on the
 * container's own /dev/null, as runc does: what it holds is then inside
 * the container's mounts (CRIU can dump it), and nothing of the host's
 * /dev stays open in it. The node is checked to be char 1:3 first.
 */
static int reopen_null_stdio(int root, struct shim_error *err)
{
	_cleanup_close_ int null = -1;
	struct stat st;

	for (int fd = 0; fd < 3; fd++) {
		if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) || st.st_rdev != makedev(1, 3))
			continue;
		if (null < 0) {
			struct shim_error why = { 0 };

			null = rootfs_open_null(root, O_RDWR | O_NOCTTY, &why);
			if (null < 0 && why.errnum == ENOENT)
				return 0;	/* no /dev/null of its own: the host's stays */
			if (null < 0) {
				*err = why;
				return shim_error_wrap(err, "stdio");
			}
		}
		if (dup2(null, fd) < 0)
			return shim_fail_errno(err, "stdio: dup2 of /dev/null on %d", fd);
	}
	return 0;
}

int rootfs_finish(const struct oci_spec *spec, const struct rootfs_anchors *anchors,
		  struct shim_error *err)
{
	/* past pivot_root: "/" is the container's root */
	_cleanup_close_ int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (root < 0)
		return shim_fail_errno(err, "open /");
	log_debug("init: maskedPaths, readonlyPaths, root.readonly, rootfsPropagation");
	if (masks_apply(root, spec, anchors, err) < 0 || reopen_null_stdio(root, err) < 0)
		return -1;
	if (spec->root_readonly && mount_set_attrs(AT_FDCWD, "/", MOUNT_ATTR_RDONLY, 0, false, err) < 0)
		return shim_error_wrap(err, "root.readonly");
	if (spec->rootfs_propagation && final_propagation(spec->rootfs_propagation, err) < 0)
		return -1;
	return 0;
}
