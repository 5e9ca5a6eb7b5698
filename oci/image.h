/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/image.h: the OCI image layout's JSON (index.json, an image manifest,
 * an image config) read into the project's structs, and the bundle's
 * config.json made from an image config. Text in, structs out: the files
 * themselves are read, checked and unpacked by shim/images/image.c.
 */
#ifndef OCI_IMAGE_H
#define OCI_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "oci/base/error.h"

#define OCI_MEDIA_INDEX "application/vnd.oci.image.index.v1+json"
#define OCI_MEDIA_MANIFEST "application/vnd.oci.image.manifest.v1+json"
#define OCI_MEDIA_CONFIG "application/vnd.oci.image.config.v1+json"
#define OCI_REF_NAME "org.opencontainers.image.ref.name"

struct oci_descriptor {
	char *media_type;
	char *digest;		/* "sha256:<64 hex>", checked */
	int64_t size;
	char *ref_name;		/* annotations[OCI_REF_NAME], or NULL */
	char *os, *arch;	/* platform, or NULL */
};

/* An image index (index.json or a nested index): its manifests. */
struct oci_index {
	struct oci_descriptor *manifests;
	size_t n_manifests;
};

struct oci_manifest {
	struct oci_descriptor config;
	struct oci_descriptor *layers;
	size_t n_layers;
};

/* What an image config says of the process, and its labels. */
struct oci_image_config {
	char *user;		/* "", "uid", "name", "uid:gid", "name:group" */
	char **env;
	char **entrypoint;
	char **cmd;
	char *working_dir;
	char **labels;		/* key, value, ..., NULL */
	char *os, *arch;
	char **diff_ids;	/* rootfs.diff_ids: a layer's uncompressed digest each */
	size_t n_diff_ids;
};

/* The process of a generated config.json. */
struct oci_bundle_process {
	char *const *args;
	char *const *env;
	const char *cwd;
	uint32_t uid, gid;
	const uint32_t *additional_gids;
	size_t n_additional_gids;
	int terminal;
};

/* Each parse names the file it read ("index.json") and the JSON path of
 * what is wrong; returns 0, or -1 with err filled. */
int oci_index_parse(const char *json, size_t len, const char *what,
		    struct oci_index *out, struct shim_error *err);
int oci_manifest_parse(const char *json, size_t len, const char *what,
		       struct oci_manifest *out, struct shim_error *err);
int oci_image_config_parse(const char *json, size_t len, const char *what,
			   struct oci_image_config *out, struct shim_error *err);
void oci_index_release(struct oci_index *idx);
void oci_manifest_release(struct oci_manifest *m);
void oci_image_config_release(struct oci_image_config *c);

/* Pick the manifest named ref (any when ref is NULL and there is one, or
 * one for linux/amd64 in a list of platforms); NULL with err otherwise. */
const struct oci_descriptor *oci_index_pick(const struct oci_index *idx, const char *ref,
					    struct shim_error *err);

/* "sha256:" + 64 lowercase hex digits: 0, else -1 naming where. */
int oci_digest_check(const char *digest, const char *where, struct shim_error *err);

/* The process args of an image: Entrypoint then Cmd (a malloc'd vector). */
char **oci_image_args(const struct oci_image_config *c, struct shim_error *err);

/* config.json for a bundle whose rootfs holds the image: runc's default
 * spec with this process, and the labels as annotations. */
char *oci_spec_json_for_process(const struct oci_bundle_process *p, char *const *annotations,
				struct shim_error *err);

#endif
