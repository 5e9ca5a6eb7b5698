/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/filesystem/inherited_mounts.h"
#include "shim/filesystem/mountinfo.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/procfs.h"
#include "shim/store.h"
#include "shim/syscalls.h"

#define RECORD_MAX (1 << 20)

/* One mountinfo line's ID and mount point (escaped, as the table has it). */
static bool parse_line(const char *line, int *id, char point[PATH_MAX])
{
	char fmt[32];

	snprintf(fmt, sizeof(fmt), "%%d %%*d %%*s %%*s %%%ds", PATH_MAX - 1);
	return sscanf(line, fmt, id, point) == 2;
}

/* One record line: "ID PATH", PATH escaped. */
static bool parse_record_line(const char *line, int *id, char point[PATH_MAX])
{
	char fmt[32];

	snprintf(fmt, sizeof(fmt), "%%d %%%ds", PATH_MAX - 1);
	return sscanf(line, fmt, id, point) == 2;
}

/* Whether the escaped mount point is root or below it. */
static bool below(const char *escaped, const char *root)
{
	char point[PATH_MAX];
	size_t n = strlen(root);

	snprintf(point, sizeof(point), "%s", escaped);
	mountinfo_unescape(point);
	return strncmp(point, root, n) == 0 && (point[n] == '\0' || point[n] == '/');
}

static FILE *open_table(struct shim_error *err)
{
	int fd = procfs_open_self("mountinfo", O_RDONLY, err);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

	if (fd >= 0 && !f) {
		close(fd);
		shim_fail_errno(err, "reading mountinfo");
	}
	return f;
}

int inherited_mounts_snapshot(const char *rootfs, struct mount_snapshot *s,
			      struct shim_error *err)
{
	char *line = NULL, point[PATH_MAX];
	size_t len = 0, cap = 0;
	FILE *f;
	int id;

	memset(s, 0, sizeof(*s));
	s->root = realpath(rootfs, NULL);
	if (!s->root)
		return shim_fail_errno(err, "root.path: %s", rootfs);
	if (strchr(s->root, '\n'))
		return shim_fail(err, EINVAL, "root.path: %s: a newline in it", s->root);
	f = open_table(err);
	if (!f)
		return -1;
	while (getline(&line, &len, f) > 0) {
		if (!parse_line(line, &id, point))
			continue;
		if (s->n == cap) {
			int *grown = reallocarray(s->ids, cap = cap ? cap * 2 : 64, sizeof(int));

			if (!grown) {
				free(line);
				fclose(f);
				return shim_fail(err, ENOMEM, "mountinfo");
			}
			s->ids = grown;
		}
		s->ids[s->n++] = id;
	}
	free(line);
	fclose(f);
	return 0;
}

static bool noted(const struct mount_snapshot *s, int id)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->ids[i] == id)
			return true;
	return false;
}

/* The new mounts below s->root, as record text: root, then "ID PATH" each. */
static char *new_mounts(const struct mount_snapshot *s, size_t *count, struct shim_error *err)
{
	char *line = NULL, *text = NULL, point[PATH_MAX];
	size_t len = 0, size = 0;
	FILE *f = open_table(err), *out;
	int id;

	*count = 0;
	if (!f)
		return NULL;
	out = open_memstream(&text, &size);
	if (!out) {
		fclose(f);
		shim_fail(err, ENOMEM, "mounts record");
		return NULL;
	}
	fprintf(out, "%s\n", s->root);
	while (getline(&line, &len, f) > 0)
		if (parse_line(line, &id, point) && !noted(s, id) && below(point, s->root)) {
			fprintf(out, "%d %s\n", id, point);
			(*count)++;
		}
	free(line);
	fclose(f);
	if (fclose(out) != 0) {
		free(text);
		shim_fail(err, ENOMEM, "mounts record");
		return NULL;
	}
	return text;
}

