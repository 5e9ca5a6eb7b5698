/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/descriptors.h"
#include "shim/bundle.h"
#include "shim/cgroups/cgroup.h"
#include "shim/container.h"
#include "shim/criu/checkpoint.h"
#include "shim/criu/criu.h"
#include "shim/criu/criu_common.h"
#include "shim/filesystem/rootfs.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/pidfd.h"

#define DUMP_WAIT_MS 10000

/* The init's fds 0, 1 and 2 as /proc names them ("pipe:[123]",
 * "/dev/null"): restore hands a pipe over to its new end by that name. */
static int write_descriptors(int image_fd, pid_t pid, struct shim_error *err)
{
	char targets[3][PATH_MAX];
	const char *names[3];
	_cleanup_free_ char *text = NULL;
	_cleanup_close_ int fd = -1;

	for (int i = 0; i < 3; i++) {
		char path[64];
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, i);
		n = readlink(path, targets[i], sizeof(targets[i]) - 1);
		targets[i][n < 0 ? 0 : n] = '\0';
		names[i] = n < 0 ? "/dev/null" : targets[i];
	}
	text = oci_descriptors_to_json(names, err);
	if (!text)
		return -1;
	fd = openat(image_fd, OCI_DESCRIPTORS_FILE, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
		    O_CLOEXEC, 0600);
	if (fd < 0 || write_all(fd, text) < 0)
		return shim_fail_errno(err, "--image-path: write %s", OCI_DESCRIPTORS_FILE);
	return 0;
}

/* Bind mounts come from outside the container: CRIU records them as
 * external, by their destination, for restore to bind again. */
static void add_dump_mounts(struct bytebuf *o, const struct oci_spec *s, const char *rootfs)
{
	for (size_t i = 0; i < s->n_mounts; i++) {
		char dest[PATH_MAX];

		if (!s->mounts[i].bind)
			continue;
		criu_mount_key(rootfs, s->mounts[i].destination, dest, sizeof(dest));
		pb_ext_mount(o, dest, dest);
	}
}

/* A network or PID namespace joined by path is not the container's to
 * dump: CRIU records it as external (restore joins the one configured). */
static int add_external_ns(struct bytebuf *o, struct oci_spec *s, struct shim_error *err)
{
	static const struct { enum oci_ns_type type; const char *criu, *key; } ext[] = {
		{ OCI_NS_NETWORK, "net", "extRootNetNS" },
		{ OCI_NS_PID, "pid", "extRootPidNS" },
	};

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		const struct oci_namespace *ns = oci_spec_namespace(s, ext[i].type);
		struct stat st;
		char text[128];

		if (!ns || !ns->path)
			continue;
		if (stat(ns->path, &st) < 0)
			return shim_fail_errno(err, "linux.namespaces: %s: stat %s", ext[i].criu,
					       ns->path);
		snprintf(text, sizeof(text), "%s[%llu]:%s", ext[i].criu,
			 (unsigned long long)st.st_ino, ext[i].key);
		pb_string(o, CRIU_OPT_EXTERNAL, text);
	}
	return 0;
}

static int check_parent(const struct checkpoint_opts *o, int image_fd, struct shim_error *err)
{
	struct stat st;

	if (!o->parent_path)
		return 0;
	if (o->parent_path[0] == '/')
		return shim_fail(err, EINVAL, "--parent-path: must be relative to --image-path");
	if (fstatat(image_fd, o->parent_path, &st, 0) < 0)
		return shim_fail_errno(err, "--parent-path: %s/%s", o->f.image_path, o->parent_path);
	if (!S_ISDIR(st.st_mode))
		return shim_fail(err, ENOTDIR, "--parent-path: %s/%s is not a folder",
				 o->f.image_path, o->parent_path);
	return 0;
}

