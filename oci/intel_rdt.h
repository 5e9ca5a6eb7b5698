/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/intel_rdt.h: linux.intelRdt, the container's resctrl group (Intel
 * RDT: cache and memory bandwidth allocation, and their monitoring).
 */
#ifndef OCI_INTEL_RDT_H
#define OCI_INTEL_RDT_H

#include <stdbool.h>
#include <yajl/yajl_tree.h>

#include "oci/base/error.h"

struct oci_intel_rdt {
	bool present;		/* linux.intelRdt given */
	char *clos_id;		/* the group's name; NULL: the container's ID */
	char *l3_cache_schema;	/* "L3:0=7f0;1=1f", or NULL */
	char *mem_bw_schema;	/* "MB:0=20;1=70", or NULL */
	char *schemata;		/* the lines of schemata (1.3: an array),
				 * each ended by a newline; written last */
	bool enable_cmt, enable_mbm;
	bool enable_monitoring;	/* 1.3: a monitoring group of the container's
				 * own, mon_groups/ID in its group */
};

/* Fill rdt from lx (the "linux" object). closID must name a group (no
 * '/', not "." or "..", none of resctrl's own names), memBwSchema one
 * "MB:" line. */
int oci_intel_rdt_parse(yajl_val lx, struct oci_intel_rdt *rdt, struct shim_error *err);

void oci_intel_rdt_release(struct oci_intel_rdt *rdt);

/* Whether the config asks for anything to be written to schemata. */
bool oci_intel_rdt_has_schema(const struct oci_intel_rdt *rdt);

/* The text written to schemata first, from l3CacheSchema and memBwSchema
 * (runtime-spec: l3CacheSchema's lines but its "MB:" ones when
 * memBwSchema is given, then memBwSchema's); "" when neither is given.
 * Fails when it does not fit. */
int oci_intel_rdt_schema_text(const struct oci_intel_rdt *rdt, char *buf, size_t len,
			      struct shim_error *err);

/* Whether every domain value the schema text asks for is what current
 * (a schemata file's text) holds, compared as numbers: cache bit masks in
 * hexadecimal, "MB" and "SMBA" in decimal. */
bool oci_intel_rdt_schema_matches(const char *wanted, const char *current);

#endif
