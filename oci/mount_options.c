/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "oci/mount_options.h"

/* ATIME picks one of the three atime settings; ATIME_UNSET undoes one
 * (mount(8)'s "atime", "nostrictatime": the default, relatime, instead). */
enum opt_kind { ATTR_SET, ATTR_CLR, ATIME, ATIME_UNSET, PROPAGATION, BIND, IDMAP, COPYUP, NO_OP,
		UNSUPPORTED };

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
	{ "nosymfollow", ATTR_SET, MOUNT_ATTR_NOSYMFOLLOW, 0 },
	{ "symfollow", ATTR_CLR, MOUNT_ATTR_NOSYMFOLLOW, 0 },
	{ "relatime", ATIME, MOUNT_ATTR_RELATIME, 0 },
	{ "noatime", ATIME, MOUNT_ATTR_NOATIME, 0 },
	{ "strictatime", ATIME, MOUNT_ATTR_STRICTATIME, 0 },
	{ "atime", ATIME_UNSET, MOUNT_ATTR_NOATIME, 0 },
	{ "nostrictatime", ATIME_UNSET, MOUNT_ATTR_STRICTATIME, 0 },
	/* runc's recursive forms: every mount below the top one too */
	{ "rro", ATTR_SET, MOUNT_ATTR_RDONLY, 1 },     { "rrw", ATTR_CLR, MOUNT_ATTR_RDONLY, 1 },
	{ "rnosuid", ATTR_SET, MOUNT_ATTR_NOSUID, 1 }, { "rsuid", ATTR_CLR, MOUNT_ATTR_NOSUID, 1 },
	{ "rnodev", ATTR_SET, MOUNT_ATTR_NODEV, 1 },   { "rdev", ATTR_CLR, MOUNT_ATTR_NODEV, 1 },
	{ "rnoexec", ATTR_SET, MOUNT_ATTR_NOEXEC, 1 }, { "rexec", ATTR_CLR, MOUNT_ATTR_NOEXEC, 1 },
	{ "rnodiratime", ATTR_SET, MOUNT_ATTR_NODIRATIME, 1 },
	{ "rdiratime", ATTR_CLR, MOUNT_ATTR_NODIRATIME, 1 },
	{ "rnosymfollow", ATTR_SET, MOUNT_ATTR_NOSYMFOLLOW, 1 },
	{ "rsymfollow", ATTR_CLR, MOUNT_ATTR_NOSYMFOLLOW, 1 },
	{ "rrelatime", ATIME, MOUNT_ATTR_RELATIME, 1 },
	{ "rnoatime", ATIME, MOUNT_ATTR_NOATIME, 1 },
	{ "rstrictatime", ATIME, MOUNT_ATTR_STRICTATIME, 1 },
	{ "ratime", ATIME_UNSET, MOUNT_ATTR_NOATIME, 1 },
	{ "rnostrictatime", ATIME_UNSET, MOUNT_ATTR_STRICTATIME, 1 },
	{ "rnorelatime", NO_OP, 0, 1 },
	{ "private", PROPAGATION, MS_PRIVATE, 0 },    { "rprivate", PROPAGATION, MS_PRIVATE, 1 },
	{ "slave", PROPAGATION, MS_SLAVE, 0 },        { "rslave", PROPAGATION, MS_SLAVE, 1 },
	{ "shared", PROPAGATION, MS_SHARED, 0 },      { "rshared", PROPAGATION, MS_SHARED, 1 },
	{ "unbindable", PROPAGATION, MS_UNBINDABLE, 0 },
	{ "runbindable", PROPAGATION, MS_UNBINDABLE, 1 },
	{ "bind", BIND, 0, 0 },                       { "rbind", BIND, 0, 1 },
	{ "idmap", IDMAP, 0, 0 },                     { "ridmap", IDMAP, 0, 1 },
	/* What they ask for is what a mount gets anyway: "defaults";
	 * "norelatime", which leaves the atime to the kernel (relatime);
	 * "loud" and "silent", which only change what the kernel logs;
	 * "iversion" and "noiversion": since 6.1 the file systems that keep
	 * i_version (ext4, xfs, btrfs) keep it always, and fsconfig takes no
	 * such flag. */
	{ "defaults", NO_OP, 0, 0 },    { "norelatime", NO_OP, 0, 0 },
	{ "loud", NO_OP, 0, 0 },        { "silent", NO_OP, 0, 0 },
	{ "iversion", NO_OP, 0, 0 },    { "noiversion", NO_OP, 0, 0 },
	{ "tmpcopyup", COPYUP, 0, 0 },	/* a tmpfs only: shim/filesystem/copyup.h */
	{ "remount", UNSUPPORTED, 0, 0 },
};

