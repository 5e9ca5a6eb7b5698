/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/json_guard.c: one pass over JSON text before yajl builds a tree of it,
 * with yajl's event parser (iterative: its own byte stack, no recursion).
 * It refuses what the tree would turn into a crash or a silent change:
 * nesting deeper than JSON_MAX_DEPTH (the tree's builder and free recurse,
 * and 300,000 nested arrays overflow the stack), and a string or key holding
 * a NUL byte ("\u0000"), which every C string made of it would cut short.
 * The error names the JSON path of the offending value.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "oci/json.h"

/* Paths longer than this many steps are cut, with "...". */
#define PATH_MAX_FRAMES 16

struct frame {
	bool array;
	size_t index;		/* arrays: values seen so far */
	char key[64];		/* objects: the current key (cut to fit) */
};

struct guard {
	struct frame *frames;
	size_t depth;
	const char *problem;	/* set when a callback cancels */
	char path[512];
};

static void build_path(struct guard *g, const char *last_key)
{
	size_t used = 0;

	g->path[0] = '\0';
	for (size_t i = 0; i < g->depth && used < sizeof(g->path); i++) {
		if (i == PATH_MAX_FRAMES) {
			snprintf(g->path + used, sizeof(g->path) - used, "...");
			break;
		}
		const struct frame *f = &g->frames[i];
		int n;

		if (f->array)
			n = snprintf(g->path + used, sizeof(g->path) - used, "[%zu]", f->index);
		else if (i == g->depth - 1 && last_key)
			n = snprintf(g->path + used, sizeof(g->path) - used, "%s%s", used ? "." : "",
				     last_key);
		else
			n = snprintf(g->path + used, sizeof(g->path) - used, "%s%s", used ? "." : "",
				     f->key);
		used += n > 0 ? (size_t)n : 0;
	}
	if (!g->path[0])
		snprintf(g->path, sizeof(g->path), "(top level)");
}

/* A value ended: in an array, the next one has the next index. */
static int value_done(struct guard *g)
{
	if (g->depth && g->frames[g->depth - 1].array)
		g->frames[g->depth - 1].index++;
	return 1;
}

static int on_scalar(void *ctx)
{
	return value_done(ctx);
}

static int on_bool(void *ctx, int v)
{
	return value_done(ctx);
}

static int on_number(void *ctx, const char *v, size_t len)
{
	return value_done(ctx);
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	struct guard *g = ctx;

	if (memchr(s, '\0', len)) {
		build_path(g, NULL);
		g->problem = "holds a NUL byte";
		return 0;
	}
	return value_done(g);
}

static int on_key(void *ctx, const unsigned char *key, size_t len)
{
	struct guard *g = ctx;
	struct frame *f = &g->frames[g->depth - 1];

	if (memchr(key, '\0', len)) {
		build_path(g, (const char *)key);
		g->problem = "a member name holds a NUL byte";
		return 0;
	}
	/* kept for an error's path only, cut to fit */
	if (len >= sizeof(f->key))
		len = sizeof(f->key) - 1;
	memcpy(f->key, key, len);
	f->key[len] = '\0';
	return 1;
}

static int push(struct guard *g, bool array)
{
	if (g->depth == JSON_MAX_DEPTH) {
		build_path(g, NULL);
		g->problem = "nested deeper than " JSON_MAX_DEPTH_TEXT " levels";
		return 0;
	}
	g->frames[g->depth++] = (struct frame){ .array = array };
	return 1;
}

static int on_start_map(void *ctx)
{
	return push(ctx, false);
}

static int on_start_array(void *ctx)
{
	return push(ctx, true);
}

static int on_end(void *ctx)
{
	struct guard *g = ctx;

	g->depth--;
	return value_done(g);
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_scalar, .yajl_boolean = on_bool, .yajl_number = on_number,
	.yajl_string = on_string, .yajl_start_map = on_start_map, .yajl_map_key = on_key,
	.yajl_end_map = on_end, .yajl_start_array = on_start_array, .yajl_end_array = on_end,
};

int json_guard(const char *json, size_t len, const char *what, struct shim_error *err)
{
	/* not zeroed: push() fills each frame, and only the frames a text
	 * nests into are ever touched (40 KiB of memset was a dozen page
	 * faults a parse) */
	struct guard g = { .frames = malloc(JSON_MAX_DEPTH * sizeof(struct frame)) };
	yajl_handle h;
	yajl_status st = yajl_status_ok;

	if (!g.frames)
		return shim_fail(err, ENOMEM, "%s", what);
	h = yajl_alloc(&callbacks, NULL, &g);
	if (!h) {
		free(g.frames);
		return shim_fail(err, ENOMEM, "%s", what);
	}
	/* as yajl_tree_parse does, so both see the same text as valid */
	yajl_config(h, yajl_allow_comments, 1);
	st = yajl_parse(h, (const unsigned char *)json, len);
	if (st == yajl_status_ok)
		st = yajl_complete_parse(h);
	yajl_free(h);
	free(g.frames);
	/* a syntax error is the tree parser's to report, with its message */
	if (st == yajl_status_client_canceled)
		return json_fail(err, g.path, "%s", g.problem);
	return 0;
}
