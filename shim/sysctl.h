/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/sysctl.h: linux.sysctl. Only what a namespace the container owns
 * scopes may be set (as runc checks): fs.mqueue.* and kernel.{msgmax,
 * msgmnb, msgmni, sem, shmall, shmmax, shmmni, shm_rmid_forced} need an IPC
 * namespace, net.* a network namespace, new or joined by path but not the
 * runtime's own. kernel.hostname and kernel.domainname are refused (the
 * config has hostname and domainname), and so is every other key: it would
 * change the host. Written by the init through the runtime's procfs handle.
 */
#ifndef SHIM_SYSCTL_H
#define SHIM_SYSCTL_H

#include "oci/base/error.h"
#include "oci/spec.h"

/* At create, before anything is made: each key is allowed, or named. */
int sysctl_check(const struct oci_spec *spec, struct shim_error *err);

/* kv: key, value, ..., NULL ("net.ipv4.ip_forward", "1"). */
int sysctl_apply(char *const *kv, struct shim_error *err);

#endif
