/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/unit/json_same.h: two JSON trees compared node for node, for the
 * tests and the fuzzer that hold json_parse to yajl_tree_parse.
 */
#ifndef TESTS_JSON_SAME_H
#define TESTS_JSON_SAME_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <yajl/yajl_tree.h>

/* Node for node: type, text, number flags and values, members in order. */
static inline bool same_tree(yajl_val a, yajl_val b)
{
	if (!a || !b || a->type != b->type)
		return false;
	switch (a->type) {
	case yajl_t_string:
		return strcmp(a->u.string, b->u.string) == 0;
	case yajl_t_number:
		return strcmp(a->u.number.r, b->u.number.r) == 0 &&
		       a->u.number.flags == b->u.number.flags &&
		       a->u.number.i == b->u.number.i &&
		       (!(a->u.number.flags & YAJL_NUMBER_DOUBLE_VALID) ||
			a->u.number.d == b->u.number.d || (isnan(a->u.number.d) && isnan(b->u.number.d)));
	case yajl_t_object:
		if (a->u.object.len != b->u.object.len ||
		    (a->u.object.len == 0 && (a->u.object.keys || a->u.object.values)))
			return false;
		for (size_t i = 0; i < a->u.object.len; i++)
			if (strcmp(a->u.object.keys[i], b->u.object.keys[i]) != 0 ||
			    !same_tree(a->u.object.values[i], b->u.object.values[i]))
				return false;
		return true;
	case yajl_t_array:
		if (a->u.array.len != b->u.array.len || (a->u.array.len == 0 && a->u.array.values))
			return false;
		for (size_t i = 0; i < a->u.array.len; i++)
			if (!same_tree(a->u.array.values[i], b->u.array.values[i]))
				return false;
		return true;
	default:
		return true;
	}
}

/* yajl_tree_parse's tree of text, and in want the message json_parse
 * gives where it refuses text: "invalid JSON: " and yajl's first line. */
static inline yajl_val yajl_tree_and_message(const char *text, char *want, size_t len)
{
	char errbuf[1024] = "";
	yajl_val v = yajl_tree_parse(text, errbuf, sizeof(errbuf));

	errbuf[strcspn(errbuf, "\n")] = '\0';
	snprintf(want, len, "invalid JSON: %s", errbuf[0] ? errbuf : "parse error");
	return v;
}

#endif
