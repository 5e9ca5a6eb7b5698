#!/usr/bin/env bats
# host: yes
# create -> created -> start -> running -> stopped -> delete, and what each
# verb prints and refuses.

load helpers

setup() {
	require_guest
}

@test "run returns the container's exit status" {
	setup_bundle sh -c 'exit 7'
	run shim run -b "$BUNDLE" c1
	[ "$status" -eq 7 ] || { show_run; false; }
}

@test "run and ps work when started with SIGCHLD ignored" {
	# an ignored SIGCHLD is inherited across exec; with it the kernel
	# would reap the init before run could read its status
	setup_bundle sh -c 'exit 7'
	run bash -c 'trap "" CHLD; exec "$0" --root "$1" run -b "$2" c1' "$SHIM_BIN" "$ROOT" "$BUNDLE"
	[ "$status" -eq 7 ] || { show_run; false; }
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c2
	assert_success
	run bash -c 'trap "" CHLD; exec "$0" --root "$1" ps c2' "$SHIM_BIN" "$ROOT"
	assert_success
	assert_output_has "sleep"
}

@test "the container's process starts with no signal ignored, caught or blocked" {
	# ignored signals survive exec: the caller's (nohup's SIGHUP, a
	# shell's trap '') must not reach the container
	setup_bundle grep -E '^Sig(Blk|Ign|Cgt)' /proc/self/status
	run bash -c 'trap "" HUP INT PIPE USR2 TERM; exec "$0" --root "$1" run -b "$2" c1' \
		"$SHIM_BIN" "$ROOT" "$BUNDLE"
	assert_success
	assert_output "$(printf 'SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\nSigCgt:\t0000000000000000')"
}

@test "run passes the container's output through" {
	setup_bundle echo hello from the container
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "hello from the container"
}

@test "run removes the container once it exits" {
	setup_bundle true
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_nothing_left
}

@test "run reports 128 + the signal when the process is killed" {
	setup_bundle sleep 100
	"$SHIM_BIN" --root "$ROOT" run -b "$BUNDLE" c1 < /dev/null > /dev/null 2>&1 3>&- &
	runner=$!
	wait_for_status c1 running
	shim kill c1 KILL
	status=0
	wait "$runner" || status=$?
	[ "$status" -eq 137 ]
}

@test "create leaves the container created, with its init waiting" {
	setup_bundle sleep 100
	shim_detached create -b "$BUNDLE" c1
	assert_success
	[ "$(container_status c1)" = created ]
	pid=$(shim state c1 | jq .pid)
	[ "$pid" -gt 0 ]
	[ -d "/proc/$pid" ]
}

@test "start makes a created container running" {
	setup_bundle sleep 100
	shim_detached create -b "$BUNDLE" c1
	run shim start c1
	assert_success
	[ "$(container_status c1)" = running ]
}

@test "a container whose process exits is stopped" {
	setup_bundle true
	shim_detached create -b "$BUNDLE" c1
	shim start c1
	wait_for_status c1 stopped
	[ "$(shim state c1 | jq .pid)" -eq 0 ]
}

@test "state prints the OCI state of the container" {
	setup_bundle sleep 100
	shim_detached create -b "$BUNDLE" c1
	run shim state c1
	assert_success
	[ "$(jq -r .id <<< "$output")" = c1 ]
	[ "$(jq -r .bundle <<< "$output")" = "$BUNDLE" ]
	[ "$(jq -r .rootfs <<< "$output")" = "$BUNDLE/rootfs" ]
	[ "$(jq -r .ociVersion <<< "$output")" = 1.0.2-dev ]
	[ "$(jq -r '.created | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$")' <<< "$output")" = true ]
}

@test "--pid-file gets the init's PID" {
	setup_bundle sleep 100
	shim_detached create -b "$BUNDLE" --pid-file "$BATS_TEST_TMPDIR/pid" c1
	[ "$(cat "$BATS_TEST_TMPDIR/pid")" = "$(shim state c1 | jq .pid)" ]
}

@test "kill KILL stops a running container" {
	setup_bundle sleep 100
	shim_detached run -d -b "$BUNDLE" c1
	run shim kill c1 KILL
	assert_success
	wait_for_status c1 stopped
}

@test "kill takes signal numbers and SIG names" {
	setup_bundle sh -c 'trap "exit 0" USR1; while :; do sleep 0.1; done'
	shim_detached run -d -b "$BUNDLE" c1
	run shim kill c1 SIGUSR1
	assert_success
	wait_for_status c1 stopped
	setup_bundle sleep 100
	shim_detached run -d -b "$BUNDLE" c2
	run shim kill c2 9
	assert_success
	wait_for_status c2 stopped
}

@test "kill without --all signals only the init" {
	setup_bundle sh -c 'trap true USR1; sleep 100 & while kill -0 $! 2>/dev/null; do sleep 0.1; done'
	shim_detached run -d -b "$BUNDLE" c1
	sleep 0.5
	run shim kill c1 USR1
	assert_success
	sleep 0.5
	[ "$(container_status c1)" = running ]
}

@test "kill --all signals every process of the container" {
	setup_bundle sh -c 'trap true USR1; sleep 100 & while kill -0 $! 2>/dev/null; do sleep 0.1; done'
	shim_detached run -d -b "$BUNDLE" c1
	sleep 0.5
	run shim kill --all c1 USR1
	assert_success
	wait_for_status c1 stopped
}

