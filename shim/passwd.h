/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/passwd.h: an image's "User" ("name", "uid", "uid:gid", "name:group")
 * resolved against the rootfs's own /etc/passwd and /etc/group, read
 * inside the rootfs (a symlinked /etc/passwd cannot point at the host's).
 */
#ifndef SHIM_PASSWD_H
#define SHIM_PASSWD_H

#include <stdint.h>

#include "oci/error.h"

/* A numeric user without an entry gets gid 0, as with runc. */
int passwd_resolve(int rootfd, const char *user, uint32_t *uid, uint32_t *gid,
		   struct shim_error *err);

#endif
