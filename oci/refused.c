/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <string.h>

#include "oci/json.h"
#include "oci/refused.h"

/* (memory.swappiness, network and the other knobs v1 has a file for are
 * refused later, where cgroup v2 is used: oci/resources_v1.c) */
#define V1_ONLY "a cgroup v1 knob: cgroup v2 has no such file"

static const struct refused_member resource_members[] = {
	{ "memory.useHierarchy", REFUSE_FALSE, "cgroup v2 is always hierarchical" },
	{ "blockIO.leafWeight", REFUSE_PRESENT, V1_ONLY },
	{ "blockIO.weightDevice.leafWeight", REFUSE_IN_ELEMENTS, V1_ONLY },
};

/* The member at a dotted path below obj; *rest is set to what is left
 * when an array is met on the way ("weightDevice" then "leafWeight"). */
static yajl_val walk(yajl_val obj, const char *path, const char **rest)
{
	char key[64];

	*rest = NULL;
	while (obj && *path) {
		size_t n = strcspn(path, ".");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		obj = json_member(obj, key);
		path += n + (path[n] == '.');
		if (obj && YAJL_IS_ARRAY(obj) && *path) {
			*rest = path;
			return obj;
		}
	}
	return obj;
}

static bool asks(yajl_val v, enum refuse_when when)
{
	if (!v || YAJL_IS_NULL(v))
		return false;
	switch (when) {
	case REFUSE_TRUE: return YAJL_IS_TRUE(v);
	case REFUSE_FALSE: return YAJL_IS_FALSE(v);
	case REFUSE_NONZERO: return !YAJL_IS_NUMBER(v) || YAJL_GET_DOUBLE(v) != 0;
	case REFUSE_PRESENT:
	case REFUSE_IN_ELEMENTS:
		break;
	}
	return true;
}

/* For REFUSE_IN_ELEMENTS: the index of the first element with it, or -1. */
static long element_with(yajl_val arr, const char *member)
{
	for (size_t i = 0; YAJL_IS_ARRAY(arr) && i < arr->u.array.len; i++) {
		yajl_val v = json_member(arr->u.array.values[i], member);

		if (v && !YAJL_IS_NULL(v))
			return (long)i;
	}
	return -1;
}

int refuse_members(yajl_val obj, const char *prefix, const struct refused_member *table,
		   size_t n, struct shim_error *err)
{
	for (size_t i = 0; i < n; i++) {
		const struct refused_member *m = &table[i];
		const char *rest;
		yajl_val v = walk(obj, m->path, &rest);
		char where[160];

		if (m->when == REFUSE_IN_ELEMENTS) {
			long at = rest ? element_with(v, rest) : -1;
			size_t head = rest ? (size_t)(rest - m->path - 1) : 0;

			if (at < 0)
				continue;
			snprintf(where, sizeof(where), "%s%s%.*s[%ld].%s", prefix, *prefix ? "." : "",
				 (int)head, m->path, at, rest);
			return json_fail(err, where, "not supported: %s", m->why);
		}
		if (rest || !asks(v, m->when))
			continue;
		snprintf(where, sizeof(where), "%s%s%s", prefix, *prefix ? "." : "", m->path);
		return json_fail(err, where, "not supported: %s", m->why);
	}
	return 0;
}

int refuse_resource_members(yajl_val resources, const char *prefix, struct shim_error *err)
{
	return refuse_members(resources, prefix, resource_members,
			      sizeof(resource_members) / sizeof(resource_members[0]), err);
}
