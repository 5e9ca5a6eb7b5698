/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/json_tree.c: JSON text to a yajl_val tree in one pass of yajl's event
 * parser (iterative: its own byte stack, no recursion), guarded on the way.
 * It refuses what the tree would turn into a crash or a silent change:
 * nesting deeper than JSON_MAX_DEPTH (code that walks a tree recurses, and
 * 300,000 nested arrays overflow the stack), and a string or member name
 * holding a NUL byte ("\u0000"), which every C string made of it would cut
 * short; the error names the JSON path of the offending value. A syntax
 * error gets yajl's own message, as yajl_tree_parse gives it.
 *
 * The nodes, strings and arrays of a tree live in one arena of a few
 * chunks, the root first in the first: yajl_tree_parse made a malloc for
 * each node, string and member and a realloc per member added, and
 * yajl_tree_free as many frees, two fifths of a config's parse.
 */
#include <errno.h>
#include <limits.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "oci/json.h"

/* Paths longer than this many steps are cut, with "...". */
#define PATH_MAX_FRAMES 16
/* A member name is cut to this in a path. */
#define PATH_KEY_MAX 63

struct chunk {
	struct chunk *next;	/* the one made after it */
	size_t size, used;
	alignas(max_align_t) unsigned char data[];
};

/* An object or array being filled: its members so far are on the member
 * stack from first on. */
struct frame {
	yajl_val node;
	size_t first;
	const char *key;	/* objects: the current member's name */
};

struct member {
	const char *key;
	yajl_val value;
};

struct builder {
	struct chunk *first, *last;	/* the arena */
	struct frame *frames;
	size_t depth, frames_cap;
	struct member *members;
	size_t n_members, members_cap;
	yajl_val root;
	const char *problem;	/* set when a callback cancels */
	char path[512];
};

static void *arena_alloc(struct builder *b, size_t n)
{
	struct chunk *c = b->last;
	void *p;

	n = (n + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
	if (!c || c->size - c->used < n) {
		size_t size = c ? c->size * 2 : 16384;

		if (size < n)
			size = n;
		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		*c = (struct chunk){ .size = size };
		if (b->last)
			b->last->next = c;
		else
			b->first = c;
		b->last = c;
	}
	p = c->data + c->used;
	c->used += n;
	return p;
}

static void arena_free(struct chunk *c)
{
	while (c) {
		struct chunk *next = c->next;

		free(c);
		c = next;
	}
}

void json_free(yajl_val root)
{
	if (root)
		arena_free((struct chunk *)((unsigned char *)root - offsetof(struct chunk, data)));
}

static char *arena_text(struct builder *b, const void *s, size_t len)
{
	char *t = arena_alloc(b, len + 1);

	if (t) {
		memcpy(t, s, len);
		t[len] = '\0';
	}
	return t;
}

/* For an error: where the walk is, as "linux.sysctl.x" or "args[2]". */
static void build_path(struct builder *b, const char *last_key)
{
	size_t used = 0;

	b->path[0] = '\0';
	for (size_t i = 0; i < b->depth && used < sizeof(b->path); i++) {
		const struct frame *f = &b->frames[i];
		int n;

		if (i == PATH_MAX_FRAMES) {
			snprintf(b->path + used, sizeof(b->path) - used, "...");
			break;
		}
		/* an array's index: the members it has so far (those above
		 * them on the stack are the next frame's) */
		size_t end = i + 1 < b->depth ? b->frames[i + 1].first : b->n_members;

		if (f->node->type == yajl_t_array)
			n = snprintf(b->path + used, sizeof(b->path) - used, "[%zu]", end - f->first);
		else if (i == b->depth - 1 && last_key)
			n = snprintf(b->path + used, sizeof(b->path) - used, "%s%s", used ? "." : "",
				     last_key);
		else
			n = snprintf(b->path + used, sizeof(b->path) - used, "%s%.*s",
				     used ? "." : "", PATH_KEY_MAX, f->key ? f->key : "");
		used += n > 0 ? (size_t)n : 0;
	}
	if (!b->path[0])
		snprintf(b->path, sizeof(b->path), "(top level)");
}

static int fail(struct builder *b, const char *problem, const char *last_key)
{
	build_path(b, last_key);
	b->problem = problem;
	return 0;
}

/* items (cap of them, used in use) with room for one more: as it is, or
 * grown twofold (to first, at first); NULL when memory runs out, items
 * untouched. */
static void *with_room(void *items, size_t *cap, size_t used, size_t size, size_t first)
{
	size_t n = *cap ? *cap * 2 : first;
	void *p;

	if (used < *cap)
		return items;
	p = realloc(items, n * size);
	if (p)
		*cap = n;
	return p;
}

/* A value is done: the root, or the next member of what holds it. */
static int add(struct builder *b, yajl_val v)
{
	struct member *m;
	struct frame *f;

	if (!v)
		return 0;
	if (b->depth == 0) {
		b->root = v;
		return 1;
	}
	f = &b->frames[b->depth - 1];
	m = with_room(b->members, &b->members_cap, b->n_members, sizeof(*m), 64);
	if (!m)
		return 0;
	b->members = m;
	b->members[b->n_members++] = (struct member){ f->key, v };
	return 1;
}

static yajl_val node(struct builder *b, yajl_type type)
{
	yajl_val v = arena_alloc(b, sizeof(*v));

	if (v) {
		memset(v, 0, sizeof(*v));
		v->type = type;
	}
	return v;
}

static int on_null(void *ctx)
{
	return add(ctx, node(ctx, yajl_t_null));
}

static int on_bool(void *ctx, int value)
{
	return add(ctx, node(ctx, value ? yajl_t_true : yajl_t_false));
}

/* As yajl reads an integer: digits only, no overflow; else the extreme of
 * its sign, not valid. */
static bool read_integer(const char *s, long long *out)
{
	const char *p = s;
	bool neg = *p == '-';
	long long n = 0;

	p += neg;
	p += *p == '+';
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || n > (LLONG_MAX - (*p - '0')) / 10) {
			*out = neg ? LLONG_MIN : LLONG_MAX;
			return false;
		}
		n = n * 10 + (*p - '0');
	}
	*out = neg ? -n : n;
	return true;
}

