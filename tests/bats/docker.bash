# tests/bats/docker.bash: Debian's dockerd (20.10, with the containerd it
# starts itself) with shim as its default runtime, configured as README's
# "Using shim with docker" says (daemon.json "runtimes" and
# "default-runtime"), plus what keeps the daemon off the guest's network
# and state: no bridge, no iptables, vfs storage, everything in the bats
# file's temporary folder and /run/shim-docker. For docker.bats (cgroupfs)
# and docker-systemd.bats (docker's systemd cgroup driver).

DOCKER_SOCK=/run/shim-docker/docker.sock
DOCKER_CONTAINERD_SOCK=/run/shim-docker-containerd/containerd.sock
# where docker's runc v2 shim keeps its runtime's state (runc's --root)
DOCKER_RUNTIME_ROOT=/run/shim-docker/runtime-runc/moby
IMAGE=localhost/busybox:latest

# Debian's client, not whatever else is on PATH.
dk() {
	/usr/bin/docker -H "unix://$DOCKER_SOCK" "$@"
}

# The daemon.json lines README gives, with this build's path.
write_daemon_json() {
	readme_block "json docker-daemon" > "$1"
	jq -e '.runtimes.shim.path and ."default-runtime" == "shim"' "$1" >/dev/null ||
		{ echo "README has no docker-daemon block with the shim runtime"; return 1; }
}

# start_dockerd DRIVER (cgroupfs, systemd), from setup_file: the daemon and
# the test image loaded. Nothing when this is no guest with docker.
start_dockerd() {
	[ -n "${SHIM_KERNEL_RELEASE:-}" ] && [ -x /usr/bin/docker ] && command -v dockerd >/dev/null ||
		return 0
	local dir=$BATS_FILE_TMPDIR/docker
	mkdir -p "$dir"
	write_daemon_json "$dir/daemon.json"
	# containerd of its own, started first: dockerd gives the one it would
	# start itself a fixed time, which a loaded TCG guest can overrun
	start_containerd "$dir/containerd" /run/shim-docker-containerd "$DOCKER_CONTAINERD_SOCK"
	dockerd --config-file "$dir/daemon.json" --data-root "$dir/root" \
		--exec-root /run/shim-docker --pidfile /run/shim-docker.pid \
		--containerd "$DOCKER_CONTAINERD_SOCK" \
		-H "unix://$DOCKER_SOCK" --bridge none --iptables=false --ip6tables=false \
		--storage-driver vfs --exec-opt "native.cgroupdriver=$1" \
		> "$dir/log" 2>&1 < /dev/null 3>&- &
	echo $! > "$dir/pid"
	retry 300 0.2 dk version >/dev/null 2>&1 ||
		{ echo "dockerd did not start:"; cat "$dir/log"; return 1; }
	"$TOP/tests/payload/make-busybox-image" "$dir/layout" "$dir/busybox.tar"
	dk load -q -i "$dir/busybox.tar"
}

# From teardown_file: dockerd, then its containerd.
stop_dockerd() {
	stop_daemon "$BATS_FILE_TMPDIR/docker/pid"
	stop_daemon "$BATS_FILE_TMPDIR/docker/containerd/pid"
}

# From setup.
require_docker() {
	require_guest
	[ -x /usr/bin/docker ] && command -v dockerd >/dev/null ||
		skip "docker.io is not installed (tests/install-deps)"
	MOUNTS_BEFORE=$(wc -l < /proc/self/mountinfo)
}

# docker run --rm through shim, off the network.
drun() {
	dk run --rm --network none "$@"
}

# Nothing of the test's containers: docker lists none, shim keeps no state
# for them, no process of theirs or of their containerd shims, no mount.
assert_docker_clean() {
	run dk ps -aq
	assert_output ""
	[ -z "$(ls -A "$DOCKER_RUNTIME_ROOT" 2>/dev/null)" ] ||
		{ echo "shim state left: $(ls -A "$DOCKER_RUNTIME_ROOT")"; return 1; }
	# a containerd shim exits just after docker has removed its container
	retry 50 0.2 no_process_with "sleep 1000" containerd-shim
	[ "$(wc -l < /proc/self/mountinfo)" -eq "$MOUNTS_BEFORE" ] ||
		{ echo "mounts changed"; return 1; }
}
