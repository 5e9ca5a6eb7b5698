#!/usr/bin/env bats
# docker: Debian's dockerd (20.10, with the containerd it starts itself)
# with shim as its default runtime, configured as README's "Using shim with
# docker" says (daemon.json "runtimes" and "default-runtime"), plus what
# keeps the daemon off the guest's network and state: no bridge, no
# iptables, vfs storage, everything in this file's temporary folder and
# /run/shim-docker. Each docker flag is checked from inside the container;
# every test ends with nothing of its container left.

load helpers
load docker

setup_file() {
	start_dockerd cgroupfs
}

teardown_file() {
	stop_dockerd
}

setup() {
	require_docker
}

teardown() {
	dk rm -f -v $(dk ps -aq) >/dev/null 2>&1 || true
}

@test "docker names shim as its default runtime, as README configures it" {
	run dk info --format '{{.DefaultRuntime}} {{.CgroupDriver}} {{.CgroupVersion}}'
	assert_success
	assert_output "shim cgroupfs 2"
}

@test "docker run --rm runs the image's command through shim and removes it" {
	run drun "$IMAGE"
	assert_success
	assert_output "hello from the image"
	run drun "$IMAGE" sh -c 'cat /layer2; readlink /proc/1/exe'
	assert_success
	assert_output "layer 2
/bin/busybox"
	assert_docker_clean
}

@test "docker run passes the container's exit status back" {
	run drun "$IMAGE" sh -c 'exit 3'
	[ "$status" -eq 3 ] || { show_run; false; }
	assert_docker_clean
}

@test "docker run -d, exec, stop and rm: shim holds the container until rm" {
	run dk run -d --network none --name c1 "$IMAGE" sleep 1000
	assert_success
	local id=$output
	run "$SHIM_BIN" --root "$DOCKER_RUNTIME_ROOT" state "$id"
	assert_success
	[ "$(jq -r .status <<< "$output")" = running ]
	run dk exec c1 sh -c 'echo exec-ok; readlink /proc/1/exe; cat /proc/1/cmdline | tr "\0" " "'
	assert_success
	assert_output "exec-ok
/bin/busybox
sleep 1000 "
	run dk stop -t 1 c1
	assert_success
	[ "$(dk inspect -f '{{.State.Status}}' c1)" = exited ]
	run dk rm c1
	assert_success
	assert_docker_clean
}

@test "docker --memory sets the container's memory.max" {
	run drun --memory 64m "$IMAGE" cat /sys/fs/cgroup/memory.max
	assert_success
	# (the client may warn first that the guest has no swap accounting)
	[ "${lines[-1]}" = 67108864 ] || { show_run; false; }
	assert_docker_clean
}

@test "docker update changes a running container's limits through shim update" {
	dk run -d --network none --name c1 --memory 64m "$IMAGE" sleep 1000 >/dev/null
	run dk update --memory 128m --memory-swap -1 --pids-limit 30 c1
	assert_success
	run dk exec c1 cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/pids.max
	assert_output "134217728
30"
	dk rm -f c1 >/dev/null
	assert_docker_clean
}

@test "docker --pids-limit sets pids.max and a fork beyond it fails" {
	# the inner shell dies at the fork the limit refuses
	run drun --pids-limit 5 "$IMAGE" sh -c 'cat /sys/fs/cgroup/pids.max
		sh -c "for i in 1 2 3 4 5 6; do sleep 2 & done" 2>/dev/null; cat /sys/fs/cgroup/pids.events'
	assert_success
	[ "${lines[0]}" = 5 ] || { show_run; false; }
	[[ "${lines[1]}" =~ ^max\ [1-9] ]] || { show_run; false; }
	assert_docker_clean
}

@test "docker --cpus sets cpu.max" {
	run drun --cpus 0.5 "$IMAGE" cat /sys/fs/cgroup/cpu.max
	assert_success
	assert_output "50000 100000"
	assert_docker_clean
}

@test "docker --read-only makes the root read-only" {
	run drun --read-only "$IMAGE" sh -c 'touch /x 2>&1; awk "\$5 == \"/\" {print \$6}" /proc/self/mountinfo | cut -d, -f1'
	assert_success
	assert_output "touch: /x: Read-only file system
ro"
	assert_docker_clean
}

@test "docker --tmpfs mounts a writable tmpfs in a read-only root" {
	run drun --read-only --tmpfs /scratch "$IMAGE" sh -c \
		'echo data > /scratch/f && cat /scratch/f; grep " /scratch " /proc/self/mountinfo | cut -d" " -f9'
	assert_success
	assert_output "data
tmpfs"
	assert_docker_clean
}

@test "docker --cap-drop ALL leaves no capability" {
	run drun --cap-drop ALL "$IMAGE" sh -c 'grep -E "^Cap(Prm|Eff|Bnd|Amb)" /proc/self/status; touch /x && echo wrote'
	assert_success
	assert_output "CapPrm:	0000000000000000
CapEff:	0000000000000000
CapBnd:	0000000000000000
CapAmb:	0000000000000000
wrote"
	assert_docker_clean
}

@test "docker --user runs the command as that user" {
	run drun --user 1000:1000 "$IMAGE" sh -c 'id; touch /etc/x 2>&1'
	[ "$status" -eq 1 ] || { show_run; false; }
	assert_output "uid=1000 gid=1000 groups=1000
touch: /etc/x: Permission denied"
	assert_docker_clean
}

@test "docker -t gives the container a terminal" {
	run drun -t "$IMAGE" sh -c 'tty; [ -t 0 ] && [ -t 1 ] && [ -t 2 ] && echo all terminal'
	assert_success
	output=${output//$'\r'/}
	assert_output "/dev/pts/0
all terminal"
	assert_docker_clean
}

@test "docker's default AppArmor profile confines what runs through shim" {
	# the profile denies mount, even with CAP_SYS_ADMIN (which seccomp
	# then allows); unconfined, the same mount works
	local try='cat /proc/self/attr/current; mount -t tmpfs none /tmp 2>&1 && echo mounted'
	run drun --cap-add SYS_ADMIN "$IMAGE" sh -c "$try"
	assert_output "docker-default (enforce)
mount: mounting none on /tmp failed: Permission denied"
	run drun --cap-add SYS_ADMIN --security-opt apparmor=unconfined "$IMAGE" sh -c "$try"
	assert_success
	assert_output "unconfined
mounted"
	assert_docker_clean
}

@test "docker's default seccomp profile filters the container's system calls" {
	run drun "$IMAGE" sh -c 'grep Seccomp: /proc/self/status; unshare -U true 2>&1 || echo refused'
	assert_success
	[ "${lines[0]}" = "Seccomp:	2" ] || { show_run; false; }
	[ "${lines[-1]}" = refused ] || { show_run; false; }
	run drun --security-opt seccomp=unconfined "$IMAGE" grep Seccomp: /proc/self/status
	assert_success
	assert_output "Seccomp:	0"
	assert_docker_clean
}

@test "docker's exec -u and -w reach the exec'd process through shim" {
	dk run -d --network none --name c2 "$IMAGE" sleep 1000 >/dev/null
	run dk exec -u 1000 -w /etc c2 sh -c 'id -u; pwd'
	assert_success
	assert_output "1000
/etc"
	dk rm -f c2 >/dev/null
	assert_docker_clean
}
