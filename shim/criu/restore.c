/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/descriptors.h"
#include "shim/bundle.h"
#include "shim/cgroups/cgroup_v1.h"
#include "shim/criu/criu.h"
#include "shim/criu/criu_common.h"
#include "shim/criu/restore.h"
#include "shim/fd.h"
#include "shim/filesystem/bind_sources.h"
#include "shim/filesystem/mount.h"
#include "shim/filesystem/rootfs.h"
#include "shim/fsutil.h"
#include "shim/hooks.h"
#include "shim/log.h"
#include "shim/syscalls.h"

#define RESTORE_LOG "restore.log"
#define CRIU_ROOT "criu-root"
#define DESCRIPTORS_MAX (64 * 1024)

/* Is dest below one of the config's tmpfs mounts? CRIU brings back a
 * tmpfs with what it held, mount points included. */
static bool under_tmpfs(const struct oci_spec *s, const char *dest)
{
	for (size_t i = 0; i < s->n_mounts; i++) {
		const struct oci_mount *m = &s->mounts[i];
		size_t n = strlen(m->destination);

		if (m->type && strcmp(m->type, "tmpfs") == 0 &&
		    strncmp(dest, m->destination, n) == 0 && dest[n] == '/')
			return true;
	}
	return false;
}

static bool source_is_dir(const struct bundle *b, const struct oci_mount *m)
{
	char path[PATH_MAX];
	struct stat st;

	if (!m->bind || !m->source)
		return true;
	return bind_source_path(m, b->path, path, sizeof(path)) < 0 || stat(path, &st) < 0 ||
	       S_ISDIR(st.st_mode);
}

/* The last bind mount before mounts[i] whose destination holds mounts[i]'s
 * (a nested one's parent), or NULL; *rel is the rest of the path. */
static const struct oci_mount *bind_parent(const struct oci_spec *s, size_t i, const char **rel)
{
	const char *dest = s->mounts[i].destination;

	while (i-- > 0) {
		const struct oci_mount *p = &s->mounts[i];
		size_t n = strlen(p->destination);

		while (n > 1 && p->destination[n - 1] == '/')
			n--;
		if (strncmp(dest, p->destination, n) == 0 && dest[n] == '/') {
			*rel = dest + n;
			return p->bind && p->source ? p : NULL;
		}
	}
	return NULL;
}

/* A mount point below a bind mount's destination lies in that mount's
 * source (CRIU binds the source, then looks there): made inside it, as
 * create made it through the mount, for a source made anew since. */
