/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "oci/base/cleanup.h"
#include "shim/cmd/cmd.h"
#include "shim/terminal.h"

/* create + start; in the foreground, wait (copying the terminal, if the
 * config asks for one) and return the container's exit status, then
 * delete it (unless --keep), as runc does. */
int cmd_run(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	struct create_opts o;
	struct container c;
	bool detach = false;
	_cleanup_close_ int master = -1;
	int status = -1;

	if (cmd_parse_create(g, argc, argv, &detach, &o, err) < 0)
		return -1;
	if (!detach)
		container_block_forwarded_signals();
	o.terminal_proxy = !detach;
	if (container_create(&o, &c, &master, err) < 0)
		return -1;
	/* with a terminal copied in the foreground the pty must be read at
	 * once: no wait for READY there */
	if (container_start(&c, detach || master < 0, err) < 0) {
		container_delete(g->root, &c, true, NULL);
		container_release(&c);
		return -1;
	}
	if (!detach) {
		if (master >= 0 ? terminal_proxy(master, c.pidfd, &status, err) < 0
				: container_wait(c.pidfd, &status, err) < 0)
			status = -1;
		c.status = STATUS_STOPPED;
		/* --keep: left stopped, for state, ps or a later delete */
		if (!o.keep && container_delete(g->root, &c, false, status < 0 ? NULL : err) < 0)
			status = -1;
	} else {
		status = 0;
	}
	container_release(&c);
	return status;
}
