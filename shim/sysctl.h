/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/sysctl.h: linux.sysctl, written by the init through its /proc/sys. */
#ifndef SHIM_SYSCTL_H
#define SHIM_SYSCTL_H

#include "shim/error.h"

/* kv: key, value, ..., NULL ("net.ipv4.ip_forward", "1"). */
int sysctl_apply(char *const *kv, struct shim_error *err);

#endif
