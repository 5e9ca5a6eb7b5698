#!/usr/bin/env bats
# guest: systemd
# docker with its systemd cgroup driver (native.cgroupdriver=systemd, what
# a docker on a systemd host is told to use beside a kubelet): dockerd
# configured as README says (tests/bats/docker.bash), containerd's runc v2
# shim then running shim with --systemd-cgroup, so each container is a
# transient scope, docker-ID.scope in system.slice. Each limit is checked
# inside the container, in the unit and in its cgroup; nothing is left.

load helpers
load docker

setup_file() {
	[ "$(cat /proc/1/comm)" = systemd ] || return 0
	start_dockerd systemd
}

teardown_file() {
	stop_dockerd
}

setup() {
	require_docker
	[ "$(cat /proc/1/comm)" = systemd ] || skip "needs the systemd guest (tests/vm/run --systemd)"
}

teardown() {
	dk rm -f -v $(dk ps -aq) >/dev/null 2>&1 || true
}

@test "docker's systemd driver: docker names shim and the systemd cgroup driver" {
	run dk info --format '{{.DefaultRuntime}} {{.CgroupDriver}} {{.CgroupVersion}}'
	assert_success
	assert_output "shim systemd 2"
}

@test "docker's systemd driver: run -d makes a scope with the limits, exec, stop and rm" {
	local id pid
	id=$(dk run -d --network none --name c1 --memory 64m --cpus 0.5 --pids-limit 20 \
		"$IMAGE" sleep 1000 | tail -n 1)
	pid=$("$SHIM_BIN" --root "$DOCKER_RUNTIME_ROOT" state "$id" | jq -r .pid)
	run cat "/proc/$pid/cgroup"
	assert_output "0::/system.slice/docker-$id.scope"
	[ "$(systemctl show -P ActiveState "docker-$id.scope")" = active ]
	[ "$(systemctl show -P MemoryMax "docker-$id.scope")" = 67108864 ]
	[ "$(systemctl show -P TasksMax "docker-$id.scope")" = 20 ]
	[ "$(systemctl show -P CPUQuotaPerSecUSec "docker-$id.scope")" = 500ms ]
	run dk exec c1 sh -c 'cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/cpu.max /sys/fs/cgroup/pids.max'
	assert_success
	assert_output "67108864
50000 100000
20"
	run dk stop -t 1 c1
	assert_success
	run dk rm c1
	assert_success
	[ "$(systemctl show -P LoadState "docker-$id.scope")" = not-found ]
	[ ! -e "/sys/fs/cgroup/system.slice/docker-$id.scope" ]
	assert_docker_clean
}

@test "docker's systemd driver: docker update changes the unit and the cgroup" {
	local id
	id=$(dk run -d --network none --name c1 --memory 64m "$IMAGE" sleep 1000 | tail -n 1)
	run dk update --memory 128m --memory-swap -1 c1
	assert_success
	[ "$(systemctl show -P MemoryMax "docker-$id.scope")" = 134217728 ]
	[ "$(cat "/sys/fs/cgroup/system.slice/docker-$id.scope/memory.max")" = 134217728 ]
	dk rm -f c1 >/dev/null
	assert_docker_clean
}

@test "docker's systemd driver: run --rm passes the exit status and leaves no scope" {
	run drun "$IMAGE" sh -c 'cat /proc/self/cgroup; exit 3'
	[ "$status" -eq 3 ] || { show_run; false; }
	assert_output "0::/"
	run systemctl list-units --all --no-legend 'docker-*.scope'
	assert_output ""
	assert_docker_clean
}
