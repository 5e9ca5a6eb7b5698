/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>
#include <linux/nsfs.h>

#include "oci/base/cleanup.h"
#include "shim/fsutil.h"
#include "shim/log.h"
#include "shim/network/netdev.h"
#include "shim/network/netlink.h"
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

/*
 * What the state folder keeps of each lent interface, one line each:
 * "HOST NAME INDEX KIND PEER F/P/S/LOCAL/ADDRESS/BROADCAST..." with its
 * index in the container (0 until known), its kind ("-" for a physical
 * one) and whether its peer is in another namespace (1/0), and the
 * addresses it had on the host (family, prefix, scope, then hex or "-").
 * Giving back goes by that index, checks the kind and the peer, and puts
 * back those addresses: not by a name, an interface or addresses the
 * container could have made itself.
 */
struct lent {
	char host[16], name[16];
	struct nl_link link;	/* in the container, once moved (index 0 before) */
	struct nl_addr *addrs;
	size_t n;
};

static void put_hex(FILE *f, const uint8_t *b, uint8_t family, bool has)
{
	fputc('/', f);
	if (!has) {
		fputc('-', f);
		return;
	}
	for (size_t i = 0; i < (family == AF_INET ? 4u : 16u); i++)
		fprintf(f, "%02x", b[i]);
}

static int save_lent(int dir_fd, const struct lent *l, size_t n, struct shim_error *err)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return shim_fail_errno(err, "linux.netDevices: %s", STORE_NETDEV);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s %s %d %s %d", l[i].host, l[i].name, l[i].link.index,
			*l[i].link.kind ? l[i].link.kind : "-", l[i].link.peer_elsewhere);
		for (size_t k = 0; k < l[i].n; k++) {
			const struct nl_addr *a = &l[i].addrs[k];

			fprintf(f, " %u/%u/%u", a->family, a->prefixlen, a->scope);
			put_hex(f, a->local, a->family, a->has_local);
			put_hex(f, a->address, a->family, a->has_address);
			put_hex(f, a->broadcast, a->family, a->has_broadcast);
		}
		fputc('\n', f);
	}
	if (fclose(f) != 0)
		return shim_fail(err, ENOMEM, "linux.netDevices: %s", STORE_NETDEV);
	return write_file_atomic_at(dir_fd, STORE_NETDEV, text, err);
}

