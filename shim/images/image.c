/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "oci/base/strv.h"
#include "oci/image.h"
#include "shim/fsutil.h"
#include "shim/images/image.h"
#include "shim/images/layer.h"
#include "shim/images/passwd.h"
#include "shim/log.h"
#include "shim/store.h"

#define JSON_BLOB_MAX (4 << 20)
#define DEFAULT_PATH "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

static const char *const layer_types[] = {
	"application/vnd.oci.image.layer.v1.tar",
	"application/vnd.oci.image.layer.v1.tar+gzip",
	"application/vnd.oci.image.layer.v1.tar+zstd",
	"application/vnd.oci.image.layer.nondistributable.v1.tar",
	"application/vnd.oci.image.layer.nondistributable.v1.tar+gzip",
	"application/vnd.docker.image.rootfs.diff.tar.gzip",
	NULL,
};

static void free_md_ctx(EVP_MD_CTX **ctx)
{
	EVP_MD_CTX_free(*ctx);
}

/* Copy in to out (-1: nowhere) while hashing it, as 64 hex digits; more
 * than limit bytes stop it at once (the descriptor said fewer). */
static int sha256_copy(int in, int out, int64_t limit, char hex[65], int64_t *size,
		       struct shim_error *err)
{
	__attribute__((cleanup(free_md_ctx))) EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char md[EVP_MAX_MD_SIZE], buf[1 << 16];
	unsigned int mdlen = 0;
	ssize_t n;

	*size = 0;
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		return shim_fail(err, ENOMEM, "sha256");
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return shim_fail_errno(err, "read");
		*size += n;
		if (*size > limit)
			return shim_fail(err, EFBIG, "longer than the %lld bytes its descriptor says",
					 (long long)limit);
		EVP_DigestUpdate(ctx, buf, (size_t)n);
		if (out >= 0 && write_all_bytes(out, buf, (size_t)n) < 0)
			return shim_fail_errno(err, "keeping a private copy");
	}
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	for (unsigned int i = 0; i < mdlen && i < 32; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	return 0;
}

/* Where a blob is copied to: an unlinked file in the bundle's folder
 * (scratch, 0700), or memory; nobody else can change it once checked. */
static int private_copy(int scratch)
{
	int fd = scratch >= 0 ? openat(scratch, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600) : -1;

	return fd >= 0 ? fd : memfd_create("shim-blob", MFD_CLOEXEC);
}

/* The blob of d, checked as it is read (its size never past the
 * descriptor's, then its digest), as a private copy, rewound: what is
 * unpacked is what was checked, whatever happens to the layout meanwhile. */
static int blob_open(int layout, const struct oci_descriptor *d, int scratch,
		     struct shim_error *err)
{
	const char *hex = d->digest + strlen("sha256:");
	_cleanup_close_ int in = -1, out = -1;
	char path[128], got[65] = "";
	int64_t size;
	struct stat st;

	if (path_format(path, sizeof(path), err, "blobs/sha256/%s", hex) < 0)
		return shim_error_wrap(err, "blob %s", d->digest);
	in = openat(layout, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (in < 0 || fstat(in, &st) < 0)
		return shim_fail_errno(err, "blob %s", d->digest);
	if (!S_ISREG(st.st_mode))
		return shim_fail(err, EINVAL, "blob %s: not a regular file", d->digest);
	out = private_copy(scratch);
	if (out < 0)
		return shim_fail_errno(err, "blob %s: a private copy", d->digest);
	if (sha256_copy(in, out, d->size, got, &size, err) < 0)
		return shim_error_wrap(err, "blob %s", d->digest);
	if (size != d->size)
		return shim_fail(err, 0, "blob %s: %lld bytes, the descriptor says %lld",
				 d->digest, (long long)size, (long long)d->size);
	if (strcmp(got, hex) != 0)
		return shim_fail(err, 0, "blob %s: its content has digest sha256:%s", d->digest, got);
	if (lseek(out, 0, SEEK_SET) < 0)
		return shim_fail_errno(err, "blob %s", d->digest);
	return TAKE_FD(out);
}

/* A JSON blob (a manifest, an index, a config), checked, as text. */
static char *blob_read(int layout, const struct oci_descriptor *d, size_t *len,
		       struct shim_error *err)
{
	_cleanup_close_ int fd = -1;

