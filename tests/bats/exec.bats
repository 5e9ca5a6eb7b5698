#!/usr/bin/env bats
# host: yes
# exec: another process in a running container, in its namespaces and
# cgroup, with the same fd hygiene as the init, and runc's flags.

load helpers

setup() {
	require_guest
	setup_bundle sleep 1000
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
}

@test "exec runs in the container's namespaces and returns the command's status" {
	run shim exec c1 sh -c 'echo $(hostname) $(cat /proc/1/cmdline | tr "\0" " "); exit 3'
	[ "$status" -eq 3 ] || { show_run; false; }
	assert_output "shim sleep 1000"
}

@test "the exec'd process is in the container's cgroup and cgroup namespace" {
	[ -e /sys/fs/cgroup/cgroup.controllers ] || skip "no cgroup v2"
	run shim exec c1 sh -c 'cat /proc/self/cgroup; cat /sys/fs/cgroup/cgroup.procs | wc -l'
	assert_success
	# sleep, sh, cat (and wc) are all in the container's folder
	[ "${lines[0]}" = "0::/" ]
	[ "${lines[1]}" -ge 3 ]
}

@test "the exec'd process starts with no signal ignored, caught or blocked" {
	run bash -c 'trap "" HUP INT PIPE USR2 TERM; r=$1; shift; exec "$0" --root "$r" exec c1 "$@"' \
		"$SHIM_BIN" "$ROOT" grep -E '^Sig(Blk|Ign|Cgt)' /proc/self/status
	assert_success
	assert_output "$(printf 'SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\nSigCgt:\t0000000000000000')"
}

# (sh runs two commands so that it stays itself: $$ is sh, not ls)
@test "the exec'd process holds only fds 0, 1 and 2 whatever the caller had open" {
	with_fds "3 5 7" "$SHIM_BIN" --root "$ROOT" exec c1 sh -c 'ls /proc/$$/fd; true'
	assert_success
	assert_output "$(printf '0\n1\n2')"
}

@test "without close_range the exec'd process still holds only fds 0, 1 and 2" {
	# the helper that clones it and the process itself list their fds
	with_fds "3 5 7" "$PAYLOAD/no-syscall" close_range "$SHIM_BIN" --root "$ROOT" exec c1 \
		sh -c 'ls /proc/$$/fd; true'
	assert_success
	assert_output "$(printf '0\n1\n2')"
}

@test "exec --preserve-fds 1 passes fd 3 and nothing above" {
	with_fds "3 4" "$SHIM_BIN" --root "$ROOT" exec --preserve-fds 1 c1 sh -c 'ls /proc/$$/fd; true'
	assert_success
	assert_output "$(printf '0\n1\n2\n3')"
}

@test "exec --env, --cwd and --user apply to the process" {
	run shim exec -e FOO=bar -e HOME=/x --cwd /tmp --user 1000:1001 c1 \
		sh -c 'echo $FOO $HOME $PWD $(id -u) $(id -g)'
	assert_success
	assert_output "bar /x /tmp 1000 1001"
}

@test "exec --cap adds a capability the config does not give" {
	# CAP_NET_RAW is bit 13; the default config has only 5, 10 and 29
	run shim exec c1 sh -c 'grep CapEff /proc/self/status'
	assert_output "CapEff:	0000000020000420"
	run shim exec --cap CAP_NET_RAW c1 sh -c 'grep CapEff /proc/self/status'
	assert_output "CapEff:	0000000020002420"
}

@test "exec --process runs the process described by the file" {
	jq '.process | .args = ["sh", "-c", "echo from file $X"] | .env += ["X=42"]' \
		"$BUNDLE/config.json" > "$BATS_TEST_TMPDIR/p.json"
	run shim exec --process "$BATS_TEST_TMPDIR/p.json" c1
	assert_success
	assert_output "from file 42"
}

@test "exec --process without a user runs as uid 0, as runc (the spec does not require it there)" {
	jq '.process | del(.user) | .args = ["sh", "-c", "id -u; id -g"]' \
		"$BUNDLE/config.json" > "$BATS_TEST_TMPDIR/p.json"
	run shim exec --process "$BATS_TEST_TMPDIR/p.json" c1
	assert_success
	assert_output "$(printf '0\n0')"
}

