/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>
#include <linux/nsfs.h>

#include "shim/cleanup.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/netdev.h"
#include "shim/netlink.h"
#include "shim/procfs.h"
#include "shim/store.h"
#include "shim/syscalls.h"

static bool is_netns(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 && sf.f_type == NSFS_MAGIC &&
	       ioctl(fd, NS_GET_NSTYPE) == CLONE_NEWNET;
}

static bool same_file(int a, int b)
{
	struct stat sa, sb;

	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* The init's network namespace, checked not to be the runtime's. */
static int container_netns(pid_t init, struct shim_error *err)
{
	_cleanup_close_ int self = procfs_open_self_ns("net", err), ns = -1;

	if (self < 0 || (ns = procfs_open_pid_ns(init, "net", err)) < 0)
		return shim_error_wrap(err, "linux.netDevices");
	if (!is_netns(ns))
		return shim_fail(err, EXDEV, "linux.netDevices: the init's ns/net is no network "
				 "namespace");
	if (same_file(self, ns))
		return shim_fail(err, EINVAL, "linux.netDevices: the container's network namespace "
				 "is the runtime's own");
	return TAKE_FD(ns);
}

/* A bind mount of the namespace on ROOT/ID/netns keeps it alive. */
static int hold_netns(int dir_fd, int ns, struct shim_error *err)
{
	_cleanup_close_ int file = -1, tree = -1;

	file = openat(dir_fd, STORE_NETNS, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		      0600);
	if (file < 0)
		return shim_fail_errno(err, "linux.netDevices: create %s", STORE_NETNS);
	tree = sys_open_tree(ns, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (tree < 0 || sys_move_mount(tree, "", file, "",
				       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return shim_fail_errno(err, "linux.netDevices: holding the container's network "
				       "namespace at %s", STORE_NETNS);
	return 0;
}

static int write_list(const struct oci_spec *s, int dir_fd, struct shim_error *err)
{
	_cleanup_free_ char *text = calloc(s->n_net_devices, 2 * 16 + 2);
	size_t used = 0;

	if (!text)
		return shim_fail(err, ENOMEM, "linux.netDevices");
	for (size_t i = 0; i < s->n_net_devices; i++)
		used += (size_t)sprintf(text + used, "%s %s\n", s->net_devices[i].host,
					s->net_devices[i].name);
	return write_file_at(dir_fd, STORE_NETDEV, text, err);
}

/* Interface index of from_nl's namespace to to_ns as name, with addrs
 * (read before: a down drops IPv6 ones); up or left down. */
static int carry(int from_nl, int index, const struct nl_addr *addrs, size_t n, int to_nl,
		 int to_ns, const char *name, bool up, struct shim_error *err)
{
	if (nl_link_move(from_nl, index, to_ns, name, err) < 0)
		return -1;
	index = nl_link_index(to_nl, name, err);
	if (index <= 0)
		return index == 0 ? shim_fail(err, ENODEV, "not found as %s after the move", name)
				  : -1;
	for (size_t i = 0; i < n; i++)
		if (nl_addr_add(to_nl, index, &addrs[i], err) < 0)
			return -1;
	return up ? nl_link_set_up(to_nl, index, true, err) : 0;
}

static int move_one(const struct oci_net_device *d, int host_nl, int ctr_nl, int ctr_ns,
		    struct shim_error *err)
{
	int index = nl_link_index(host_nl, d->host, err);
	_cleanup_free_ struct nl_addr *addrs = NULL;
	size_t n = 0;

	if (index == 0)
		return shim_fail(err, ENODEV, "linux.netDevices.%s: no such interface on the host",
				 d->host);
	if (index < 0 || nl_addrs(host_nl, index, &addrs, &n, err) < 0 ||
	    carry(host_nl, index, addrs, n, ctr_nl, ctr_ns, d->name, true, err) < 0)
		return shim_error_wrap(err, "linux.netDevices.%s", d->host);
	log_debug("network device %s moved into the container as %s, up", d->host, d->name);
	return 0;
}

int netdev_move_in(const struct oci_spec *s, pid_t init, int dir_fd, struct shim_error *err)
{
	_cleanup_close_ int ns = -1, host_nl = -1, ctr_nl = -1;

	if (s->n_net_devices == 0)
		return 0;
	ns = container_netns(init, err);
	if (ns < 0 || write_list(s, dir_fd, err) < 0 || hold_netns(dir_fd, ns, err) < 0)
		return -1;
	if ((host_nl = nl_open(err)) < 0 || (ctr_nl = nl_open_in(ns, err)) < 0)
		return shim_error_wrap(err, "linux.netDevices");
	for (size_t i = 0; i < s->n_net_devices; i++)
		if (move_one(&s->net_devices[i], host_nl, ctr_nl, ns, err) < 0)
			return -1;
	return 0;
}

/* One "HOST NAME" line: back from the container, down, as HOST. */
static int give_back(const char *host, const char *name, int ctr_nl, int host_nl, int host_ns,
		     struct shim_error *err)
{
	int index = nl_link_index(ctr_nl, name, err);
	_cleanup_free_ struct nl_addr *addrs = NULL;
	size_t n = 0;

	if (index == 0 && nl_link_index(host_nl, host, err) > 0) {
		log_debug("network device %s: never moved, still on the host", host);
		return 0;
	}
	if (index == 0) {
		log_warn("linux.netDevices.%s: no interface %s in the container to give back "
			 "(renamed or removed in there)", host, name);
		return 0;
	}
	if (index < 0 || nl_addrs(ctr_nl, index, &addrs, &n, err) < 0 ||
	    nl_link_set_up(ctr_nl, index, false, err) < 0 ||
	    carry(ctr_nl, index, addrs, n, host_nl, host_ns, host, false, err) < 0)
		return shim_error_wrap(err, "linux.netDevices.%s: giving %s back", host, name);
	log_debug("network device %s given back to the host as %s, down", name, host);
	return 0;
}

static int give_all_back(int dir_fd, int ns, struct shim_error *err)
{
	_cleanup_close_ int list = -1, host_ns = -1, host_nl = -1, ctr_nl = -1;
	_cleanup_free_ char *text = NULL;
	char *save = NULL;
	int r = 0;

	list = openat(dir_fd, STORE_NETDEV, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (list < 0)
		return errno == ENOENT ? 0 : shim_fail_errno(err, "open %s", STORE_NETDEV);
	text = read_small_fd(list, STORE_NETDEV, 65536, NULL, err);
	if (!text || (host_ns = procfs_open_self_ns("net", err)) < 0 ||
	    (host_nl = nl_open(err)) < 0 || (ctr_nl = nl_open_in(ns, err)) < 0)
		return shim_error_wrap(err, "linux.netDevices");
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char host[16], name[16], text_err[1200];
		struct shim_error e = { 0 };

		if (sscanf(line, "%15s %15s", host, name) != 2)
			continue;
		if (give_back(host, name, ctr_nl, host_nl, host_ns, &e) == 0)
			continue;
		log_warn("%s", shim_error_text(&e, text_err, sizeof(text_err)));
		if (r == 0)
			*err = e;
		r = -1;
	}
	return r;
}

int netdev_move_back(int dir_fd, struct shim_error *err)
{
	_cleanup_close_ int ns = -1;
	char path[64];
	int r = 0;

	ns = openat(dir_fd, STORE_NETNS, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (ns < 0)
		return errno == ENOENT ? 0 : shim_fail_errno(err, "linux.netDevices: open %s",
							      STORE_NETNS);
	/* not a namespace: create stopped before the hold, nothing was moved */
	if (is_netns(ns)) {
		r = give_all_back(dir_fd, ns, err);
		snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dir_fd, STORE_NETNS);
		if (umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW) < 0 && r == 0)
			r = shim_fail_errno(err, "linux.netDevices: releasing %s", STORE_NETNS);
	}
	if (r == 0 && (unlinkat(dir_fd, STORE_NETNS, 0) < 0 ||
		       (unlinkat(dir_fd, STORE_NETDEV, 0) < 0 && errno != ENOENT)))
		r = shim_fail_errno(err, "linux.netDevices: removing %s", STORE_NETNS);
	return r;
}
