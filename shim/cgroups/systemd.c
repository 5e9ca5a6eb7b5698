/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/cgroups/cgroup.h"
#include "shim/cgroups/dbus.h"
#include "shim/cgroups/systemd.h"
#include "shim/cgroups/systemd_props.h"
#include "shim/clone.h"
#include "shim/log.h"
#include "shim/pidfd.h"

#define SYSTEMD_PATH "/org/freedesktop/systemd1"
#define SYSTEMD_MANAGER "org.freedesktop.systemd1.Manager"
#define NO_SUCH_UNIT "org.freedesktop.systemd1.NoSuchUnit"
#define SCOPE_WAIT_MS 10000
#define STEP_MS 10

static int connect_systemd(struct shim_error *err)
{
	int fd = dbus_connect(DBUS_SYSTEMD_PRIVATE, err);

	if (fd < 0)
		return shim_error_wrap(err, "--systemd-cgroup: systemd is not reachable");
	return fd;
}

/* A method of systemd's Manager (shim/cgroups/dbus.h's dbus_call). */
static int manager_call(int bus, const char *method, const char *sig, const struct bytebuf *body,
			const char *error_ok, struct shim_error *err)
{
	const struct dbus_method m = { .path = SYSTEMD_PATH, .interface = SYSTEMD_MANAGER,
				       .member = method, .sig = sig, .body = body };

	return dbus_call(bus, &m, error_ok, err);
}

int systemd_scope_names(const char *cgroups_path, const char *id, struct systemd_scope *s,
			struct shim_error *err)
{
	char copy[512];
	const char *slice = "system.slice", *prefix = "shim", *name = id;
	char *first, *second;

	memset(s, 0, sizeof(*s));
	s->holder_pidfd = -1;
	if (cgroups_path && *cgroups_path) {
		if (snprintf(copy, sizeof(copy), "%s", cgroups_path) >= (int)sizeof(copy) ||
		    !(first = strchr(copy, ':')) || !(second = strchr(first + 1, ':')) ||
		    strchr(second + 1, ':'))
			return shim_fail(err, EINVAL, "linux.cgroupsPath: \"%s\": with --systemd-cgroup, "
					 "slice:prefix:name", cgroups_path);
		*first = *second = '\0';
		slice = *copy ? copy : slice;
		prefix = first + 1;
		name = *(second + 1) ? second + 1 : id;
	}
	if (strchr(slice, '/') || strchr(prefix, '/') || strchr(name, '/') ||
	    strlen(slice) < 7 || strcmp(slice + strlen(slice) - 6, ".slice") != 0)
		return shim_fail(err, EINVAL, "linux.cgroupsPath: \"%s\": no '/' in its parts, and a "
				 "slice named *.slice", cgroups_path ? cgroups_path : "");
	snprintf(s->slice, sizeof(s->slice), "%s", slice);
	if ((size_t)snprintf(s->unit, sizeof(s->unit), "%s%s%s.scope", prefix, *prefix ? "-" : "",
			     name) >= sizeof(s->unit))
		return shim_fail(err, ENAMETOOLONG, "linux.cgroupsPath: the unit name is too long");
	return 0;
}

static void property_s(struct bytebuf *b, const char *name, const char *v)
{
	dbus_struct_begin(b);
	dbus_put_string(b, name);
	dbus_put_signature(b, "s");
	dbus_put_string(b, v);
}

static void property_b(struct bytebuf *b, const char *name, bool v)
{
	dbus_struct_begin(b);
	dbus_put_string(b, name);
	dbus_put_signature(b, "b");
	dbus_put_bool(b, v);
}

static int start_unit(int bus, const struct systemd_scope *s, const char *description,
		      const struct oci_resources *r, struct shim_error *err)
{
	struct bytebuf b = { 0 };
	struct dbus_array props, pids, aux;
	int ret;

	dbus_put_string(&b, s->unit);
	dbus_put_string(&b, "fail");
	props = dbus_array_begin(&b, 8);
	property_s(&b, "Description", description);
	property_s(&b, "Slice", s->slice);
	property_b(&b, "Delegate", true);
	property_b(&b, "DefaultDependencies", false);
	dbus_struct_begin(&b);
	dbus_put_string(&b, "PIDs");
	dbus_put_signature(&b, "au");
	pids = dbus_array_begin(&b, 4);
	dbus_put_u32(&b, (uint32_t)s->holder);
	dbus_array_end(&b, pids);
	systemd_resource_properties(&b, r);
	dbus_array_end(&b, props);
	aux = dbus_array_begin(&b, 8);
	dbus_array_end(&b, aux);
	ret = manager_call(bus, "StartTransientUnit", "ssa(sv)a(sa(sv))", &b, NULL, err);
	bytebuf_free(&b);
	if (ret < 0)
		return shim_error_wrap(err, "--systemd-cgroup: starting %s in %s", s->unit, s->slice);
	return 0;
}

