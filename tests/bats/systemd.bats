#!/usr/bin/env bats
# guest: systemd
# shim on a host run by systemd (tests/vm/run --systemd: the host's systemd
# as PID 1, D-Bus, the tests in a service of it), the common case for
# engines: --systemd-cgroup (a transient scope per container, through
# systemd's D-Bus API), podman with its default cgroup manager, and the
# cgroupfs driver beside systemd's tree.

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

# The value of a property of the unit.
unit_property() {
	systemctl show -P "$2" "$1"
}

@test "--systemd-cgroup: the container's cgroup is a transient scope with its resources" {
	update_config '.linux.resources = {"memory": {"limit": 67108864}, "pids": {"limit": 20},
		"cpu": {"quota": 50000, "period": 100000}}'
	shim_detached --systemd-cgroup run -d -b "$BUNDLE" c1
	assert_success
	[ "$(cat "/proc/$(shim state c1 | jq .pid)/cgroup")" = "0::/system.slice/shim-c1.scope" ]
	[ "$(unit_property shim-c1.scope ActiveState)" = active ]
	[ "$(unit_property shim-c1.scope Slice)" = system.slice ]
	[ "$(unit_property shim-c1.scope Delegate)" = yes ]
	[ "$(unit_property shim-c1.scope MemoryMax)" = 67108864 ]
	[ "$(unit_property shim-c1.scope TasksMax)" = 20 ]
	[ "$(unit_property shim-c1.scope CPUQuotaPerSecUSec)" = 500ms ]
	[ "$(cat /sys/fs/cgroup/system.slice/shim-c1.scope/memory.max)" = 67108864 ]
	[ "$(cat /sys/fs/cgroup/system.slice/shim-c1.scope/pids.max)" = 20 ]
	[ "$(cat /sys/fs/cgroup/system.slice/shim-c1.scope/cpu.max)" = "50000 100000" ]
	# only the init is in it: the holder that made the scope is gone
	[ "$(cat /sys/fs/cgroup/system.slice/shim-c1.scope/cgroup.procs)" = "$(shim state c1 | jq .pid)" ]
	run shim delete -f c1
	assert_success
	[ "$(unit_property shim-c1.scope LoadState)" = not-found ]
	[ ! -e /sys/fs/cgroup/system.slice/shim-c1.scope ]
	assert_nothing_left
}

@test "--systemd-cgroup: CPUs, memory nodes and device rules are unit properties too" {
	update_config '.linux.resources.cpu = {"cpus": "0", "mems": "0"}'
	shim_detached --systemd-cgroup run -d -b "$BUNDLE" c1
	assert_success
	[ "$(unit_property shim-c1.scope AllowedCPUs)" = 0 ]
	[ "$(unit_property shim-c1.scope AllowedMemoryNodes)" = 0 ]
	[ "$(unit_property shim-c1.scope DevicePolicy)" = strict ]
	# the config's deny-all, then the devices every container gets
	run unit_property shim-c1.scope DeviceAllow
	assert_output_has "/dev/char/1:3 rwm"
	assert_output_has "char-pts rwm"
	assert_output_has "char-* m"
	run shim exec c1 sh -c 'echo x > /dev/null && echo ok'
	assert_output "ok"
}

@test "--systemd-cgroup: after a daemon-reload, the limits and devices are still the config's" {
	update_config '.linux.resources.memory = {"limit": 67108864}'
	shim_detached --systemd-cgroup run -d -b "$BUNDLE" c1
	assert_success
	run shim update --memory 134217728 c1
	assert_success
	[ "$(unit_property shim-c1.scope MemoryMax)" = 134217728 ]
	# systemd applies a unit's properties again: they must be update's
	systemctl daemon-reload
	[ "$(cat /sys/fs/cgroup/system.slice/shim-c1.scope/memory.max)" = 134217728 ]
	run shim exec c1 sh -c 'echo x > /dev/null && head -c 4 /dev/urandom | wc -c'
	assert_output "4"
	run shim exec c1 sh -c 'mknod /dev/sda-test b 8 0 && head -c 1 /dev/sda-test'
	assert_failure
	assert_output_has "Operation not permitted"
}

