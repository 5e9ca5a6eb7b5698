/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/spec_default.c: the config.json `shim spec` writes: the same template
 * as runc's (a busybox-style "sh" in rootfs/, six namespaces, the usual
 * /proc, /dev, /sys mounts, masked and read-only paths), hostname "shim".
 */
#include <errno.h>
#include <string.h>

#include <stdio.h>
#include <stdlib.h>

#include "oci/base/cleanup.h"
#include "oci/gen.h"
#include "oci/image.h"
#include "oci/spec.h"

/*
 * runc's template after the process, in pieces: `spec --rootless` leaves
 * out what an unprivileged user cannot have (as runc's): devpts's gid=5
 * (no such group mapped), sysfs (no network namespace of its own: the
 * host's /sys bound read-only instead), the network namespace, the device
 * rules; and adds a user namespace mapping the caller's IDs.
 */
static const char spec_mounts_head[] =
	"	\"root\": {\n"
	"		\"path\": \"rootfs\",\n"
	"		\"readonly\": true\n"
	"	},\n"
	"	\"hostname\": \"shim\",\n"
	"	\"mounts\": [\n"
	"		{\n"
	"			\"destination\": \"/proc\",\n"
	"			\"type\": \"proc\",\n"
	"			\"source\": \"proc\"\n"
	"		},\n"
	"		{\n"
	"			\"destination\": \"/dev\",\n"
	"			\"type\": \"tmpfs\",\n"
	"			\"source\": \"tmpfs\",\n"
	"			\"options\": [\n"
	"				\"nosuid\",\n"
	"				\"strictatime\",\n"
	"				\"mode=755\",\n"
	"				\"size=65536k\"\n"
	"			]\n"
	"		},\n"
	"		{\n"
	"			\"destination\": \"/dev/pts\",\n"
	"			\"type\": \"devpts\",\n"
	"			\"source\": \"devpts\",\n"
	"			\"options\": [\n"
	"				\"nosuid\",\n"
	"				\"noexec\",\n"
	"				\"newinstance\",\n"
	"				\"ptmxmode=0666\",\n"
	"				\"mode=0620\"";

static const char spec_devpts_gid[] =
	",\n"
	"				\"gid=5\"\n";

static const char spec_devpts_to_sysfs[] =
	"			]\n"
	"		},\n"
	"		{\n"
	"			\"destination\": \"/dev/shm\",\n"
	"			\"type\": \"tmpfs\",\n"
	"			\"source\": \"shm\",\n"
	"			\"options\": [\n"
	"				\"nosuid\",\n"
	"				\"noexec\",\n"
	"				\"nodev\",\n"
	"				\"mode=1777\",\n"
	"				\"size=65536k\"\n"
	"			]\n"
	"		},\n"
	"		{\n"
	"			\"destination\": \"/dev/mqueue\",\n"
	"			\"type\": \"mqueue\",\n"
	"			\"source\": \"mqueue\",\n"
	"			\"options\": [\n"
	"				\"nosuid\",\n"
	"				\"noexec\",\n"
	"				\"nodev\"\n"
	"			]\n"
	"		},\n";

static const char spec_sysfs[] =
	"		{\n"
	"			\"destination\": \"/sys\",\n"
	"			\"type\": \"sysfs\",\n"
	"			\"source\": \"sysfs\",\n"
	"			\"options\": [\n"
	"				\"nosuid\",\n"
	"				\"noexec\",\n"
	"				\"nodev\",\n"
	"				\"ro\"\n"
	"			]\n"
	"		},\n";

static const char spec_sysfs_rootless[] =
	"		{\n"
	"			\"destination\": \"/sys\",\n"
	"			\"type\": \"none\",\n"
	"			\"source\": \"/sys\",\n"
	"			\"options\": [\n"
	"				\"rbind\",\n"
	"				\"nosuid\",\n"
	"				\"noexec\",\n"
	"				\"nodev\",\n"
	"				\"ro\"\n"
	"			]\n"
	"		},\n";

