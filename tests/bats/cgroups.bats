#!/usr/bin/env bats
# host: yes
# cgroup v2: linux.resources and linux.cgroupsPath, the init cloned into its
# folder, pause/resume, update, ps, events, device rules, removal on delete,
# and the status of a container whose init the OOM killer took.

load helpers

CG=/sys/fs/cgroup

setup() {
	require_guest
	[ -e $CG/cgroup.controllers ] || skip "no cgroup v2 in this guest"
}

# A detached container running sleep, with the jq edit $1 applied first.
start_sleeper() {
	setup_bundle sleep 1000
	[ -z "${1:-}" ] || update_config "$1"
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
}

@test "linux.resources limits are written to the container's own folder" {
	start_sleeper '.linux.resources += {"memory":{"limit":67108864},"pids":{"limit":42},
		"cpu":{"shares":1024,"quota":50000,"period":100000}}'
	[ "$(cat $CG/c1/memory.max)" = 67108864 ]
	[ "$(cat $CG/c1/pids.max)" = 42 ]
	[ "$(cat $CG/c1/cpu.weight)" = 39 ]
	[ "$(cat $CG/c1/cpu.max)" = "50000 100000" ]
}

@test "pids.limit 0 is a limit of 0 (runtime-spec 1.3): the init runs, its first fork fails" {
	# busybox sh: a fork it cannot make ends the shell (status 2)
	setup_bundle sh -c 'read max < /sys/fs/cgroup/pids.max; echo "pids.max $max"; /bin/true; echo forked'
	update_config '.linux.resources.pids = {"limit": 0}'
	run shim run -b "$BUNDLE" c1
	[ "$status" -eq 2 ]
	assert_output "pids.max 0
sh: can't fork: Resource temporarily unavailable"
	assert_nothing_left
}

@test "memory.kernel is ignored with a warning naming it, the other limits applied" {
	start_sleeper '.linux.resources += {"memory":{"limit":67108864,"kernel":-1}}'
	assert_output_has "warning: linux.resources.memory.kernel: ignored"
	[ "$(cat $CG/c1/memory.max)" = 67108864 ]
}

@test "the init starts inside its cgroup, which is the root of its cgroup namespace" {
	setup_bundle sh -c 'cat /proc/self/cgroup; cat /sys/fs/cgroup/pids.max'
	update_config '.linux.resources.pids = {"limit": 17}'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "0::/
17"
}

@test "the host sees the init in the folder given by an absolute cgroupsPath" {
	start_sleeper '.linux.cgroupsPath = "/shim-test/box"'
	pid=$(shim state c1 | jq .pid)
	[ "$(cat $CG/shim-test/box/cgroup.procs)" = "$pid" ]
	[ "$(shim state c1 | jq -r .status)" = running ]
	shim delete -f c1
	[ ! -e $CG/shim-test/box ]
	rmdir $CG/shim-test
}

@test "delete removes the cgroup folder and leaves nothing" {
	start_sleeper
	[ -d $CG/c1 ]
	shim delete -f c1
	assert_nothing_left
}

@test "a cgroup file that does not exist fails create naming the JSON path and leaves nothing" {
	setup_bundle true
	update_config '.linux.resources.unified = {"memory.bogus": "1"}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.resources.unified.memory.bogus: $CG/c1/memory.bogus does not exist"
	assert_nothing_left
}

@test "a limit the kernel refuses fails create naming the value and leaves nothing" {
	setup_bundle true
	update_config '.linux.resources.cpu = {"cpus": "99999"}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'linux.resources.cpu: writing "99999" to /sys/fs/cgroup/c1/cpuset.cpus'
	assert_nothing_left
}

@test "a cgroup folder that already has processes is refused" {
	start_sleeper
	setup_bundle true
	update_config '.linux.cgroupsPath = "/c1"'
	shim_detached create -b "$BUNDLE" c2
	assert_failure
	assert_output_has "linux.cgroupsPath: container's cgroup is not empty: /sys/fs/cgroup/c1 has processes"
	[ "$(container_status c1)" = running ]
}

@test "pause freezes the container and resume thaws it" {
	start_sleeper
	shim pause c1
	[ "$(container_status c1)" = paused ]
	grep -qx "frozen 1" $CG/c1/cgroup.events
	[ "$(awk '{print $3}' /proc/"$(shim state c1 | jq .pid)"/stat)" != R ]
	shim resume c1
	[ "$(container_status c1)" = running ]
	grep -qx "frozen 0" $CG/c1/cgroup.events
}

