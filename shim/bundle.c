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

#define CONFIG_MAX (16 << 20)

char *read_small_file(const char *path, size_t max, size_t *len, struct shim_error *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf;
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st) < 0) {
		shim_fail_errno(err, "%s", path);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		shim_fail(err, S_ISREG(st.st_mode) ? EFBIG : EINVAL, "%s", path);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		shim_fail(err, ENOMEM, "%s", path);
		return NULL;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

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
