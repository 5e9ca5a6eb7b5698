/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/json_tree.c: the tree json_parse builds is the tree yajl_tree_parse
 * builds, node for node, for every text both accept; both refuse the same
 * texts with the same message; and what the guard refuses is named by path.
 * json_path_at names an array's element as snprintf would.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "oci/json.h"
#include "tests/unit/json_same.h"
#include "tests/unit/tap.h"

static struct shim_error err;

/* Both parsers on text: the same tree, or both refusing with the same
 * first line of yajl's message. */
static bool agree(const char *text)
{
	char want[1100];
	yajl_val mine, theirs;
	bool same;

	memset(&err, 0, sizeof(err));
	mine = json_parse(text, strlen(text), "test", &err);
	theirs = yajl_tree_and_message(text, want, sizeof(want));
	if (!mine || !theirs) {
		same = !mine && !theirs && strcmp(err.msg, want) == 0;
		if (!same)
			printf("# %s: mine \"%s\", yajl's \"%s\"\n", text, mine ? "(a tree)" : err.msg,
			       theirs ? "(a tree)" : want);
	} else {
		same = same_tree(mine, theirs);
		if (!same)
			printf("# %s: the trees differ\n", text);
	}
	json_free(mine);
	yajl_tree_free(theirs);
	return same;
}

