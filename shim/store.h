/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/store.h: the state folder of each container, ROOT/ID/ (--root,
 * default /run/shim), holding state.json and, between create and start,
 * exec.fifo, which the init blocks on until `start` opens it.
 */
#ifndef SHIM_STORE_H
#define SHIM_STORE_H

#include <limits.h>
#include <stdbool.h>
#include "oci/base/error.h"
#include "oci/state.h"

#define STORE_FIFO "exec.fifo"
#define STORE_CGROUP "cgroup"	/* the cgroup's path, apart from state.json */
#define STORE_CONFIG "config.json"	/* the config create read (shim/bundle.h) */

/* IDs as runc takes them: letters, digits, and _ + - . (not leading '.'). */
int store_check_id(const char *id, struct shim_error *err);

/* Everything below ROOT is opened with openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS) or O_NOFOLLOW: a link planted at ROOT/ID or in it
 * is refused, or removed as a link, never followed. */

/* Make ROOT/ID (error if it exists); returns an O_PATH fd of it. */
int store_create(const char *root, const char *id, struct shim_error *err);

/* Open ROOT/ID: "container \"ID\" does not exist" when it is not there. */
int store_open(const char *root, const char *id, struct shim_error *err);

/* A file written and synced under a temporary name beside its own, that
 * takes its name later in one rename: what must be on disk at a moment
 * is written ahead of it, and only the rename is made at that moment. */
struct staged_file {
	int dir_fd;		/* borrowed: the caller keeps it open until commit or drop */
	const char *name;
	char tmp[NAME_MAX + 1];	/* "" once committed or dropped */
};
/* Write text to a new temporary file in dir_fd (O_EXCL | O_NOFOLLOW, so
 * nothing planted is written through) and fsync it. */
int file_stage_at(int dir_fd, const char *name, const char *text, struct staged_file *out,
		  struct shim_error *err);
/* Rename it to its name (removed if that fails). */
int staged_file_commit(struct staged_file *f, struct shim_error *err);
/* Remove it if it is still staged. */
void staged_file_drop(struct staged_file *f);

/* state.json, written to a temporary file then renamed; or only staged. */
int store_write_state(int dir_fd, const struct oci_state_view *st, struct shim_error *err);
int store_stage_state(int dir_fd, const struct oci_state_view *st, struct staged_file *out,
		      struct shim_error *err);
struct oci_state *store_read_state(int dir_fd, const char *id, struct shim_error *err);

/* Remove ROOT/ID and what it holds. */
int store_remove(const char *root, const char *id, struct shim_error *err);
/* The same for the folder the caller holds open (dir_fd, from
 * store_create or store_open): it is emptied through dir_fd. */
int store_remove_open(const char *root, const char *id, int dir_fd, struct shim_error *err);

/* Who owns the folder (dir_fd: ROOT/ID), as runc's list names them: the
 * host's /etc/passwd name of its uid, else "#UID". */
void store_owner_name(int dir_fd, char *name, size_t len);

/* The IDs under ROOT, sorted; NULL-terminated, malloc'd. */
char **store_list(const char *root, struct shim_error *err);

/* Write text to dir_fd/name atomically: file_stage_at, then the rename. */
int write_file_atomic_at(int dir_fd, const char *name, const char *text, struct shim_error *err);

/* The same for a path the caller gave (--pid-file): its folder is opened
 * as named, the file itself is never followed. */
int write_file_atomic(const char *path, const char *text, struct shim_error *err);

/* A new file dir_fd/name (O_EXCL | O_NOFOLLOW), without fsync. */
int write_file_at(int dir_fd, const char *name, const char *text, struct shim_error *err);

/* A record the folder holds (dir_fd/name, a regular file of at most max
 * bytes, never followed), NUL-terminated; NULL with err filled when it
 * cannot be read, err->errnum ENOENT when there is none (or no dir_fd). */
char *store_read_record(int dir_fd, const char *name, size_t max, struct shim_error *err);

/* An fd holding the folder's exclusive flock (never waits): create keeps
 * it until the init is ready, delete while it removes. -1 with err filled;
 * err->errnum is EWOULDBLOCK when somebody holds it. */
int store_lock(int dir_fd, const char *id, struct shim_error *err);

/* Whether root/id exists (true also when it cannot be told). */
bool store_has(const char *root, const char *id);

#endif