static int make_in_bind_source(const struct bundle *b, const struct oci_mount *parent,
			       const char *rel, bool as_file, struct shim_error *err)
{
	char path[PATH_MAX];
	_cleanup_close_ int src = -1;
	int fd;

	if (bind_source_path(parent, b->path, path, sizeof(path)) < 0)
		return shim_fail(err, ENAMETOOLONG, "the source of %s: too long",
				 parent->destination);
	src = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (src < 0)
		return shim_fail_errno(err, "the source %s of %s", path, parent->destination);
	fd = rootfs_make_path(src, rel, as_file, err);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* Mount points CRIU needs in the rootfs (a fresh copy of it, on another
 * host, may lack them), made inside it as create makes them; a nested
 * one inside its parent bind mount's source. */
static int make_mountpoints(const struct bundle *b, struct shim_error *err)
{
	_cleanup_close_ int root = open(b->rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (root < 0)
		return shim_fail_errno(err, "root.path: open %s", b->rootfs);
	for (size_t i = 0; i < b->spec->n_mounts; i++) {
		const struct oci_mount *m = &b->spec->mounts[i], *parent;
		const char *rel = NULL;
		int fd;

		if (under_tmpfs(b->spec, m->destination) ||
		    (m->type && strcmp(m->type, "cgroup") == 0))
			continue;
		fd = rootfs_make_path(root, m->destination, !source_is_dir(b, m), err);
		if (fd < 0)
			return shim_error_wrap(err, "mounts[%zu]: %s", i, m->destination);
		close(fd);
		parent = bind_parent(b->spec, i, &rel);
		if (parent && make_in_bind_source(b, parent, rel, !source_is_dir(b, m), err) < 0)
			return shim_error_wrap(err, "mounts[%zu]: %s", i, m->destination);
	}
	return 0;
}

/* Each external mount bound again from its source in this config. */
static int add_restore_mounts(struct bytebuf *o, const struct bundle *b, struct shim_error *err)
{
	for (size_t i = 0; i < b->spec->n_mounts; i++) {
		const struct oci_mount *m = &b->spec->mounts[i];
		char dest[PATH_MAX], source[PATH_MAX];

		if (!m->bind || !m->source)
			continue;
		criu_mount_key(b->rootfs, m->destination, dest, sizeof(dest));
		if (bind_source_path(m, b->path, source, sizeof(source)) < 0)
			return shim_fail(err, ENAMETOOLONG, "mounts[%zu] (%s): source: too long", i,
					 m->destination);
		pb_ext_mount(o, dest, source);
	}
	return 0;
}

/* descriptors.json: the init's fds 0-2 when it was dumped. A pipe among
 * them is given the restoring runtime's own fd of that number (CRIU's
 * stdio are ours): conmon's new pipes take the old ones' place. */
static int add_inherited_stdio(struct bytebuf *o, int image_fd, struct shim_error *err)
{
	_cleanup_free_ char *text = read_file_in_root(image_fd, OCI_DESCRIPTORS_FILE,
						      DESCRIPTORS_MAX, NULL, err);
	char *names[3];

	if (!text)
		return shim_error_wrap(err, "--image-path: %s", OCI_DESCRIPTORS_FILE);
	if (oci_descriptors_parse(text, strlen(text), names, err) < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if (names[i] && strncmp(names[i], "pipe:", 5) == 0)
			pb_inherit_fd(o, names[i], (int32_t)i);
	oci_descriptors_free(names);
	return 0;
}

struct restore_ctx {
	const struct restore_target *t;
	pid_t pid;
};

/* The restored tree's namespaces exist: prestart and createRuntime, as
 * runc runs them there. */
static int run_runtime_hooks(const struct restore_target *t, pid_t pid, struct shim_error *err)
{
	const struct oci_hooks *h = &t->b->spec->hooks;
	_cleanup_free_ char *state = NULL;

	if (!hooks_any(h, HOOK_PRESTART) && !hooks_any(h, HOOK_CREATE_RUNTIME))
		return 0;
	state = hooks_state_json(t->b->spec, t->id, pid, "creating", t->b->path, err);
	if (!state || hooks_run(h, HOOK_PRESTART, state, -1, err) < 0 ||
	    hooks_run(h, HOOK_CREATE_RUNTIME, state, -1, err) < 0)
		return -1;
	return 0;
}

/* CRIU made a new pty for the restored terminal: its master goes where a
 * created container's would. */
static int hand_over_master(const struct restore_target *t, int master, struct shim_error *err)
{
	_cleanup_close_ int sock = -1;

	if (master < 0)
		return shim_fail(err, EPROTO, "no pty master came with orphan-pts-master");
	if (t->console_socket) {
		sock = fd_connect_unix(t->console_socket, "--console-socket", err);
		if (sock < 0 || fd_send(sock, master, err) < 0) {
			close(master);
			return -1;
		}
		close(master);
		return 0;
	}
	if (t->master) {
		safe_close(*t->master);
		*t->master = master;
		return 0;
	}
	close(master);
	return shim_fail(err, EINVAL, "process.terminal: the restored pty needs --console-socket");
}

static int on_notify(void *arg, const struct criu_resp *r, int fd, struct shim_error *err)
{
	struct restore_ctx *ctx = arg;

	if (strcmp(r->notify_script, "orphan-pts-master") == 0)
		return hand_over_master(ctx->t, fd, err);
	safe_close(fd);
	if (strcmp(r->notify_script, "setup-namespaces") == 0)
		return run_runtime_hooks(ctx->t, r->notify_pid, err);
	if (strcmp(r->notify_script, "post-restore") == 0)
		ctx->pid = r->notify_pid;
	return 0;
}

/*
 * CRIU's root must be a mount point: the rootfs is bound at root. That
 * happens in a mount namespace of the restore's own (a slave copy of the
 * host's, made now), and CRIU works in it too: it opens the image folder
 * through /proc/OURPID/fd, and mounts its cgroup yard in its cwd, both of
 * which must be in its own namespace. Nothing of it reaches the host.
 */
static int bind_root(const struct restore_target *t, const char *root, struct shim_error *err)
{
	_cleanup_close_ int mnt = -1;

	if (unshare(CLONE_NEWNS) < 0)
		return shim_fail_errno(err, "restore: unshare(CLONE_NEWNS)");
	if (mount_set_propagation(AT_FDCWD, "/", MS_SLAVE, true, err) < 0)
		return shim_error_wrap(err, "restore: a mount namespace of its own");
	if (mkdirat(t->dir_fd, CRIU_ROOT, 0700) < 0 && errno != EEXIST)
		return shim_fail_errno(err, "mkdir %s", root);
	mnt = mount_clone_tree(AT_FDCWD, t->b->rootfs, true, err);
	if (mnt < 0 || mount_attach(mnt, AT_FDCWD, root, err) < 0)
		return shim_error_wrap(err, "restore: binding the rootfs at %s", root);
	return 0;
}

/* criu swrk starts in the container's cgroup; on a v1 host it joins the
 * container's folders before it is asked anything. */
static int restore_opts(struct bytebuf *opts, const struct restore_opts *o,
			const struct restore_target *t, const struct criu_dirs *d,
			const char *root, struct shim_error *err)
{
	struct bytebuf cg = { 0 };
	char cg_path[PATH_MAX];

	criu_common_opts(opts, &o->f, d, RESTORE_LOG, root);
	pb_bool(opts, CRIU_OPT_RST_SIBLING, true);
	pb_bool(opts, CRIU_OPT_EVASIVE_DEVICES, true);
	if (o->empty_ns)
		pb_varint(opts, CRIU_OPT_EMPTY_NS, o->empty_ns);
	if (o->lsm_profile)
		pb_string(opts, CRIU_OPT_LSM_PROFILE, o->lsm_profile);
	if (o->lsm_mount_context)
		pb_string(opts, CRIU_OPT_LSM_MOUNT_CONTEXT, o->lsm_mount_context);
	if (t->cgroup_rel && t->cgroup_rel[0]) {
		/* every controller's tasks go below the container's folder */
		criu_clean_path(t->cgroup_rel, cg_path, sizeof(cg_path));
		pb_string(&cg, 2, cg_path);
		pb_message(opts, CRIU_OPT_CG_ROOT, &cg);
	}
	if (add_restore_mounts(opts, t->b, err) < 0 || add_inherited_stdio(opts, d->image, err) < 0)
		return -1;
	return opts->failed ? shim_fail(err, ENOMEM, "criu: encoding the options") : 0;
}

/* The namespaces a dump recorded as external (joined by path: checkpoint's
 * add_external_ns), as runc hands them over: the configured one opened
 * and given to criu under the key the dump used. */
struct external_ns {
	int fd[2];
	size_t n;
};

static int open_external_ns(struct bytebuf *o, const struct oci_spec *s, struct external_ns *x,
			    struct shim_error *err)
{
	static const struct { enum oci_ns_type type; const char *key; } ext[] = {
		{ OCI_NS_NETWORK, "extRootNetNS" }, { OCI_NS_PID, "extRootPidNS" },
	};

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		const struct oci_namespace *ns = oci_spec_namespace(s, ext[i].type);

		if (!ns || !ns->path)
			continue;
		x->fd[x->n] = open(ns->path, O_RDONLY | O_CLOEXEC);
		if (x->fd[x->n] < 0)
			return shim_fail_errno(err, "restore: linux.namespaces: open %s", ns->path);
		/* criu sees the inherited fds from 4 on (shim/criu/criu.h) */
		pb_inherit_fd(o, ext[i].key, (int32_t)(4 + x->n));
		log_debug("restore: %s %s given to criu as %s", oci_ns_type_name(ext[i].type),
			  ns->path, ext[i].key);
		x->n++;
	}
	return o->failed ? shim_fail(err, ENOMEM, "criu: encoding the options") : 0;
}

static int enter_v1(const void *arg, pid_t pid, struct shim_error *err)
{
	const struct restore_target *t = arg;

	return cgroup_v1_enter(t->v1, pid, err);
}

int checkpoint_restore_init(const struct restore_opts *o, const struct restore_target *t,
			    pid_t *pid, int *pidfd, struct shim_error *err)
{
	struct criu_dirs dirs __attribute__((cleanup(criu_dirs_close))) = CRIU_DIRS_NONE;
	struct bytebuf opts = { 0 };
	struct restore_ctx ctx = { .t = t };
	char root[PATH_MAX] = "";
	bool bound = false;
	struct criu_call call = { .type = CRIU_REQ_RESTORE, .opts = &opts,
				  .cgroup_fd = t->cgroup_fd, .notify = on_notify, .arg = &ctx };
	struct criu_resp resp;
	struct external_ns ext = { .fd = { -1, -1 } };
	int r = -1;

	if (geteuid() != 0)
		return shim_fail(err, EPERM, "restore: CRIU needs root");
	if (path_format(root, sizeof(root), err, "%s/%s", t->state_dir, CRIU_ROOT) < 0 ||
	    make_mountpoints(t->b, err) < 0 || (bound = true, bind_root(t, root, err) < 0) ||
	    criu_open_dirs(&o->f, false, &dirs, err) < 0 ||
	    restore_opts(&opts, o, t, &dirs, root, err) < 0 ||
	    open_external_ns(&opts, t->b->spec, &ext, err) < 0)
		goto out;
	call.inherit = ext.fd;
	call.n_inherit = ext.n;
	if (t->v1 && cgroup_v1_is_open(t->v1)) {
		call.started = enter_v1;
		call.started_arg = t;
	}
	log_debug("restore %s: from %s, rootfs %s", t->id, o->f.image_path, t->b->rootfs);
	if (criu_call(&call, &resp, err) < 0) {
		criu_quote_log(criu_log_dir(&dirs), RESTORE_LOG);
		shim_error_wrap(err, "restore %s (log: %s/%s)", t->id,
				o->f.work_path ? o->f.work_path : o->f.image_path, RESTORE_LOG);
		goto out;
	}
	*pid = resp.restored_pid ? resp.restored_pid : ctx.pid;
	*pidfd = sys_pidfd_open(*pid, 0);
	if (*pidfd < 0) {
		shim_fail_errno(err, "restore %s: pidfd_open(%d) of the restored init", t->id,
				(int)*pid);
		goto out;
	}
	log_debug("restore %s: init %d restored", t->id, (int)*pid);
	r = 0;
out:
	bytebuf_free(&opts);
	for (size_t i = 0; i < ext.n; i++)
		close(ext.fd[i]);
	/* only in our namespace; umount2 is the one call that detaches a
	 * mount by path (the new mount API has none) */
	if (bound) {
		umount2(root, MNT_DETACH);
		unlinkat(t->dir_fd, CRIU_ROOT, AT_REMOVEDIR);
	}
	return r;
}