	if (d->size > JSON_BLOB_MAX) {
		shim_fail(err, EFBIG, "blob %s: %lld bytes is too big for JSON", d->digest,
			  (long long)d->size);
		return NULL;
	}
	fd = blob_open(layout, d, -1, err);
	return fd < 0 ? NULL : read_small_fd(fd, d->digest, JSON_BLOB_MAX, len, err);
}

/* index.json, then nested indexes, down to one image manifest. */
static int find_manifest(int layout, const char *name, struct oci_manifest *m,
			 struct shim_error *err)
{
	_cleanup_close_ int fd = openat(layout, "index.json", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	_cleanup_free_ char *text = NULL;
	struct oci_index idx = { 0 };
	const struct oci_descriptor *d = NULL;
	size_t len;

	if (fd < 0)
		return shim_fail_errno(err, "index.json");
	if (!(text = read_small_fd(fd, "index.json", JSON_BLOB_MAX, &len, err)) ||
	    oci_index_parse(text, len, "index.json", &idx, err) < 0)
		return -1;
	for (int depth = 0; depth < 4; depth++) {
		const char *media;

		free(TAKE_PTR(text));
		d = oci_index_pick(&idx, depth ? NULL : name, err);
		media = d && d->media_type ? d->media_type : OCI_MEDIA_MANIFEST;
		if (d)
			text = blob_read(layout, d, &len, err);
		if (!text) {
			oci_index_release(&idx);
			return -1;
		}
		oci_index_release(&idx);
		if (strcmp(media, OCI_MEDIA_INDEX) != 0)
			return oci_manifest_parse(text, len, "the image manifest", m, err);
		if (oci_index_parse(text, len, "a nested image index", &idx, err) < 0)
			return -1;
	}
	oci_index_release(&idx);
	return shim_fail(err, 0, "index.json: image indexes nested too deep");
}

static int layer_type_ok(const struct oci_descriptor *d)
{
	for (const char *const *t = layer_types; *t; t++)
		if (d->media_type && strcmp(d->media_type, *t) == 0)
			return 1;
	return 0;
}

static void digest_update(void *ctx, const void *buf, size_t n)
{
	EVP_DigestUpdate(ctx, buf, n);
}

/* The layer's uncompressed digest against the config's rootfs.diff_ids. */
static int check_diff_id(int fd, const char *want, const char *what, struct shim_error *err)
{
	__attribute__((cleanup(free_md_ctx))) EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	char got[7 + 65] = "sha256:";

	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		return shim_fail(err, ENOMEM, "sha256");
	if (layer_uncompressed(fd, what, digest_update, ctx, err) < 0)
		return -1;
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	for (unsigned int i = 0; i < mdlen && i < 32; i++)
		sprintf(got + 7 + 2 * i, "%02x", md[i]);
	if (strcmp(got, want) != 0)
		return shim_fail(err, 0, "%s: its uncompressed content has digest %s, the image "
				 "config's rootfs.diff_ids says %s", what, got, want);
	return 0;
}

static int unpack_layers(int layout, int bundle_fd, int rootfd, const struct oci_manifest *m,
			 char *const *diff_ids, struct shim_error *err)
{
	for (size_t i = 0; i < m->n_layers; i++) {
		const struct oci_descriptor *d = &m->layers[i];
		_cleanup_close_ int fd = -1;
		char what[128];

		snprintf(what, sizeof(what), "layer %zu (%s)", i, d->digest);
		if (!layer_type_ok(d))
			return shim_fail(err, 0, "%s: media type %s is not a layer tar I can read",
					 what, d->media_type ? d->media_type : "(none)");
		fd = blob_open(layout, d, bundle_fd, err);
		if (fd < 0 || (diff_ids && check_diff_id(fd, diff_ids[i], what, err) < 0) ||
		    layer_apply(rootfd, fd, what, err) < 0)
			return -1;
	}
	return 0;
}

/* The image's Env, with a default PATH when it sets none. */
static char **image_env(char *const *env, struct shim_error *err)
{
	size_t n = strv_len(env), k = 0;
	char **out = calloc(n + 2, sizeof(char *));
	int has_path = 0;

	for (size_t i = 0; out && i < n; i++) {
		has_path |= strncmp(env[i], "PATH=", 5) == 0;
		if (!(out[k++] = strdup(env[i])))
			goto fail;
	}
	if (out && (has_path || (out[k] = strdup(DEFAULT_PATH))))
		return out;
fail:
	strv_free(out);
	shim_fail(err, ENOMEM, "process.env");
	return NULL;
}

static int write_config(const char *bundle, int rootfd, const struct oci_image_config *c,
			struct shim_error *err)
{
	static char *const sh[] = { "sh", NULL };
	char **args = oci_image_args(c, err), **env = NULL, *json = NULL, path[PATH_MAX];
	struct oci_bundle_process p = { .cwd = c->working_dir && *c->working_dir ?
						      c->working_dir : "/" };
	int r = -1;