/* The text kept as it is (u64 values past INT64_MAX are read from it),
 * with the integer and the double where they read all of it. */
static int on_number(void *ctx, const char *s, size_t len)
{
	struct builder *b = ctx;
	yajl_val v = node(b, yajl_t_number);
	char *end = NULL;

	if (!v || !(v->u.number.r = arena_text(b, s, len)))
		return 0;
	if (read_integer(v->u.number.r, &v->u.number.i))
		v->u.number.flags |= YAJL_NUMBER_INT_VALID;
	errno = 0;
	v->u.number.d = strtod(v->u.number.r, &end);
	if (errno == 0 && end && *end == '\0')
		v->u.number.flags |= YAJL_NUMBER_DOUBLE_VALID;
	return add(b, v);
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	struct builder *b = ctx;
	yajl_val v;

	if (memchr(s, '\0', len))
		return fail(b, "holds a NUL byte", NULL);
	v = node(b, yajl_t_string);
	if (!v || !(v->u.string = arena_text(b, s, len)))
		return 0;
	return add(b, v);
}

static int on_key(void *ctx, const unsigned char *key, size_t len)
{
	struct builder *b = ctx;
	struct frame *f = &b->frames[b->depth - 1];

	/* the key as yajl gave it: cut at its NUL */
	if (memchr(key, '\0', len))
		return fail(b, "a member name holds a NUL byte", (const char *)key);
	f->key = arena_text(b, key, len);
	return f->key != NULL;
}

static int push(struct builder *b, yajl_type type)
{
	struct frame *f;
	yajl_val v;

	if (b->depth == JSON_MAX_DEPTH)
		return fail(b, "nested deeper than " JSON_MAX_DEPTH_TEXT " levels", NULL);
	f = with_room(b->frames, &b->frames_cap, b->depth, sizeof(*f), 16);
	if (!f)
		return 0;
	b->frames = f;
	v = node(b, type);
	if (!v)
		return 0;
	b->frames[b->depth++] = (struct frame){ .node = v, .first = b->n_members };
	return 1;
}

static int on_start_map(void *ctx)
{
	return push(ctx, yajl_t_object);
}

static int on_start_array(void *ctx)
{
	return push(ctx, yajl_t_array);
}

/* The members move from the stack to arrays of their own; none: NULL
 * arrays and a length of 0, as yajl's tree has them. */
