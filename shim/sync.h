/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/sync.h: what the container's init tells the runtime during create,
 * over a SOCK_SEQPACKET socketpair: one message a packet.
 *
 *   init -> runtime   SYNC_HOOKS     mounts made, not pivoted: run the
 *                                  prestart and createRuntime hooks
 *   runtime -> init   SYNC_MOUNT_FD  in a new user namespace, before the
 *                                  first SYNC_CONTINUE: a bind source the
 *                                  runtime cloned (shim/filesystem/bind_sources.h)
 *   runtime -> init   SYNC_CONTINUE  they passed; carries the init's PID
 *   init -> runtime   SYNC_READY     set up, now waiting for `start`
 *   init -> runtime   SYNC_ERROR     setup failed; the text says why
 *
 * EOF without a message means the init died.
 */
#ifndef SHIM_SYNC_H
#define SHIM_SYNC_H

#include <sys/types.h>

#include "oci/base/error.h"

enum sync_type {
	SYNC_READY = 1,
	SYNC_ERROR = 2,
	SYNC_HOOKS = 3,
	SYNC_CONTINUE = 4,
	SYNC_MOUNT_FD = 5,
};

struct sync_msg {
	enum sync_type type;
	struct shim_error error;	/* SYNC_ERROR */
	int pid;			/* SYNC_CONTINUE: the init as the host sees it;
					 * SYNC_MOUNT_FD: the index in mounts */
	int fd;				/* received with the message, else -1 */
};

/* A socketpair: fds[0] for the runtime, fds[1] for the init; cloexec. */
int sync_pair(int fds[2], struct shim_error *err);

int sync_send(int fd, enum sync_type type, const struct shim_error *error);

int sync_send_continue(int fd, pid_t pid);

/* A message carrying fd (SCM_RIGHTS) and value in .pid. */
int sync_send_fd(int sock, enum sync_type type, int value, int fd);

/* The child's word once its setup ran: SYNC_ERROR with err when
 * setup_result < 0 (and -1), else SYNC_READY (0 once sent). */
int sync_report_setup(int fd, int setup_result, const struct shim_error *err);

/* 1 with *msg filled, 0 on EOF, -1 with err filled. An fd that came with
 * the message is in msg->fd (cloexec): the caller owns it. */
int sync_recv(int fd, struct sync_msg *msg, struct shim_error *err);

/* Wait for a message of type want: 0 with *msg filled; -1 with the
 * child's error, or saying it died or sent something else. */
int sync_expect(int fd, enum sync_type want, struct sync_msg *msg, struct shim_error *err);

/* The same, taking a message of either type. */
int sync_expect_either(int fd, enum sync_type want, enum sync_type also, struct sync_msg *msg,
		       struct shim_error *err);

/* Wait for the child's word: 0 ready, -1 with its error (or its death). */
int sync_await_ready(int fd, struct shim_error *err);

/* exec.fifo's handshake, and --exec-wait-fifo's: fifo (an O_PATH fd of a
 * FIFO) is opened for writing through fd_dir, our fd folder on the
 * runtime's procfs (procfs_reopen, shim/procfs.h: never the container's
 * /proc), which blocks until a reader comes; then one byte is written. */
int sync_fifo_await_reader(int fd_dir, int fifo, struct shim_error *err);

/* The same in two steps: the fd open for writing (blocked until a reader
 * came), then the byte written to it. */
int sync_fifo_open_writer(int fd_dir, int fifo, struct shim_error *err);
int sync_fifo_signal(int out, struct shim_error *err);

/* `start`'s side, its byte taken: wait until the init let go of the fifo
 * (its exec, past its startContainer hooks) or exited. */
int sync_fifo_await_exec(int fifo, int pidfd, struct shim_error *err);

/* `start`'s side: read the init's byte from fifo (open for reading,
 * O_NONBLOCK), waiting for it or for the init's exit (pidfd). 1 when it
 * was read; 0 when the init exited without writing it; -1 with err.
 * events gets the fifo's and the init's last poll events. */
int sync_fifo_take(int fifo, int pidfd, unsigned events[2], struct shim_error *err);

#endif
