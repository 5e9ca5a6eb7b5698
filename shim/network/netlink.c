/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "oci/base/cleanup.h"
#include "shim/fd.h"
#include "shim/network/netlink.h"
#include "shim/procfs.h"

/* A request: a header, its fixed part and a few attributes. */
struct nl_req {
	struct nlmsghdr h;
	union {
		struct ifinfomsg link;
		struct ifaddrmsg addr;
	};
	char attrs[256];
};

static uint32_t nl_seq;

static void nl_init(struct nl_req *r, uint16_t type, uint16_t flags, size_t fixed)
{
	memset(r, 0, sizeof(*r));
	r->h.nlmsg_len = (uint32_t)NLMSG_LENGTH(fixed);
	r->h.nlmsg_type = type;
	r->h.nlmsg_flags = NLM_F_REQUEST | flags;
	r->h.nlmsg_seq = ++nl_seq;
}

static void nl_put(struct nl_req *r, uint16_t type, const void *data, size_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)&r->h + NLMSG_ALIGN(r->h.nlmsg_len));

	/* every caller's attributes fit: at most 3, of at most 16 bytes */
	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(a), data, len);
	r->h.nlmsg_len = NLMSG_ALIGN(r->h.nlmsg_len) + RTA_ALIGN(a->rta_len);
}

typedef void (*nl_reply_fn)(const struct nlmsghdr *m, void *ctx);

/* One reply to request seq: 1 to read on, 0 when it was the last word
 * (an ACK, NLMSG_DONE), -1 on the kernel's error. */
static int nl_reply(const struct nlmsghdr *m, uint32_t seq, nl_reply_fn fn, void *ctx,
		    const char *what, struct shim_error *err)
{
	if (m->nlmsg_seq != seq)
		return 1;
	if (m->nlmsg_type == NLMSG_DONE)
		return 0;
	if (m->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(m);

		return e->error == 0 ? 0 : shim_fail(err, -e->error, "%s", what);
	}
	if (fn)
		fn(m, ctx);
	return 1;
}

/*
 * Send r and read until the kernel's last word on it: the ACK (or error)
 * of a request, NLMSG_DONE of a dump. Other replies go to fn. On error err
 * says what (err->errnum is the kernel's errno).
 */
static int nl_exchange(int nl, struct nl_req *r, nl_reply_fn fn, void *ctx, const char *what,
		       struct shim_error *err)
{
	static char buf[32768] __attribute__((aligned(NLMSG_ALIGNTO)));

	if (send(nl, &r->h, r->h.nlmsg_len, 0) < 0)
		return shim_fail_errno(err, "%s: netlink send", what);
	for (;;) {
		ssize_t n = recv(nl, buf, sizeof(buf), 0);
		size_t off = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? shim_fail_errno(err, "%s: netlink receive", what)
				     : shim_fail(err, EPROTO, "%s: netlink closed", what);
		while (off + sizeof(struct nlmsghdr) <= (size_t)n) {
			const struct nlmsghdr *m = (const struct nlmsghdr *)(buf + off);
			int more;

			if (m->nlmsg_len < sizeof(*m) || m->nlmsg_len > (size_t)n - off)
				return shim_fail(err, EPROTO, "%s: a truncated netlink reply", what);
			more = nl_reply(m, r->h.nlmsg_seq, fn, ctx, what, err);
			if (more <= 0)
				return more;
			off += NLMSG_ALIGN(m->nlmsg_len);
		}
	}
}

int nl_open(struct shim_error *err)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0)
		return shim_fail_errno(err, "netlink socket");
	return fd;
}

int nl_open_in(int netns_fd, struct shim_error *err)
{
	_cleanup_close_ int self = procfs_open_self_ns("net", err);
	int fd;

	if (self < 0)
		return -1;
	if (setns(netns_fd, CLONE_NEWNET) < 0)
		return shim_fail_errno(err, "entering the container's network namespace");
	fd = nl_open(err);
	if (setns(self, CLONE_NEWNET) < 0) {
		safe_close(fd);
		return shim_fail_errno(err, "returning to the runtime's network namespace");
	}
	return fd;
}

typedef void (*attr_fn)(const struct rtattr *rta, void *ctx);

