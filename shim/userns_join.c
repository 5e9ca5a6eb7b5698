/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim/clone.h"
#include "shim/userns_join.h"

#define MAP_TEXT 4096

static int copy_file(const char *path, int out)
{
	char buf[MAP_TEXT];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	return n < 0 || write(out, buf, (size_t)n) != n ? -1 : 0;
}

/* In the helper: the namespace's maps as its parent sees them, uid_map,
 * a NUL, gid_map. */
static int read_maps(void *arg, int out)
{
	const int *user_fd = arg;

	if (setns(*user_fd, CLONE_NEWUSER) < 0)
		return 1;
	if (copy_file("/proc/self/uid_map", out) < 0 || write(out, "", 1) != 1 ||
	    copy_file("/proc/self/gid_map", out) < 0)
		return 2;
	return 0;
}

static int parse_map(const char *text, const char *field, struct oci_id_mapping **out, size_t *n,
		     struct shim_error *err)
{
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	for (const char *p = text; *p;) {
		unsigned int c, h, s;
		int used = 0;

		if (sscanf(p, " %u %u %u%n", &c, &h, &s, &used) != 3)
			break;
		if (*n == cap) {
			struct oci_id_mapping *more = realloc(*out, (cap = cap ? cap * 2 : 4) * sizeof(**out));

			if (!more)
				return shim_fail(err, ENOMEM, "%s", field);
			*out = more;
		}
		(*out)[(*n)++] = (struct oci_id_mapping){ c, h, s };
		p += used;
	}
	if (!*n)
		return shim_fail(err, EINVAL, "%s: the joined user namespace has no mappings", field);
	return 0;
}

static bool same_maps(const struct oci_id_mapping *a, size_t na, const struct oci_id_mapping *b,
		      size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++) {
		size_t k = 0;

		while (k < nb && memcmp(&a[i], &b[k], sizeof(a[i])) != 0)
			k++;
		if (k == nb)
			return false;
	}
	return true;
}

static void format_maps(const struct oci_id_mapping *m, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%u %u %u", i ? ", " : "",
					 m[i].container_id, m[i].host_id, m[i].size);
}

/* Take the namespace's map, or check the config's against it. */
static int settle(struct oci_id_mapping **cfg, size_t *ncfg, const char *text, const char *field,
		  struct shim_error *err)
{
	struct oci_id_mapping *ns;
	size_t nns;
	char have[512];

	if (parse_map(text, field, &ns, &nns, err) < 0)
		return -1;
	if (!*ncfg) {
		free(*cfg);
		*cfg = ns;
		*ncfg = nns;
		return 0;
	}
	if (same_maps(*cfg, *ncfg, ns, nns)) {
		free(ns);
		return 0;
	}
	format_maps(ns, nns, have, sizeof(have));
	free(ns);
	return shim_fail(err, EINVAL, "%s: differ from the joined user namespace's (%s)", field, have);
}

int userns_join_mappings(struct oci_spec *spec, int user_fd, struct shim_error *err)
{
	char text[2 * MAP_TEXT + 2] = { 0 };
	int status;
	ssize_t n = clone_helper_output(read_maps, &user_fd, text, sizeof(text) - 1, &status, err);

	if (n < 0)
		return shim_error_wrap(err, "linux.namespaces: reading the user namespace's maps");
	if (status != 0)
		return shim_fail(err, EPERM, "linux.namespaces: the user namespace to join cannot be "
				 "entered (helper status %d)", status);
	if (settle(&spec->uid_mappings, &spec->n_uid_mappings, text, "linux.uidMappings", err) < 0 ||
	    settle(&spec->gid_mappings, &spec->n_gid_mappings, text + strlen(text) + 1,
		   "linux.gidMappings", err) < 0)
		return -1;
	return 0;
}
