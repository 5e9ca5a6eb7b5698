/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/refused.h: members runtime-spec 1.2 defines that shim does not apply.
 *
 * The spec lets a runtime ignore what it does not know, never a known
 * feature it cannot apply: each such member, when it asks for something
 * (present and not null; for some, only a value that changes anything),
 * fails the parse with its JSON path and why. docs/config-fields.md lists
 * every field with what shim does with it.
 */
#ifndef OCI_REFUSED_H
#define OCI_REFUSED_H

#include <stddef.h>
#include <yajl/yajl_tree.h>

#include "oci/base/error.h"

enum refuse_when {
	REFUSE_PRESENT,		/* any value but null */
	REFUSE_TRUE,		/* true (false asks for nothing) */
	REFUSE_FALSE,		/* false (true is what shim does anyway) */
	REFUSE_NONZERO,		/* a number other than 0 */
	REFUSE_IN_ELEMENTS,	/* "array.member": present in any element */
};

struct refused_member {
	const char *path;	/* dotted, below the object checked */
	enum refuse_when when;
	const char *why;
};

/* Fail on the first member of table that obj asks for; prefix names obj
 * ("linux.resources"). */
int refuse_members(yajl_val obj, const char *prefix, const struct refused_member *table,
		   size_t n, struct shim_error *err);

/* The refusals for linux.resources (also what `update --resources`
 * reads). */
int refuse_resource_members(yajl_val resources, const char *prefix, struct shim_error *err);

#endif