/* Each attribute of len bytes at attrs, bounds checked, to fn. */
static void walk_attrs(const void *attrs, size_t len, attr_fn fn, void *ctx)
{
	size_t off = 0;

	while (off + sizeof(struct rtattr) <= len) {
		const struct rtattr *rta = (const struct rtattr *)((const char *)attrs + off);

		if (rta->rta_len < sizeof(*rta) || rta->rta_len > len - off)
			break;
		fn(rta, ctx);
		off += RTA_ALIGN(rta->rta_len);
	}
}

static void take_info(const struct rtattr *rta, void *ctx)
{
	struct nl_link *l = ctx;
	size_t n = RTA_PAYLOAD(rta);

	if (rta->rta_type != IFLA_INFO_KIND)
		return;
	if (n >= sizeof(l->kind))
		n = sizeof(l->kind) - 1;
	memcpy(l->kind, RTA_DATA(rta), n);
	l->kind[n] = '\0';
}

static void take_link_attr(const struct rtattr *rta, void *ctx)
{
	struct nl_link *l = ctx;

	if (rta->rta_type == IFLA_LINKINFO)
		walk_attrs(RTA_DATA(rta), RTA_PAYLOAD(rta), take_info, l);
	else if (rta->rta_type == IFLA_LINK_NETNSID)
		l->peer_elsewhere = true;
}

static void take_link(const struct nlmsghdr *m, void *ctx)
{
	struct nl_link *l = ctx;
	const struct ifinfomsg *ifi = NLMSG_DATA(m);

	if (m->nlmsg_type != RTM_NEWLINK || m->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)))
		return;
	l->index = ifi->ifi_index;
	walk_attrs((const char *)ifi + NLMSG_ALIGN(sizeof(*ifi)),
		   m->nlmsg_len - NLMSG_LENGTH(sizeof(*ifi)), take_link_attr, l);
}

int nl_link_get(int nl, const char *name, int index, struct nl_link *out,
		struct shim_error *err)
{
	struct nl_req r;

	memset(out, 0, sizeof(*out));
	nl_init(&r, RTM_GETLINK, NLM_F_ACK, sizeof(struct ifinfomsg));
	r.link.ifi_family = AF_UNSPEC;
	r.link.ifi_index = index;
	if (name)
		nl_put(&r, IFLA_IFNAME, name, strlen(name) + 1);
	if (nl_exchange(nl, &r, take_link, out, "no such interface", err) < 0)
		return err->errnum == ENODEV ? 0 : -1;
	if (out->index <= 0)
		return shim_fail(err, ENODEV, "no such interface");
	return out->index;
}

int nl_link_index(int nl, const char *name, struct shim_error *err)
{
	struct nl_link l;

	return nl_link_get(nl, name, 0, &l, err);
}

struct addr_list {
	int index;
	struct nl_addr *a;
	size_t n, cap;
	bool nomem;
};

/* The attribute type's payload of 4 or 16 bytes (an address) into to. */
static void copy_addr(const struct rtattr *rta, uint8_t *to, bool *has)
{
	size_t len = RTA_PAYLOAD(rta);

	if (len == 4 || len == 16) {
		memcpy(to, RTA_DATA(rta), len);
		*has = true;
	}
}

static void take_attr(const struct rtattr *rta, void *ctx)
{
	struct nl_addr *a = ctx;

	if (rta->rta_type == IFA_LOCAL)
		copy_addr(rta, a->local, &a->has_local);
	else if (rta->rta_type == IFA_ADDRESS)
		copy_addr(rta, a->address, &a->has_address);
	else if (rta->rta_type == IFA_BROADCAST)
		copy_addr(rta, a->broadcast, &a->has_broadcast);
	else if (rta->rta_type == IFA_FLAGS && RTA_PAYLOAD(rta) == 4)
		memcpy(&a->flags, RTA_DATA(rta), 4);
}

