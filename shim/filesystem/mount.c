/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/filesystem/mount.h"
#include "shim/syscalls.h"

/* Append what the filesystem logged ("e tmpfs: Bad value for 'mode'"). */
static void add_fs_log(int fs_fd, struct shim_error *err)
{
	char line[256];
	ssize_t n;

	if (!err)
		return;
	while ((n = read(fs_fd, line, sizeof(line) - 1)) > 0) {
		size_t used = strlen(err->msg);

		line[n] = '\0';
		line[strcspn(line, "\n")] = '\0';
		snprintf(err->msg + used, sizeof(err->msg) - used, " (%s)", line);
	}
}

static int fs_param(int fs_fd, const struct mount_opts *o, unsigned int i, struct shim_error *err)
{
	const char *param = o->fs_params[i];
	char key[128];
	const char *eq = strchr(param, '=');
	int r;

	if (!eq)
		r = sys_fsconfig(fs_fd, SHIM_FSCONFIG_SET_FLAG, param, NULL, 0);
	else if ((size_t)(eq - param) >= sizeof(key))
		return shim_fail(err, EINVAL, "%s.options[%u] \"%s\": key too long", o->where,
				 o->fs_param_index[i], param);
	else {
		memcpy(key, param, (size_t)(eq - param));
		key[eq - param] = '\0';
		r = sys_fsconfig(fs_fd, SHIM_FSCONFIG_SET_STRING, key, eq + 1, 0);
	}
	if (r < 0) {
		shim_fail_errno(err, "%s.options[%u] \"%s\"", o->where, o->fs_param_index[i], param);
		add_fs_log(fs_fd, err);
		return -1;
	}
	return 0;
}

int mount_new_fs(const char *type, const char *source, const struct mount_opts *o,
		 const char *label, struct shim_error *err)
{
	_cleanup_close_ int fs_fd = sys_fsopen(type, FSOPEN_CLOEXEC);
	int mnt_fd;

	if (fs_fd < 0)
		return shim_fail_errno(err, "fsopen(\"%s\")", type);
	if (source && *source &&
	    sys_fsconfig(fs_fd, SHIM_FSCONFIG_SET_STRING, "source", source, 0) < 0) {
		shim_fail_errno(err, "fsconfig source \"%s\"", source);
		add_fs_log(fs_fd, err);
		return -1;
	}
	for (unsigned int i = 0; i < o->n_fs_params; i++)
		if (fs_param(fs_fd, o, i, err) < 0)
			return -1;
	/* one string to fsconfig: no quoting of the commas of an MCS range */
	if (label && sys_fsconfig(fs_fd, SHIM_FSCONFIG_SET_STRING, "context", label, 0) < 0) {
		shim_fail_errno(err, "linux.mountLabel \"%s\" as the %s context", label, type);
		add_fs_log(fs_fd, err);
		return -1;
	}
	if (sys_fsconfig(fs_fd, SHIM_FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		shim_fail_errno(err, "creating the %s filesystem", type);
		add_fs_log(fs_fd, err);
		return -1;
	}
	mnt_fd = sys_fsmount(fs_fd, FSMOUNT_CLOEXEC, (unsigned int)(o->attr_set | o->rattr_set));
	if (mnt_fd < 0)
		return shim_fail_errno(err, "fsmount %s", type);
	return mnt_fd;
}

int mount_clone_tree(int dfd, const char *path, bool recursive, struct shim_error *err)
{
	unsigned int flags = OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | (recursive ? AT_RECURSIVE : 0);
	int fd;

	if (!*path)
		flags |= AT_EMPTY_PATH;
	fd = sys_open_tree(dfd, path, flags);
	if (fd < 0)
		return shim_fail_errno(err, "open_tree %s", *path ? path : "(fd)");
	return fd;
}

/* How long a read-only change waits for writers to go (EBUSY). */
#define RDONLY_BUSY_TRIES 500
#define RDONLY_BUSY_WAIT_US 1000

static int setattr(int dfd, const char *path, struct shim_mount_attr *attr, bool recursive,
		   struct shim_error *err)
{
	unsigned int flags = (recursive ? AT_RECURSIVE : 0) | (*path ? 0 : AT_EMPTY_PATH);

	/* A mount with a file open for writing cannot be made read-only
	 * (EBUSY): a process that shares the init's PID namespace may write
	 * through /proc/PID/root for an instant; wait that out, boundedly. */
	for (int tries = 0; sys_mount_setattr(dfd, path, flags, attr, sizeof(*attr)) < 0; tries++) {
		if (errno != EBUSY || !(attr->attr_set & MOUNT_ATTR_RDONLY) ||
		    tries == RDONLY_BUSY_TRIES)
			return shim_fail_errno(err, "mount_setattr %s", *path ? path : "(fd)");
		usleep(RDONLY_BUSY_WAIT_US);
	}
	return 0;
}

int mount_set_attrs(int dfd, const char *path, uint64_t set, uint64_t clr,
		    bool recursive, struct shim_error *err)
{
	struct shim_mount_attr attr = { .attr_set = set, .attr_clr = clr };

	if (!set && !clr)
		return 0;
	return setattr(dfd, path, &attr, recursive, err);
}

int mount_set_propagation(int dfd, const char *path, uint64_t propagation,
			  bool recursive, struct shim_error *err)
{
	struct shim_mount_attr attr = { .propagation = propagation };

	return setattr(dfd, path, &attr, recursive, err);
}

int mount_set_idmap(int mnt_fd, int userns_fd, bool recursive, struct shim_error *err)
{
	struct shim_mount_attr attr = { .attr_set = MOUNT_ATTR_IDMAP, .userns_fd = (uint64_t)userns_fd };

	return setattr(mnt_fd, "", &attr, recursive, err);
}

int mount_attach(int mnt_fd, int dfd, const char *path, struct shim_error *err)
{
	unsigned int flags = MOVE_MOUNT_F_EMPTY_PATH | (*path ? 0 : MOVE_MOUNT_T_EMPTY_PATH);

	if (sys_move_mount(mnt_fd, "", dfd, path, flags) < 0)
		return shim_fail_errno(err, "move_mount onto %s", *path ? path : "(fd)");
	return 0;
}
