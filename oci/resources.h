/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/resources.h: linux.resources as what a cgroup v2 folder needs.
 *
 * The OCI fields are cgroup v1 shaped (cpu.shares, memory.swap counting
 * memory too, blockIO.weight 10..1000); they are turned into cgroup v2 file
 * writes here, as runc and crun convert them, so shim/cgroups/cgroup.c only writes
 * files. linux.resources.unified entries are passed through as given.
 * `update --resources FILE` parses its file with the same code.
 */
#ifndef OCI_RESOURCES_H
#define OCI_RESOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_tree.h>

#include "oci/base/error.h"

/* One write: value to <cgroup>/<file>. */
struct cgroup_setting {
	char *file;		/* "memory.max" */
	char *value;		/* "104857600" */
	char *json_path;	/* what it came from, for errors */
	const char *v2_refusal;	/* in v1: why cgroup v2 cannot have it, or NULL */
};

/* linux.resources.devices[]: BPF_DEVCG_ACC_* bits in access. */
#define DEV_ACC_MKNOD 1u
#define DEV_ACC_READ 2u
#define DEV_ACC_WRITE 4u

struct device_rule {
	bool allow;
	char type;		/* 'a' (all), 'c', 'b' */
	int64_t major, minor;	/* -1: any */
	unsigned int access;	/* DEV_ACC_* */
};

struct oci_resources {
	struct cgroup_setting *settings;
	size_t n_settings;
	bool has_devices;	/* devices given: replace the device program */
	bool check_before_update;	/* memory.checkBeforeUpdate: `update` refuses a
					 * memory limit below the current usage */
	/* what `update` completes from the container's current limits, as
	 * runc: a cpu period given without a quota (cpu.max keeps the
	 * cgroup's quota), a memory limit of -1 without swap (swap unlimited
	 * too) */
	bool cpu_period_alone, memory_unlimited_alone;
	/* a swap limit (memory + swap, in bytes) given without a memory limit:
	 * `update` takes the cgroup's memory limit (v2: memory.swap.max is
	 * this less memory.max; v1: memory.memsw.limit_in_bytes is this), a
	 * config refuses it (no limit to count from) */
	bool has_swap_alone;
	uint64_t swap_alone;
	struct device_rule *devices;
	size_t n_devices;
	/* cpu.shares and blockIO.weight as given (0: none), which cgroup v2
	 * scales into cpu.weight and io.weight: a cgroup v1 host writes them */
	uint64_t cpu_shares, blkio_weight;
	/* the same as cgroup v1 files and units (oci/resources_v1.c): the
	 * per-device blockIO weights and throttles, hugepage and rdma limits
	 * (which settings hold in v2's words too), and the knobs v2 has no file
	 * for (network classID and priorities, memory swappiness, kernelTCP,
	 * disableOOMKiller, cpu realtime), their v2_refusal set */
	struct cgroup_setting *v1;
	size_t n_v1;
	/* fields the spec lets a runtime ignore, given and ignored (JSON
	 * paths, NULL-terminated, or NULL): the caller warns */
	char **ignored;
};

/* Parse a LinuxResources object; path names it in errors ("linux.resources"). */
int oci_resources_parse(yajl_val obj, const char *path, struct oci_resources *r,
			struct shim_error *err);

/* Add one setting (copies its strings). */
int oci_resources_add(struct oci_resources *r, const char *file, const char *value,
		      const char *json_path, struct shim_error *err);

/* Add one v1 file write; why: NULL when v2 has the same in settings, else
 * why v2 cannot have it. */
int oci_resources_add_v1(struct oci_resources *r, const char *file, const char *value,
			 const char *json_path, const char *why, struct shim_error *err);

/* The JSON path of the first limit given (v2's or v1's), or NULL. */
const char *oci_resources_first_path(const struct oci_resources *r);

/* What only cgroup v1 has files for, refused by its JSON path (a cgroup v2
 * host, the systemd driver). */
int oci_resources_refuse_v1_only(const struct oci_resources *r, struct shim_error *err);

/* Parse the fields only cgroup v1 has files for (oci/resources_v1.c). */
int oci_resources_parse_v1(yajl_val obj, const char *path, struct oci_resources *r,
			   struct shim_error *err);

/* The setting for that file, or NULL. */
const struct cgroup_setting *oci_resources_find(const struct oci_resources *r, const char *file);

/* Give the last setting of file (one there is) a new value. */
int oci_resources_replace(struct oci_resources *r, const char *file, const char *value,
			  struct shim_error *err);

void oci_resources_release(struct oci_resources *r);

/* cpu.shares (2..262144) as cpu.weight (1..10000), the runc/crun mapping. */
uint64_t oci_cpu_shares_to_weight(uint64_t shares);

#endif
