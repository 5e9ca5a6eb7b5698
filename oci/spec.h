/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/spec.h: the parts of an OCI runtime config.json the runtime uses, as
 * the project's own structs. oci/spec.c fills them from JSON (yajl) and names
 * the JSON path of anything it rejects; nothing under shim/ sees JSON.
 */
#ifndef OCI_SPEC_H
#define OCI_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "oci/base/error.h"
#include "oci/devices.h"
#include "oci/hooks.h"
#include "oci/idlist.h"
#include "oci/intel_rdt.h"
#include "oci/mount_options.h"
#include "oci/netdevices.h"
#include "oci/resources.h"
#include "oci/seccomp.h"

struct oci_rlimit {
	int resource;		/* RLIMIT_* */
	uint64_t soft, hard;
};

struct oci_user {
	uid_t uid;
	gid_t gid;
	bool has_umask;
	mode_t umask;
	gid_t *additional_gids;
	size_t n_additional_gids;
};

/* process.capabilities, as bit masks (1 << CAP_*). */
struct oci_capabilities {
	bool present;		/* absent: the runtime leaves capabilities alone */
	uint64_t bounding, effective, inheritable, permitted, ambient;
	/* names this runtime does not know ("process.capabilities.bounding[3]
	 * CAP_NEWER"), skipped as runc skips them: the caller warns */
	char **unknown;
};

struct oci_process {
	bool terminal;
	bool has_console_size;
	uint16_t console_rows, console_cols;	/* process.consoleSize */
	struct oci_user user;
	char **args;		/* NULL-terminated, at least one */
	char **env;		/* NULL-terminated */
	char *cwd;		/* absolute */
	struct oci_rlimit *rlimits;
	size_t n_rlimits;
	bool no_new_privileges;
	bool has_oom_score_adj;
	int oom_score_adj;	/* -1000 .. 1000 */
	struct oci_capabilities caps;
	bool has_io_priority;	/* process.ioPriority */
	int io_class;		/* 1 RT, 2 BE, 3 IDLE (IOPRIO_CLASS_*) */
	int io_priority;	/* 0 .. 7 */
	bool has_scheduler;	/* process.scheduler, for sched_setattr */
	struct {
		uint32_t policy;	/* SCHED_* number */
		int32_t nice;
		uint32_t priority;
		uint64_t flags;		/* SCHED_FLAG_* bits */
		uint64_t runtime, deadline, period;
	} sched;
	char *cpus_initial;	/* process.execCPUAffinity.initial: "0-3,7", or NULL */
	char *cpus_final;	/* .final, set right before exec, or NULL */
	unsigned long cpus_initial_mask[IDLIST_WORDS];	/* their bits, parsed once */
	unsigned long cpus_final_mask[IDLIST_WORDS];
	char *apparmor_profile;	/* process.apparmorProfile, or NULL */
	char *selinux_label;	/* process.selinuxLabel, or NULL */
};

/* linux.uidMappings / gidMappings entries. */
struct oci_id_mapping {
	uint32_t container_id, host_id, size;
};

struct oci_mount {
	char *destination;	/* absolute */
	char *type;		/* NULL: bind */
	char *source;
	char **options;		/* NULL-terminated */
	struct mount_opts opts;	/* options, sorted once at parse (oci/mount_options.h) */
	bool bind;		/* a bind mount: "bind"/"rbind" in options, or type "bind" */
	struct oci_id_mapping *uid_mappings, *gid_mappings;	/* for "idmap" */
	size_t n_uid_mappings, n_gid_mappings;
};

enum oci_ns_type {
	OCI_NS_PID,
	OCI_NS_NETWORK,
	OCI_NS_MOUNT,
	OCI_NS_IPC,
	OCI_NS_UTS,
	OCI_NS_USER,
	OCI_NS_CGROUP,
	OCI_NS_TIME,
	OCI_NS_COUNT
};

struct oci_namespace {
	enum oci_ns_type type;
	char *path;		/* NULL: create a new one */
};