int inherited_mounts_record(int dir_fd, const struct mount_snapshot *s, struct shim_error *err)
{
	size_t count;
	_cleanup_free_ char *text = new_mounts(s, &count, err);

	if (!text)
		return -1;
	log_debug("no mount namespace: %zu mounts below %s, recorded for delete", count, s->root);
	return write_file_at(dir_fd, STORE_INHERITED_MOUNTS, text, err);
}

/* The mount ID an fd is on, from its fdinfo. */
static int fd_mount_id(int fd)
{
	char file[32], *info, *at;
	struct shim_error err = { 0 };
	_cleanup_close_ int in = -1;
	int id = -1;

	snprintf(file, sizeof(file), "fdinfo/%d", fd);
	in = procfs_open_self(file, O_RDONLY, &err);
	info = in < 0 ? NULL : read_small_stream(in, file, 4096, NULL, &err);
	at = info ? strstr(info, "\nmnt_id:") : NULL;
	if (at)
		id = atoi(at + strlen("\nmnt_id:"));
	free(info);
	return id;
}

/* Unmount mount id at point (escaped, below root): reached from root with
 * no link followed, and only while it is that mount. */
static int unmount_one(int root_fd, const char *root, int id, char *point,
		       struct shim_error *err)
{
	_cleanup_close_ int fd = -1;
	const char *rel;
	char path[64];

	mountinfo_unescape(point);
	rel = point + strlen(root);
	while (*rel == '/')
		rel++;
	fd = *rel ? openat2_retry(root_fd, rel, O_PATH | O_NOFOLLOW | O_CLOEXEC,
				  RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)
		  : fcntl(root_fd, F_DUPFD_CLOEXEC, 3);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return shim_fail_errno(err, "mount %d at %s", id, point);
	if (fd_mount_id(fd) != id) {
		log_debug("mount %d at %s: gone already", id, point);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (umount2(path, MNT_DETACH) < 0)
		return shim_fail_errno(err, "unmounting %s (mount %d)", point, id);
	log_debug("mount %d at %s removed", id, point);
	return 0;
}

/* Unmount the record's mounts, deepest (last) first. */
static int unmount_record(char *text, struct shim_error *err)
{
	char *root = text, *nl = strchr(text, '\n');
	_cleanup_free_ char **lines = NULL;
	_cleanup_close_ int root_fd = -1;
	size_t n = 0, max = 0;
	int r = 0;

	if (!nl)
		return 0;
	for (const char *p = nl; (p = strchr(p + 1, '\n'));)
		max++;
	lines = calloc(max + 1, sizeof(*lines));
	if (!lines)
		return shim_fail(err, ENOMEM, "mounts record");
	*nl = '\0';
	for (char *p = nl + 1; *p && n <= max; p = nl + 1) {
		lines[n++] = p;
		if (!(nl = strchr(p, '\n')))
			break;
		*nl = '\0';
	}
	root_fd = open(root, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (root_fd < 0)
		return n ? shim_fail_errno(err, "root.path %s, for its mounts", root) : 0;
	while (n-- > 0) {
		char point[PATH_MAX];
		int id;

		if (!parse_record_line(lines[n], &id, point))
			continue;
		if (unmount_one(root_fd, root, id, point, err) < 0)
			r = -1;
	}
	return r;
}

void inherited_mounts_undo(const struct mount_snapshot *s)
{
	struct shim_error err = { 0 };
	size_t count;
	_cleanup_free_ char *text = NULL;
	char msg[1200];

	if (!s->root)
		return;
	text = new_mounts(s, &count, &err);
	if (!text || unmount_record(text, &err) < 0)
		log_warn("%s", shim_error_text(&err, msg, sizeof(msg)));
}

int inherited_mounts_remove(int dir_fd, struct shim_error *err)
{
	struct shim_error none = { 0 };
	_cleanup_free_ char *text = store_read_record(dir_fd, STORE_INHERITED_MOUNTS, RECORD_MAX,
						      &none);

	if (!text)
		return 0;
	return unmount_record(text, err);
}

void mount_snapshot_release(struct mount_snapshot *s)
{
	free(s->root);
	free(s->ids);
	memset(s, 0, sizeof(*s));
}
