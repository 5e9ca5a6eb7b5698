/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/criu/criu_rpc.h: the part of CRIU's RPC (criu/rpc.proto, proto2) that
 * `shim checkpoint` and `shim restore` speak to `criu swrk`: an encoder of
 * protobuf fields for the request, and a decoder of the response. Debian
 * ships no libcriu; the wire format is small enough to write here, and the
 * decoder never trusts a length (it is fuzzed: tests/fuzz).
 */
#ifndef SHIM_CRIU_RPC_H
#define SHIM_CRIU_RPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oci/base/bytebuf.h"

/* criu_req_type */
enum criu_req_type {
	CRIU_REQ_EMPTY = 0, CRIU_REQ_DUMP = 1, CRIU_REQ_RESTORE = 2, CRIU_REQ_CHECK = 3,
	CRIU_REQ_PRE_DUMP = 4, CRIU_REQ_NOTIFY = 6, CRIU_REQ_FEATURE_CHECK = 9,
	CRIU_REQ_VERSION = 10,
};

/* criu_cg_mode */
enum criu_cg_mode {
	CRIU_CG_IGNORE = 0, CRIU_CG_NONE = 1, CRIU_CG_PROPS = 2, CRIU_CG_SOFT = 3,
	CRIU_CG_FULL = 4, CRIU_CG_STRICT = 5, CRIU_CG_DEFAULT = 6,
};

/* Field numbers of criu_opts used here (rpc.proto). */
enum criu_opt_field {
	CRIU_OPT_IMAGES_DIR_FD = 1, CRIU_OPT_PID = 2, CRIU_OPT_LEAVE_RUNNING = 3,
	CRIU_OPT_EXT_UNIX_SK = 4, CRIU_OPT_TCP_ESTABLISHED = 5, CRIU_OPT_EVASIVE_DEVICES = 6,
	CRIU_OPT_SHELL_JOB = 7, CRIU_OPT_FILE_LOCKS = 8, CRIU_OPT_LOG_LEVEL = 9,
	CRIU_OPT_LOG_FILE = 10, CRIU_OPT_NOTIFY_SCRIPTS = 12, CRIU_OPT_ROOT = 13,
	CRIU_OPT_PARENT_IMG = 14, CRIU_OPT_TRACK_MEM = 15, CRIU_OPT_AUTO_DEDUP = 16,
	CRIU_OPT_WORK_DIR_FD = 17, CRIU_OPT_EXT_MNT = 23, CRIU_OPT_MANAGE_CGROUPS = 24,
	CRIU_OPT_CG_ROOT = 25, CRIU_OPT_RST_SIBLING = 26, CRIU_OPT_INHERIT_FD = 27,
	CRIU_OPT_MANAGE_CGROUPS_MODE = 34, CRIU_OPT_EXTERNAL = 37, CRIU_OPT_EMPTY_NS = 38,
	CRIU_OPT_FREEZE_CGROUP = 44, CRIU_OPT_ORPHAN_PTS_MASTER = 50,
	CRIU_OPT_LSM_PROFILE = 53, CRIU_OPT_LSM_MOUNT_CONTEXT = 63,
};

void pb_varint(struct bytebuf *b, uint32_t field, uint64_t value);
void pb_bool(struct bytebuf *b, uint32_t field, bool value);
void pb_int32(struct bytebuf *b, uint32_t field, int32_t value);	/* proto int32 */
void pb_bytes(struct bytebuf *b, uint32_t field, const void *data, size_t len);
void pb_string(struct bytebuf *b, uint32_t field, const char *s);
/* A nested message: sub's bytes as field, sub freed. */
void pb_message(struct bytebuf *b, uint32_t field, struct bytebuf *sub);
/* The key/value pairs of ext_mount_map and inherit_fd. */
void pb_ext_mount(struct bytebuf *b, const char *key, const char *val);
void pb_inherit_fd(struct bytebuf *b, const char *key, int32_t fd);

/* A criu_req of type with opts (may be NULL, then none), or a notify
 * answer (type CRIU_REQ_NOTIFY, notify_success). opts is freed. */
int pb_request(struct bytebuf *out, enum criu_req_type type, struct bytebuf *opts,
	       bool notify_success);

/* What a criu_resp says (the fields shim reads). */
struct criu_resp {
	int32_t type;
	bool success;
	int32_t restored_pid;		/* restore.pid, 0 if none */
	char notify_script[64];		/* notify.script, "" if none */
	int32_t notify_pid;
	int32_t cr_errno;
	char cr_errmsg[512];
	bool has_version;
	int32_t major, minor, sublevel;
	bool mem_track;			/* features.mem_track */
};

/* Decode a criu_resp; -1 when the bytes are not one (truncated varint or
 * length, a wire type protobuf does not have, a required field absent). */
int criu_resp_decode(const uint8_t *data, size_t len, struct criu_resp *out);

#endif