static int holder_main(void *arg)
{
	for (;;)
		pause();
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Wait until the holder is in the unit's cgroup; fill s->rel. */
static int wait_in_scope(struct systemd_scope *s, struct shim_error *err)
{
	size_t n = strlen(s->unit);

	for (long waited = 0; waited <= SCOPE_WAIT_MS; waited += STEP_MS) {
		size_t len;

		if (cgroup_of_pid(s->holder, s->rel, sizeof(s->rel), err) < 0)
			return -1;
		len = strlen(s->rel);
		if (len > n && s->rel[len - n - 1] == '/' && strcmp(s->rel + len - n, s->unit) == 0)
			return 0;
		sleep_ms(STEP_MS);
	}
	return shim_fail(err, ETIMEDOUT, "--systemd-cgroup: %s did not start in %d ms", s->unit,
			 SCOPE_WAIT_MS);
}

int systemd_scope_start(struct systemd_scope *s, const char *description,
			const struct oci_resources *r, struct shim_error *err)
{
	_cleanup_close_ int bus = connect_systemd(err);

	if (bus < 0)
		return -1;
	s->holder = clone_with_pidfd(0, -1, holder_main, NULL, &s->holder_pidfd, err);
	if (s->holder < 0 || start_unit(bus, s, description, r, err) < 0) {
		s->unit[0] = '\0';	/* none started: a unit of that name is another's */
		systemd_scope_drop_holder(s);
		return -1;
	}
	if (wait_in_scope(s, err) < 0) {
		/* the unit is ours (to stop); rel names where the holder was
		 * last seen, the caller's own cgroup maybe: never to empty */
		s->rel[0] = '\0';
		systemd_scope_drop_holder(s);
		return -1;
	}
	log_debug("systemd scope %s started in %s: cgroup %s", s->unit, s->slice, s->rel);
	return 0;
}

void systemd_scope_drop_holder(struct systemd_scope *s)
{
	if (s->holder_pidfd >= 0)
		pidfd_kill_and_reap(s->holder_pidfd);
	s->holder_pidfd = -1;
	s->holder = 0;
}

int systemd_unit_update(const char *unit, const struct oci_resources *r, struct shim_error *err)
{
	_cleanup_close_ int bus = connect_systemd(err);
	struct bytebuf b = { 0 };
	struct dbus_array props;
	int ret;

	if (bus < 0)
		return -1;
	dbus_put_string(&b, unit);
	dbus_put_bool(&b, true);	/* runtime: gone with the unit */
	props = dbus_array_begin(&b, 8);
	systemd_resource_properties(&b, r);
	dbus_array_end(&b, props);
	ret = manager_call(bus, "SetUnitProperties", "sba(sv)", &b, NULL, err);
	bytebuf_free(&b);
	if (ret < 0)
		return shim_error_wrap(err, "--systemd-cgroup: setting the properties of %s", unit);
	log_debug("systemd: %s has the new resources as properties", unit);
	return 0;
}

/* A Manager method taking the unit (and a job mode): 0, 1 when there is
 * no such unit, or -1. */
static int unit_call(int bus, const char *method, const char *unit, bool with_mode,
		     struct shim_error *err)
{
	struct bytebuf b = { 0 };
	int r;

	dbus_put_string(&b, unit);
	if (with_mode)
		dbus_put_string(&b, "replace");
	r = manager_call(bus, method, with_mode ? "ss" : "s", &b, NO_SUCH_UNIT, err);
	bytebuf_free(&b);
	return r;
}

int systemd_unit_stop(const char *unit, struct shim_error *err)
{
	_cleanup_close_ int bus = connect_systemd(err);
	int r;

	if (bus < 0)
		return -1;
	r = unit_call(bus, "StopUnit", unit, true, err);
	/* gone, or going: wait until systemd has unloaded it (a scope whose
	 * processes were killed may stay "failed" until reset) */
	for (long waited = 0; r >= 0 && waited <= SCOPE_WAIT_MS; waited += STEP_MS) {
		struct shim_error ignored = { 0 };

		unit_call(bus, "ResetFailedUnit", unit, false, &ignored);
		if (unit_call(bus, "GetUnit", unit, false, &ignored) == 1)
			return 0;
		sleep_ms(STEP_MS);
	}
	return r < 0 ? shim_error_wrap(err, "--systemd-cgroup") : 0;
}