static const char spec_cgroup_to_linux[] =
	"		{\n"
	"			\"destination\": \"/sys/fs/cgroup\",\n"
	"			\"type\": \"cgroup\",\n"
	"			\"source\": \"cgroup\",\n"
	"			\"options\": [\n"
	"				\"nosuid\",\n"
	"				\"noexec\",\n"
	"				\"nodev\",\n"
	"				\"relatime\",\n"
	"				\"ro\"\n"
	"			]\n"
	"		}\n"
	"	],\n"
	"	\"linux\": {\n";

static const char spec_resources[] =
	"		\"resources\": {\n"
	"			\"devices\": [\n"
	"				{\n"
	"					\"allow\": false,\n"
	"					\"access\": \"rwm\"\n"
	"				}\n"
	"			]\n"
	"		},\n";

static const char spec_namespaces_head[] =
	"		\"namespaces\": [\n"
	"			{\n"
	"				\"type\": \"pid\"\n"
	"			},\n";

static const char spec_network_ns[] =
	"			{\n"
	"				\"type\": \"network\"\n"
	"			},\n";

static const char spec_namespaces_mid[] =
	"			{\n"
	"				\"type\": \"ipc\"\n"
	"			},\n"
	"			{\n"
	"				\"type\": \"uts\"\n"
	"			},\n"
	"			{\n"
	"				\"type\": \"mount\"\n"
	"			},\n"
	"			{\n"
	"				\"type\": \"cgroup\"\n";

static const char spec_namespaces_end[] =
	"			}\n"
	"		],\n";

static const char spec_user_ns[] =
	"			},\n"
	"			{\n"
	"				\"type\": \"user\"\n"
	"			}\n"
	"		],\n";

static const char spec_tail[] =
	"		\"maskedPaths\": [\n"
	"			\"/proc/acpi\",\n"
	"			\"/proc/asound\",\n"
	"			\"/proc/kcore\",\n"
	"			\"/proc/keys\",\n"
	"			\"/proc/latency_stats\",\n"
	"			\"/proc/timer_list\",\n"
	"			\"/proc/timer_stats\",\n"
	"			\"/proc/sched_debug\",\n"
	"			\"/sys/firmware\",\n"
	"			\"/proc/scsi\"\n"
	"		],\n"
	"		\"readonlyPaths\": [\n"
	"			\"/proc/bus\",\n"
	"			\"/proc/fs\",\n"
	"			\"/proc/irq\",\n"
	"			\"/proc/sys\",\n"
	"			\"/proc/sysrq-trigger\"\n"
	"		]\n"
	"	}\n"
	"}\n";

/* Everything after the process (and annotations): malloc'd. */
static char *spec_rest(const struct oci_spec_ids *rootless, struct shim_error *err)
{
	char *out = NULL;
	int r;

	if (!rootless)
		r = asprintf(&out, "%s%s%s%s%s%s%s%s%s%s%s", spec_mounts_head, spec_devpts_gid,
			     spec_devpts_to_sysfs, spec_sysfs, spec_cgroup_to_linux, spec_resources,
			     spec_namespaces_head, spec_network_ns, spec_namespaces_mid,
			     spec_namespaces_end, spec_tail);
	else
		r = asprintf(&out, "%s\n%s%s%s%s%s%s"
			     "\t\t\"uidMappings\": [\n\t\t\t{\n\t\t\t\t\"containerID\": 0,\n"
			     "\t\t\t\t\"hostID\": %u,\n\t\t\t\t\"size\": 1\n\t\t\t}\n\t\t],\n"
			     "\t\t\"gidMappings\": [\n\t\t\t{\n\t\t\t\t\"containerID\": 0,\n"
			     "\t\t\t\t\"hostID\": %u,\n\t\t\t\t\"size\": 1\n\t\t\t}\n\t\t],\n%s",
			     spec_mounts_head, spec_devpts_to_sysfs, spec_sysfs_rootless,
			     spec_cgroup_to_linux, spec_namespaces_head, spec_namespaces_mid, spec_user_ns,
			     (unsigned)rootless->uid, (unsigned)rootless->gid, spec_tail);
	if (r < 0) {
		shim_fail(err, ENOMEM, "spec");
		return NULL;
	}
	return out;
}

static const char *const default_caps[] = {
	"CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE", NULL,
};

