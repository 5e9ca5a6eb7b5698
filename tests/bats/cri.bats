#!/usr/bin/env bats
# guest: systemd
# containerd's CRI plugin (what the kubelet talks to) with shim as the
# runtime handler README's "Using shim with containerd" block adds, with
# SystemdCgroup = true, driven by the calls a kubelet makes for a pod whose
# RuntimeClass (README's "Using shim with Kubernetes") names that handler.
# Debian 12 has no kubelet or crictl: tests/payload/cri-client makes the CRI
# calls. Each container is checked from the host: shim's state, its scope
# below the pod's slice, its limits in the unit and in its cgroup.

load helpers

CRI_SOCK=/run/shim-cri/containerd.sock
CRI_CLIENT=$TOP/tests/payload/cri-client
# the runc v2 shim's --root for containerd's "k8s.io" namespace
CRI_RUNTIME_ROOT=/run/containerd/runc/k8s.io
# a besteffort pod's slice, as the kubelet names it with the systemd driver
POD_SLICE=kubepods-besteffort-podshimtest.slice
POD_PARENT=/kubepods.slice/kubepods-besteffort.slice/$POD_SLICE
POD_CGROUP=/sys/fs/cgroup$POD_PARENT
IMAGE=localhost/busybox:latest

cri() {
	"$CRI_CLIENT" "$CRI_SOCK" "$@"
}

# The handler README's RuntimeClass names.
runtime_handler() {
	readme_block "yaml kubernetes-runtimeclass" | sed -n 's/^handler: *//p'
}

# containerd's root: a tmpfs, where the overlayfs snapshotter can make the
# image's whiteouts (the guest's /tmp cannot).
CRI_ROOT=/run/shim-cri-root

# containerd with the CRI plugin as Debian's config.toml has it, with the
# test's own root, state and socket and the sandbox ("pause") image built
# here (no network), then README's block.
write_containerd_config() {
	cat <<-EOF
	version = 2
	root = "$CRI_ROOT"
	state = "/run/shim-cri"
	[grpc]
	  address = "$CRI_SOCK"
	[plugins."io.containerd.grpc.v1.cri"]
	  sandbox_image = "localhost/pause:shim"
	EOF
	readme_block "toml containerd-config"
}

setup_file() {
	[ -n "${SHIM_KERNEL_RELEASE:-}" ] && [ "$(cat /proc/1/comm)" = systemd ] &&
		command -v containerd >/dev/null && /usr/bin/python3 -c 'import grpc' 2>/dev/null || return 0
	local dir=$BATS_FILE_TMPDIR/containerd
	mkdir -p "$dir" "$CRI_ROOT"
	mount -t tmpfs -o size=512m shim-cri "$CRI_ROOT"
	write_containerd_config > "$dir/config.toml"
	containerd --config "$dir/config.toml" > "$dir/log" 2>&1 < /dev/null 3>&- &
	echo $! > "$dir/pid"
	retry 60 0.5 cri version >/dev/null 2>&1 ||
		{ echo "containerd did not start:"; cat "$dir/log"; return 1; }
	"$TOP/tests/payload/make-busybox-image" "$dir/l1" "$dir/busybox.tar"
	"$TOP/tests/payload/make-busybox-image" --tag localhost/pause:shim \
		--cmd '["sleep","100000"]' "$dir/l2" "$dir/pause.tar"
	ctr -a "$CRI_SOCK" -n k8s.io images import "$dir/busybox.tar" >/dev/null
	ctr -a "$CRI_SOCK" -n k8s.io images import "$dir/pause.tar" >/dev/null
}

teardown_file() {
	[ -f "$BATS_FILE_TMPDIR/containerd/pid" ] || return 0
	stop_daemon "$BATS_FILE_TMPDIR/containerd/pid"
	umount -R -l "$CRI_ROOT" /run/shim-cri 2>/dev/null || true
	systemctl stop kubepods.slice 2>/dev/null || true
}

setup() {
	require_guest
	[ "$(cat /proc/1/comm)" = systemd ] || skip "needs the systemd guest (tests/vm/run --systemd)"
	command -v containerd >/dev/null || skip "containerd is not installed (tests/install-deps)"
	/usr/bin/python3 -c 'import grpc' 2>/dev/null || skip "python3-grpcio is not installed (tests/install-deps)"
	HANDLER=$(runtime_handler)
	[ -n "$HANDLER" ] || { echo "README's RuntimeClass names no handler"; return 1; }
}

teardown() {
	[ -n "${POD:-}" ] || return 0
	cri pod-stop "$POD" || true
	cri pod-rm "$POD" || true
}

# A pod through README's handler, its ID in $POD.
run_pod() {
	POD=$(cri pod-run "$HANDLER" shimtest "$POD_PARENT")
	[ -n "$POD" ]
}

# The PID shim's state gives for container ID (of containerd's k8s.io).
shim_pid() {
	"$SHIM_BIN" --root "$CRI_RUNTIME_ROOT" state "$1" | jq -r .pid
}

# Nothing of the pod: no shim state, no scope, no process, no runtime
# handler's shim.
assert_cri_clean() {
	[ -z "$(ls -A "$CRI_RUNTIME_ROOT" 2>/dev/null)" ] ||
		{ echo "shim state left: $(ls -A "$CRI_RUNTIME_ROOT")"; return 1; }
	run systemctl list-units --all --no-legend 'cri-containerd-*.scope'
	assert_output ""
	retry 50 0.2 no_process_with "sleep 100000" "sleep 1000" containerd-shim
}