static bool get_hex(const char *text, uint8_t *b, uint8_t family, bool *has)
{
	size_t len = family == AF_INET ? 4 : 16;

	*has = strcmp(text, "-") != 0;
	if (!*has)
		return true;
	if (strlen(text) != 2 * len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (sscanf(text + 2 * i, "%2hhx", &b[i]) != 1)
			return false;
	return true;
}

static bool parse_addr(char *tok, struct nl_addr *a)
{
	char local[40], address[40], broadcast[40];
	unsigned int f, p, sc;

	memset(a, 0, sizeof(*a));
	if (sscanf(tok, "%u/%u/%u/%39[0-9a-f-]/%39[0-9a-f-]/%39[0-9a-f-]", &f, &p, &sc, local,
		   address, broadcast) != 6 || (f != AF_INET && f != AF_INET6) || p > 128 || sc > 255)
		return false;
	a->family = (uint8_t)f;
	a->prefixlen = (uint8_t)p;
	a->scope = (uint8_t)sc;
	return get_hex(local, a->local, a->family, &a->has_local) &&
	       get_hex(address, a->address, a->family, &a->has_address) &&
	       get_hex(broadcast, a->broadcast, a->family, &a->has_broadcast);
}

/* One line back into l; false when it is not one save_lent wrote. */
static bool parse_lent(char *line, struct lent *l)
{
	char *save = NULL, *tok;
	int used = 0, peer = 0;

	memset(l, 0, sizeof(*l));
	if (sscanf(line, "%15s %15s %d %15s %d%n", l->host, l->name, &l->link.index, l->link.kind,
		   &peer, &used) != 5)
		return false;
	if (strcmp(l->link.kind, "-") == 0)
		l->link.kind[0] = '\0';
	l->link.peer_elsewhere = peer != 0;
	for (tok = strtok_r(line + used, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		struct nl_addr *grown = reallocarray(l->addrs, l->n + 1, sizeof(*grown));

		if (!grown)
			return false;
		l->addrs = grown;
		if (!parse_addr(tok, &l->addrs[l->n++]))
			return false;
	}
	return true;
}

static void free_lent(struct lent *l, size_t n)
{
	for (size_t i = 0; l && i < n; i++)
		free(l[i].addrs);
	free(l);
}

/* Sockets for a move: the namespace it leaves, the one it goes to. */
struct move {
	int from_nl, to_nl, to_ns;
};

/* Interface index (in m's from-namespace) to m's to-namespace as name,
 * there given l's addresses (read before: a down drops IPv6 ones); up, or
 * left down. Returns its index there. */
static int carry(const struct move *m, int index, const struct lent *l, const char *name,
		 bool up, struct shim_error *err)
{
	if (nl_link_move(m->from_nl, index, m->to_ns, name, err) < 0)
		return -1;
	index = nl_link_index(m->to_nl, name, err);
	if (index <= 0)
		return index == 0 ? shim_fail(err, ENODEV, "not found as %s after the move", name)
				  : -1;
	for (size_t i = 0; i < l->n; i++)
		if (nl_addr_add(m->to_nl, index, &l->addrs[i], err) < 0)
			return -1;
	if (up && nl_link_set_up(m->to_nl, index, true, err) < 0)
		return -1;
	return index;
}

static int move_one(struct lent *l, size_t i, int dir_fd, const struct move *in,
		    struct shim_error *err)
{
	int index = nl_link_index(in->from_nl, l[i].host, err);

	if (index == 0)
		return shim_fail(err, ENODEV, "linux.netDevices.%s: no such interface on the host",
				 l[i].host);
	if (index < 0 || nl_addrs(in->from_nl, index, &l[i].addrs, &l[i].n, err) < 0 ||
	    (index = carry(in, index, &l[i], l[i].name, true, err)) < 0)
		return shim_error_wrap(err, "linux.netDevices.%s", l[i].host);
	if (nl_link_get(in->to_nl, NULL, index, &l[i].link, err) <= 0)
		return shim_error_wrap(err, "linux.netDevices.%s: as %s in the container",
				       l[i].host, l[i].name);
	log_debug("network device %s moved into the container as %s (index %d, %s), up",
		  l[i].host, l[i].name, index, *l[i].link.kind ? l[i].link.kind : "physical");
	return save_lent(dir_fd, l, i + 1, err);
}

int netdev_move_in(const struct oci_spec *s, pid_t init, int dir_fd, struct shim_error *err)
{
	_cleanup_close_ int ns = -1, host_nl = -1, ctr_nl = -1;
	struct lent *l;
	int r = 0;

	if (s->n_net_devices == 0)
		return 0;
	l = calloc(s->n_net_devices, sizeof(*l));
	if (!l)
		return shim_fail(err, ENOMEM, "linux.netDevices");
	for (size_t i = 0; i < s->n_net_devices; i++) {
		snprintf(l[i].host, sizeof(l[i].host), "%s", s->net_devices[i].host);
		snprintf(l[i].name, sizeof(l[i].name), "%s", s->net_devices[i].name);
	}
	/* the list first: a create killed midway still gives back what it lent */
	ns = container_netns(init, err);
	if (ns < 0 || save_lent(dir_fd, l, s->n_net_devices, err) < 0 ||
	    hold_netns(dir_fd, ns, err) < 0)
		r = -1;
	else if ((host_nl = nl_open(err)) < 0 || (ctr_nl = nl_open_in(ns, err)) < 0)
		r = shim_error_wrap(err, "linux.netDevices");
	for (size_t i = 0; r == 0 && i < s->n_net_devices; i++) {
		struct move in = { .from_nl = host_nl, .to_nl = ctr_nl, .to_ns = ns };

		r = move_one(l, i, dir_fd, &in, err);
	}
	free_lent(l, s->n_net_devices);
	return r;
}

/* The interface l names in the container: by its index once known (the
 * container may have given its name to another), else by name. */
static int find_lent(const struct lent *l, int ctr_nl, struct nl_link *now,
		     struct shim_error *err)
{
	return nl_link_get(ctr_nl, l->link.index > 0 ? NULL : l->name, l->link.index, now, err);
}

/* Whether what is at the lent index is still what was lent: a container
 * that destroyed it could have made its own there (a veth whose peer it
 * keeps), which must not reach the host. */
static bool same_link(const struct lent *l, const struct nl_link *now)
{
	return l->link.index <= 0 || (strcmp(l->link.kind, now->kind) == 0 &&
				      l->link.peer_elsewhere == now->peer_elsewhere);
}

/* Back from the container (out's from-namespace), down, under its host
 * name, with its host addresses. */
static int give_back(const struct lent *l, const struct move *out, struct shim_error *err)
{
	int ctr_nl = out->from_nl, host_nl = out->to_nl;
	struct nl_link now;
	int index = find_lent(l, ctr_nl, &now, err);

	if (index == 0 && nl_link_index(host_nl, l->host, err) > 0) {
		log_debug("network device %s: never moved, still on the host", l->host);
		return 0;
	}
	if (index == 0) {
		log_warn("linux.netDevices.%s: the interface lent as %s is no longer in the "
			 "container (removed in there?)", l->host, l->name);
		return 0;
	}
	if (index > 0 && !same_link(l, &now)) {
		log_warn("linux.netDevices.%s: what is at index %d in the container (%s%s) is not "
			 "the interface lent (%s%s): left there", l->host, index,
			 *now.kind ? now.kind : "physical", now.peer_elsewhere ? ", peer outside" : "",
			 *l->link.kind ? l->link.kind : "physical",
			 l->link.peer_elsewhere ? ", peer outside" : "");
		return 0;
	}
	if (index < 0 || nl_link_set_up(ctr_nl, index, false, err) < 0 ||
	    carry(out, index, l, l->host, false, err) < 0)
		return shim_error_wrap(err, "linux.netDevices.%s: giving it back", l->host);
	log_debug("network device %s given back to the host, down", l->host);
	return 0;
}

static int give_all_back(int dir_fd, int ns, struct shim_error *err)
{
	_cleanup_close_ int host_ns = -1, host_nl = -1, ctr_nl = -1;
	_cleanup_free_ char *text = NULL;
	struct move out;
	char *save = NULL;
	int r = 0;

	text = store_read_record(dir_fd, STORE_NETDEV, 1 << 20, err);
	if (!text && err->errnum == ENOENT) {
		*err = (struct shim_error){ 0 };
		return 0;
	}
	if (!text || (host_ns = procfs_open_self_ns("net", err)) < 0 ||
	    (host_nl = nl_open(err)) < 0 || (ctr_nl = nl_open_in(ns, err)) < 0)
		return shim_error_wrap(err, "linux.netDevices");
	out = (struct move){ .from_nl = ctr_nl, .to_nl = host_nl, .to_ns = host_ns };
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct shim_error e = { 0 };
		struct lent l;
		char text_err[1200];
		int one;

		if (!parse_lent(line, &l))
			one = shim_fail(&e, EINVAL, "linux.netDevices: %s: a line shim did not write",
					STORE_NETDEV);
		else
			one = give_back(&l, &out, &e);
		free(l.addrs);
		if (one == 0)
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
