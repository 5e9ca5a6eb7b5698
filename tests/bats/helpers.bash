# Shared by every bats file; load with `load helpers`.
# Tests run in the QEMU guest (tests/vm/run), as root, from the checkout.

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
BUILD=${SHIM_BUILD:-$TOP/.build}
PAYLOAD=$BUILD/payload

# Print what ran and what it said, so a failing test shows why.
show_run() {
	echo "# status: $status"
	printf '# output: %s\n' "$output"
}

# Fail unless $output is exactly the expected text.
assert_output() {
	if [ "$output" != "$1" ]; then
		echo "expected output: $1"
		show_run
		return 1
	fi
}

assert_success() {
	if [ "$status" -ne 0 ]; then
		show_run
		return 1
	fi
}

# The suites run in the QEMU guest (tests/vm/run); opted in with
# SHIM_TESTS_ON_HOST=1 (tests/host-suites), those a host can run run on
# this one, as root: a real cgroup v1 or hybrid machine, say.
on_test_machine() {
	[ -n "${SHIM_KERNEL_RELEASE:-}" ] || [ "${SHIM_TESTS_ON_HOST:-}" = 1 ]
}

require_guest() {
	on_test_machine ||
		skip "runs in the QEMU guest (tests/vm/run), or on a host with SHIM_TESTS_ON_HOST=1"
}

# What only cgroup v2 has (the guest's; a v1 or hybrid host skips).
require_cgroup2() {
	[ -e /sys/fs/cgroup/cgroup.controllers ] || skip "needs cgroup v2 at /sys/fs/cgroup"
}

# What only the patched kernel has (mount-API fds close-on-exec).
require_patched_kernel() {
	[ -n "${SHIM_KERNEL_RELEASE:-}" ] || skip "needs the patched kernel (tests/vm/run)"
}

SHIM_BIN=$BUILD/shim

# A fresh bundle (busybox rootfs, default config, terminal off) and state
# root for each test; ARGs become process.args.
setup_bundle() {
	BUNDLE=$BATS_TEST_TMPDIR/bundle
	ROOT=$BATS_TEST_TMPDIR/root
	"$TOP/tests/payload/make-busybox-bundle" "$BUNDLE" "$@"
	count_mounts
	MOUNTS_BEFORE=$MOUNTS
	CGROUPS_BEFORE=$(cgroup_folders)
	OTHER_NS_BEFORE=$(in_other_mount_ns)
}

# The PIDs of processes in another mount namespace than ours, but kernel
# threads (kthreadd, PID 2, and its children: kdevtmpfs has a mount
# namespace of its own), one per line. The guest has none; a host may.
# Builtins only (-ef compares the namespaces' inodes): every test calls it
# twice, for each process there, and a readlink run costs 0.1 s in a TCG
# guest.
in_other_mount_ns() {
	local p ppid
	for p in /proc/[0-9]*; do
		read -r _ _ _ ppid _ 2>/dev/null < "$p/stat" || continue
		[ "$p" != /proc/2 ] && [ "$ppid" != 2 ] || continue
		# a process that ended meanwhile has no namespace to compare
		[ "$p/ns/mnt" -ef /proc/self/ns/mnt ] || [ ! -e "$p/ns/mnt" ] || echo "${p#/proc/}"
	done
}