@test "a paused container can be killed and deleted with force" {
	start_sleeper
	shim pause c1
	run shim delete c1
	assert_failure
	assert_output_has "cannot delete container c1 that is not stopped: paused"
	shim delete -f c1
	assert_nothing_left
}

@test "resume of a running container and pause of a stopped one are refused" {
	start_sleeper
	run shim resume c1
	assert_failure
	assert_output_has "resume: container c1 is running, not paused"
	shim kill c1 KILL
	wait_for_status c1 stopped
	run shim pause c1
	assert_failure
	assert_output_has "pause: container c1 is stopped, not running"
}

@test "update with flags changes the limits" {
	start_sleeper '.linux.resources.memory = {"limit": 67108864}'
	shim update --memory 32m --pids-limit 9 --cpu-quota 20000 --cpu-period 100000 c1
	[ "$(cat $CG/c1/memory.max)" = 33554432 ]
	[ "$(cat $CG/c1/pids.max)" = 9 ]
	[ "$(cat $CG/c1/cpu.max)" = "20000 100000" ]
}

@test "update starts from the current limits: --cpu-period alone keeps the quota, as runc" {
	start_sleeper '.linux.resources.cpu = {"quota": 50000, "period": 100000}'
	shim update --cpu-period 200000 c1
	[ "$(cat $CG/c1/cpu.max)" = "50000 200000" ]
	# no quota to keep: the period alone
	shim update --cpu-quota -1 c1
	shim update --cpu-period 300000 c1
	[ "$(cat $CG/c1/cpu.max)" = "max 300000" ]
}

@test "update --memory -1 without --memory-swap lifts the swap limit too, as runc" {
	[ -e $CG/cgroup.subtree_control ] && grep -qw memory $CG/cgroup.subtree_control ||
		skip "needs the memory controller"
	start_sleeper '.linux.resources.memory = {"limit": 67108864, "swap": 134217728}'
	[ -e $CG/c1/memory.swap.max ] || skip "needs swap accounting (memory.swap.max)"
	[ "$(cat $CG/c1/memory.swap.max)" = 67108864 ]
	shim update --memory -1 c1
	[ "$(cat $CG/c1/memory.max)" = max ]
	[ "$(cat $CG/c1/memory.swap.max)" = max ]
}

@test "update --memory-swap alone counts swap from the current memory limit, as runc" {
	start_sleeper '.linux.resources.memory = {"limit": 67108864, "swap": 100663296}'
	[ -e $CG/c1/memory.swap.max ] || skip "no memory.swap.max here"
	[ "$(cat $CG/c1/memory.swap.max)" = 33554432 ]
	run shim update --memory-swap 134217728 c1
	assert_success
	[ "$(cat $CG/c1/memory.swap.max)" = 67108864 ]
	[ "$(cat $CG/c1/memory.max)" = 67108864 ]
	run shim update --memory-swap 33554432 c1
	assert_failure
	assert_output_has "update: --memory-swap 33554432 is less than the memory limit 67108864"
	run shim update --memory -1 c1
	assert_success
	run shim update --memory-swap 134217728 c1
	assert_failure
	assert_output_has "the container has no memory limit to count it from"
}

@test "update --resources reads a LinuxResources file, or stdin with -" {
	start_sleeper
	echo '{"pids": {"limit": 5}, "unified": {"memory.high": "50000000"}}' > "$BATS_TEST_TMPDIR/r.json"
	shim update --resources "$BATS_TEST_TMPDIR/r.json" c1
	[ "$(cat $CG/c1/pids.max)" = 5 ]
	[ "$(cat $CG/c1/memory.high)" = 49999872 ]
	echo '{"pids": {"limit": -1}}' | shim update -r - c1
	[ "$(cat $CG/c1/pids.max)" = max ]
	echo '{"pids": {"limit": 0}}' | shim update -r - c1
	[ "$(cat $CG/c1/pids.max)" = 0 ]
}

@test "update with memory.checkBeforeUpdate refuses a limit below the usage" {
	start_sleeper '.linux.resources.memory = {"limit": 67108864}'
	run sh -c "echo '{\"memory\": {\"limit\": 4096, \"checkBeforeUpdate\": true}}' |
		'$SHIM_BIN' --root '$ROOT' update -r - c1"
	assert_failure
	assert_output_has "linux.resources.memory.checkBeforeUpdate: the new limit 4096 is below the container's usage"
	[ "$(cat $CG/c1/memory.max)" = 67108864 ]
	echo '{"memory": {"limit": 33554432, "checkBeforeUpdate": true}}' | shim update -r - c1
	[ "$(cat $CG/c1/memory.max)" = 33554432 ]
}

