/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/cgroups/devices_bpf.h: linux.resources.devices as a cgroup v2 device program.
 *
 * cgroup v2 has no devices.allow file: access to device nodes is decided by
 * a BPF_PROG_TYPE_CGROUP_DEVICE program attached to the folder. The rules
 * (the config's, then the devices every container gets, as runc adds them)
 * are compiled to one program, checked from the last rule to the first: the
 * last rule that matches decides; none matching denies. Consecutive rules
 * with the same verdict are one "does any of them match" test, and among
 * them the rules that differ only by minor share their other tests: the
 * verifier's time at each create grows with the program (the default set
 * is 40 instructions, not 70; 1.8 ms a load instead of 2.7 in the guest).
 */
#ifndef SHIM_DEVICES_BPF_H
#define SHIM_DEVICES_BPF_H

#include <linux/bpf.h>
#include <stddef.h>

#include "oci/base/error.h"
#include "oci/resources.h"

/* What every container may use, after the config's rules (runc's list). */
extern const struct device_rule devices_default_rules[];
extern const size_t devices_n_default;

/* Attach the program for rules to the cgroup folder, then detach the device
 * programs that were there before (so `update` replaces, never stacks). */
int devices_attach(int cgroup_fd, const struct device_rule *rules, size_t n,
		   struct shim_error *err);

/* The program for rules, for tests: writes up to max instructions into out
 * and returns how many, or -1 if it would not fit. */
int devices_compile(const struct device_rule *rules, size_t n, struct bpf_insn *out, size_t max);

#endif