# Is process P this test run's: its root a folder of the run's (a container
# of a bundle the test made), or a descendant of the run? Other work on the
# machine (a host's own processes, another run's containers) is not.
# Builtins only.
of_this_run() {
	local p=$1 run=${BATS_RUN_TMPDIR##*/} line parent i
	local -a f
	while read -r -a f; do
		[ "${f[4]}" = / ] || continue
		[[ "${f[3]}" != *"$run"* ]] || return 0
	done < "/proc/$p/mountinfo" 2>/dev/null
	for ((i = 0; i < 64; i++)); do
		read -r line < "/proc/$p/stat" 2>/dev/null || return 1
		line=${line##*) }
		parent=${line#* }
		parent=${parent%% *}
		[ "$parent" != "$$" ] || return 0
		[ "$parent" -gt 1 ] || return 1
		p=$parent
	done
	return 1
}

# The command line of process P (/proc/P) in CMDLINE, each argument
# followed by a space ("sleep 100 "), empty for a kernel thread; fails when
# P is gone. Builtins only, as it is called for every process.
read_cmdline() {
	local -a args
	CMDLINE=
	mapfile -d '' -t args 2>/dev/null < "$1/cmdline" || return 1
	[ "${#args[@]}" -eq 0 ] || printf -v CMDLINE '%s ' "${args[@]}"
}

# The number of mounts here, in MOUNTS (builtins only: every test counts
# twice, and a program run costs 0.1 s in a TCG guest).
count_mounts() {
	local -a lines
	mapfile -t lines < /proc/self/mountinfo
	MOUNTS=${#lines[@]}
}

# Every cgroup folder below the root (and below each v1 hierarchy's), one
# per line (none without cgroups), in find's order: a folder's entries come
# in the same order each time (kernfs keeps them sorted; the hybrid guest's
# tmpfs lists them in the order they were made), so two lists compare.
cgroup_folders() {
	[ -e /sys/fs/cgroup/cgroup.controllers ] || [ -e /sys/fs/cgroup/devices/devices.list ] ||
		return 0
	find /sys/fs/cgroup -mindepth 1 -type d
}

# with_fds "N..." CMD...: run CMD with exactly fds 0-2 and the listed ones
# open (bats keeps fd 3 for itself, so the test must not touch its own).
with_fds() {
	local fds=$1
	shift
	run bash -c 'for fd in 3 4 5 6 7 8 9; do eval "exec $fd>&-"; done
		for fd in $0; do eval "exec $fd</dev/null"; done
		exec "$@"' "$fds" "$@"
}

# shim with this test's --root.
shim() {
	"$SHIM_BIN" --root "$ROOT" "$@"
}

# create or run -d, with stdio on a file and bats's fd 3 closed: a waiting
# or running init keeps what it inherited open, and bats would wait for it.
# Sets status and output as `run` does.
shim_detached() {
	local out=$BATS_TEST_TMPDIR/detached.$RANDOM
	status=0
	"$SHIM_BIN" --root "$ROOT" "$@" < /dev/null > "$out" 2>&1 3>&- || status=$?
	output=$(cat "$out")
}

# The bundle's capabilities and CAP_MKNOD: a denied device must be refused
# by the device rules, not by a missing capability.
with_mknod() {
	update_config '.process.capabilities.bounding += ["CAP_MKNOD"] |
		.process.capabilities.effective += ["CAP_MKNOD"] |
		.process.capabilities.permitted += ["CAP_MKNOD"]'
}

# Apply a jq filter to the bundle's config.json.
update_config() {
	jq "$@" "$BUNDLE/config.json" > "$BUNDLE/config.json.new"
	mv "$BUNDLE/config.json.new" "$BUNDLE/config.json"
}

assert_failure() {
	if [ "$status" -eq 0 ]; then
		echo "expected a failure"
		show_run
		return 1
	fi
}

# $output contains the text.
assert_output_has() {
	if [[ "$output" != *"$1"* ]]; then
		echo "expected output to contain: $1"
		show_run
		return 1
	fi
}

# The status field of `shim state ID`.
container_status() {
	local out
	out=$(shim state "$1")
	# read without jq, a 0.3 s run in a TCG guest, as tests poll this: the
	# key comes before annotations, and an id cannot hold a quote
	[[ "$out" =~ \"status\":\ *\"([a-z]+)\" ]] && echo "${BASH_REMATCH[1]}"
}

# Nothing of a failed or deleted container stays: no state folder, no
# process in another mount namespace than ours, no new mount here, no new
# cgroup folder.
assert_nothing_left() {
	local left p
	left=$(ls -A "$ROOT" 2>/dev/null || true)
	if [ -n "$left" ]; then
		echo "state left behind in $ROOT: $left"
		return 1
	fi
	for p in $(in_other_mount_ns); do
		grep -qx "$p" <<< "${OTHER_NS_BEFORE:-}" && continue
		# on a host, other work's processes are not this test's; in the
		# guest every one counts (a daemon a test started, an engine's
		# container whose rootfs is the engine's)
		[ -z "${SHIM_TESTS_ON_HOST:-}" ] || of_this_run "$p" || continue
		read_cmdline "/proc/$p" || true
		echo "process $p ($CMDLINE) is in another mount namespace"
		return 1
	done
	count_mounts
	if [ "$MOUNTS" -ne "$MOUNTS_BEFORE" ]; then
		echo "mounts changed"
		return 1
	fi
	if [ "$(cgroup_folders)" != "${CGROUPS_BEFORE:-}" ]; then
		echo "cgroup folders changed:"
		diff <(echo "${CGROUPS_BEFORE:-}") <(cgroup_folders) || true
		return 1
	fi
}

# retry TRIES DELAY CMD...: run CMD until it succeeds, at most TRIES times,
# DELAY seconds apart; fails, saying so, when it never does. The one way
# tests wait for something to happen.
retry() {
	local tries=$1 delay=$2 i
	shift 2
	for ((i = 1; i <= tries; i++)); do
		"$@" && return 0
		[ "$i" -eq "$tries" ] || sleep "$delay"
	done
	echo "never came true in $tries tries, $delay s apart: $*"
	return 1
}

# start_containerd DIR STATE SOCK: a containerd of the test's own, without
# the CRI plugin: its root in DIR/root, state in STATE, socket SOCK, its
# config, log and pid in DIR; waits for the socket (fd 3 closed: bats waits
# for whoever holds it). For docker.bash and engines.bats.
start_containerd() {
	local dir=$1 state=$2 sock=$3
	mkdir -p "$dir"
	cat > "$dir/config.toml" <<-EOF
	version = 2
	root = "$dir/root"
	state = "$state"
	disabled_plugins = ["io.containerd.grpc.v1.cri"]
	[grpc]
	  address = "$sock"
	EOF
	containerd --config "$dir/config.toml" > "$dir/log" 2>&1 < /dev/null 3>&- &
	echo $! > "$dir/pid"
	retry 300 0.2 test -S "$sock" ||
		{ echo "containerd did not start:"; cat "$dir/log"; return 1; }
}

# stop_daemon PIDFILE: SIGTERM to the daemon PIDFILE names, if any, and
# wait (up to 30 s) until it is gone.
stop_daemon() {
	[ -f "$1" ] || return 0
	local pid
	pid=$(cat "$1")
	kill "$pid" 2>/dev/null || true
	retry 150 0.2 sh -c '! kill -0 "$1" 2>/dev/null' - "$pid" || true
}

# No process whose command line holds one of the texts (what an engine's
# container or shim would leave behind).
no_process_with() {
	local p text
	for p in /proc/[0-9]*; do
		read_cmdline "$p" || continue
		for text in "$@"; do
			if [[ "$CMDLINE" == *"$text"* ]]; then
				echo "left behind: ${p#/proc/} $CMDLINE"
				return 1
			fi
		done
	done
}

# The README's fenced block opened by "```INFO" (say "toml
# podman-containers-conf"), with this build's shim for /usr/local/bin/shim:
# the configuration the README gives is the one the tests use. Fails when
# README has no such block.
readme_block() {
	local text
	text=$(sed -n "/^\`\`\`$1\$/,/^\`\`\`\$/p" "$TOP/README.md" | sed '1d;$d')
	[ -n "$text" ] || { echo "README.md has no \`\`\`$1 block" >&2; return 1; }
	printf '%s\n' "${text//\/usr\/local\/bin\/shim/$SHIM_BIN}"
}

# Whether container ID has the status (no output).
status_is() {
	[ "$(container_status "$1" 2>/dev/null)" = "$2" ]
}

# Wait (up to 10 s) until the container has the status.
wait_for_status() {
	retry 100 0.1 status_is "$1" "$2" ||
		{ echo "container $1 is $(container_status "$1"), not $2"; return 1; }
}

# A suite with a teardown of its own calls this from it.
teardown() {
	default_teardown
}

default_teardown() {
	# Leave no container behind for the next test, whatever happened.
	if [ -n "${ROOT:-}" ] && [ -d "$ROOT" ]; then
		for id in $("$SHIM_BIN" --root "$ROOT" list -q 2>/dev/null); do
			"$SHIM_BIN" --root "$ROOT" delete -f "$id" >/dev/null 2>&1 || true
		done
	fi
}

# dead PID: the process is gone, or a zombie (killed, its parent has not
# reaped it yet).
dead() {
	local line
	read -r line < "/proc/$1/stat" 2>/dev/null || return 0
	line=${line##*) }
	[ "${line%% *}" = Z ]
}
