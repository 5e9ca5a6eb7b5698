#!/usr/bin/env bats
# guest: systemd
# shim on a host run by systemd (tests/vm/run --systemd: the host's systemd
# as PID 1, D-Bus, the tests in a service of it), the common case for
# engines. shim has no systemd cgroup driver yet (issue 15): --systemd-cgroup
# is refused by name; what runs today is tried here.

load helpers

setup() {
	require_guest
	[ "$(cat /proc/1/comm)" = systemd ] || skip "needs the systemd guest (tests/vm/run --systemd)"
	setup_bundle sleep 1000
}

@test "the systemd guest: systemd is PID 1, answers on the bus, the tests run in its service" {
	run busctl --system call org.freedesktop.systemd1 /org/freedesktop/systemd1 \
		org.freedesktop.DBus.Peer Ping
	assert_success
	run cat /proc/self/cgroup
	assert_output "0::/system.slice/shim-command.service"
}

@test "--systemd-cgroup is refused, named, leaving nothing" {
	run "$SHIM_BIN" --systemd-cgroup --root "$ROOT" run -d -b "$BUNDLE" c1 3>&-
	assert_failure
	assert_output_has "--systemd-cgroup"
	assert_nothing_left
}

@test "a container in a cgroup of its own below the root, beside systemd's slices" {
	update_config '.linux.cgroupsPath = "/shim-test/c1" | .linux.resources = {"pids": {"limit": 20}}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	[ "$(cat /sys/fs/cgroup/shim-test/c1/pids.max)" = 20 ]
	[ "$(cat "/proc/$(shim state c1 | jq .pid)/cgroup")" = "0::/shim-test/c1" ]
	run shim delete -f c1
	assert_success
	[ ! -e /sys/fs/cgroup/shim-test/c1 ]
}

@test "no cgroupsPath, run from a service: the container's cgroup is beside the service's" {
	# as runc: below the parent of the runtime's own cgroup, which holds
	# processes (no controller could be enabled below it)
	update_config '.linux.resources = {"pids": {"limit": 20}}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	[ "$(cat "/proc/$(shim state c1 | jq .pid)/cgroup")" = "0::/system.slice/c1" ]
	[ "$(cat /sys/fs/cgroup/system.slice/c1/pids.max)" = 20 ]
	run shim delete -f c1
	assert_success
	[ ! -e /sys/fs/cgroup/system.slice/c1 ]
}

@test "podman under systemd runs shim as README's containers.conf sets it up" {
	"$TOP/tests/payload/make-busybox-image" "$BATS_TEST_TMPDIR/layout" "$BATS_TEST_TMPDIR/bb.tar"
	sed -n '/^```toml podman-containers-conf$/,/^```$/p' "$TOP/README.md" | sed '1d;$d' |
		sed "s|/usr/local/bin/shim|$SHIM_BIN|" > "$BATS_TEST_TMPDIR/containers.conf"
	pm() {
		CONTAINERS_CONF=$BATS_TEST_TMPDIR/containers.conf podman \
			--root "$BATS_TEST_TMPDIR/podman" --runroot /run/shim-systemd-podman \
			--storage-driver vfs --events-backend file --log-level=error "$@"
	}
	pm load -q -i "$BATS_TEST_TMPDIR/bb.tar" >/dev/null
	run pm run --rm --network none --memory 64m localhost/busybox:latest \
		cat /sys/fs/cgroup/memory.max
	assert_success
	[ "${lines[0]}" = 67108864 ] || { show_run; false; }
	run pm ps -a -q
	assert_output ""
}
