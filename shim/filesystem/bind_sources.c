/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "oci/mount_options.h"
#include "shim/clone.h"
#include "shim/filesystem/bind_sources.h"
#include "shim/filesystem/mount.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/pidfd.h"
#include "shim/sync.h"

bool mount_is_bind(const struct oci_mount *m, bool *recursive)
{
	if (recursive)
		*recursive = m->opts.rbind;
	return m->bind;
}

int bind_source_path(const struct oci_mount *m, const char *bundle, char *buf, size_t len)
{
	struct shim_error too_long = { 0 };

	if (!m->source || !*m->source)
		return -1;
	return path_format(buf, len, &too_long, "%s%s%s", m->source[0] == '/' ? "" : bundle,
			   m->source[0] == '/' ? "" : "/", m->source);
}

struct sources_job {
	int pidfd;
	const struct oci_spec *spec;
	const char *bundle;
	const int *skip;
	int sync_fd;
};

static void send_source(const struct sources_job *j, size_t i)
{
	struct shim_error ignored = { 0 };
	char source[4096];
	bool recursive;
	int tree;

	if (!mount_is_bind(&j->spec->mounts[i], &recursive) || (j->skip && j->skip[i] >= 0) ||
	    bind_source_path(&j->spec->mounts[i], j->bundle, source, sizeof(source)) < 0)
		return;
	tree = mount_clone_tree(AT_FDCWD, source, recursive, &ignored);
	if (tree < 0)
		return;		/* the init tries, and says why it fails */
	sync_send_fd(j->sync_fd, SYNC_MOUNT_FD, (int)i, tree);
	close(tree);
}

/* In the helper: the init's mount namespace, with the runtime's rights. */
static int open_sources(void *arg)
{
	const struct sources_job *j = arg;

	if (setns(j->pidfd, CLONE_NEWNS) < 0)
		return 1;
	for (size_t i = 0; i < j->spec->n_mounts; i++)
		send_source(j, i);
	return 0;
}

static bool has_bind_to_open(const struct oci_spec *spec, const int *skip)
{
	for (size_t i = 0; i < spec->n_mounts; i++)
		if (mount_is_bind(&spec->mounts[i], NULL) && !(skip && skip[i] >= 0))
			return true;
	return false;
}

int bind_sources_send(int pidfd, const struct oci_spec *spec, const char *bundle,
		      const int *skip, int sync_fd, struct shim_error *err)
{
	struct sources_job job = { pidfd, spec, bundle, skip, sync_fd };
	int helper = -1, status = 0;

	if (!has_bind_to_open(spec, skip))
		return 0;
	if (clone_with_pidfd(0, -1, open_sources, &job, &helper, err) < 0)
		return shim_error_wrap(err, "opening the bind sources");
	if (pidfd_reap(helper, &status, err) < 0) {
		close(helper);
		return -1;
	}
	close(helper);
	if (status != 0)
		log_debug("bind sources: could not join the init's mount namespace (status %d): "
			  "the init opens them", status);
	else
		log_debug("bind sources opened by the runtime in the init's mount namespace");
	return 0;
}
