/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shim/bundle.h"
#include "shim/cleanup.h"
#include "shim/fsutil.h"

#define CONFIG_MAX (16 << 20)

int bundle_load(const char *dir, struct bundle *b, struct shim_error *err)
{
	char config[PATH_MAX], root[PATH_MAX];
	_cleanup_free_ char *text = NULL;
	size_t len;
	struct stat st;

	memset(b, 0, sizeof(*b));
	b->path = realpath(dir, NULL);
	if (!b->path)
		return shim_fail_errno(err, "--bundle %s", dir);
	snprintf(config, sizeof(config), "%s/config.json", b->path);
	text = read_small_file(config, CONFIG_MAX, &len, err);
	if (!text)
		goto fail;
	b->spec = oci_spec_parse(text, len, err);
	if (!b->spec) {
		shim_error_wrap(err, "%s", config);
		goto fail;
	}
	if (b->spec->root_path[0] == '/')
		snprintf(root, sizeof(root), "%s", b->spec->root_path);
	else
		snprintf(root, sizeof(root), "%s/%s", b->path, b->spec->root_path);
	b->rootfs = realpath(root, NULL);
	if (!b->rootfs || stat(b->rootfs, &st) < 0 || !S_ISDIR(st.st_mode)) {
		shim_fail(err, b->rootfs ? ENOTDIR : errno, "%s: root.path: %s", config, root);
		goto fail;
	}
	return 0;
fail:
	bundle_release(b);
	return -1;
}

void bundle_release(struct bundle *b)
{
	free(b->path);
	free(b->rootfs);
	oci_spec_free(b->spec);
	memset(b, 0, sizeof(*b));
}
