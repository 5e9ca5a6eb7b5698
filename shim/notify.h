/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/notify.h: sd_notify from inside the container, as runc does it,
 * when the caller sets NOTIFY_SOCKET (a systemd unit of Type=notify,
 * podman --sdnotify=container).
 *
 *   create   ROOT/ID/notify is made and bound read-only (nosuid, nodev,
 *            noexec) at /run/notify in the container, after the config's
 *            mounts; the process gets NOTIFY_SOCKET=/run/notify/notify.sock
 *   start    (and run) a datagram socket is bound there, mode 0777 (any
 *            process.user may send), before the init goes on; every message
 *            from the container is passed to the caller's NOTIFY_SOCKET as
 *            it comes, until one says READY=; then MAINPID=<the init's PID>
 *            follows, so that the caller watches the init, and start returns
 *            (also when the init exits first)
 */
#ifndef SHIM_NOTIFY_H
#define SHIM_NOTIFY_H

#include <stdbool.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "oci/spec.h"

#define NOTIFY_DIR "notify"

/* Was NOTIFY_SOCKET given to us? */
bool notify_asked(void);

/* create: the folder in dir_fd (the state folder, whose host path is
 * state_dir), the mount and the env added to spec. */
int notify_prepare(int dir_fd, const char *state_dir, struct oci_spec *spec,
		   struct shim_error *err);

/* start: the socket in the container's notify folder into *sock: 1; 0
 * (*sock -1) when the container has none (made without NOTIFY_SOCKET);
 * -1 with err. */
int notify_listen(int dir_fd, int *sock, struct shim_error *err);

/* Pass messages on from sock until READY= (then MAINPID=pid) or until
 * the init held by pidfd exits; forwarded signals (where the caller
 * blocked them) go to the init meanwhile. */
int notify_until_ready(int sock, int pidfd, pid_t pid, struct shim_error *err);

#endif
