/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/hooks.h: the config's "hooks", by kind, in the order given. */
#ifndef OCI_HOOKS_H
#define OCI_HOOKS_H

#include <stddef.h>
#include <yajl/yajl_tree.h>

#include "oci/base/error.h"

enum oci_hook_kind {
	HOOK_PRESTART,		/* deprecated; runs with createRuntime, before it */
	HOOK_CREATE_RUNTIME,
	HOOK_CREATE_CONTAINER,
	HOOK_START_CONTAINER,
	HOOK_POSTSTART,
	HOOK_POSTSTOP,
	HOOK_KINDS
};

struct oci_hook {
	char *path;		/* absolute */
	char **args;		/* NULL-terminated; may be NULL (then {path}) */
	char **env;		/* NULL-terminated; may be NULL (empty) */
	unsigned int timeout;	/* seconds; 0: none */
};

struct oci_hooks {
	struct oci_hook *list[HOOK_KINDS];
	size_t n[HOOK_KINDS];
};

/* "prestart", "createRuntime", ... as the config names them. */
const char *oci_hook_kind_name(enum oci_hook_kind kind);

int oci_hooks_parse(yajl_val obj, struct oci_hooks *h, struct shim_error *err);
void oci_hooks_release(struct oci_hooks *h);

#endif
