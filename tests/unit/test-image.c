/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/image.c: index, manifest and image config reading, and the
 * config.json made from an image. */
#include <stdlib.h>

#include "oci/image.h"
#include "oci/json.h"
#include "oci/spec.h"
#include "tests/unit/tap.h"

#define D1 "sha256:1111111111111111111111111111111111111111111111111111111111111111"
#define D2 "sha256:2222222222222222222222222222222222222222222222222222222222222222"
#define DESC(d, extra) "{\"mediaType\":\"" OCI_MEDIA_MANIFEST "\",\"digest\":\"" d "\"," \
		       "\"size\":10" extra "}"
#define NAMED(n) ",\"annotations\":{\"" OCI_REF_NAME "\":\"" n "\"}"

static struct shim_error err;

static int index_of(const char *json, struct oci_index *idx)
{
	memset(&err, 0, sizeof(err));
	return oci_index_parse(json, strlen(json), "index.json", idx, &err);
}

/* The index must be refused with exactly this message. */
static int index_refused(const char *json, const char *msg)
{
	struct oci_index idx;

	if (index_of(json, &idx) == 0) {
		printf("# accepted: %s\n", json);
		oci_index_release(&idx);
		return 0;
	}
	if (strcmp(err.msg, msg) != 0) {
		printf("# got \"%s\", want \"%s\"\n", err.msg, msg);
		return 0;
	}
	return 1;
}

TEST(an_index_is_read_and_a_manifest_picked_by_name)
{
	struct oci_index idx;
	const struct oci_descriptor *d;

	CHECK(index_of("{\"schemaVersion\":2,\"manifests\":[" DESC(D1, NAMED("a")) ","
		       DESC(D2, NAMED("b")) "]}", &idx) == 0);
	CHECK(idx.n_manifests == 2);
	d = oci_index_pick(&idx, "b", &err);
	CHECK(d && strcmp(d->digest, D2) == 0 && d->size == 10);
	CHECK(!oci_index_pick(&idx, NULL, &err));
	CHECK_STR(err.msg, "index.json lists 2 images; name one with LAYOUT:NAME");
	CHECK(!oci_index_pick(&idx, "c", &err));
	CHECK_STR(err.msg, "no image named \"c\" for linux/amd64 in index.json");
	oci_index_release(&idx);
	return 0;
}

TEST(the_platform_decides_between_unnamed_manifests)
{
	struct oci_index idx;
	const struct oci_descriptor *d;

	CHECK(index_of("{\"schemaVersion\":2,\"manifests\":["
		       DESC(D1, ",\"platform\":{\"os\":\"linux\",\"architecture\":\"arm64\"}") ","
		       DESC(D2, ",\"platform\":{\"os\":\"linux\",\"architecture\":\"amd64\"}")
		       "]}", &idx) == 0);
	d = oci_index_pick(&idx, NULL, &err);
	CHECK(d && strcmp(d->digest, D2) == 0);
	oci_index_release(&idx);
	return 0;
}

TEST(bad_indexes_are_named)
{
	CHECK(index_refused("[]", "index.json must be a JSON object"));
	CHECK(index_refused("{\"schemaVersion\":1,\"manifests\":[]}",
			    "index.json: schemaVersion: must be 2"));
	CHECK(index_refused("{\"schemaVersion\":2}", "index.json: manifests: missing"));
	CHECK(index_refused("{\"schemaVersion\":2,\"manifests\":[{\"size\":1}]}",
			    "index.json: manifests[0].digest: missing"));
	CHECK(index_refused("{\"schemaVersion\":2,\"manifests\":[" DESC("sha512:ab", "") "]}",
			    "index.json: manifests[0].digest: \"sha512:ab\": only sha256 "
			    "digests are supported"));
	CHECK(index_refused("{\"schemaVersion\":2,\"manifests\":[" DESC("sha256:../../etc", "")
			    "]}", "index.json: manifests[0].digest: \"sha256:../../etc\": not a "
			    "sha256 digest"));
	CHECK(index_refused("{\"schemaVersion\":2,\"manifests\":[{\"digest\":\"" D1 "\","
			    "\"size\":-1}]}", "index.json: manifests[0].size: -1 is out of range "
			    "(0 to 9223372036854775807)"));
	return 0;
}

TEST(a_manifest_lists_its_config_and_layers_in_order)
{
	const char *json = "{\"schemaVersion\":2,\"config\":{\"mediaType\":\"" OCI_MEDIA_CONFIG
			   "\",\"digest\":\"" D1 "\",\"size\":3},\"layers\":["
			   DESC(D2, "") "," DESC(D1, "") "]}";
	struct oci_manifest m;

	CHECK(oci_manifest_parse(json, strlen(json), "the manifest", &m, &err) == 0);
	CHECK_STR(m.config.digest, D1);
	CHECK(m.n_layers == 2);
	CHECK_STR(m.layers[0].digest, D2);
	CHECK_STR(m.layers[1].digest, D1);
	oci_manifest_release(&m);
	json = "{\"schemaVersion\":2,\"layers\":[]}";
	CHECK(oci_manifest_parse(json, strlen(json), "the manifest", &m, &err) < 0);
	CHECK_STR(err.msg, "the manifest: config: missing");
	return 0;
}