static int dump_opts(struct bytebuf *opts, const struct container *c, const struct bundle *b,
		     const struct checkpoint_opts *o, const struct criu_dirs *d,
		     struct shim_error *err)
{
	criu_common_opts(opts, &o->f, d, o->pre_dump ? "pre-dump.log" : "dump.log",
			 c->state->rootfs);
	pb_int32(opts, CRIU_OPT_PID, c->state->pid);
	pb_bool(opts, CRIU_OPT_LEAVE_RUNNING, o->leave_running);
	if (o->parent_path) {
		pb_string(opts, CRIU_OPT_PARENT_IMG, o->parent_path);
		pb_bool(opts, CRIU_OPT_TRACK_MEM, true);
	}
	if (o->pre_dump)
		pb_bool(opts, CRIU_OPT_TRACK_MEM, true);
	/* the cgroup v2 freezer stops the whole tree at once (CRIU >= 3.14) */
	if (c->state->cgroup_path) {
		char path[PATH_MAX];

		if (path_format(path, sizeof(path), err, "%s%s", CGROUP_ROOT,
				c->state->cgroup_path) < 0)
			return shim_error_wrap(err, "checkpoint: the cgroup");
		pb_string(opts, CRIU_OPT_FREEZE_CGROUP, path);
	}
	if (add_external_ns(opts, b->spec, err) < 0)
		return -1;
	if (!o->pre_dump)
		add_dump_mounts(opts, b->spec, c->state->rootfs);
	return opts->failed ? shim_fail(err, ENOMEM, "criu: encoding the options") : 0;
}

/* CRIU killed the tree: wait for the init, then delete as `delete` does. */
static int remove_dumped(const char *root, struct container *c, struct shim_error *err)
{
	int r = pidfd_wait_exit(c->pidfd, DUMP_WAIT_MS, err);

	if (r <= 0)
		return r < 0 ? -1 : shim_fail(err, ETIMEDOUT, "checkpoint: the init of %s is still "
					      "there after the dump", c->id);
	c->status = STATUS_STOPPED;
	log_debug("checkpoint %s: dumped and stopped; deleting it", c->id);
	return container_delete(root, c, false, err);
}

int container_checkpoint(const char *root, struct container *c, const struct checkpoint_opts *o,
			 struct shim_error *err)
{
	struct bundle b = { 0 };
	struct criu_dirs dirs __attribute__((cleanup(criu_dirs_close))) = CRIU_DIRS_NONE;
	struct bytebuf opts = { 0 };
	struct criu_call call = { .type = o->pre_dump ? CRIU_REQ_PRE_DUMP : CRIU_REQ_DUMP,
				  .opts = &opts, .cgroup_fd = -1 };
	struct criu_resp resp;
	int r = -1;

	if (c->status != STATUS_RUNNING && c->status != STATUS_PAUSED)
		return shim_fail(err, 0, "container %s cannot be checkpointed in %s state", c->id,
				 container_status_name(c->status));
	if (geteuid() != 0)
		return shim_fail(err, EPERM, "checkpoint: CRIU needs root");
	if (bundle_load_saved(c->dir_fd, c->state->bundle, &b, err) < 0 ||
	    criu_open_dirs(&o->f, true, &dirs, err) < 0 ||
	    check_parent(o, dirs.image, err) < 0 ||
	    (!o->pre_dump && write_descriptors(dirs.image, c->state->pid, err) < 0) ||
	    dump_opts(&opts, c, &b, o, &dirs, err) < 0)
		goto out;
	log_debug("checkpoint %s: %s of init %d into %s", c->id, o->pre_dump ? "pre-dump" : "dump",
		  (int)c->state->pid, o->f.image_path);
	if (criu_call(&call, &resp, err) < 0) {
		criu_quote_log(criu_log_dir(&dirs),
			       o->pre_dump ? "pre-dump.log" : "dump.log");
		shim_error_wrap(err, "checkpoint %s (log: %s/%s)", c->id,
				o->f.work_path ? o->f.work_path : o->f.image_path,
				o->pre_dump ? "pre-dump.log" : "dump.log");
		goto out;
	}
	r = 0;
	if (!o->leave_running && !o->pre_dump)
		r = remove_dumped(root, c, err);
out:
	bytebuf_free(&opts);
	bundle_release(&b);
	return r;
}
