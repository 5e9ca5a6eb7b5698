/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/bundle.h"
#include "shim/fsutil.h"
#include "shim/store.h"

#define CONFIG_MAX (16 << 20)

int bundle_load(const char *dir, struct bundle *b, struct shim_error *err)
{
	char config[PATH_MAX], root[PATH_MAX];
	_cleanup_close_ int dir_fd = -1, config_fd = -1;

	memset(b, 0, sizeof(*b));
	b->path = real_dir_open(dir, &dir_fd, "--bundle", err);
	if (!b->path)
		return -1;
	if (path_format(config, sizeof(config), err, "%s/config.json", b->path) < 0)
		goto fail;
	config_fd = openat(dir_fd, "config.json", O_RDONLY | O_CLOEXEC);
	if (config_fd < 0) {
		shim_fail_errno(err, "%s", config);
		goto fail;
	}
	b->text = read_small_fd(config_fd, config, CONFIG_MAX, &b->len, err);
	if (!b->text)
		goto fail;
	b->spec = oci_spec_parse(b->text, b->len, err);
	if (!b->spec) {
		shim_error_wrap(err, "%s", config);
		goto fail;
	}
	if (path_format(root, sizeof(root), err, "%s%s%s", b->spec->root_path[0] == '/' ? "" :
			b->path, b->spec->root_path[0] == '/' ? "" : "/", b->spec->root_path) < 0) {
		shim_error_wrap(err, "%s: root.path", config);
		goto fail;
	}
	b->rootfs = real_dir_open(root, NULL, "root.path", err);
	if (!b->rootfs) {
		shim_error_wrap(err, "%s", config);
		goto fail;
	}
	return 0;
fail:
	bundle_release(b);
	return -1;
}

int bundle_load_saved(int state_dir_fd, const char *bundle_path, struct bundle *b,
		      struct shim_error *err)
{
	_cleanup_close_ int fd = openat(state_dir_fd, STORE_CONFIG, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT)
		return bundle_load(bundle_path, b, err);
	memset(b, 0, sizeof(*b));
	if (fd < 0)
		return shim_fail_errno(err, "state folder: open %s", STORE_CONFIG);
	b->path = strdup(bundle_path);
	b->text = read_small_fd(fd, STORE_CONFIG, CONFIG_MAX, &b->len, err);
	if (b->path && b->text)
		b->spec = oci_spec_parse(b->text, b->len, err);
	if (!b->spec) {
		if (!b->path)
			shim_fail(err, ENOMEM, "state folder");
		shim_error_wrap(err, "state folder: %s", STORE_CONFIG);
		bundle_release(b);
		return -1;
	}
	return 0;
}

void bundle_release(struct bundle *b)
{
	free(b->path);
	free(b->rootfs);
	free(b->text);
	oci_spec_free(b->spec);
	memset(b, 0, sizeof(*b));
}