static void gen_process(yajl_gen g, const struct oci_bundle_process *p)
{
	static const char *const cap_sets[] = { "bounding", "effective", "permitted", "ambient" };

	yajl_gen_map_open(g);
	gen_key_bool(g, "terminal", p->terminal);
	gen_str(g, "user");
	yajl_gen_map_open(g);
	gen_key_int(g, "uid", p->uid);
	gen_key_int(g, "gid", p->gid);
	if (p->n_additional_gids) {
		gen_str(g, "additionalGids");
		yajl_gen_array_open(g);
		for (size_t i = 0; i < p->n_additional_gids; i++)
			yajl_gen_integer(g, p->additional_gids[i]);
		yajl_gen_array_close(g);
	}
	yajl_gen_map_close(g);
	gen_key_strv(g, "args", (const char *const *)p->args);
	gen_key_strv(g, "env", (const char *const *)p->env);
	gen_key_str(g, "cwd", p->cwd);
	gen_str(g, "capabilities");
	yajl_gen_map_open(g);
	for (size_t i = 0; i < sizeof(cap_sets) / sizeof(cap_sets[0]); i++)
		gen_key_strv(g, cap_sets[i], default_caps);
	yajl_gen_map_close(g);
	gen_str(g, "rlimits");
	yajl_gen_array_open(g);
	yajl_gen_map_open(g);
	gen_key_str(g, "type", "RLIMIT_NOFILE");
	gen_key_int(g, "hard", 1024);
	gen_key_int(g, "soft", 1024);
	yajl_gen_map_close(g);
	yajl_gen_array_close(g);
	gen_key_bool(g, "noNewPrivileges", true);
	yajl_gen_map_close(g);
}

/* One JSON value, indented as a member of the top-level object. */
static char *gen_member(const struct oci_bundle_process *p, char *const *annotations,
			struct shim_error *err)
{
	yajl_gen g = yajl_gen_alloc(NULL);

	if (!g) {
		shim_fail(err, ENOMEM, "spec");
		return NULL;
	}
	yajl_gen_config(g, yajl_gen_beautify, 1);
	yajl_gen_config(g, yajl_gen_indent_string, "\t");
	if (p) {
		gen_process(g, p);
	} else {
		yajl_gen_map_open(g);
		for (char *const *kv = annotations; kv[0] && kv[1]; kv += 2)
			gen_key_str(g, kv[0], kv[1]);
		yajl_gen_map_close(g);
	}
	return gen_finish(g, err);
}

static void trim_newline(char *s)
{
	size_t n = strlen(s);

	if (n && s[n - 1] == '\n')
		s[n - 1] = '\0';
}

static char *spec_json(const struct oci_bundle_process *p, char *const *annotations,
		       const struct oci_spec_ids *rootless, struct shim_error *err)
{
	_cleanup_free_ char *process = gen_member(p, NULL, err), *ann = NULL, *rest = NULL;
	char *out = NULL;

	if (!process || !(rest = spec_rest(rootless, err)))
		return NULL;
	if (annotations && annotations[0] && !(ann = gen_member(NULL, annotations, err)))
		return NULL;
	trim_newline(process);
	if (ann)
		trim_newline(ann);
	if (asprintf(&out, "{\n\t\"ociVersion\": \"1.0.2-dev\",\n\t\"process\": %s,\n%s%s%s%s",
		     process, ann ? "\t\"annotations\": " : "", ann ? ann : "", ann ? ",\n" : "",
		     rest) < 0) {
		shim_fail(err, ENOMEM, "spec");
		return NULL;
	}
	return out;
}

char *oci_spec_json_for_process(const struct oci_bundle_process *p, char *const *annotations,
				struct shim_error *err)
{
	return spec_json(p, annotations, NULL, err);
}

char *oci_spec_default_json(const struct oci_spec_ids *rootless, struct shim_error *err)
{
	static char *const args[] = { "sh", NULL };
	static char *const env[] = {
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"TERM=xterm",
		NULL,
	};
	const struct oci_bundle_process p = {
		.args = args, .env = env, .cwd = "/", .terminal = 1,
	};

	return spec_json(&p, NULL, rootless, err);
}