static int on_end(void *ctx)
{
	struct builder *b = ctx;
	struct frame *f = &b->frames[--b->depth];
	size_t n = b->n_members - f->first;
	yajl_val v = f->node, *values = NULL;
	const char **keys = NULL;

	if (n) {
		values = arena_alloc(b, n * sizeof(*values));
		if (v->type == yajl_t_object)
			keys = arena_alloc(b, n * sizeof(*keys));
		if (!values || (v->type == yajl_t_object && !keys))
			return 0;
	}
	for (size_t i = 0; i < n; i++) {
		values[i] = b->members[f->first + i].value;
		if (keys)
			keys[i] = b->members[f->first + i].key;
	}
	b->n_members = f->first;
	if (v->type == yajl_t_object) {
		v->u.object.keys = keys;
		v->u.object.values = values;
		v->u.object.len = n;
	} else {
		v->u.array.values = values;
		v->u.array.len = n;
	}
	return add(b, v);
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null, .yajl_boolean = on_bool, .yajl_number = on_number,
	.yajl_string = on_string, .yajl_start_map = on_start_map, .yajl_map_key = on_key,
	.yajl_end_map = on_end, .yajl_start_array = on_start_array, .yajl_end_array = on_end,
};

/*
 * The common case without yajl: an object or an array at the top, ASCII
 * text, strings with the short escapes only, numbers as JSON writes them,
 * no comments. The builder gets the events yajl's parser would give it,
 * so the tree is the same. At anything else (a \u escape, a byte past
 * 0x7e, a comment, a top-level scalar, a syntax error, what the guard
 * refuses) it gives up, and yajl parses the text from its start and says
 * what is wrong, as it did before this way was made.
 */
static bool is_space(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && is_space(*p))
		p++;
	return p;
}

/* What may follow a number or a literal. */
static bool ends_token(const char *p, const char *end)
{
	return p == end || is_space(*p) || *p == ',' || *p == ']' || *p == '}';
}