@test "kill of a stopped container says container not running" {
	setup_bundle true
	shim_detached run -d -b "$BUNDLE" c1
	wait_for_status c1 stopped
	run shim kill c1 KILL
	assert_failure
	assert_output_has "container not running"
}

@test "start of a running container is refused" {
	setup_bundle sleep 100
	shim_detached run -d -b "$BUNDLE" c1
	run shim start c1
	assert_failure
	assert_output_has "cannot start an already running container"
}

@test "delete removes a stopped container" {
	setup_bundle true
	shim_detached run -d -b "$BUNDLE" c1
	wait_for_status c1 stopped
	run shim delete c1
	assert_success
	run shim state c1
	assert_failure
	assert_output_has 'container "c1" does not exist'
	assert_nothing_left
}

@test "delete of a running container is refused without --force" {
	setup_bundle sleep 100
	shim_detached run -d -b "$BUNDLE" c1
	run shim delete c1
	assert_failure
	assert_output_has "is not stopped: running"
	[ "$(container_status c1)" = running ]
}

@test "delete --force kills a running container and leaves nothing" {
	setup_bundle sleep 100
	shim_detached run -d -b "$BUNDLE" c1
	pid=$(shim state c1 | jq .pid)
	run shim delete -f c1
	assert_success
	[ ! -d "/proc/$pid" ] || [ "$(awk '{print $3}' "/proc/$pid/stat")" = Z ]
	assert_nothing_left
}

@test "delete of a created container kills its waiting init" {
	setup_bundle sleep 100
	shim_detached create -b "$BUNDLE" c1
	run shim delete c1
	assert_success
	assert_nothing_left
}

@test "list shows each container with its status" {
	setup_bundle sleep 100
	shim_detached create -b "$BUNDLE" c1
	shim_detached run -d -b "$BUNDLE" c2
	run shim list
	assert_success
	[ "$(sed -n 1p <<< "$output" | awk '{print $1, $2, $3}')" = "ID PID STATUS" ]
	grep -E '^c1 +[0-9]+ +created ' <<< "$output"
	grep -E '^c2 +[0-9]+ +running ' <<< "$output"
	# as runc: the owner of the state folder, by its /etc/passwd name
	[ "$(sed -n 1p <<< "$output" | awk '{print $NF}')" = OWNER ]
	[ "$(grep '^c2 ' <<< "$output" | awk '{print $NF}')" = root ]
}

@test "list -q prints only the IDs" {
	setup_bundle sleep 100
	shim_detached create -b "$BUNDLE" b2
	shim_detached create -b "$BUNDLE" a1
	run shim list -q
	assert_success
	assert_output "$(printf 'a1\nb2')"
}

@test "list --format json is an array of states" {
	setup_bundle sleep 100
	shim_detached create -b "$BUNDLE" c1
	run shim list --format json
	assert_success
	[ "$(jq -r '.[0].id + " " + .[0].status + " " + .[0].owner' <<< "$output")" = "c1 created root" ]
}

@test "spec writes runc's default template and will not overwrite it" {
	cd "$BATS_TEST_TMPDIR"
	run "$SHIM_BIN" spec
	assert_success
	[ "$(jq -r '.process.args[0] + " " + .root.path' config.json)" = "sh rootfs" ]
	[ "$(jq -r '[.linux.namespaces[].type] | join(",")' config.json)" = "pid,network,ipc,uts,mount,cgroup" ]
	run "$SHIM_BIN" spec
	assert_failure
	assert_output_has "config.json exists"
}

@test "--version names the runtime and the spec version" {
	run "$SHIM_BIN" --version
	assert_success
	[ "$(sed -n 1p <<< "$output")" = "shim version 0.1.0" ]
	[ "$(sed -n 2p <<< "$output")" = "spec: 1.3.0" ]
}

@test "features lists the namespaces it creates" {
	run "$SHIM_BIN" features
	assert_success
	[ "$(jq -r '.linux.namespaces | join(",")' <<< "$output")" = "cgroup,ipc,mount,network,pid,time,user,uts" ]
}

@test "--log-format json writes errors as JSON records to --log" {
	ROOT=$BATS_TEST_TMPDIR/root
	run "$SHIM_BIN" --root "$ROOT" --log "$BATS_TEST_TMPDIR/log" --log-format json state nope
	assert_failure
	[ "$(jq -r .level "$BATS_TEST_TMPDIR/log")" = error ]
	[ "$(jq -r .msg "$BATS_TEST_TMPDIR/log")" = 'container "nope" does not exist' ]
}

@test "the init and an exec'd process each lead a session of their own, as runc's" {
	# the session is field 6 of /proc/PID/stat; a leader's is its own PID
	setup_bundle sh -c 'read -r _ _ _ _ _ sid _ < /proc/$$/stat; echo "$$ $sid"'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "1 1"
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c2
	assert_success
	run shim exec c2 sh -c 'read -r _ _ _ _ _ sid _ < /proc/$$/stat; [ "$sid" = "$$" ] && echo leader'
	assert_success
	assert_output leader
	shim delete -f c2
}