struct oci_spec {
	char *oci_version;
	char *root_path;	/* as written; relative to the bundle if not absolute */
	bool root_readonly;
	bool has_process;
	struct oci_process process;
	char *hostname;
	char *domainname;
	struct oci_mount *mounts;
	size_t n_mounts;
	struct oci_device *devices;	/* linux.devices */
	size_t n_devices;
	struct oci_namespace *namespaces;
	size_t n_namespaces;
	struct oci_net_device *net_devices;	/* linux.netDevices */
	size_t n_net_devices;
	struct oci_id_mapping *uid_mappings, *gid_mappings;
	size_t n_uid_mappings, n_gid_mappings;
	char **masked_paths;	/* NULL-terminated */
	char **readonly_paths;	/* NULL-terminated */
	char *rootfs_propagation;	/* NULL: the default (rslave) */
	char *mount_label;		/* linux.mountLabel (SELinux), or NULL */
	char **annotations;	/* key, value, key, value, ..., NULL */
	char **sysctl;		/* linux.sysctl: key, value, ..., NULL */
	char *cgroups_path;	/* linux.cgroupsPath or NULL */
	bool has_resources;	/* linux.resources given */
	struct oci_resources resources;
	struct oci_hooks hooks;
	bool has_time_offsets;	/* linux.timeOffsets given (needs a new time namespace) */
	struct oci_time_offset {
		int64_t secs;
		uint32_t nanosecs;
	} boottime, monotonic;
	struct oci_memory_policy {	/* linux.memoryPolicy */
		bool present;
		int mode;		/* MPOL_* */
		unsigned int flags;	/* MPOL_F_* */
		char *nodes;		/* "0-1", or NULL */
		bool has_nodes;		/* nodes given and not empty */
		unsigned long nodes_mask[IDLIST_WORDS];	/* their bits, parsed once */
	} memory_policy;
	bool has_personality;	/* linux.personality given */
	unsigned long personality;	/* PER_LINUX or PER_LINUX32 */
	struct oci_seccomp seccomp;	/* .present: "linux.seccomp" is given */
	struct oci_intel_rdt intel_rdt;	/* .present: "linux.intelRdt" is given */
};

/* Parse config.json text. On error fills err (naming the JSON path) and
 * returns NULL. */
struct oci_spec *oci_spec_parse(const char *json, size_t len, struct shim_error *err);

void oci_spec_free(struct oci_spec *spec);

/* A process object alone, as `exec --process FILE` takes it; errors name
 * "process.<field>". Without "user" it is uid 0, gid 0, as runc takes it
 * (config.json's process must have one). */
int oci_process_parse(const char *json, size_t len, struct oci_process *p, struct shim_error *err);
void oci_process_release(struct oci_process *p);

/* The namespace entry of that type, or NULL if the config has none. */
const struct oci_namespace *oci_spec_namespace(const struct oci_spec *spec,
					       enum oci_ns_type type);

/* CAP_* number of a capability name, -1 if unknown. */
int oci_cap_from_name(const char *name);

/* The name of capability number cap, NULL past the last one known. */
const char *oci_cap_name(int cap);

/* linux.memoryPolicy's i-th mode ("MPOL_BIND", ...) and flag
 * ("MPOL_F_STATIC_NODES", ...) that shim knows; NULL past the last. */
const char *oci_memory_policy_mode_name(size_t i);
const char *oci_memory_policy_flag_name(size_t i);

/* "pid", "network", ... as in the spec. */
const char *oci_ns_type_name(enum oci_ns_type type);

/* The caller's IDs, for `spec --rootless`. */
struct oci_spec_ids {
	uid_t uid;
	gid_t gid;
};

/* The default config, as `spec` writes it (runc's template): a malloc'd
 * NUL-terminated JSON text, or NULL with err filled. With rootless, as
 * runc's `spec --rootless`: a user namespace mapping those IDs to the
 * container's root, and nothing that needs the host's root. */
char *oci_spec_default_json(const struct oci_spec_ids *rootless, struct shim_error *err);

#endif
