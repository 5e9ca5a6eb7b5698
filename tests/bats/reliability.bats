#!/usr/bin/env bats
# reliability: the runtime killed -9 at each stage, a full state folder,
# hostile input, 50 containers at once, PID reuse. After each, `list` and
# `delete -f` still work and nothing is left: no state folder, mount, cgroup
# folder or process.

load helpers

setup() {
	require_guest
	HK=$BATS_TEST_TMPDIR/hk
	mkdir -p "$HK"
	setup_bundle sleep 100
	update_config --arg hk "$HK" '.mounts += [{"destination": "/hk", "type": "bind",
		"source": $hk, "options": ["rbind", "rw"]}]'
}

# A hook of KIND that says it runs (HK/KIND.ready), then waits.
blocking_hook() {
	update_config --arg k "$1" '.hooks[$k] += [{"path": "/bin/sh",
		"args": ["sh", "-c", "touch /hk/\($k).ready 2>/dev/null || touch '"$HK"'/\($k).ready; exec sleep 100"]}]'
}

# Wait (up to 30 s) for FILE.
wait_for_file() {
	retry 300 0.1 test -e "$1"
}

# No process of this test (a hook's sleep, an init) is left anywhere.
assert_no_sleeper() {
	local p
	for p in /proc/[0-9]*; do
		read_cmdline "$p" || continue
		if [ "$CMDLINE" = "sleep 100 " ]; then
			echo "left running: ${p#/proc/} sleep 100"
			return 1
		fi
	done
}

# shim VERB... in the background, stdio to a file, fd 3 closed; its PID.
shim_bg() {
	"$SHIM_BIN" --root "$ROOT" "$@" < /dev/null > "$BATS_TEST_TMPDIR/bg.out" 2>&1 3>&- &
	BG=$!
}

# After the kill: list works and shows the container, delete -f cleans up.
assert_recovers() {
	local want=$1
	run shim list
	assert_success
	[[ "$output" == *"c1"*"$want"* ]] || { echo "list: $output (want c1 $want)"; false; }
	run shim delete -f c1
	assert_success
	run shim list -q
	assert_output ""
	assert_no_sleeper
	assert_nothing_left
}

@test "create killed -9 in a prestart hook: list says stopped, delete -f leaves nothing" {
	blocking_hook prestart
	shim_bg create -b "$BUNDLE" c1
	wait_for_file "$HK/prestart.ready"
	kill -9 "$BG"
	wait "$BG" || true
	assert_recovers stopped
}

@test "create killed -9 in a createRuntime hook: delete -f leaves nothing" {
	blocking_hook createRuntime
	shim_bg create -b "$BUNDLE" c1
	wait_for_file "$HK/createRuntime.ready"
	kill -9 "$BG"
	wait "$BG" || true
	assert_recovers stopped
}

@test "create killed -9 while the init runs a createContainer hook: delete -f kills the init" {
	blocking_hook createContainer
	shim_bg create -b "$BUNDLE" c1
	wait_for_file "$HK/createContainer.ready"
	kill -9 "$BG"
	wait "$BG" || true
	assert_recovers stopped
}

@test "once create has exited 0, state says created and start works at once, 20 of 20" {
	setup_bundle true
	local i
	for i in $(seq 20); do
		shim_detached create -b "$BUNDLE" c$i
		assert_success
		[ "$(container_status c$i)" = created ]
		run shim start c$i
		assert_success
		run shim delete -f c$i
		assert_success
	done
	assert_nothing_left
}

@test "a create in progress is listed as creating and cannot be deleted under it" {
	blocking_hook createRuntime
	shim_bg create -b "$BUNDLE" c1
	wait_for_file "$HK/createRuntime.ready"
	[ "$(container_status c1)" = creating ]
	run shim delete -f c1
	assert_failure
	assert_output_has "container c1 is being created"
	run shim kill c1 KILL
	assert_failure
	assert_output_has "container c1 is being created"
	kill -9 "$BG"
	wait "$BG" || true
	assert_recovers stopped
}

@test "start killed -9 in a poststart hook: the container runs, delete -f leaves nothing" {
	blocking_hook poststart
	shim_detached create -b "$BUNDLE" c1
	assert_success
	shim_bg start c1
	wait_for_file "$HK/poststart.ready"
	kill -9 "$BG"
	wait "$BG" || true
	assert_recovers running
}

@test "run killed -9 in the foreground: the container runs on, delete -f leaves nothing" {
	shim_bg run -b "$BUNDLE" c1
	retry 100 0.1 status_is c1 running
	kill -9 "$BG"
	wait "$BG" || true
	assert_recovers running
}

@test "a full state folder fails create with ENOSPC and leaves nothing" {
	mkdir -p "$ROOT"
	mount -t tmpfs -o size=4k shim-full "$ROOT"
	dd if=/dev/zero of="$ROOT/fill" bs=4096 count=1 2>/dev/null || true
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "no space left on device"
	run shim list -q
	assert_success
	[ "$(ls -A "$ROOT")" = fill ]
	umount "$ROOT"
	assert_no_sleeper
	assert_nothing_left
}

