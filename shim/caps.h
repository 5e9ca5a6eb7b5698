/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/caps.h: process.capabilities, applied in two steps around the
 * switch to the container's user: caps_drop_bounding() while still root
 * (dropping from the bounding set needs CAP_SETPCAP) and asking to keep the
 * permitted set across setuid, then caps_set() for the effective,
 * permitted and inheritable sets and the ambient set. Capabilities this
 * kernel does not have (above cap_last_cap) are left out.
 */
#ifndef SHIM_CAPS_H
#define SHIM_CAPS_H

#include "oci/base/error.h"
#include "oci/spec.h"

/* The highest capability number this kernel has (its cap_last_cap),
 * asked with PR_CAPBSET_READ, not read from /proc. */
int caps_last(void);

int caps_drop_bounding(const struct oci_capabilities *c, struct shim_error *err);
int caps_set(const struct oci_capabilities *c, struct shim_error *err);

/* A warning for each capability name the config had that this runtime
 * does not know (skipped, as runc does, so newer profiles still run). */
void caps_warn_unknown(const struct oci_capabilities *c);

#endif
