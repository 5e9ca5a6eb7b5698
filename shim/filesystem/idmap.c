/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/mount_options.h"
#include "shim/clone.h"
#include "shim/filesystem/bind_sources.h"
#include "shim/filesystem/idmap.h"
#include "shim/filesystem/mount.h"
#include "shim/fsutil.h"
#include "shim/namespaces.h"
#include "shim/pidfd.h"

/* The namespace's holder: it lives until the runtime closes its end. */
static int wait_for_eof(void *arg)
{
	int *hold = arg;
	char byte;

	close(hold[1]);
	return read(hold[0], &byte, 1) < 0;
}

/* A user namespace with these maps, as an fd. */
static int userns_for(const struct oci_mount *m, struct shim_error *err)
{
	int hold[2], pidfd = -1, ns = -1, status;
	char path[64];
	pid_t pid;

	if (pipe2(hold, O_CLOEXEC) < 0)
		return shim_fail_errno(err, "pipe");
	pid = clone_with_pidfd(CLONE_NEWUSER, -1, wait_for_eof, hold, &pidfd, err);
	close(hold[0]);
	if (pid > 0 &&
	    ns_write_map(pid, "uid_map", m->uid_mappings, m->n_uid_mappings,
			 "the mount's uidMappings", err) == 0 &&
	    ns_write_map(pid, "gid_map", m->gid_mappings, m->n_gid_mappings,
			 "the mount's gidMappings", err) == 0) {
		snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
		ns = open(path, O_RDONLY | O_CLOEXEC);
		if (ns < 0)
			shim_fail_errno(err, "open %s", path);
	}
	close(hold[1]);	/* the child sees EOF and exits */
	if (pid > 0) {
		pidfd_reap(pidfd, &status, NULL);
		close(pidfd);
	}
	return ns;
}

static int prepare_one(const struct oci_mount *m, const char *bundle, struct shim_error *err)
{
	const struct mount_opts *o = &m->opts;
	char source[PATH_MAX];
	_cleanup_close_ int ns = -1;
	int tree;

	if (!m->bind)
		return shim_fail(err, EINVAL, "idmap: only a bind mount can be idmapped (invalid mount)");
	if (!m->n_uid_mappings || !m->n_gid_mappings)
		return shim_fail(err, 0, "idmap needs uidMappings and gidMappings on the mount "
				 "(invalid mount)");
	if (bind_source_path(m, bundle, source, sizeof(source)) < 0)
		return shim_fail(err, 0, "source: missing for a bind mount (or too long)");
	ns = userns_for(m, err);
	if (ns < 0)
		return shim_error_wrap(err, "idmap: user namespace for the mappings");
	tree = mount_clone_tree(AT_FDCWD, source, o->rbind, err);
	if (tree < 0)
		return -1;
	if (mount_set_idmap(tree, ns, o->idmap_recursive, err) < 0) {
		close(tree);
		return shim_error_wrap(err, "idmap %s", source);
	}
	return tree;
}

int idmap_prepare(const struct oci_spec *spec, const char *bundle, int **trees,
		  struct shim_error *err)
{
	*trees = NULL;
	for (size_t i = 0; i < spec->n_mounts; i++) {
		if (!spec->mounts[i].opts.idmap)
			continue;
		if (!*trees) {
			*trees = malloc(spec->n_mounts * sizeof(int));
			if (!*trees)
				return shim_fail(err, ENOMEM, "idmap");
			for (size_t k = 0; k < spec->n_mounts; k++)
				(*trees)[k] = -1;
		}
		(*trees)[i] = prepare_one(&spec->mounts[i], bundle, err);
		if ((*trees)[i] < 0) {
			idmap_release(*trees, spec->n_mounts);
			*trees = NULL;
			return shim_error_wrap(err, "mounts[%zu] (%s)", i, spec->mounts[i].destination);
		}
	}
	return 0;
}

void idmap_release(int *trees, size_t n)
{
	for (size_t i = 0; trees && i < n; i++)
		safe_close(trees[i]);
	free(trees);
}
