/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/network/loopback.h: a network namespace the container gets new starts with
 * its loopback interface down, so 127.0.0.1 and ::1 are unreachable in it.
 * runc and crun bring it up in every network namespace they create (not
 * in one joined by path, which is the engine's to set up): so does the
 * init, before its mounts, as runc's does.
 */
#ifndef SHIM_LOOPBACK_H
#define SHIM_LOOPBACK_H

#include "oci/base/error.h"
#include "oci/spec.h"

/* lo up in the caller's network namespace if spec makes it a new one;
 * nothing otherwise. */
int loopback_up(const struct oci_spec *spec, struct shim_error *err);

#endif