static bool is_digit(const char *p, const char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

static const char *skip_digits(const char *p, const char *end)
{
	while (is_digit(p, end))
		p++;
	return p;
}

static char short_escape(char c)
{
	switch (c) {
	case '"':
	case '\\':
	case '/':
		return c;
	case 'b':
		return '\b';
	case 'f':
		return '\f';
	case 'n':
		return '\n';
	case 'r':
		return '\r';
	case 't':
		return '\t';
	default:
		return '\0';
	}
}

static bool plain_char(char c)
{
	return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\';
}

static int fast_text(struct builder *b, const char *s, size_t n, bool key)
{
	return key ? on_key(b, (const unsigned char *)s, n) : on_string(b, (const unsigned char *)s, n);
}

/* A string from its opening quote at p, to on_key or on_string; the text
 * after its closing quote, NULL to give up. */
static const char *fast_string(struct builder *b, const char *p, const char *end, bool key)
{
	const char *start = ++p;
	char text[4096];
	size_t n;

	while (p < end && plain_char(*p))
		p++;
	/* without escapes (most), the text is its own copy */
	if (p < end && *p == '"')
		return fast_text(b, start, (size_t)(p - start), key) ? p + 1 : NULL;
	if (p == end || *p != '\\' || (size_t)(p - start) >= sizeof(text))
		return NULL;
	n = (size_t)(p - start);
	memcpy(text, start, n);
	for (; p < end && *p != '"'; p++) {
		char c = *p;

		if (c < 0x20 || c > 0x7e || n == sizeof(text))
			return NULL;
		if (c == '\\' && (++p == end || !(c = short_escape(*p))))
			return NULL;
		text[n++] = c;
	}
	return p < end && fast_text(b, text, n, key) ? p + 1 : NULL;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static const char *fast_number(struct builder *b, const char *p, const char *end)
{
	const char *start = p;

	p += *p == '-';
	if (!is_digit(p, end))
		return NULL;
	p = *p == '0' ? p + 1 : skip_digits(p, end);
	if (p < end && *p == '.') {
		if (!is_digit(++p, end))
			return NULL;
		p = skip_digits(p, end);
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (!is_digit(p, end))
			return NULL;
		p = skip_digits(p, end);
	}
	if (!ends_token(p, end) || !on_number(b, start, (size_t)(p - start)))
		return NULL;
	return p;
}

static const char *fast_literal(struct builder *b, const char *p, const char *end)
{
	static const char *const words[] = { "null", "false", "true" };

	for (int i = 0; i < 3; i++) {
		size_t n = strlen(words[i]);

		if ((size_t)(end - p) >= n && memcmp(p, words[i], n) == 0 && ends_token(p + n, end))
			return (i ? on_bool(b, i == 2) : on_null(b)) ? p + n : NULL;
	}
	return NULL;
}

static bool in_object(const struct builder *b)
{
	return b->frames[b->depth - 1].node->type == yajl_t_object;
}

/* A value begun at p (not space): the text after it, or after the '{' or
 * '[' it opens. *opened says which. */
static const char *fast_value(struct builder *b, const char *p, const char *end, bool *opened)
{
	*opened = false;
	if (p == end)
		return NULL;
	if (*p == '{' || *p == '[') {
		*opened = true;
		return push(b, *p == '{' ? yajl_t_object : yajl_t_array) ? p + 1 : NULL;
	}
	if (*p == '"')
		return fast_string(b, p, end, false);
	if (*p == '-' || (*p >= '0' && *p <= '9'))
		return fast_number(b, p, end);
	return fast_literal(b, p, end);
}

/* After '{' or ',' in an object: a member's name and its ':'. */
static const char *fast_key(struct builder *b, const char *p, const char *end)
{
	p = skip_space(p, end);
	if (p == end || *p != '"' || !(p = fast_string(b, p, end, true)))
		return NULL;
	p = skip_space(p, end);
	return p < end && *p == ':' ? p + 1 : NULL;
}

static bool fast_parse(struct builder *b, const char *p, const char *end)
{
	bool value_next = true, opened;

	p = skip_space(p, end);
	if (p == end || (*p != '{' && *p != '['))
		return false;
	while (p) {
		p = skip_space(p, end);
		if (value_next) {
			p = fast_value(b, p, end, &opened);
			value_next = false;
			if (!p || !opened)
				continue;
			/* it opened an object or array: empty, or its first member */
			p = skip_space(p, end);
			if (p < end && *p == (in_object(b) ? '}' : ']')) {
				p = on_end(b) ? p + 1 : NULL;
			} else {
				if (in_object(b))
					p = fast_key(b, p, end);
				value_next = true;
			}
			continue;
		}
		/* a value is done: the next member, or the end of what holds it */
		if (b->depth == 0)
			return p == end;
		if (p < end && *p == ',') {
			p = in_object(b) ? fast_key(b, p + 1, end) : p + 1;
			value_next = true;
		} else if (p < end && *p == (in_object(b) ? '}' : ']') && on_end(b)) {
			p++;
		} else {
			return false;
		}
	}
	return false;
}

/* The walk's stacks go; the tree too unless it is whole (ok). The root
 * is the first value begun, so the first thing in the arena: json_free
 * finds the arena from it. */
static yajl_val builder_done(struct builder *b, bool ok)
{
	yajl_val root = ok ? b->root : NULL;

	free(b->frames);
	free(b->members);
	if (!ok)
		arena_free(b->first);
	*b = (struct builder){ 0 };
	return root;
}

/* yajl's message for a syntax error; its first line. */
static int syntax_error(yajl_handle h, const char *json, size_t len, struct shim_error *err)
{
	unsigned char *text = yajl_get_error(h, 1, (const unsigned char *)json, len);
	char first[512];

	snprintf(first, sizeof(first), "%s", text ? (const char *)text : "parse error");
	first[strcspn(first, "\n")] = '\0';
	if (text)
		yajl_free_error(h, text);
	return shim_fail(err, 0, "invalid JSON: %s", first[0] ? first : "parse error");
}

yajl_val json_parse(const char *json, size_t len, const char *what, struct shim_error *err)
{
	struct builder b = { 0 };
	yajl_handle h;
	yajl_status st;

	if (memchr(json, '\0', len)) {
		shim_fail(err, 0, "the %s holds a NUL byte", what);
		return NULL;
	}
	if (fast_parse(&b, json, json + len))
		return builder_done(&b, true);
	builder_done(&b, false);
	h = yajl_alloc(&callbacks, NULL, &b);
	if (!h) {
		shim_fail(err, ENOMEM, "%s", what);
		return NULL;
	}
	/* as yajl_tree_parse: the same texts are valid */
	yajl_config(h, yajl_allow_comments, 1);
	st = yajl_parse(h, (const unsigned char *)json, len);
	if (st == yajl_status_ok)
		st = yajl_complete_parse(h);
	if (st == yajl_status_client_canceled && b.problem)
		json_fail(err, b.path, "%s", b.problem);
	else if (st == yajl_status_client_canceled)
		shim_fail(err, ENOMEM, "%s", what);
	else if (st != yajl_status_ok)
		syntax_error(h, json, len, err);
	yajl_free(h);
	return builder_done(&b, st == yajl_status_ok);
}
