/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/lsm.h: process.apparmorProfile, process.selinuxLabel and
 * linux.mountLabel.
 *
 * The labels are set for the next execve, the program's: AppArmor's
 * "exec PROFILE" written to /proc/self/attr/apparmor/exec (attr/exec on
 * kernels before 5.8), an SELinux context to attr/exec; both through the
 * runtime's procfs handle (shim/procfs.h), never the container's /proc,
 * and before close_range takes that handle away. A label this host cannot
 * apply (its LSM is not enabled) fails create or exec, naming the field, as
 * runc fails: running unconfined what asked for confinement would be a
 * silent downgrade. linux.mountLabel is applied by shim/filesystem/rootfs.c: the
 * context= option of each new filesystem that takes one, the label of the
 * mqueue root; with SELinux off it fails create the same way.
 */
#ifndef SHIM_LSM_H
#define SHIM_LSM_H

#include <stdbool.h>

#include "oci/base/error.h"
#include "oci/spec.h"

bool lsm_apparmor_enabled(void);
bool lsm_selinux_enabled(void);

/* Refuse labels this host cannot apply; mount_label may be NULL. */
int lsm_check(const struct oci_process *p, const char *mount_label, struct shim_error *err);

/* Set p's labels for the next execve of this process. */
int lsm_set_exec_labels(const struct oci_process *p, struct shim_error *err);

#endif