TEST(every_kind_of_value_is_the_tree_yajl_builds)
{
	static const char *const texts[] = {
		"{}", "[]", "null", "true", "false", "0", "-0", "\"\"", "\"x\"",
		"{\"a\":1,\"b\":[1,2.5,-3e2,\"s\",null,true,false,{},[]],\"c\":{\"d\":{}}}",
		"[[[[[]]]],{\"k\":[{\"k\":[]}]}]",
		"{\"dup\":1,\"dup\":2}",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808",
		"-9223372036854775807", "18446744073709551615", "1e400", "-1e400", "1.5e-320",
		"0.1", "123456789012345678901234567890",
		"\"\\u00e9\\n\\t\\\"\\\\\\/\"", "\"\\ud83d\\ude00\"",
		"/* a comment */ {\"a\": 1} // another",
		"{\"a\": /* inside */ [1, 2]}",
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		CHECK(agree(texts[i]));
	return 0;
}

/* json_parse takes common text (an object or array, ASCII, the short
 * escapes) without yajl, and gives anything else to yajl: on either side
 * of that line, and on it, the trees and messages are yajl's. */
TEST(the_way_without_yajl_and_its_edges_agree_with_yajl)
{
	static const char *const texts[] = {
		"{\"a\":\"x\\\\y\\\"z\\/\\b\\f\\n\\r\\t\"}",
		" \t\r\n{ \"a\" : [ 1 , -2.5e+3 , 0 , -0.0E-0 , 10 ] , \"b\" : { } , \"c\" : [ ] }\n",
		"[\"\\\"\",\"\\\\\",\"a\\\"\"]", "[true,false,null,[null],{\"t\":true}]",
		"{\"\xc3\xa9\":1}", "[\"\xc3\xa9\"]", "{\"a\":\"\\u0041\"}", "[\"\x7f\"]",
		"{\"a\":1 /* c */}", "[1]// c", "[1e5,1E-5,-1e+0,0.5,123.456e7]",
		"{\"a\":tru}", "{\"a\":nulll}", "[truefalse]", "[1e]", "[-]", "[01]", "[1.e5]",
		"[.5]", "[+1]", "[1,,2]", "{,}", "{\"a\" 1}", "{\"a\":1", "[", "{\"a\":[1}", "[1}",
		"{\"a\":\"\x01\"}", "{\"a\":1}x", "[]]", "{\"a\":\"\\q\"}", "{\"a\"}", "[\"a\":1]",
		"{1:2}", "[\"unterminated]", "[\"a\\", "[1 2]", "{\"a\":1 \"b\":2}", "[-01]", "[1.5.5]",
		"[1ex]", "[nul]", "[NaN]", "[Infinity]", "[1,2,3,]", "[\"tab\there\"]",
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		CHECK(agree(texts[i]));
	return 0;
}

/* A string with an escape is decoded in a buffer of 4096 bytes: longer
 * ones go to yajl, and come out the same. */
TEST(long_strings_with_escapes_agree_with_yajl)
{
	static const size_t lengths[] = { 4090, 4095, 4096, 4097, 9000 };

	for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		size_t n = lengths[i];
		char *text = malloc(n + 16);

		CHECK(text != NULL);
		memcpy(text, "[\"", 2);
		memset(text + 2, 'x', n);
		memcpy(text + 2 + n - 2, "\\n\"]", 5);
		CHECK(agree(text));
		memcpy(text + 2, "\\t", 2);
		CHECK(agree(text));
		free(text);
	}
	return 0;
}

TEST(a_syntax_error_gets_yajl_trees_message)
{
	static const char *const texts[] = {
		"", " ", "{", "[1,", "{\"a\"}", "{\"a\":}", "[1 2]", "{} {}", "tru", "nul",
		"\"unterminated", "\"\\x\"", "\"\\u12\"", "[1,]", "{\"a\":1,}", "01", "1.", "-",
		"\"\xff\"", "/* open comment", "{\"a\":1}}",
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		CHECK(agree(texts[i]));
	return 0;
}

/* Refused by the guard (nesting, a NUL), which yajl's tree has not. */
static bool guarded(const char *text)
{
	yajl_val v;

	memset(&err, 0, sizeof(err));
	v = json_parse(text, strlen(text), "test", &err);
	json_free(v);
	return !v && (strstr(err.msg, ": nested deeper than ") || strstr(err.msg, "holds a NUL byte"));
}

/* Every config of the fuzz corpus, parsed both ways. */
TEST(the_fuzz_corpus_parses_to_yajls_trees)
{
	DIR *d = opendir("tests/fuzz/corpus/config");
	struct dirent *e;
	int n = 0;

	if (!d)
		SKIP("tests/fuzz/corpus/config is not here (run from the checkout)");
	while ((e = readdir(d))) {
		char path[PATH_MAX], *text;
		int fd;
		ssize_t len;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "tests/fuzz/corpus/config/%s", e->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		text = calloc(1, 1 << 20);
		len = fd < 0 || !text ? -1 : read(fd, text, (1 << 20) - 1);
		if (fd >= 0)
			close(fd);
		if (len < 0) {
			free(text);
			closedir(d);
			CHECK(!"a corpus file could not be read");
		}
		if (guarded(text)) {	/* refused by design: the tests below */
			free(text);
			continue;
		}
		if (!agree(text)) {
			printf("# %s\n", path);
			free(text);
			closedir(d);
			return 1;
		}
		free(text);
		n++;
	}
	closedir(d);
	CHECK(n > 0);
	return 0;
}

static bool refused(const char *text, const char *msg)
{
	memset(&err, 0, sizeof(err));
	if (json_parse(text, strlen(text), "test", &err)) {
		printf("# accepted: %s\n", text);
		return false;
	}
	if (strcmp(err.msg, msg) != 0) {
		printf("# got \"%s\", want \"%s\"\n", err.msg, msg);
		return false;
	}
	return true;
}

TEST(a_nul_in_a_string_or_a_member_name_is_refused_by_path)
{
	CHECK(refused("{\"a\":[\"x\",{\"b\":\"1\\u00002\"}]}", "a[1].b: holds a NUL byte"));
	CHECK(refused("{\"a\":{\"k\\u0000x\":1}}", "a.k: a member name holds a NUL byte"));
	CHECK(refused("[[1,2],[3,\"\\u0000\"]]", "[1][1]: holds a NUL byte"));
	CHECK(refused("\"\\u0000\"", "(top level): holds a NUL byte"));
	return 0;
}

TEST(nesting_deeper_than_the_limit_is_refused_by_path)
{
	size_t n = JSON_MAX_DEPTH + 1;
	char *deep = malloc(2 * n + 8), *ok = malloc(2 * n + 8);

	CHECK(deep && ok);
	memset(deep, '[', n);
	memset(deep + n, ']', n);
	deep[2 * n] = '\0';
	memcpy(ok, deep + 1, 2 * n - 2);
	ok[2 * n - 2] = '\0';
	CHECK(refused(deep, "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nested deeper "
			    "than " JSON_MAX_DEPTH_TEXT " levels"));
	memset(&err, 0, sizeof(err));
	yajl_val v = json_parse(ok, strlen(ok), "test", &err);
	CHECK(v != NULL);
	json_free(v);
	free(deep);
	free(ok);
	return 0;
}

TEST(a_nul_byte_in_the_text_is_refused_by_name)
{
	memset(&err, 0, sizeof(err));
	CHECK(json_parse("{}\0{}", 5, "config", &err) == NULL);
	CHECK_STR(err.msg, "the config holds a NUL byte");
	return 0;
}

/* A large text: its tree spans several chunks of the arena. */
TEST(a_tree_larger_than_a_chunk_is_whole)
{
	size_t n = 20000, len = 0;
	char *text = malloc(n * 16 + 4);

	CHECK(text);
	text[len++] = '[';
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "%s\"v%zu\"", i ? "," : "", i);
	text[len++] = ']';
	text[len] = '\0';
	CHECK(agree(text));
	free(text);
	return 0;
}

/* json_path_at writes what snprintf "%s[%zu]" writes, cut the same way. */
TEST(an_element_path_is_what_snprintf_makes)
{
	static const size_t indexes[] = { 0, 7, 10, 123456, SIZE_MAX };
	char got[40], want[40];

	for (size_t i = 0; i < sizeof(indexes) / sizeof(indexes[0]); i++)
		for (size_t size = 1; size <= sizeof(got); size++) {
			memset(got, 'x', sizeof(got));
			snprintf(want, size, "%s[%zu]", "linux.namespaces", indexes[i]);
			CHECK(json_path_at(got, size, "linux.namespaces", indexes[i]) == got);
			CHECK_STR(got, want);
		}
	CHECK_STR(json_path_at(got, sizeof(got), "", 3), "[3]");
	CHECK(json_path_at(got, 0, "mounts", 1) == got);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(every_kind_of_value_is_the_tree_yajl_builds);
	RUN(the_way_without_yajl_and_its_edges_agree_with_yajl);
	RUN(long_strings_with_escapes_agree_with_yajl);
	RUN(a_syntax_error_gets_yajl_trees_message);
	RUN(the_fuzz_corpus_parses_to_yajls_trees);
	RUN(a_nul_in_a_string_or_a_member_name_is_refused_by_path);
	RUN(nesting_deeper_than_the_limit_is_refused_by_path);
	RUN(a_nul_byte_in_the_text_is_refused_by_name);
	RUN(a_tree_larger_than_a_chunk_is_whole);
	RUN(an_element_path_is_what_snprintf_makes);
	TAP_DONE();
}