static void take_addr(const struct nlmsghdr *m, void *ctx)
{
	struct addr_list *l = ctx;
	const struct ifaddrmsg *ifa = NLMSG_DATA(m);
	struct nl_addr a = { .family = ifa->ifa_family, .prefixlen = ifa->ifa_prefixlen,
			     .scope = ifa->ifa_scope, .flags = ifa->ifa_flags };

	if (m->nlmsg_type != RTM_NEWADDR || m->nlmsg_len < NLMSG_LENGTH(sizeof(*ifa)) ||
	    (int)ifa->ifa_index != l->index)
		return;
	walk_attrs((const char *)ifa + NLMSG_ALIGN(sizeof(*ifa)),
		   m->nlmsg_len - NLMSG_LENGTH(sizeof(*ifa)), take_attr, &a);
	if (!(a.flags & IFA_F_PERMANENT) || (a.family == AF_INET6 && a.scope == RT_SCOPE_LINK))
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 4;
		struct nl_addr *grown = reallocarray(l->a, cap, sizeof(*grown));

		if (!grown) {
			l->nomem = true;
			return;
		}
		l->a = grown;
		l->cap = cap;
	}
	l->a[l->n++] = a;
}

int nl_addrs(int nl, int index, struct nl_addr **out, size_t *n, struct shim_error *err)
{
	struct addr_list l = { .index = index };
	struct nl_req r;

	nl_init(&r, RTM_GETADDR, NLM_F_DUMP, sizeof(struct ifaddrmsg));
	r.addr.ifa_family = AF_UNSPEC;
	if (nl_exchange(nl, &r, take_addr, &l, "listing addresses", err) < 0 || l.nomem) {
		free(l.a);
		return l.nomem ? shim_fail(err, ENOMEM, "listing addresses") : -1;
	}
	*out = l.a;
	*n = l.n;
	return 0;
}

/* What one RTM_NEWLINK on an existing interface changes. */
struct link_change {
	int netns_fd;			/* to move it there, or -1 */
	const char *name;		/* to rename it, or NULL */
	unsigned int flags, change;	/* ifi_flags under the ifi_change mask */
};

static int set_link(int nl, int index, const struct link_change *c, const char *what,
		    struct shim_error *err)
{
	struct nl_req r;

	nl_init(&r, RTM_NEWLINK, NLM_F_ACK, sizeof(struct ifinfomsg));
	r.link.ifi_family = AF_UNSPEC;
	r.link.ifi_index = index;
	r.link.ifi_flags = c->flags;
	r.link.ifi_change = c->change;
	if (c->netns_fd >= 0) {
		uint32_t fd = (uint32_t)c->netns_fd;

		nl_put(&r, IFLA_NET_NS_FD, &fd, sizeof(fd));
	}
	if (c->name)
		nl_put(&r, IFLA_IFNAME, c->name, strlen(c->name) + 1);
	return nl_exchange(nl, &r, NULL, NULL, what, err);
}

int nl_link_move(int nl, int index, int netns_fd, const char *name, struct shim_error *err)
{
	struct link_change c = { .netns_fd = netns_fd, .name = name };

	return set_link(nl, index, &c, "moving it", err);
}

int nl_link_set_up(int nl, int index, bool up, struct shim_error *err)
{
	struct link_change c = { .netns_fd = -1, .flags = up ? IFF_UP : 0, .change = IFF_UP };

	return set_link(nl, index, &c, up ? "setting it up" : "setting it down", err);
}

int nl_addr_add(int nl, int index, const struct nl_addr *a, struct shim_error *err)
{
	size_t len = a->family == AF_INET ? 4 : 16;
	struct nl_req r;

	nl_init(&r, RTM_NEWADDR, NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL, sizeof(struct ifaddrmsg));
	r.addr.ifa_family = a->family;
	r.addr.ifa_prefixlen = a->prefixlen;
	r.addr.ifa_scope = a->scope;
	r.addr.ifa_index = (uint32_t)index;
	if (a->has_local)
		nl_put(&r, IFA_LOCAL, a->local, len);
	if (a->has_address)
		nl_put(&r, IFA_ADDRESS, a->address, len);
	if (a->has_broadcast)
		nl_put(&r, IFA_BROADCAST, a->broadcast, len);
	if (nl_exchange(nl, &r, NULL, NULL, "adding an address", err) < 0)
		return err->errnum == EEXIST ? 0 : -1;
	return 0;
}