@test "update --resources - longer than 1 MiB is refused, not cut short" {
	start_sleeper
	# valid JSON past 1 MiB (it was cut at 1 MiB and then read as broken JSON)
	run sh -c "{ printf '{\"pids\": {\"limit\": 7}, \"x\": \"'; head -c 1100000 /dev/zero | tr '\\0' a;
		printf '\"}'; } | '$SHIM_BIN' --root '$ROOT' update -r - c1"
	assert_failure
	assert_output_has "--resources -: more than 1048576 bytes"
	[ "$(cat $CG/c1/pids.max)" != 7 ]
}

@test "update refuses cgroup v1 knobs by their path" {
	start_sleeper
	run sh -c "echo '{\"memory\": {\"swappiness\": 10}}' | '$SHIM_BIN' --root '$ROOT' update -r - c1"
	assert_failure
	assert_output_has "memory.swappiness: not supported: a cgroup v1 knob"
}

@test "create refuses cgroup v1 knobs on a cgroup v2 host, by their path, leaving nothing" {
	setup_bundle true
	update_config '.linux.resources.network = {"classID": 1048577}'
	run shim run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.resources.network: not supported: net_cls and net_prio are cgroup v1 controllers"
	update_config 'del(.linux.resources.network) | .linux.resources.memory = {"disableOOMKiller": true}'
	run shim run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.resources.memory.disableOOMKiller: not supported: a cgroup v1 knob"
	assert_nothing_left
}

@test "update refuses a bad value naming the flag, and a bad file naming its path" {
	start_sleeper
	run shim update --memory 12q c1
	assert_failure
	assert_output_has '--memory: "12q" is not a size'
	echo '{"memory": {"limit": "x"}}' > "$BATS_TEST_TMPDIR/r.json"
	run shim update -r "$BATS_TEST_TMPDIR/r.json" c1
	assert_failure
	assert_output_has "--resources.memory.limit: must be an integer"
	run shim update c1
	assert_failure
	assert_output_has "update: nothing to change"
}

# Whether `ps --format json ID` lists N processes.
ps_lists() {
	[ "$(shim ps --format json "$1" | jq length)" = "$2" ]
}

@test "ps --format json lists the container's processes by host PID" {
	setup_bundle sh -c 'sleep 1000 & sleep 1000'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	pid=$(shim state c1 | jq .pid)
	retry 50 0.1 ps_lists c1 2
	run shim ps --format json c1
	assert_success
	[ "$(jq length <<< "$output")" = 2 ]
	jq -e "index($pid) != null" <<< "$output"
}

@test "ps prints ps's header and only the container's rows" {
	start_sleeper
	pid=$(shim state c1 | jq .pid)
	run shim ps c1 -o pid,comm
	assert_success
	# ps pads its columns: compare the words
	[ "$(awk '{print $1, $2}' <<< "$output")" = "PID COMMAND
$pid sleep" ]
}

@test "events --stats prints the cgroup figures as one JSON line" {
	start_sleeper '.linux.resources.pids = {"limit": 30}'
	run shim events --stats c1
	assert_success
	[ "$(jq -r .type <<< "$output")" = stats ]
	[ "$(jq -r .id <<< "$output")" = c1 ]
	[ "$(jq .data.pids.current <<< "$output")" = 1 ]
	[ "$(jq .data.pids.limit <<< "$output")" = 30 ]
	[ "$(jq '.data.memory.usage.usage > 0' <<< "$output")" = true ]
}

@test "a device no rule allows cannot be opened, one a rule allows can" {
	# /dev/kmsg (char 1:11) is not among the devices every container gets
	setup_bundle sh -c 'mknod /tmp/k c 1 11 && head -c 0 /tmp/k && echo opened'
	with_mknod
	update_config '.mounts += [{"destination": "/tmp", "type": "tmpfs", "source": "tmpfs"}]'
	run shim run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "Operation not permitted"
	update_config '.linux.resources.devices += [{"allow": true, "type": "c", "major": 1,
		"minor": 11, "access": "r"}]'
	run shim run -b "$BUNDLE" c2
	assert_success
	assert_output opened
}

@test "--rootless true as the host's root still applies the device rules" {
	# the flag forgives cgroup permission errors; it must not drop the
	# device program of a container that has the host's root
	setup_bundle sh -c 'mknod /tmp/k c 1 11 && head -c 0 /tmp/k && echo opened'
	with_mknod
	update_config '.mounts += [{"destination": "/tmp", "type": "tmpfs", "source": "tmpfs"}]'
	run "$SHIM_BIN" --root "$ROOT" --rootless true run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "Operation not permitted"
	assert_nothing_left
}

