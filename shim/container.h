/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/container.h: the lifecycle.
 *
 *   create: state folder, exec.fifo, clone3(CLONE_PIDFD | new namespaces);
 *           the init sets itself up and reports ready, then blocks opening
 *           exec.fifo for writing                        -> "created"
 *   start:  open exec.fifo for reading; the init goes on to exec
 *                                                         -> "running"
 *   pause/resume: cgroup.freeze                          -> "paused"/"running"
 *   the init exits (seen by polling its pidfd)           -> "stopped"
 *   delete: (with force, SIGKILL through the pidfd first) remove the folder
 *
 * The status is never stored: it is read off the init's pidfd (opened by
 * PID and checked against the recorded start time) and the fifo.
 */
#ifndef SHIM_CONTAINER_H
#define SHIM_CONTAINER_H

#include <stdbool.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "oci/state.h"
#include "shim/cgroups/cgroup_v1.h"

struct restore_opts;

struct create_opts {
	const char *root;		/* --root */
	const char *id;
	const char *bundle;		/* --bundle, may be relative */
	const char *pid_file;		/* --pid-file or NULL */
	const char *console_socket;	/* --console-socket or NULL */
	const char *pidfd_socket;	/* --pidfd-socket or NULL */
	unsigned int preserve_fds;	/* --preserve-fds */
	unsigned int listen_fds;	/* socket activation: fds 3.. (LISTEN_FDS), before the
					 * preserved ones (shim/cmd/create.c) */
	bool terminal_proxy;		/* `run` in the foreground: it copies the pty */
	bool keep;			/* run --keep: not deleted once it exits */
	bool no_new_keyring;		/* --no-new-keyring: keep the caller's session keyring */
	bool no_pivot;			/* --no-pivot: chroot, not pivot_root (shim/filesystem/move_root.h) */
	bool systemd_cgroup;		/* --systemd-cgroup: a transient scope (shim/cgroups/systemd.h) */
	/* `restore`: the init is brought back by CRIU from an image instead
	 * of cloned (shim/criu/checkpoint.h); the container is then running */
	const struct restore_opts *restore;
};

enum container_status {
	STATUS_CREATED, STATUS_RUNNING, STATUS_PAUSED, STATUS_STOPPED,
	STATUS_CREATING,	/* state.json has no init yet and its create runs */
};

struct container {
	char *id;
	int dir_fd;			/* the state folder, O_PATH */
	struct oci_state *state;	/* status filled in as read now */
	int pidfd;			/* -1 once stopped */
	int cgroup_fd;			/* its cgroup folder, -1 if none */
	struct cgroup_v1 v1;		/* a cgroup v1 host: its folders (none open else) */
	enum container_status status;
	unsigned records;		/* RECORD_* (shim/holdings.h): the optional records
					 * it may hold */
};


/* Create; on success the init waits for start. With out, the caller gets
 * the container as container_load would give it, "created", holding the
 * init's pidfd (and, as its parent, reaps it); release it with
 * container_release. With terminal_proxy and process.terminal,
 * *master_out is the pty master (else -1). */
int container_create(const struct create_opts *o, struct container *out, int *master_out,
		     struct shim_error *err);

int container_load(const char *root, const char *id, struct container *c, struct shim_error *err);
void container_release(struct container *c);

/* "created", "running", "paused", "stopped" */
const char *container_status_name(enum container_status s);

/* The init goes on to exec. With notify and NOTIFY_SOCKET given, the
 * container's messages are passed on until READY (shim/notify.h). */
int container_start(struct container *c, bool notify, struct shim_error *err);
int container_kill(struct container *c, int sig, bool all, struct shim_error *err);

/* Stopped, or created: removed. Running: an error unless force (SIGKILL,
 * wait for the exit, remove). */
int container_delete(const char *root, struct container *c, bool force, struct shim_error *err);

/* `run` in the foreground: forward signals to the init until it exits;
 * *status is its exit status (128 + signal if killed). */
int container_wait(int pidfd, int *status, struct shim_error *err);

/* Signals that `run` forwards; blocked before create so none is lost. */
/* delete -f of a container whose state cannot be read (lost, corrupt, a
 * link planted at ROOT/ID): kill and remove what its cgroup record names,
 * then its folder (a link is removed as a link). */
int container_remove_broken(const char *root, const char *id, struct shim_error *err);

void container_block_forwarded_signals(void);

#endif
