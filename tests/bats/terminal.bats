#!/usr/bin/env bats
# host: yes
# process.terminal: a pty in the container's devpts, its master sent to
# --console-socket, or copied by `run` in the foreground; the same for exec.

load helpers

setup() {
	require_guest
	setup_bundle sh -c 'tty; stty size'
	update_config '.process.terminal = true | .process.consoleSize = {"height": 33, "width": 101}'
}

# recvtty in the background on $SOCK, copying the pty to $BATS_TEST_TMPDIR/tty.out
start_receiver() {
	SOCK=$BATS_TEST_TMPDIR/console.sock
	"$PAYLOAD/recvtty" "$SOCK" "$BATS_TEST_TMPDIR/tty.out" > "$BATS_TEST_TMPDIR/recv.log" 2>&1 3>&- &
	RECEIVER=$!
	retry 50 0.1 test -S "$SOCK"
}

@test "run in the foreground gives the process a pty of the asked size and copies it" {
	run shim run -b "$BUNDLE" c1 < /dev/null
	assert_success
	assert_output "$(printf '/dev/pts/0\r\n33 101\r')"
	assert_nothing_left
}

@test "create --console-socket sends the pty master, which carries the process's output" {
	start_receiver
	shim_detached create --console-socket "$SOCK" -b "$BUNDLE" c1
	assert_success
	shim start c1
	wait "$RECEIVER"
	grep -qx "received a terminal" "$BATS_TEST_TMPDIR/recv.log"
	[ "$(tr -d '\r' < "$BATS_TEST_TMPDIR/tty.out")" = "/dev/pts/0
33 101" ]
}

@test "a terminal without a console socket is refused for create and run -d" {
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "process.terminal: needs --console-socket"
	shim_detached run -d -b "$BUNDLE" c1
	assert_failure
	assert_output_has "process.terminal: needs --console-socket"
	assert_nothing_left
}

@test "a console socket for a config without a terminal is refused" {
	update_config '.process.terminal = false'
	shim_detached create --console-socket /nonexistent.sock -b "$BUNDLE" c1
	assert_failure
	assert_output_has "--console-socket: the config's process.terminal is false"
	assert_nothing_left
}

@test "a console socket nobody listens on is named" {
	shim_detached create --console-socket "$BATS_TEST_TMPDIR/none.sock" -b "$BUNDLE" c1
	assert_failure
	assert_output_has "--console-socket: connect $BATS_TEST_TMPDIR/none.sock"
	assert_nothing_left
}

@test "exec --tty gives the exec'd process a pty of its own" {
	update_config '.process.terminal = false | .process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec --tty c1 sh -c 'tty; test -t 0 && echo stdin is a tty'
	assert_success
	assert_output "$(printf '/dev/pts/0\r\nstdin is a tty\r')"
	run shim exec c1 sh -c 'test -t 0 || echo no tty'
	assert_output "no tty"
}

@test "exec --tty --detach without a console socket is refused" {
	update_config '.process.terminal = false | .process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec --tty -d c1 true
	assert_failure
	assert_output_has "exec: --tty with --detach needs --console-socket"
}

@test "a read-only /dev takes the pty on /dev/console, as runc" {
	update_config '(.mounts[] | select(.destination == "/dev")).options += ["ro"] |
		.process.args = ["sh", "-c", "stat -c %t:%T /dev/console; touch /dev/x 2>&1 || true"]'
	run shim run -b "$BUNDLE" c1 < /dev/null
	assert_success
	[[ "$output" == 88:* ]] || { show_run; false; }
	assert_output_has "Read-only file system"
	assert_nothing_left
}
