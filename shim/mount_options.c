/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>
#include <sys/mount.h>

#include "shim/mount_options.h"
#include "shim/syscalls.h"

enum opt_kind { ATTR_SET, ATTR_CLR, ATIME, PROPAGATION, BIND, IDMAP, IGNORED, UNSUPPORTED };

static const struct {
	const char *name;
	enum opt_kind kind;
	uint64_t value;
	bool recursive;
} table[] = {
	{ "ro", ATTR_SET, MOUNT_ATTR_RDONLY, 0 },     { "rw", ATTR_CLR, MOUNT_ATTR_RDONLY, 0 },
	{ "nosuid", ATTR_SET, MOUNT_ATTR_NOSUID, 0 }, { "suid", ATTR_CLR, MOUNT_ATTR_NOSUID, 0 },
	{ "nodev", ATTR_SET, MOUNT_ATTR_NODEV, 0 },   { "dev", ATTR_CLR, MOUNT_ATTR_NODEV, 0 },
	{ "noexec", ATTR_SET, MOUNT_ATTR_NOEXEC, 0 }, { "exec", ATTR_CLR, MOUNT_ATTR_NOEXEC, 0 },
	{ "nodiratime", ATTR_SET, MOUNT_ATTR_NODIRATIME, 0 },
	{ "diratime", ATTR_CLR, MOUNT_ATTR_NODIRATIME, 0 },
	{ "relatime", ATIME, MOUNT_ATTR_RELATIME, 0 },
	{ "noatime", ATIME, MOUNT_ATTR_NOATIME, 0 },
	{ "strictatime", ATIME, MOUNT_ATTR_STRICTATIME, 0 },
	{ "private", PROPAGATION, MS_PRIVATE, 0 },    { "rprivate", PROPAGATION, MS_PRIVATE, 1 },
	{ "slave", PROPAGATION, MS_SLAVE, 0 },        { "rslave", PROPAGATION, MS_SLAVE, 1 },
	{ "shared", PROPAGATION, MS_SHARED, 0 },      { "rshared", PROPAGATION, MS_SHARED, 1 },
	{ "unbindable", PROPAGATION, MS_UNBINDABLE, 0 },
	{ "runbindable", PROPAGATION, MS_UNBINDABLE, 1 },
	{ "bind", BIND, 0, 0 },                       { "rbind", BIND, 0, 1 },
	/* fstab words with no meaning for a container mount */
	{ "defaults", IGNORED, 0, 0 }, { "async", IGNORED, 0, 0 }, { "auto", IGNORED, 0, 0 },
	{ "noauto", IGNORED, 0, 0 },   { "nofail", IGNORED, 0, 0 }, { "_netdev", IGNORED, 0, 0 },
	{ "user", IGNORED, 0, 0 },     { "nouser", IGNORED, 0, 0 }, { "nomand", IGNORED, 0, 0 },
	{ "norelatime", IGNORED, 0, 0 }, { "nostrictatime", IGNORED, 0, 0 },
	{ "nolazytime", IGNORED, 0, 0 }, { "loud", IGNORED, 0, 0 },
	{ "idmap", IDMAP, 0, 0 },           { "ridmap", IDMAP, 0, 1 },
	{ "tmpcopyup", UNSUPPORTED, 0, 0 }, { "remount", UNSUPPORTED, 0, 0 },
};

int mount_opts_parse(char *const *options, struct mount_opts *o, struct shim_error *err)
{
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; options && options[i]; i++) {
		const char *opt = options[i];
		size_t k;

		for (k = 0; k < sizeof(table) / sizeof(table[0]); k++)
			if (strcmp(table[k].name, opt) == 0)
				break;
		if (k == sizeof(table) / sizeof(table[0])) {
			if (o->n_fs_params == sizeof(o->fs_params) / sizeof(o->fs_params[0]))
				return shim_fail(err, 0, "too many filesystem options");
			o->fs_params[o->n_fs_params++] = opt;
			continue;
		}
		switch (table[k].kind) {
		case ATTR_SET:
			o->attr_set |= table[k].value;
			o->attr_clr &= ~table[k].value;
			break;
		case ATTR_CLR:
			o->attr_clr |= table[k].value;
			o->attr_set &= ~table[k].value;
			break;
		case ATIME:
			o->attr_set = (o->attr_set & ~(uint64_t)MOUNT_ATTR__ATIME) | table[k].value;
			o->attr_clr |= MOUNT_ATTR__ATIME;
			break;
		case PROPAGATION:
			o->propagation = table[k].value;
			o->propagation_recursive = table[k].recursive;
			break;
		case BIND:
			o->bind = true;
			o->rbind = o->rbind || table[k].recursive;
			break;
		case IDMAP:
			o->idmap = true;
			o->idmap_recursive = table[k].recursive;
			break;
		case IGNORED:
			break;
		case UNSUPPORTED:
			return shim_fail(err, ENOTSUP, "option \"%s\" is not supported", opt);
		}
	}
	return 0;
}