@test "--systemd-cgroup: device rules systemd cannot say give the unit no device policy" {
	# a deny after the allows: systemd has allow lists only
	update_config '.linux.resources.devices += [{"allow": false, "type": "c", "major": 1,
		"minor": 7, "access": "rwm"}]'
	shim_detached --systemd-cgroup run -d -b "$BUNDLE" c1
	assert_success
	[ "$(unit_property shim-c1.scope DevicePolicy)" = auto ]
	[ -z "$(unit_property shim-c1.scope DeviceAllow)" ]
	run shim exec c1 sh -c 'echo x > /dev/null && echo ok'
	assert_output "ok"
}

@test "--systemd-cgroup: slice:prefix:name names the slice and the scope" {
	update_config '.linux.cgroupsPath = "machine.slice:pfx:box"'
	shim_detached --systemd-cgroup run -d -b "$BUNDLE" c1
	assert_success
	[ "$(cat "/proc/$(shim state c1 | jq .pid)/cgroup")" = "0::/machine.slice/pfx-box.scope" ]
	[ "$(unit_property pfx-box.scope Description)" = "shim container c1" ]
	run "$SHIM_BIN" --systemd-cgroup --root "$ROOT" delete -f c1
	assert_success
	[ "$(unit_property pfx-box.scope LoadState)" = not-found ]
}

@test "--systemd-cgroup: exec, ps, pause, resume and update through the scope" {
	shim_detached --systemd-cgroup run -d -b "$BUNDLE" c1
	assert_success
	run shim exec c1 cat /proc/self/cgroup
	assert_success
	assert_output "0::/"
	run shim ps --format json c1
	assert_success
	[ "$(jq length <<< "$output")" -eq 1 ]
	run shim pause c1
	assert_success
	[ "$(container_status c1)" = paused ]
	run shim resume c1
	assert_success
	run shim update --pids-limit 30 c1
	assert_success
	[ "$(cat /sys/fs/cgroup/system.slice/shim-c1.scope/pids.max)" = 30 ]
	run shim delete -f c1
	assert_success
	[ "$(unit_property shim-c1.scope LoadState)" = not-found ]
}

@test "--systemd-cgroup: a scope that exists already fails create, named, leaving it alone" {
	systemd-run --scope -q --unit shim-c1 sleep 1000 < /dev/null > /dev/null 2>&1 3>&- &
	retry 100 0.1 systemctl -q is-active shim-c1.scope
	shim_detached --systemd-cgroup run -d -b "$BUNDLE" c1
	assert_failure
	assert_output_has "--systemd-cgroup: starting shim-c1.scope in system.slice"
	[ "$(unit_property shim-c1.scope ActiveState)" = active ]
	systemctl stop shim-c1.scope
	[ -z "$(ls -A "$ROOT" 2>/dev/null)" ]
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

@test "podman under systemd, as README's containers.conf sets it up: a scope per container" {
	"$TOP/tests/payload/make-busybox-image" "$BATS_TEST_TMPDIR/layout" "$BATS_TEST_TMPDIR/bb.tar"
	readme_block "toml podman-containers-conf" > "$BATS_TEST_TMPDIR/containers.conf"
	pm() {
		CONTAINERS_CONF=$BATS_TEST_TMPDIR/containers.conf podman \
			--root "$BATS_TEST_TMPDIR/podman" --runroot /run/shim-systemd-podman \
			--storage-driver vfs --events-backend file --log-level=error "$@"
	}
	pm load -q -i "$BATS_TEST_TMPDIR/bb.tar" >/dev/null
	# podman's default where systemd runs: shim gets --systemd-cgroup
	[ "$(pm info --format '{{.Host.CgroupManager}} {{.Host.OCIRuntime.Name}}')" = "systemd shim" ]
	run pm run --rm --network none --memory 64m --cpus 0.5 localhost/busybox:latest \
		sh -c 'cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/cpu.max'
	assert_success
	assert_output "67108864
50000 100000"
	run pm run -d --network none --name c1 localhost/busybox:latest sleep 1000
	assert_success
	id=$(pm inspect -f '{{.Id}}' c1)
	[ "$(unit_property "libpod-$id.scope" ActiveState)" = active ]
	[ "$(unit_property "libpod-$id.scope" Slice)" = machine.slice ]
	run pm exec c1 echo exec-ok
	assert_output exec-ok
	run pm rm -f -t 1 c1
	assert_success
	[ "$(unit_property "libpod-$id.scope" LoadState)" = not-found ]
	run pm ps -a -q
	assert_output ""
}