@test "the RuntimeClass handler README gives is the runtime README adds to containerd" {
	[ "$HANDLER" = shim ]
	readme_block "toml containerd-config" |
		grep -qxF "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.$HANDLER]"
	readme_block "toml containerd-config" | grep -qx '  SystemdCgroup = true'
}

@test "a pod with the shim handler: its sandbox runs through shim in a scope of its slice" {
	run_pod
	run cri pod-status "$POD"
	assert_output "READY $HANDLER"
	# containerd's runc v2 shim ran shim on the sandbox, with --systemd-cgroup
	[ "$("$SHIM_BIN" --root "$CRI_RUNTIME_ROOT" state "$POD" | jq -r .status)" = running ]
	run cat "/proc/$(shim_pid "$POD")/cgroup"
	assert_output "0::$POD_PARENT/cri-containerd-$POD.scope"
	[ "$(systemctl show -P ActiveState "cri-containerd-$POD.scope")" = active ]
	[ "$(systemctl show -P Slice "cri-containerd-$POD.scope")" = "$POD_SLICE" ]
	[ "$(systemctl show -P Delegate "cri-containerd-$POD.scope")" = yes ]
}

@test "a container of the pod: created, started, exec'd into, with its limits in its scope" {
	local id pid
	run_pod
	id=$(cri create "$POD" shimtest "$POD_PARENT" app "$IMAGE" --memory 67108864 \
		--cpu-quota 50000 --cpu-period 100000 -- sleep 1000)
	cri start "$id"
	run cri status "$id"
	assert_output "RUNNING 0"
	pid=$(shim_pid "$id")
	run cat "/proc/$pid/cgroup"
	assert_output "0::$POD_PARENT/cri-containerd-$id.scope"
	[ "$(systemctl show -P MemoryMax "cri-containerd-$id.scope")" = 67108864 ]
	[ "$(systemctl show -P CPUQuotaPerSecUSec "cri-containerd-$id.scope")" = 500ms ]
	[ "$(cat "$POD_CGROUP/cri-containerd-$id.scope/memory.max")" = 67108864 ]
	[ "$(cat "$POD_CGROUP/cri-containerd-$id.scope/cpu.max")" = "50000 100000" ]
	# ExecSync: the output and the exit code come back through shim exec
	run cri exec "$id" -- sh -c 'cat /layer2; hostname >/dev/null; exit 3'
	[ "$status" -eq 3 ]
	assert_output "layer 2"
	# the container shares the pod's IPC and UTS namespaces (the sandbox's)
	[ "$(readlink "/proc/$pid/ns/ipc")" = "$(readlink "/proc/$(shim_pid "$POD")/ns/ipc")" ]
	[ "$(readlink "/proc/$pid/ns/uts")" = "$(readlink "/proc/$(shim_pid "$POD")/ns/uts")" ]
}

@test "UpdateContainerResources changes the container's memory limit through shim update" {
	local id
	run_pod
	id=$(cri create "$POD" shimtest "$POD_PARENT" app "$IMAGE" --memory 67108864 -- sleep 1000)
	cri start "$id"
	cri update "$id" --memory 134217728
	[ "$(cat "$POD_CGROUP/cri-containerd-$id.scope/memory.max")" = 134217728 ]
	[ "$(systemctl show -P MemoryMax "cri-containerd-$id.scope")" = 134217728 ]
}

@test "a container's exit status reaches the CRI; stop and remove leave nothing of the pod" {
	local done_id id
	run_pod
	done_id=$(cri create "$POD" shimtest "$POD_PARENT" done "$IMAGE" -- sh -c 'exit 7')
	cri start "$done_id"
	retry 100 0.2 sh -c '[ "$("$1" "$2" status "$3")" = "EXITED 7" ]' - \
		"$CRI_CLIENT" "$CRI_SOCK" "$done_id"
	id=$(cri create "$POD" shimtest "$POD_PARENT" app "$IMAGE" -- sleep 1000)
	cri start "$id"
	cri stop "$id" 2
	run cri status "$id"
	assert_output "EXITED 137"
	cri rm "$id"
	cri rm "$done_id"
	cri pod-stop "$POD"
	cri pod-rm "$POD"
	POD=
	assert_cri_clean
	[ ! -e "$POD_CGROUP/cri-containerd-$id.scope" ]
}

@test "ctr with README's flags runs a container through shim in a scope of its own" {
	local pid
	ctr -a "$CRI_SOCK" images import "$BATS_FILE_TMPDIR/containerd/busybox.tar" >/dev/null
	# README's command, on this containerd, with the test image
	readme_block "sh ctr-systemd" | sed "s|^ctr run|ctr -a $CRI_SOCK run -d|;
		s|docker.io/library/busybox:latest|$IMAGE|" > "$BATS_TEST_TMPDIR/ctr-run"
	bash "$BATS_TEST_TMPDIR/ctr-run"
	pid=$("$SHIM_BIN" --root /run/containerd/runc/default state web | jq -r .pid)
	run cat "/proc/$pid/cgroup"
	assert_output "0::/system.slice/ctr-web.scope"
	[ "$(systemctl show -P Delegate ctr-web.scope)" = yes ]
	ctr -a "$CRI_SOCK" tasks kill -s SIGKILL web
	retry 100 0.2 bash -c '[[ "$(ctr -a "$1" tasks ls)" == *STOPPED* ]]' - "$CRI_SOCK"
	ctr -a "$CRI_SOCK" tasks delete web
	ctr -a "$CRI_SOCK" containers rm web
	[ "$(systemctl show -P LoadState ctr-web.scope)" = not-found ]
	[ -z "$(ls -A /run/containerd/runc/default 2>/dev/null)" ]
}