@test "create leaves exactly its cgroup record, the config it read, exec.fifo and a whole state.json" {
	shim_detached create -b "$BUNDLE" c1
	assert_success
	[ "$(ls "$ROOT/c1")" = "cgroup
config.json
exec.fifo
state.json" ]
	# state.json went through a temporary file, renamed: none is left
	jq -e '.status == "created" and .pid > 0' "$ROOT/c1/state.json"
	cmp "$ROOT/c1/config.json" "$BUNDLE/config.json"
	shim delete -f c1
}

@test "50 containers created, started and deleted in parallel all succeed and leave nothing" {
	update_config '.process.args = ["true"] | .mounts |= map(select(.destination != "/hk"))'
	for i in $(seq 50); do
		(
			"$SHIM_BIN" --root "$ROOT" create -b "$BUNDLE" "p$i" &&
			"$SHIM_BIN" --root "$ROOT" start "p$i" &&
			for _ in $(seq 300); do
				[ "$(container_status "p$i")" = stopped ] && break
				sleep 0.1
			done &&
			"$SHIM_BIN" --root "$ROOT" delete "p$i"
		) < /dev/null > "$BATS_TEST_TMPDIR/p$i.out" 2>&1 3>&- &
	done
	failed=0
	for job in $(jobs -p); do
		wait "$job" || failed=$((failed + 1))
	done
	for i in $(seq 50); do
		[ ! -s "$BATS_TEST_TMPDIR/p$i.out" ] || { echo "p$i: $(cat "$BATS_TEST_TMPDIR/p$i.out")"; }
	done
	[ "$failed" -eq 0 ]
	run shim list -q
	assert_output ""
	assert_nothing_left
}

@test "after the init's PID is reused, kill and delete never signal the new process" {
	update_config '.process.args = ["true"] | .linux.namespaces |= map(select(.type != "pid"))'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	pid=$(jq -r .pid "$ROOT/c1/state.json")
	wait_for_status c1 stopped
	# hand the PID to a new process: ns_last_pid is the PID given last
	other=
	for _ in $(seq 20); do
		echo $((pid - 1)) > /proc/sys/kernel/ns_last_pid
		sleep 100 < /dev/null > /dev/null 2>&1 3>&- &
		if [ "$!" -eq "$pid" ]; then other=$!; break; fi
		kill "$!"
	done
	[ -n "$other" ] || skip "could not get PID $pid again"
	[ "$(container_status c1)" = stopped ]
	run shim kill c1 KILL
	assert_failure
	assert_output_has "container not running"
	run shim delete c1
	assert_success
	kill -0 "$other"
	kill "$other"
}

@test "hostile configs are refused naming the JSON path, and leave nothing" {
	cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/good.json"
	# 100000 nested arrays as process.args (spliced in: jq has a depth limit)
	deep=$(head -c 100000 < /dev/zero | tr '\0' '[')$(head -c 100000 < /dev/zero | tr '\0' ']')
	text=$(jq '.process.args = "DEEP"' "$BATS_TEST_TMPDIR/good.json")
	printf '%s%s%s' "${text%%\"DEEP\"*}" "$deep" "${text#*\"DEEP\"}" > "$BUNDLE/config.json"
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "process.args[0][0][0]"
	assert_output_has "nested deeper than 512 levels"
	assert_nothing_left
	cases=(
		'.process.args = [1] => process.args[0]: must be a string'
		'.process.env = {"A": "1"} => process.env: must be an array of strings'
		'.mounts = [range(20000) | {"destination": "/x", "type": 7}] => mounts[0].type: must be a string'
		'.linux.namespaces = [range(10000) | {"type": "bogus"}] => linux.namespaces[0].type: unknown namespace type "bogus"'
		'.process.rlimits = [{"type": "RLIMIT_NOFILE", "soft": -1, "hard": 1}] => process.rlimits[0].soft: must be a non-negative integer'
		'.root.path = "/proc/self/fd/3" => root.path: /proc/self/fd/3: '
	)
	for c in "${cases[@]}"; do
		filter=${c%% => *} want=${c#* => }
		jq "$filter" "$BATS_TEST_TMPDIR/good.json" > "$BUNDLE/config.json"
		shim_detached create -b "$BUNDLE" c1
		assert_failure
		assert_output_has "$want"
		assert_nothing_left
	done
}

@test "a config with 50000 env entries runs and the process sees them all" {
	# env, not a shell: busybox sh takes a minute in TCG to import them
	update_config '.process.args = ["env"] |
		.process.env += [range(50000) | "V\(.)=x"] | .mounts |= map(select(.destination != "/hk"))'
	run shim run -b "$BUNDLE" c1
	assert_success
	[ "$(grep -c '^V[0-9]*=x$' <<< "$output")" -eq 50000 ]
	[[ "$output" == *$'\nV49999=x\n'* ]] || [[ "$output" == *$'\nV49999=x' ]]
	assert_nothing_left
}