	if (!args || !(env = image_env(c->env, err)) ||
	    passwd_resolve(rootfd, c->user, &p.uid, &p.gid, err) < 0)
		goto out;
	if (!args[0])
		log_warn("the image names no command (config.Entrypoint and config.Cmd are "
			 "empty): config.json runs \"sh\"");
	p.args = args[0] ? args : sh;
	p.env = env;
	if (path_format(path, sizeof(path), err, "%s/config.json", bundle) == 0 &&
	    (json = oci_spec_json_for_process(&p, c->labels, err)))
		r = write_file_atomic(path, json, err);
out:
	strv_free(args);
	strv_free(env);
	free(json);
	return r;
}

static int unpack_into(int layout, const char *name, const char *bundle, int bundle_fd,
		       int rootfd, struct shim_error *err)
{
	struct oci_manifest m = { 0 };
	struct oci_image_config c = { 0 };
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r = -1;

	if (find_manifest(layout, name, &m, err) < 0)
		return -1;
	if (m.config.media_type && strcmp(m.config.media_type, OCI_MEDIA_CONFIG) != 0 &&
	    strcmp(m.config.media_type, "application/vnd.docker.container.image.v1+json") != 0)
		shim_fail(err, 0, "the image manifest: config.mediaType %s is not an image config",
			  m.config.media_type);
	else if ((text = blob_read(layout, &m.config, &len, err)) &&
		 oci_image_config_parse(text, len, "the image config", &c, err) == 0) {
		if (c.n_diff_ids && c.n_diff_ids != m.n_layers)
			shim_fail(err, 0, "the image config lists %zu layers, the manifest %zu",
				  c.n_diff_ids, m.n_layers);
		else if (unpack_layers(layout, bundle_fd, rootfd, &m, c.diff_ids, err) == 0)
			r = write_config(bundle, rootfd, &c, err);
	}
	oci_manifest_release(&m);
	oci_image_config_release(&c);
	return r;
}

/* "LAYOUT:NAME" -> LAYOUT and NAME; a colon followed by a '/' is a path's. */
static void split_image(char *image, char **name)
{
	char *colon = strrchr(image, ':');

	*name = NULL;
	if (colon && !strchr(colon, '/')) {
		*colon = '\0';
		*name = colon + 1;
	}
}

int image_unpack(const char *image, const char *bundle, struct shim_error *err)
{
	_cleanup_free_ char *copy = strdup(image);
	_cleanup_close_ int layout = -1, bundle_fd = -1, rootfd = -1;
	char rootfs[PATH_MAX], *name;
	struct stat st;

	if (!copy)
		return shim_fail(err, ENOMEM, "%s", image);
	split_image(copy, &name);
	layout = open(copy, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (layout < 0)
		return shim_fail_errno(err, "image layout %s", copy);
	if (fstatat(layout, "oci-layout", &st, 0) < 0)
		return shim_fail_errno(err, "%s is not an OCI image layout (its oci-layout file)", copy);
	/* 0700, as engines keep their storage: the image's set-uid programs,
	 * device nodes and open folders are written as they are below, for
	 * the container; no other user of the host may reach them
	 * (CVE-2021-41091) */
	if (mkdir(bundle, 0700) < 0)
		return errno == EEXIST ? shim_fail(err, 0, "bundle %s exists already (unpack "
							 "makes a new one)", bundle)
				       : shim_fail_errno(err, "bundle %s", bundle);
	bundle_fd = open(bundle, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (bundle_fd < 0 || fchmod(bundle_fd, 0700) < 0)
		shim_fail_errno(err, "bundle %s", bundle);
	else if (path_format(rootfs, sizeof(rootfs), err, "%s/rootfs", bundle) == 0) {
		if (mkdir(rootfs, 0755) == 0)
			rootfd = open(rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (rootfd < 0)
			shim_fail_errno(err, "mkdir %s", rootfs);
	}
	if (rootfd < 0 || unpack_into(layout, name, bundle, bundle_fd, rootfd, err) < 0) {
		struct shim_error ignored;

		shim_error_wrap(err, "unpack %s", image);
		if (remove_tree_at(AT_FDCWD, bundle, &ignored) < 0)
			log_warn("could not remove %s: %s", bundle, ignored.msg);
		return -1;
	}
	return 0;
}
