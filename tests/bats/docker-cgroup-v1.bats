#!/usr/bin/env bats
# guest: cgroup-v1
# docker (as README configures it, tests/bats/docker.bash) on a hybrid
# cgroup host (tests/vm/run --cgroup-v1), with its cgroupfs driver: its
# typical containers run through shim, with their device rules enforced
# through the v1 devices hierarchy.

load helpers
load docker

setup_file() {
	[ -e /sys/fs/cgroup/devices/devices.list ] || return 0
	start_dockerd cgroupfs
}

teardown_file() {
	stop_dockerd
}

setup() {
	require_docker
	[ -e /sys/fs/cgroup/devices/devices.list ] ||
		skip "needs a cgroup v1 devices hierarchy (tests/vm/run --cgroup-v1)"
}

teardown() {
	dk rm -f -v $(dk ps -aq) >/dev/null 2>&1 || true
}

@test "docker on cgroup v1: docker names shim and cgroup v1" {
	run dk info --format '{{.DefaultRuntime}} {{.CgroupDriver}} {{.CgroupVersion}}'
	assert_success
	assert_output "shim cgroupfs 1"
}

@test "docker on cgroup v1: run --rm runs through shim, in docker's devices folder" {
	run drun "$IMAGE" sh -c 'grep -c "devices:/docker/" /proc/self/cgroup; echo ran'
	assert_success
	assert_output "1
ran"
	assert_docker_clean
}

@test "docker on cgroup v1: a device docker does not allow is refused, even with MKNOD" {
	run drun --cap-add MKNOD "$IMAGE" sh -c 'mknod /dev/k c 1 11 && head -c 0 /dev/k && echo opened'
	assert_failure
	assert_output "head: /dev/k: Operation not permitted"
	# --device allows it, as docker's rules say
	run drun --device /dev/kmsg:/dev/kmsg "$IMAGE" sh -c 'head -c 0 /dev/kmsg && echo opened'
	assert_success
	assert_output opened
	assert_docker_clean
}

@test "docker on cgroup v1: run -d, exec, stop and rm leave no devices folder" {
	local id
	id=$(dk run -d --network none --name c1 "$IMAGE" sleep 1000 | tail -n 1)
	[ -e "/sys/fs/cgroup/devices/docker/$id" ]
	run dk exec c1 sh -c 'grep -c "devices:/docker/" /proc/self/cgroup'
	assert_output 1
	dk stop -t 1 c1 >/dev/null
	dk rm c1 >/dev/null
	[ ! -e "/sys/fs/cgroup/devices/docker/$id" ]
	assert_docker_clean
}
