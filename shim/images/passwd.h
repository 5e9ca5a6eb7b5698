/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/images/passwd.h: an image's "User" ("name", "uid", "uid:gid", "name:group")
 * resolved against the rootfs's own /etc/passwd and /etc/group, read
 * inside the rootfs (a symlinked /etc/passwd cannot point at the host's);
 * and a uid's name (the host's, for list's OWNER) and home (HOME).
 */
#ifndef SHIM_PASSWD_H
#define SHIM_PASSWD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oci/base/error.h"

/* A numeric user without an entry gets gid 0, as with runc. */
int passwd_resolve(int rootfd, const char *user, uint32_t *uid, uint32_t *gid,
		   struct shim_error *err);

/* The name (the home) of uid in /etc/passwd under rootfd, into name
 * (home); false when none, or empty, or too long, or the file cannot be
 * read. */
bool passwd_user_name(int rootfd, uint32_t uid, char *name, size_t len);
bool passwd_user_home(int rootfd, uint32_t uid, char *home, size_t len);

#endif
