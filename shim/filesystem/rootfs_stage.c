/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/filesystem/bind_sources.h"
#include "shim/filesystem/mount.h"
#include "shim/filesystem/rootfs.h"
#include "shim/log.h"

/* Each bind source not prepared yet, cloned as a detached tree. */
static int clone_bind_sources(const struct oci_spec *spec, const char *bundle, int *prepared,
			      struct shim_error *err)
{
	for (size_t i = 0; i < spec->n_mounts; i++) {
		const struct oci_mount *m = &spec->mounts[i];
		char source[PATH_MAX];
		bool recursive;

		if (prepared[i] >= 0 || !mount_is_bind(m, &recursive))
			continue;
		if (bind_source_path(m, bundle, source, sizeof(source)) < 0)
			return shim_fail(err, 0, "mounts[%zu] (%s): source: missing for a bind mount "
					 "(or too long)", i, m->destination);
		prepared[i] = mount_clone_tree(AT_FDCWD, source, recursive, err);
		if (prepared[i] < 0)
			return shim_fail(err, err->errnum, "mounts[%zu] (%s): source %s", i,
					 m->destination, source);
	}
	return 0;
}

int rootfs_stage(const struct oci_spec *spec, const char *rootfs, const char *bundle,
		 int *prepared, bool no_pivot, struct shim_error *err)
{
	_cleanup_close_ int tree = -1, root_fd = -1;

	rootfs_probe_host();
	if (clone_bind_sources(spec, bundle, prepared, err) < 0)
		return -1;
	tree = mount_clone_tree(AT_FDCWD, rootfs, true, err);
	if (tree < 0)
		return shim_error_wrap(err, "root.path");
	if (unshare(CLONE_NEWNS) < 0)
		return shim_fail_errno(err, "unshare(CLONE_NEWNS)");
	if (mount_set_propagation(AT_FDCWD, "/", MS_SLAVE, true, err) < 0)
		return shim_error_wrap(err, "making / rslave");
	if (mount_attach(tree, AT_FDCWD, rootfs, err) < 0)
		return shim_error_wrap(err, "root.path: binding %s on itself", rootfs);
	root_fd = open(rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		return shim_fail_errno(err, "root.path: %s", rootfs);
	log_debug("init: staged: the rootfs is the root of a mount namespace of its own, the "
		  "host's left behind%s", no_pivot ? " (--no-pivot: below it, chrooted)" : "");
	return rootfs_enter(TAKE_FD(root_fd), rootfs, no_pivot, err);
}

int rootfs_chroot(const char *rootfs, struct shim_error *err)
{
	_cleanup_close_ int fd = open(rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return shim_fail_errno(err, "root.path: %s", rootfs);
	if (fchdir(fd) < 0 || chroot(".") < 0 || chdir("/") < 0)
		return shim_fail_errno(err, "root.path: chroot %s", rootfs);
	log_debug("init: no mount namespace of its own: chrooted in %s", rootfs);
	return 0;
}