TEST(an_image_config_with_docker_nulls_is_read)
{
	const char *json = "{\"os\":\"linux\",\"architecture\":\"amd64\",\"config\":{"
			   "\"User\":\"app:staff\",\"Env\":[\"A=1\"],\"Entrypoint\":null,"
			   "\"Cmd\":[\"echo\",\"hi\"],\"WorkingDir\":\"/w\",\"Labels\":null},"
			   "\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\"" D1 "\"]}}";
	struct oci_image_config c;
	char **args;

	CHECK(oci_image_config_parse(json, strlen(json), "config", &c, &err) == 0);
	CHECK_STR(c.user, "app:staff");
	CHECK_STR(c.env[0], "A=1");
	CHECK(!c.entrypoint && c.n_diff_ids == 1);
	CHECK_STR(c.working_dir, "/w");
	args = oci_image_args(&c, &err);
	CHECK(args && strv_len(args) == 2);
	CHECK_STR(args[0], "echo");
	strv_free(args);
	oci_image_config_release(&c);
	return 0;
}

TEST(entrypoint_comes_before_cmd)
{
	const char *json = "{\"config\":{\"Entrypoint\":[\"/init\",\"-v\"],\"Cmd\":[\"serve\"]}}";
	struct oci_image_config c;
	char **args;

	CHECK(oci_image_config_parse(json, strlen(json), "config", &c, &err) == 0);
	CHECK(!c.working_dir);
	args = oci_image_args(&c, &err);
	CHECK(args && strv_len(args) == 3);
	CHECK_STR(args[0], "/init");
	CHECK_STR(args[1], "-v");
	CHECK_STR(args[2], "serve");
	strv_free(args);
	oci_image_config_release(&c);
	return 0;
}

TEST(a_relative_working_dir_is_taken_from_the_root)
{
	const char *json = "{\"config\":{\"WorkingDir\":\"srv/app\"}}";
	struct oci_image_config c;

	CHECK(oci_image_config_parse(json, strlen(json), "config", &c, &err) == 0);
	CHECK_STR(c.working_dir, "/srv/app");
	oci_image_config_release(&c);
	return 0;
}

TEST(bad_image_configs_are_named)
{
	const char *cases[][2] = {
		{ "{\"os\":\"windows\"}", "config: os: \"windows\": only linux images run here" },
		{ "{\"config\":{\"Cmd\":\"sh\"}}", "config: config.Cmd: must be an array of strings" },
		{ "{\"config\":{\"Labels\":{\"a\":1}}}", "config: config.Labels: \"a\": must be a string" },
		{ "{\"config\":[]}", "config: config: must be an object" },
		{ "{\"config\":{\"Env\":[\"A=1\",\"B\"]}}",
		  "config: config.Env[1]: \"B\" is not NAME=VALUE" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct oci_image_config c;

		memset(&err, 0, sizeof(err));
		CHECK(oci_image_config_parse(cases[i][0], strlen(cases[i][0]), "config", &c, &err) < 0);
		CHECK_STR(err.msg, cases[i][1]);
	}
	return 0;
}

TEST(the_bundle_config_runs_the_image_process_and_parses)
{
	char *const args[] = { "echo", "hi", NULL }, *const env[] = { "A=1", NULL };
	char *const ann[] = { "org.example", "yes", NULL };
	const uint32_t gids[] = { 7, 8 };
	struct oci_bundle_process p = {
		.args = args, .env = env, .cwd = "/w", .uid = 1000, .gid = 1001,
		.additional_gids = gids, .n_additional_gids = 2,
	};
	char *json = oci_spec_json_for_process(&p, ann, &err);
	struct oci_spec *s;

	CHECK(json);
	s = oci_spec_parse(json, strlen(json), &err);
	free(json);
	CHECK(s);
	CHECK_STR(s->process.args[1], "hi");
	CHECK_STR(s->process.env[0], "A=1");
	CHECK_STR(s->process.cwd, "/w");
	CHECK(s->process.user.uid == 1000 && s->process.user.gid == 1001);
	CHECK(s->process.user.n_additional_gids == 2 && s->process.user.additional_gids[1] == 8);
	CHECK(!s->process.terminal);
	CHECK(s->n_mounts == 7 && s->root_readonly);
	oci_spec_free(s);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(an_index_is_read_and_a_manifest_picked_by_name);
	RUN(the_platform_decides_between_unnamed_manifests);
	RUN(bad_indexes_are_named);
	RUN(a_manifest_lists_its_config_and_layers_in_order);
	RUN(an_image_config_with_docker_nulls_is_read);
	RUN(entrypoint_comes_before_cmd);
	RUN(a_relative_working_dir_is_taken_from_the_root);
	RUN(bad_image_configs_are_named);
	RUN(the_bundle_config_runs_the_image_process_and_parses);
	TAP_DONE();
}