@test "exec -d --pid-file leaves the process running in the container" {
	shim_detached exec -d --pid-file "$BATS_TEST_TMPDIR/pid" c1 sleep 500
	assert_success
	pid=$(cat "$BATS_TEST_TMPDIR/pid")
	[ "$(tr '\0' ' ' < /proc/"$pid"/cmdline)" = "sleep 500 " ]
	[ "$(readlink /proc/"$pid"/ns/pid)" = "$(readlink /proc/"$(shim state c1 | jq .pid)"/ns/pid)" ]
}

@test "exec --exec-wait-fifo runs the program only once the FIFO is opened for reading" {
	mkfifo "$BATS_TEST_TMPDIR/wait"
	shim_detached exec -d --pid-file "$BATS_TEST_TMPDIR/pid" --exec-wait-fifo "$BATS_TEST_TMPDIR/wait" \
		c1 sh -c 'echo ran > /dev/shm/marker'
	assert_success
	pid=$(cat "$BATS_TEST_TMPDIR/pid")
	# set up in the container's namespaces, held right before its exec
	[ "$(readlink /proc/"$pid"/ns/mnt)" = "$(readlink /proc/"$(shim state c1 | jq .pid)"/ns/mnt)" ]
	sleep 1
	run shim exec c1 test -e /dev/shm/marker
	[ "$status" -eq 1 ]
	[ "$(timeout 10 cat "$BATS_TEST_TMPDIR/wait")" = 0 ]
	retry 20 0.2 shim exec c1 test -e /dev/shm/marker
}

@test "exec --exec-wait-fifo refuses what is not a FIFO, naming it, and starts nothing" {
	: > "$BATS_TEST_TMPDIR/file"
	run shim exec --exec-wait-fifo "$BATS_TEST_TMPDIR/file" c1 touch /dev/shm/marker
	assert_failure
	assert_output_has "exec: --exec-wait-fifo: $BATS_TEST_TMPDIR/file is not a fifo"
	run shim exec --exec-wait-fifo "$BATS_TEST_TMPDIR/none" c1 touch /dev/shm/marker
	assert_failure
	assert_output_has "exec: --exec-wait-fifo: failed to open exec wait fifo $BATS_TEST_TMPDIR/none: no such file or directory"
	run shim exec c1 test -e /dev/shm/marker
	[ "$status" -eq 1 ]
}

@test "exec of a missing program fails naming it and leaves no process" {
	before=$(ls /proc | grep -c '^[0-9]')
	run shim exec c1 no-such-program
	assert_failure
	assert_output_has 'exec: "no-such-program": executable file not found in $PATH'
	[ "$(ls /proc | grep -c '^[0-9]')" -le "$before" ]
}

@test "exec --cwd through the runtime's fds is refused" {
	for n in 3 4 5 6 7 8; do
		run shim exec --cwd /proc/self/fd/$n c1 pwd
		assert_failure
		assert_output_has "process.cwd"
	done
}

@test "exec into a stopped or paused container is refused" {
	[ -e /sys/fs/cgroup/cgroup.controllers ] || skip "no cgroup v2"
	shim pause c1
	run shim exec c1 true
	assert_failure
	assert_output_has "exec: cannot exec in a paused container c1"
	shim resume c1
	shim kill c1 KILL
	wait_for_status c1 stopped
	run shim exec c1 true
	assert_failure
	assert_output_has "exec: container c1 is stopped"
}

@test "exec refuses bad flags, naming them" {
	# as runc: an unknown capability is skipped with a warning
	run shim exec --cap CAP_BOGUS c1 true
	assert_success
	assert_output_has 'exec: --cap CAP_BOGUS: unknown capability, skipped'
	run shim exec --user abc c1 true
	assert_failure
	assert_output_has 'exec: --user: "abc" is not a number'
	run shim exec c1
	assert_failure
	assert_output_has "exec: needs a command to run (or --process FILE)"
}

@test "exec and delete use the config create saved, not the bundle edited since" {
	update_config '.hooks.poststop = [{"path": "/bin/sh",
		"args": ["sh", "-c", "echo ran > '"$BATS_TEST_TMPDIR"'/poststop"]}]'
	shim_detached run -d -b "$BUNDLE" c2
	assert_success
	echo "not a config" > "$BUNDLE/config.json"
	run shim exec c2 echo from-the-saved-config
	assert_success
	assert_output from-the-saved-config
	run shim delete -f c2
	assert_success
	[ "$(cat "$BATS_TEST_TMPDIR/poststop")" = ran ]
	[ ! -e "$ROOT/c2" ]
}