#define N_TABLE (sizeof(table) / sizeof(table[0]))

/* The VFS's own superblock flags, which fsconfig takes for any filesystem
 * (the kernel's fs_context.c): not in the table, they go as parameters. */
static const char *const sb_flags[] = {
	"async", "dirsync", "lazytime", "mand", "nolazytime", "nomand", "sync",
};

#define N_SB_FLAGS (sizeof(sb_flags) / sizeof(sb_flags[0]))

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *mount_option_known_name(size_t i)
{
	static const char *sorted[N_TABLE + N_SB_FLAGS];
	static size_t n;

	if (n == 0) {
		for (size_t k = 0; k < N_TABLE; k++)
			if (table[k].kind != UNSUPPORTED)
				sorted[n++] = table[k].name;
		for (size_t k = 0; k < N_SB_FLAGS; k++)
			sorted[n++] = sb_flags[k];
		qsort(sorted, n, sizeof(sorted[0]), cmp_name);
	}
	return i < n ? sorted[i] : NULL;
}

static void set_attr(uint64_t *set, uint64_t *clr, enum opt_kind kind, uint64_t value)
{
	if (kind == ATTR_SET) {
		*set |= value;
		*clr &= ~value;
	} else if (kind == ATTR_CLR) {
		*clr |= value;
		*set &= ~value;
	} else if (kind == ATIME) {	/* one of three, which mount_setattr wants cleared first */
		*set = (*set & ~(uint64_t)MOUNT_ATTR__ATIME) | value;
		*clr |= MOUNT_ATTR__ATIME;
	} else {	/* ATIME_UNSET: "atime" also asks for the default outright */
		bool chosen = *clr & MOUNT_ATTR__ATIME;
		uint64_t current = *set & MOUNT_ATTR__ATIME;

		if ((chosen && current == value) || (!chosen && value == MOUNT_ATTR_NOATIME))
			set_attr(set, clr, ATIME, MOUNT_ATTR_RELATIME);
	}
}

static int add_fs_param(struct mount_opts *o, const char *opt, size_t j, struct shim_error *err)
{
	if (o->n_fs_params == MOUNT_MAX_FS_PARAMS)
		return shim_fail(err, E2BIG, "%s.options[%zu]: more than %d filesystem options",
				 o->where, j, MOUNT_MAX_FS_PARAMS);
	o->fs_param_index[o->n_fs_params] = (unsigned int)j;
	o->fs_params[o->n_fs_params++] = opt;
	return 0;
}

int mount_opts_parse(char *const *options, const char *where, struct mount_opts *o,
		     struct shim_error *err)
{
	memset(o, 0, sizeof(*o));
	/* cut as snprintf would, and zero-terminated by the memset */
	memcpy(o->where, where, strnlen(where, sizeof(o->where) - 1));
	for (size_t j = 0; options && options[j]; j++) {
		const char *opt = options[j];
		size_t k;

		for (k = 0; k < N_TABLE; k++)
			if (strcmp(table[k].name, opt) == 0)
				break;
		if (k == N_TABLE) {
			if (add_fs_param(o, opt, j, err) < 0)
				return -1;
			continue;
		}
		switch (table[k].kind) {
		case ATTR_SET:
		case ATTR_CLR:
		case ATIME:
		case ATIME_UNSET:
			if (table[k].recursive)
				set_attr(&o->rattr_set, &o->rattr_clr, table[k].kind, table[k].value);
			else
				set_attr(&o->attr_set, &o->attr_clr, table[k].kind, table[k].value);
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
		case COPYUP:
			o->tmpcopyup = true;
			o->tmpcopyup_index = (unsigned int)j;
			break;
		case NO_OP:
			break;
		case UNSUPPORTED:
			return shim_fail(err, ENOTSUP, "%s.options[%zu]: \"%s\" is not supported",
					 o->where, j, opt);
		}
	}
	return 0;
}

int mount_opts_check_bind(const struct mount_opts *o, struct shim_error *err)
{
	/* "key=value" is filesystem data, which the kernel ignores for a
	 * bind (runc and crun pass it and mount); a bare word that is no
	 * flag is a mistake */
	for (unsigned int i = 0; i < o->n_fs_params; i++)
		if (!strchr(o->fs_params[i], '='))
			return shim_fail(err, EINVAL, "%s.options[%u]: \"%s\" is no option of a "
					 "bind mount", o->where, o->fs_param_index[i], o->fs_params[i]);
	return 0;
}
