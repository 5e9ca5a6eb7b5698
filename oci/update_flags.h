/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/update_flags.h: what `update` reads, as struct oci_resources: either
 * a LinuxResources JSON text (--resources), or runc's limit flags, which
 * are checked here and turned into that same object, so one parser
 * (oci/resources.c) applies the same rules to both.
 */
#ifndef OCI_UPDATE_FLAGS_H
#define OCI_UPDATE_FLAGS_H

#include <stddef.h>

#include "oci/base/error.h"
#include "oci/resources.h"

/* runc update's limit flags as given (NULL: not given). Sizes take runc's
 * units ("512k", "100m", "2g", -1 for none). */
struct oci_update_flags {
	const char *memory, *memory_swap, *memory_reservation;
	const char *cpu_shares, *cpu_quota, *cpu_period, *cpuset_cpus, *cpuset_mems;
	const char *cpu_rt_period, *cpu_rt_runtime;	/* cgroup v1 only, as runc */
	const char *pids_limit, *blkio_weight;
};

/* Fill r from the flags given; errors name the flag ("--memory: \"12x\"
 * is not a size") or the resource path. */
int oci_resources_from_flags(const struct oci_update_flags *f, struct oci_resources *r,
			     struct shim_error *err);

/* Fill r from LinuxResources JSON text of len bytes; what names it in
 * errors ("--resources"). */
int oci_resources_parse_text(const char *json, size_t len, const char *what,
			     struct oci_resources *r, struct shim_error *err);

#endif
