/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/fsutil.h"
#include "shim/images/passwd.h"
#include "shim/syscalls.h"

#define DB_MAX (4 << 20)

/* The file at path inside the root, NUL-terminated; "" when absent. Only
 * a regular file of at most DB_MAX bytes is read: the image's /etc/passwd
 * may be a link to /dev/zero or a FIFO. */
static char *read_in_root(int rootfd, const char *path, struct shim_error *err)
{
	char *text = read_file_in_root(rootfd, path, DB_MAX, NULL, err);

	if (!text && err && err->errnum == ENOENT)
		return strdup("");
	return text;
}

static bool parse_id(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || v > UINT32_MAX - 1)
		return false;
	*out = (uint32_t)v;
	return true;
}

#define FIELDS 7	/* name:password:uid:gid:gecos:home:shell */

/* Split line into its fields (empty ones kept); how many there are. */
static int split_fields(char *line, char *field[FIELDS])
{
	int n = 0;

	for (char *p = line; p && n < FIELDS; n++) {
		field[n] = p;
		p = strchr(p, ':');
		if (p)
			*p++ = '\0';
	}
	return n;
}

/* In "name:x:id:gid:..." lines (db is cut up), the first whose field
 * key_field is key (field 2, the id, compared as a number) and whose id
 * fields are numbers: its fields in field[] (NULL past the last). */
static bool db_find(char *db, int key_field, const char *key, char *field[FIELDS])
{
	uint32_t want = 0, id;
	bool by_id = key_field == 2;

	if (by_id && !parse_id(key, &want))
		return false;
	for (char *line = strtok(db, "\n"); line; line = strtok(NULL, "\n")) {
		memset(field, 0, FIELDS * sizeof(*field));
		if (split_fields(line, field) < 3 || !parse_id(field[2], &id))
			continue;
		if (by_id ? id == want : strcmp(field[key_field], key) == 0)
			return true;
	}
	return false;
}

static int lookup_user(int rootfd, const char *name, uint32_t *uid, uint32_t *gid,
		       struct shim_error *err)
{
	_cleanup_free_ char *db = read_in_root(rootfd, "etc/passwd", err);
	bool numeric = parse_id(name, uid);
	char *field[FIELDS];

	if (!db)
		return -1;
	if (db_find(db, numeric ? 2 : 0, name, field) && field[3] && parse_id(field[2], uid) &&
	    parse_id(field[3], gid))
		return 0;
	if (numeric) {
		*gid = 0;
		return 0;
	}
	return shim_fail(err, 0, "user \"%s\": not in the image's /etc/passwd", name);
}

static int lookup_group(int rootfd, const char *name, uint32_t *gid, struct shim_error *err)
{
	_cleanup_free_ char *db = NULL;
	char *field[FIELDS];

	if (parse_id(name, gid))
		return 0;
	if (!(db = read_in_root(rootfd, "etc/group", err)))
		return -1;
	if (db_find(db, 0, name, field) && parse_id(field[2], gid))
		return 0;
	return shim_fail(err, 0, "group \"%s\": not in the image's /etc/group", name);
}

int passwd_resolve(int rootfd, const char *user, uint32_t *uid, uint32_t *gid,
		   struct shim_error *err)
{
	_cleanup_free_ char *copy = strdup(user ? user : "");
	char *group;

	*uid = 0;
	*gid = 0;
	if (!copy)
		return shim_fail(err, ENOMEM, "config.User");
	if (!*copy)
		return 0;
	group = strchr(copy, ':');
	if (group)
		*group++ = '\0';
	if (lookup_user(rootfd, copy, uid, gid, err) < 0 ||
	    (group && lookup_group(rootfd, group, gid, err) < 0))
		return shim_error_wrap(err, "config.User \"%s\"", user);
	return 0;
}

/* Field k of uid's line in rootfd's /etc/passwd, into out; false when
 * there is none (or it is empty, or the file cannot be read). */
static bool user_field(int rootfd, uint32_t uid, int k, char *out, size_t len)
{
	_cleanup_free_ char *db = read_in_root(rootfd, "etc/passwd", NULL);
	char key[16], *field[FIELDS];

	snprintf(key, sizeof(key), "%u", (unsigned)uid);
	if (!db || !db_find(db, 2, key, field) || !field[k] || !*field[k])
		return false;
	return snprintf(out, len, "%s", field[k]) < (int)len;
}

bool passwd_user_name(int rootfd, uint32_t uid, char *name, size_t len)
{
	return user_field(rootfd, uid, 0, name, len);
}

bool passwd_user_home(int rootfd, uint32_t uid, char *home, size_t len)
{
	return user_field(rootfd, uid, 5, home, len);
}