@test "update's device rules alone decide, a linux.devices node gets no rule of its own" {
	start_sleeper '.linux.devices = [{"path": "/dev/kmsg", "type": "c", "major": 1, "minor": 11,
		"fileMode": 438}] |
		.linux.resources.devices += [{"allow": true, "type": "c", "major": 1, "minor": 11, "access": "rwm"}]'
	run shim exec c1 sh -c 'echo before > /dev/kmsg && echo written'
	assert_output written
	# the rules replace the program: deny all, then /dev/null alone
	echo '{"devices": [{"allow": false, "access": "rwm"},
		{"allow": true, "type": "c", "major": 1, "minor": 3, "access": "rwm"}]}' |
		shim update -r - c1
	run shim exec c1 sh -c 'echo after > /dev/kmsg && echo written'
	assert_failure
	assert_output_has "Operation not permitted"
	run shim exec c1 sh -c 'echo x > /dev/null && echo written'
	assert_output written
}

@test "an init killed by the OOM killer is stopped and run exits 137" {
	# tail keeps all of a file with no newline: it grows until killed
	setup_bundle tail /dev/zero
	update_config '.linux.resources.memory = {"limit": 16777216, "swap": 16777216}'
	run shim run -b "$BUNDLE" c1
	[ "$status" -eq 137 ]
	assert_nothing_left
}

@test "events --stats prints runc's stats fields, none that a grep for oom would match" {
	setup_bundle sleep 1000
	update_config '.linux.resources.memory = {"limit": 16777216}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim events --stats c1
	assert_success
	[ "$(jq -c '[.type, .id, .data.memory.usage.limit, (.data.pids.current > 0)]' <<< "$output")" = \
		'["stats","c1",16777216,true]' ]
	# runc's own suite waits for "oom" anywhere in the events output
	! grep -q oom <<< "$output"
}

@test "events follows and prints an oom line for a process exec'd into the container" {
	setup_bundle sleep 1000
	update_config '.linux.resources.memory = {"limit": 33554432, "swap": 33554432}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	"$SHIM_BIN" --root "$ROOT" events c1 > "$BATS_TEST_TMPDIR/events.log" 2>&1 3>&- &
	events=$!
	retry 100 0.1 grep -q '"id":"c1"' "$BATS_TEST_TMPDIR/events.log"
	shim exec -d c1 sh -c 'x=$(tail /dev/zero)'
	retry 300 0.1 grep -q '"type":"oom"' "$BATS_TEST_TMPDIR/events.log"
	shim delete -f c1
	wait "$events"
	grep -qx '{"type":"oom","id":"c1"}' "$BATS_TEST_TMPDIR/events.log" ||
		{ cat "$BATS_TEST_TMPDIR/events.log"; false; }
	assert_nothing_left
}

@test "events prints the oom line when the OOM kill takes the init itself" {
	setup_bundle sh -c 'sleep 2; tail /dev/zero'
	update_config '.linux.resources.memory = {"limit": 16777216, "swap": 16777216}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim events --interval 60s c1
	assert_success
	[ "$(grep -c '^{"type":"oom","id":"c1"}$' <<< "$output")" = 1 ] || { show_run; false; }
}

@test "an init outside a PID namespace killed by SIGTERM is stopped and run exits 143" {
	setup_bundle sleep 1000
	update_config '.linux.namespaces |= map(select(.type != "pid"))'
	"$SHIM_BIN" --root "$ROOT" run -b "$BUNDLE" c1 < /dev/null > /dev/null 2>&1 3>&- &
	runner=$!
	wait_for_status c1 running
	shim kill c1 TERM
	status=0
	wait "$runner" || status=$?
	[ "$status" -eq 143 ]
	assert_nothing_left
}

@test "--systemd-cgroup where systemd does not run fails create, named, leaving nothing" {
	[ "$(cat /proc/1/comm)" != systemd ]
	setup_bundle sleep 1000
	shim_detached --systemd-cgroup run -d -b "$BUNDLE" c1
	assert_failure
	assert_output_has "--systemd-cgroup: systemd is not reachable"
	assert_nothing_left
}

@test "a slice:prefix:name cgroupsPath without --systemd-cgroup is refused, named" {
	setup_bundle sleep 1000
	update_config '.linux.cgroupsPath = "system.slice:shim:c1"'
	shim_detached run -d -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'linux.cgroupsPath: "system.slice:shim:c1" is a systemd slice:prefix:name, which needs --systemd-cgroup'
	assert_nothing_left
}

@test "update --cpu-rt-period is refused on cgroup v2, by its path" {
	start_sleeper
	run shim update --cpu-rt-period 900000 c1
	assert_failure
	assert_output_has "realtimePeriod"
}
