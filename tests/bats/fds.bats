#!/usr/bin/env bats
# host: yes
# Nothing of the runtime's fds reaches the container; --preserve-fds does;
# and the fallbacks for kernels without clone3 or close_range keep it so.

load helpers

setup() {
	require_guest
	# sh stays PID 1 (two commands), so /proc/1/fd is the init's table.
	setup_bundle sh -c 'ls /proc/1/fd; true'
}

@test "the container's init holds only fds 0, 1 and 2" {
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "$(printf '0\n1\n2')"
}

@test "fds open in the caller do not reach the container" {
	with_fds "3 5 7" "$SHIM_BIN" --root "$ROOT" run -b "$BUNDLE" c1
	assert_success
	assert_output "$(printf '0\n1\n2')"
}

@test "--preserve-fds 2 passes fds 3 and 4 and nothing above" {
	with_fds "3 4 5" "$SHIM_BIN" --root "$ROOT" run --preserve-fds 2 -b "$BUNDLE" c1
	assert_success
	assert_output "$(printf '0\n1\n2\n3\n4')"
}

@test "--preserve-fds naming a closed fd is an error that names the flag" {
	with_fds "3 5" "$SHIM_BIN" --root "$ROOT" run --preserve-fds 3 -b "$BUNDLE" c1
	assert_failure
	assert_output_has "--preserve-fds 3: fd 4 (preserved-fd 1) is not open"
	assert_nothing_left
}

@test "without close_range the /proc/self/fd fallback closes the same fds" {
	with_fds "3 5" "$PAYLOAD/no-syscall" close_range "$SHIM_BIN" --root "$ROOT" run -b "$BUNDLE" c1
	assert_success
	assert_output "$(printf '0\n1\n2')"
}

@test "without clone3 the init is still held by a pidfd (clone + pidfd_open)" {
	update_config '.process.args = ["sh", "-c", "exit 3"]'
	run "$PAYLOAD/no-syscall" clone3 "$SHIM_BIN" --root "$ROOT" run -b "$BUNDLE" c1
	[ "$status" -eq 3 ] || { show_run; false; }
}

@test "without pidfd_open, state fails with an error naming it" {
	update_config '.process.args = ["true"]'
	shim_detached run -d -b "$BUNDLE" c1
	wait_for_status c1 stopped
	run "$PAYLOAD/no-syscall" pidfd_open "$SHIM_BIN" --root "$ROOT" state c1
	assert_failure
	assert_output_has "pidfd_open"
}

@test "a PID reused after the init exited is never taken for the container" {
	update_config '.process.args = ["true"]'
	shim_detached run -d -b "$BUNDLE" c1
	wait_for_status c1 stopped
	# Point the state at a live process with that PID but another start time.
	sleep 100 &
	other=$!
	jq --argjson pid "$other" '.pid = $pid' "$ROOT/c1/state.json" > "$ROOT/c1/state.new"
	mv "$ROOT/c1/state.new" "$ROOT/c1/state.json"
	run shim kill c1 KILL
	assert_failure
	assert_output_has "container not running"
	kill -0 "$other"
	kill "$other"
}

@test "stdio on the host's /dev/null is reopened on the container's own, as runc does" {
	# fdinfo's mnt_id of fd 0 is a mount of the container's mountinfo
	setup_bundle sh -c 'id=$(sed -n "s/^mnt_id:\t*//p" /proc/self/fdinfo/0)
		grep -q "^$id " /proc/self/mountinfo && echo inside || echo "outside: $id"'
	run shim run -b "$BUNDLE" c1 < /dev/null
	assert_success
	assert_output inside
}

# run through a shell that opens fd 3 and, with LISTEN_PID its own PID
# (exec keeps it), becomes the runtime, as systemd starts a socket-activated
# service. The caller's fd 4 stays (for --preserve-fds); others are closed.
run_socket_activated() {
	local pid=$1
	shift
	echo activated > "$BATS_TEST_TMPDIR/socket"
	run bash -c 'for fd in 3 5 6 7 8 9; do eval "exec $fd>&-"; done
		exec 3< "$0"
		[ "$1" = self ] && export LISTEN_PID=$$ || export LISTEN_PID=$1
		export LISTEN_FDS=1
		shift
		exec "$@"' "$BATS_TEST_TMPDIR/socket" "$pid" "$SHIM_BIN" --root "$ROOT" "$@"
}

@test "socket activation: LISTEN_FDS fds reach the process with LISTEN_FDS and LISTEN_PID=1, as runc" {
	update_config '.process.args = ["sh", "-c",
		"echo $LISTEN_FDS $LISTEN_PID; cat <&3; (: <&4) 2>/dev/null || echo no-4"]'
	run_socket_activated self run -b "$BUNDLE" c1
	assert_success
	assert_output "$(printf '1 1\nactivated\nno-4')"
	assert_nothing_left
}

@test "socket activation: fds meant for another PID are not taken" {
	update_config '.process.args = ["sh", "-c", "echo ${LISTEN_FDS:-none}; (: <&3) 2>/dev/null || echo no-3"]'
	run_socket_activated 1 run -b "$BUNDLE" c1
	assert_success
	assert_output "$(printf 'none\nno-3')"
}

@test "socket activation: --preserve-fds counts after the LISTEN_FDS fds, as runc" {
	update_config '.process.args = ["sh", "-c", "cat <&3; cat <&4; (: <&5) 2>/dev/null || echo no-5"]'
	echo preserved > "$BATS_TEST_TMPDIR/preserved"
	exec 4< "$BATS_TEST_TMPDIR/preserved"
	run_socket_activated self run --preserve-fds 1 -b "$BUNDLE" c1
	exec 4<&-
	assert_success
	assert_output "$(printf 'activated\npreserved\nno-5')"
}
