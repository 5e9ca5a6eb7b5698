#!/usr/bin/env bats
# also-guest: cgroup-v1
# engines: shim under the container engines, as their OCI runtime (in the
# plain guest and in the hybrid cgroup one, tests/vm/run --cgroup-v1): podman
# (--runtime shim, with conmon) and containerd (ctr, the runc v2 shim with
# shim as its runc binary) run, exec into, stop and remove a busybox
# container from a locally built image (make-busybox-image's
# docker-archive; no network). Both engines keep all their state in this
# file's temporary folder and /run/shim-engines-*.

load helpers

setup_file() {
	export ARCHIVE=$BATS_FILE_TMPDIR/busybox.tar
	"$TOP/tests/payload/make-busybox-image" "$BATS_FILE_TMPDIR/layout" "$ARCHIVE"
}

setup() {
	require_guest
	command -v podman >/dev/null && command -v containerd >/dev/null ||
		skip "podman and containerd are not installed (tests/install-deps)"
	MOUNTS_BEFORE=$(wc -l < /proc/self/mountinfo)
}

# podman with all its state here, cgroupfs, no network, shim as runtime.
pm() {
	podman --root "$BATS_FILE_TMPDIR/podman/root" --runroot /run/shim-engines-podman \
		--storage-driver vfs --cgroup-manager cgroupfs --events-backend file \
		--runtime "$SHIM_BIN" --log-level=error "$@"
}

# containerd, started once for the file's tests (fd 3 closed: bats waits
# for whoever holds it).
CTRD_SOCK=/run/shim-engines-containerd/containerd.sock
start_engines_containerd() {
	[ -S "$CTRD_SOCK" ] ||
		start_containerd "$BATS_FILE_TMPDIR/containerd" /run/shim-engines-containerd "$CTRD_SOCK"
}

ct() {
	ctr -a "$CTRD_SOCK" -n shimtest "$@"
}

teardown_file() {
	stop_daemon "$BATS_FILE_TMPDIR/containerd/pid"
}

# No process of the engines' containers or shims is left.
assert_no_container_process() {
	no_process_with "sleep 1000" containerd-shim conmon
}

# Whether ctr lists the task as stopped.
ct_task_stopped() {
	[[ "$(ct tasks ls)" == *STOPPED* ]]
}

# podman as README's containers.conf sets it up (this build's path), with
# its state here as pm's; cgroupfs, as this guest has no systemd.
pm_conf() {
	readme_block "toml podman-containers-conf" > "$BATS_TEST_TMPDIR/containers.conf"
	grep -q '^runtime = "shim"' "$BATS_TEST_TMPDIR/containers.conf" ||
		{ echo "README has no podman-containers-conf block naming shim"; return 1; }
	CONTAINERS_CONF=$BATS_TEST_TMPDIR/containers.conf podman \
		--root "$BATS_FILE_TMPDIR/podman/root" --runroot /run/shim-engines-podman \
		--storage-driver vfs --events-backend file --cgroup-manager cgroupfs \
		--log-level=error "$@"
}

@test "podman takes shim from containers.conf as README writes it" {
	pm_conf load -q -i "$ARCHIVE" >/dev/null
	run pm_conf info --format '{{.Host.OCIRuntime.Name}} {{.Host.OCIRuntime.Path}} {{.Host.CgroupManager}}'
	assert_success
	assert_output "shim $SHIM_BIN cgroupfs"
	run pm_conf run -d --network none --name c1 localhost/busybox:latest sleep 1000
	assert_success
	[ "$(pm_conf inspect -f '{{.OCIRuntime}}' c1)" = shim ]
	# podman gives shim no --root: its state is at shim's default
	run "$SHIM_BIN" state "$(pm_conf inspect -f '{{.Id}}' c1)"
	assert_success
	[ "$(jq -r .status <<< "$output")" = running ]
	run pm_conf rm -f -t 1 c1
	assert_success
	run pm_conf ps -a -q
	assert_output ""
	assert_no_container_process
}

@test "podman runs a busybox container through shim and removes it" {
	run pm load -q -i "$ARCHIVE"
	assert_success
	run pm run --rm --network none localhost/busybox:latest sh -c 'echo hi from podman; cat /layer2'
	assert_success
	assert_output "hi from podman
layer 2"
	run pm ps -a -q
	assert_output ""
}

@test "podman's --tmpfs keeps what the image has there (tmpcopyup)" {
	pm load -q -i "$ARCHIVE"
	run pm run --rm --network none --tmpfs /etc localhost/busybox:latest \
		sh -c 'grep -c "^tmpfs /etc " /proc/mounts; grep "^root:" /etc/passwd | cut -d: -f1,3'
	assert_success
	assert_output "1
root:0"
}

@test "podman execs into a running shim container, stops and removes it" {
	pm load -q -i "$ARCHIVE"
	run pm run -d --network none --name c1 localhost/busybox:latest sleep 1000
	assert_success
	[ "$(pm inspect -f '{{.State.Status}} {{.OCIRuntime}}' c1)" = "running $SHIM_BIN" ]
	run pm exec c1 sh -c 'echo exec-ok; readlink /proc/1/exe'
	assert_success
	assert_output "exec-ok
/bin/busybox"
	run pm stop -t 1 c1
	assert_success
	[ "$(pm inspect -f '{{.State.Status}}' c1)" = exited ]
	run pm rm c1
	assert_success
	run pm ps -a -q
	assert_output ""
	assert_no_container_process
	[ "$(wc -l < /proc/self/mountinfo)" -eq "$MOUNTS_BEFORE" ]
}

@test "podman's default AppArmor profile confines what runs through shim" {
	pm load -q -i "$ARCHIVE"
	run pm run --rm --network none localhost/busybox:latest cat /proc/self/attr/current
	assert_success
	# podman loads containers-default-VERSION and names it in the config
	[[ "$output" == "containers-default-"*" (enforce)" ]] || { show_run; false; }
	run pm run --rm --network none --security-opt apparmor=unconfined localhost/busybox:latest \
		cat /proc/self/attr/current
	assert_success
	assert_output unconfined
}

@test "containerd (ctr, runc v2 shim) runs a busybox container through shim" {
	start_engines_containerd
	run ct images import --snapshotter native "$ARCHIVE"
	assert_success
	run ct run --rm --snapshotter native --runc-binary "$SHIM_BIN" \
		localhost/busybox:latest t0 sh -c 'echo hi from containerd; cat /layer2'
	assert_success
	assert_output "hi from containerd
layer 2"
	run ct containers ls -q
	assert_output ""
}

@test "containerd execs into a running shim container, kills and removes it" {
	start_engines_containerd
	ct images import --snapshotter native "$ARCHIVE" >/dev/null
	run ct run -d --snapshotter native --runc-binary "$SHIM_BIN" \
		localhost/busybox:latest c1 sleep 1000
	assert_success
	# the runc v2 shim keeps its runtime's state under --root .../runc/NS
	run "$SHIM_BIN" --root /run/containerd/runc/shimtest state c1
	assert_success
	[ "$(jq -r .status <<< "$output")" = running ]
	run ct tasks exec --exec-id e1 c1 sh -c 'echo exec-ok; readlink /proc/1/exe'
	assert_success
	assert_output "exec-ok
/bin/busybox"
	run ct tasks kill -s SIGKILL c1
	assert_success
	retry 50 0.2 ct_task_stopped
	run ct tasks delete c1
	assert_success
	run ct containers rm c1
	assert_success
	run ct containers ls -q
	assert_output ""
	[ -z "$(ls -A /run/containerd/runc/shimtest 2>/dev/null)" ]
	assert_no_container_process
}
