#!/usr/bin/env bats
# guest: cgroup-v1
# host: yes
# A hybrid cgroup host (tests/vm/run --cgroup-v1: v1 hierarchies on a tmpfs
# at /sys/fs/cgroup, an empty cgroup2 at unified/), as RHEL 8 or Ubuntu
# 20.04 boot: runc's default spec runs; the limits are written to the v1
# files of a folder in each hierarchy, and the device rules enforced through
# the devices one, for the init and for exec'd processes; update, pause,
# resume, ps and kill --all work there; what v1 has no file for is
# refused, named, leaving nothing.

load helpers

DEV=/sys/fs/cgroup/devices

# The host folder of hierarchy $1 ("memory", "name=systemd", as
# /proc/self/cgroup names it; "unified" for its 0:: line) that container
# ${2:-c1} with a relative cgroupsPath gets: below our own folder there, as
# runc's (the guest's tests run at each root: /c1).
v1_dir() {
	local own
	own=$(awk -F: -v h="$1" '
		h == "unified" && $1 == 0 && $2 == "" { print $3 }
		h != "unified" { n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == h) print $3 }
		' /proc/self/cgroup)
	own=${own%/}
	echo "/sys/fs/cgroup/${1#name=}$own/${2:-c1}"
}

setup() {
	require_guest
	[ -e $DEV/devices.list ] || skip "needs a cgroup v1 devices hierarchy (tests/vm/run --cgroup-v1)"
}

@test "cgroup v1: runc's default spec runs, its init in a devices folder of its own" {
	setup_bundle sh -c 'grep -c devices:/c1 /proc/self/cgroup; ls /sys/fs/cgroup >/dev/null; echo ran'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "1
ran"
	[ ! -e $DEV/c1 ]
	assert_nothing_left
}

@test "cgroup v1: the container's /sys/fs/cgroup holds its own folders, read-only" {
	setup_bundle sh -c 'cat /sys/fs/cgroup/memory/memory.limit_in_bytes
		head -n 1 /sys/fs/cgroup/pids/cgroup.procs; cat /sys/fs/cgroup/cpu/cpu.shares
		[ -e /sys/fs/cgroup/unified ] || echo no-unified
		mkdir /sys/fs/cgroup/memory/sub 2>&1 | grep -c "Read-only file system"'
	update_config '.linux.resources.memory = {"limit": 67108864}'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "67108864
1
1024
no-unified
1"
	assert_nothing_left
}

@test "cgroup v1: the folders go below the caller's own in each hierarchy, name=systemd and unified too, as runc" {
	local s=/sys/fs/cgroup pid
	[ -d $s/systemd ] && [ -d $s/unified ] || skip "no name=systemd or unified hierarchy here"
	local mem=$(v1_dir memory caller) sd=$(v1_dir name=systemd caller)
	setup_bundle sh -c 'grep -c . /sys/fs/cgroup/systemd/cgroup.procs; exec sleep 1000'
	mkdir "$mem" "$sd"
	sh -c "echo \$\$ > $mem/cgroup.procs && echo \$\$ > $sd/cgroup.procs &&
		exec '$SHIM_BIN' --root '$ROOT' run -d -b '$BUNDLE' c1" < /dev/null > "$BATS_TEST_TMPDIR/out" 2>&1 3>&- ||
		{ cat "$BATS_TEST_TMPDIR/out"; false; }
	pid=$(shim state c1 | jq .pid)
	# below the caller's memory and name=systemd folders, beside it in
	# those it shares with us, and in the unified cgroup2
	[ "$(cat "$mem/c1/cgroup.procs")" = "$pid" ]
	[ "$(cat "$sd/c1/cgroup.procs")" = "$pid" ]
	[ "$(cat "$(v1_dir devices)/cgroup.procs")" = "$pid" ]
	[ "$(cat "$(v1_dir unified)/cgroup.procs")" = "$pid" ]
	# the container's cgroup mount shows its name=systemd folder
	run shim exec c1 cat /sys/fs/cgroup/systemd/cgroup.procs
	assert_success
	[ -n "$output" ]
	run shim delete -f c1
	assert_success
	[ ! -e "$mem/c1" ] && [ ! -e "$sd/c1" ] && [ ! -e "$(v1_dir devices)" ]
	rmdir "$mem" "$sd"
	assert_nothing_left
}

@test "cgroup v1: a device no rule allows can be made but not opened" {
	setup_bundle sh -c 'mknod /dev/k c 1 11 && head -c 0 /dev/k && echo opened'
	with_mknod
	# /dev/kmsg wants CAP_SYSLOG where dmesg_restrict is set: the device
	# rules alone must decide
	update_config '.process.capabilities.bounding += ["CAP_SYSLOG"] |
		.process.capabilities.effective += ["CAP_SYSLOG"] |
		.process.capabilities.permitted += ["CAP_SYSLOG"]' 
	run shim run -b "$BUNDLE" c1
	assert_failure
	assert_output "head: /dev/k: Operation not permitted"
	# a rule for it: the same command opens it
	update_config '.linux.resources.devices += [{"allow": true, "type": "c", "major": 1,
		"minor": 11, "access": "r"}]'
	run shim run -b "$BUNDLE" c2
	assert_success
	assert_output opened
	assert_nothing_left
}

@test "cgroup v1: device cgroup deny is not weakened by a linux.devices node" {
	setup_bundle sh -c 'test -c /dev/kmsg && echo made; echo x > /dev/kmsg || echo refused'
	update_config '.linux.devices = [{"path": "/dev/kmsg", "type": "c", "major": 1, "minor": 11,
		"fileMode": 438}] | .linux.resources.devices = [{"allow": false, "access": "rwm"}]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output_has made
	assert_output_has refused
	assert_output_has "Operation not permitted"
	assert_nothing_left
}

@test "cgroup v1: the folder holds the config's rules and the defaults, not all" {
	setup_bundle sleep 1000
	update_config '.linux.resources.devices += [{"allow": true, "type": "b", "major": 7,
		"minor": 0, "access": "r"}]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run cat $DEV/c1/devices.list
	assert_output_has "b 7:0 r"
	assert_output_has "c 1:3 rwm"
	assert_output_has "c 136:* rwm"
	[[ "$output" != *"a *:* rwm"* ]]
	[ "$(cat $DEV/c1/cgroup.procs)" = "$(shim state c1 | jq .pid)" ]
	run shim delete -f c1
	assert_success
	[ ! -e $DEV/c1 ]
	assert_nothing_left
}

@test "cgroup v1: an exec'd process joins the folder and is refused the same device" {
	setup_bundle sleep 1000
	with_mknod
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec c1 sh -c 'grep -c devices:/c1 /proc/self/cgroup
		mknod /dev/k c 1 11 && head -c 0 /dev/k && echo opened'
	assert_failure
	assert_output "1
head: /dev/k: Operation not permitted"
	run shim delete -f c1
	assert_success
	assert_nothing_left
}

@test "cgroup v1: pids.limit 0 is a limit of 0 (runtime-spec 1.3): the init runs, its first fork fails" {
	# busybox sh: a fork it cannot make ends the shell (status 2)
	setup_bundle sh -c 'read max < /sys/fs/cgroup/pids/pids.max; echo "pids.max $max"; /bin/true; echo forked'
	update_config '.linux.resources.pids = {"limit": 0}'
	run shim run -b "$BUNDLE" c1
	[ "$status" -eq 2 ]
	assert_output "pids.max 0
sh: can't fork: Resource temporarily unavailable"
	assert_nothing_left
}

@test "cgroup v1: the limits are written to each hierarchy's folder" {
	setup_bundle sleep 1000
	update_config '.linux.resources += {"memory": {"limit": 67108864, "reservation": 33554432},
		"pids": {"limit": 42}, "cpu": {"shares": 1024, "quota": 50000, "period": 100000,
		"cpus": "0", "mems": "0"}}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	local pid
	pid=$(shim state c1 | jq .pid)
	[ "$(cat $(v1_dir memory)/memory.limit_in_bytes)" = 67108864 ]
	[ "$(cat $(v1_dir memory)/memory.soft_limit_in_bytes)" = 33554432 ]
	[ "$(cat $(v1_dir pids)/pids.max)" = 42 ]
	[ "$(cat $(v1_dir cpu)/cpu.shares)" = 1024 ]
	[ "$(cat $(v1_dir cpu)/cpu.cfs_quota_us)" = 50000 ]
	[ "$(cat $(v1_dir cpu)/cpu.cfs_period_us)" = 100000 ]
	[ "$(cat $(v1_dir cpuset)/cpuset.cpus)" = 0 ]
	# each hierarchy mounted (the guest's: all of them)
	for h in memory pids cpu cpuacct cpuset freezer blkio devices hugetlb net_cls net_prio rdma; do
		[ -d /sys/fs/cgroup/$h ] || continue
		[ "$(cat "$(v1_dir $h)/cgroup.procs")" = "$pid" ] || { echo "not in $h"; false; }
	done
	run shim delete -f c1
	assert_success
	assert_nothing_left
}

@test "cgroup v1: update, pause, resume, ps and kill --all work on the folders" {
	setup_bundle sleep 1000
	update_config '.linux.resources.memory = {"limit": 67108864}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim update --memory 134217728 --pids-limit 30 c1
	assert_success
	[ "$(cat $(v1_dir memory)/memory.limit_in_bytes)" = 134217728 ]
	[ "$(cat $(v1_dir pids)/pids.max)" = 30 ]
	run shim pause c1
	assert_success
	[ "$(container_status c1)" = paused ]
	[ "$(cat $(v1_dir freezer)/freezer.state)" = FROZEN ]
	run shim resume c1
	assert_success
	[ "$(container_status c1)" = running ]
	run shim ps --format json c1
	assert_output "[$(shim state c1 | jq .pid)]"
	run shim kill --all c1 KILL
	assert_success
	retry 100 0.1 status_is c1 stopped
	run shim delete c1
	assert_success
	assert_nothing_left
}

@test "cgroup v1: exec --cgroup puts the process below the container's folders, as runc" {
	setup_bundle sleep 1000
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	mkdir $(v1_dir memory)/side $(v1_dir pids)/side
	# every hierarchy: a folder missing in one is named
	run shim exec --cgroup /side c1 true
	assert_failure
	assert_output_has "exec --cgroup /side: adding pid to cgroups: "
	run shim exec --cgroup memory,pids:/side c1 cat /proc/self/cgroup
	assert_success
	grep -q ':memory:.*/c1/side$' <<< "$output"
	grep -q ':pids:.*/c1/side$' <<< "$output"
	grep -q ':devices:.*/c1$' <<< "$output"
	run shim exec --cgroup memory:/../.. c1 true
	assert_failure
	assert_output_has "exec --cgroup memory:/../..: bad sub cgroup path: it leads out of the container's cgroup"
	run shim exec --cgroup nosuch:/side c1 true
	assert_failure
	assert_output_has "exec --cgroup nosuch:/side: no cgroup v1 controller \"nosuch\" here"
	rmdir $(v1_dir memory)/side $(v1_dir pids)/side
	run shim delete -f c1
	assert_success
	assert_nothing_left
}

@test "cgroup v1: update --memory-swap alone sets memory plus swap against the current limit, as runc" {
	local mem=$(v1_dir memory)
	setup_bundle sleep 1000
	update_config '.linux.resources.memory = {"limit": 67108864, "swap": 100663296}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	[ -e $mem/memory.memsw.limit_in_bytes ] || skip "no swap accounting (memory.memsw)"
	run shim update --memory-swap 134217728 c1
	assert_success
	[ "$(cat $mem/memory.memsw.limit_in_bytes)" = 134217728 ]
	[ "$(cat $mem/memory.limit_in_bytes)" = 67108864 ]
	# below the memory limit: the kernel's refusal, named
	run shim update --memory-swap 33554432 c1
	assert_failure
	assert_output_has "linux.resources.memory.swap"
	[ "$(cat $mem/memory.memsw.limit_in_bytes)" = 134217728 ]
}

@test "cgroup v1: update with checkBeforeUpdate refuses a limit below the usage" {
	setup_bundle sleep 1000
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run bash -c 'echo "{\"memory\": {\"limit\": 4096, \"checkBeforeUpdate\": true}}" |
		"$1" --root "$2" update -r - c1' - "$SHIM_BIN" "$ROOT"
	assert_failure
	assert_output_has "checkBeforeUpdate: the new limit 4096 is below the container's usage"
	[ "$(cat $(v1_dir memory)/memory.limit_in_bytes)" != 4096 ]
	run shim delete -f c1
	assert_success
}

@test "cgroup v1: a second container on a running one's cgroupsPath is refused, the first untouched" {
	setup_bundle sleep 1000
	update_config '.linux.cgroupsPath = "/shared-c"'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	shim_detached run -d -b "$BUNDLE" c2
	assert_failure
	assert_output_has "linux.cgroupsPath: container's cgroup is not empty"
	[ "$(container_status c1)" = running ]
	[ "$(cat /sys/fs/cgroup/freezer/shared-c/freezer.state)" = THAWED ]
	[ -n "$(cat /sys/fs/cgroup/devices/shared-c/cgroup.procs)" ]
	run shim delete -f c1
	assert_success
	assert_nothing_left
}

@test "cgroup v1: a frozen freezer folder is refused, not waited on" {
	setup_bundle true
	local parent=frozen-$$ h
	mkdir /sys/fs/cgroup/freezer/$parent
	echo FROZEN > /sys/fs/cgroup/freezer/$parent/freezer.state
	update_config --arg p "/$parent/c1" '.linux.cgroupsPath = $p'
	run timeout 60 "$SHIM_BIN" --root "$ROOT" run -d -b "$BUNDLE" c1 < /dev/null 3>&-
	echo THAWED > /sys/fs/cgroup/freezer/$parent/freezer.state
	local left=no
	for h in /sys/fs/cgroup/*/; do
		[ -e "$h$parent/c1" ] && left=yes
		[ ! -d "$h$parent" ] || rmdir "$h$parent"
	done
	[ "$status" -ne 124 ] || { echo "run -d hung"; false; }
	assert_failure
	assert_output_has "linux.cgroupsPath: container's cgroup unexpectedly frozen"
	[ "$left" = no ]
	assert_nothing_left
}

@test "cgroup v1: a frozen cgroup that was there is refused and left as it was, as runc" {
	setup_bundle true
	local cg=pre-frozen-$$ h state left=no
	mkdir /sys/fs/cgroup/freezer/$cg
	echo FROZEN > /sys/fs/cgroup/freezer/$cg/freezer.state
	update_config --arg p "/$cg" '.linux.cgroupsPath = $p'
	run timeout 60 "$SHIM_BIN" --root "$ROOT" run -d -b "$BUNDLE" c1 < /dev/null 3>&-
	state=$(cat /sys/fs/cgroup/freezer/$cg/freezer.state 2>&1 || true)
	# the folders it made in the other hierarchies are gone
	for h in /sys/fs/cgroup/*/; do
		[ "$h" = /sys/fs/cgroup/freezer/ ] || [ ! -e "$h$cg" ] || { left="$h$cg"; rmdir "$h$cg"; }
	done
	[ ! -d /sys/fs/cgroup/freezer/$cg ] || {
		echo THAWED > /sys/fs/cgroup/freezer/$cg/freezer.state; rmdir /sys/fs/cgroup/freezer/$cg; }
	[ "$status" -ne 124 ] || { echo "run -d hung"; false; }
	assert_failure
	assert_output_has "linux.cgroupsPath: container's cgroup unexpectedly frozen"
	[ "$state" = FROZEN ] || { echo "the frozen folder is gone or thawed: $state"; false; }
	[ "$left" = no ] || { echo "left: $left"; false; }
	assert_nothing_left
}

@test "cgroup v1: delete of a paused container thaws and removes it" {
	setup_bundle sleep 1000
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim pause c1
	assert_success
	run shim delete -f c1
	assert_success
	assert_nothing_left
}

@test "cgroup v1: blkio throttles and the v1-only memory knobs reach their files" {
	setup_bundle sleep 1000
	# a loop device: a block device the blkio throttles can name
	truncate -s 4M "$BATS_TEST_TMPDIR/disk"
	loop=$(losetup -f --show "$BATS_TEST_TMPDIR/disk")
	major=$(( 0x$(stat -c %t "$loop") )) minor=$(( 0x$(stat -c %T "$loop") ))
	update_config --argjson ma "$major" --argjson mi "$minor" '.linux.resources += {
		"blockIO": {"throttleReadBpsDevice": [{"major": $ma, "minor": $mi, "rate": 1048576}],
			"throttleWriteIOPSDevice": [{"major": $ma, "minor": $mi, "rate": 100}]},
		"memory": {"limit": 67108864, "swappiness": 10, "disableOOMKiller": true}}'
	shim_detached run -d -b "$BUNDLE" c1
	local st=$status out=$output h=/sys/fs/cgroup
	rbps=$(cat $(v1_dir blkio)/blkio.throttle.read_bps_device 2>&1 || true)
	wiops=$(cat $(v1_dir blkio)/blkio.throttle.write_iops_device 2>&1 || true)
	swappiness=$(cat $(v1_dir memory)/memory.swappiness 2>&1 || true)
	oom=$(grep oom_kill_disable $(v1_dir memory)/memory.oom_control 2>&1 || true)
	run shim delete -f c1
	losetup -d "$loop"
	status=$st output=$out
	assert_success
	[ "$rbps" = "$major:$minor 1048576" ]
	[ "$wiops" = "$major:$minor 100" ]
	[ "$swappiness" = 10 ]
	[ "$oom" = "oom_kill_disable 1" ]
	assert_nothing_left
}

@test "cgroup v1: hugepage limits and the network classID and priorities reach their files" {
	local h=/sys/fs/cgroup
	[ -d $h/hugetlb ] && [ -d $h/net_cls ] && [ -d $h/net_prio ] ||
		skip "no hugetlb, net_cls or net_prio hierarchy here (the v1 guest has them)"
	setup_bundle sleep 1000
	update_config '.linux.resources += {
		"hugepageLimits": [{"pageSize": "2MB", "limit": 4194304}],
		"network": {"classID": 1048577, "priorities": [{"name": "lo", "priority": 5}]}}'
	shim_detached run -d -b "$BUNDLE" c1
	local st=$status out=$output
	hugetlb=$(cat $(v1_dir hugetlb)/hugetlb.2MB.limit_in_bytes 2>&1 || true)
	classid=$(cat $(v1_dir net_cls)/net_cls.classid 2>&1 || true)
	prio=$(grep '^lo ' $(v1_dir net_prio)/net_prio.ifpriomap 2>&1 || true)
	run shim delete -f c1
	status=$st output=$out
	assert_success
	[ "$hugetlb" = 4194304 ]
	[ "$classid" = 1048577 ]
	[ "$prio" = "lo 5" ]
	assert_nothing_left
}

@test "cgroup v1: events --stats reads the v1 folders" {
	setup_bundle sleep 1000
	update_config '.linux.resources += {"memory": {"limit": 67108864}, "pids": {"limit": 42}}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim events --stats c1
	assert_success
	[ "$(jq -r .type <<< "$output")" = stats ]
	[ "$(jq .data.memory.usage.limit <<< "$output")" = 67108864 ]
	[ "$(jq .data.memory.usage.usage <<< "$output")" -gt 0 ]
	[ "$(jq .data.pids.current <<< "$output")" = 1 ]
	[ "$(jq .data.pids.limit <<< "$output")" = 42 ]
	[ "$(jq .data.cpu.usage.total <<< "$output")" -gt 0 ]
	run shim delete -f c1
	assert_success
	assert_nothing_left
}

@test "cgroup v1: a field v1 has no file for fails create, named, leaving nothing" {
	setup_bundle true
	update_config '.linux.resources.unified = {"memory.high": "50000000"}'
	run shim run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.resources.unified.memory.high: not supported on a cgroup v1 host"
	assert_nothing_left
}

@test "cgroup v1: update --cpu-rt-period and --cpu-rt-runtime write the real-time files, as runc" {
	setup_bundle sleep 1000
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	local cpu
	cpu=$(dirname "$(ls -d /sys/fs/cgroup/cpu*/c1/cpu.shares | head -n 1)")
	[ -e "$cpu/cpu.rt_period_us" ] || skip "no real-time group scheduling (CONFIG_RT_GROUP_SCHED)"
	shim update --cpu-rt-period 900000 --cpu-rt-runtime 1000 c1
	[ "$(cat "$cpu/cpu.rt_period_us")" = 900000 ]
	[ "$(cat "$cpu/cpu.rt_runtime_us")" = 1000 ]
	run shim delete -f c1
	assert_nothing_left
}

@test "cgroup v1: update below a parent with a CPU quota writes quota and period in an order the kernel takes" {
	setup_bundle sleep 1000
	local parent=quota-$$ cpu h
	cpu=$(dirname "$(ls -d /sys/fs/cgroup/cpu*/cpu.shares | head -n 1)")
	mkdir "$cpu/$parent"
	echo 100000 > "$cpu/$parent/cpu.cfs_period_us"
	echo 50000 > "$cpu/$parent/cpu.cfs_quota_us"
	update_config --arg p "/$parent/c1" '.linux.cgroupsPath = $p |
		.linux.resources.cpu = {"quota": 50000, "period": 100000}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	# period first would be refused: the old quota over the new period is
	# more than the parent allows
	run shim update --cpu-quota 25000 --cpu-period 50000 c1
	local q p
	q=$(cat "$cpu/$parent/c1/cpu.cfs_quota_us") p=$(cat "$cpu/$parent/c1/cpu.cfs_period_us")
	shim delete -f c1
	# the parent folders create made in the other hierarchies, and ours
	for h in /sys/fs/cgroup/*/; do [ ! -d "$h$parent" ] || rmdir "$h$parent"; done
	assert_success
	[ "$q $p" = "25000 50000" ]
	assert_nothing_left
}

@test "cgroup v1: update --cpu-period alone keeps the quota, as runc" {
	setup_bundle sleep 1000
	update_config '.linux.resources.cpu = {"quota": 50000, "period": 100000}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	local cpu
	cpu=$(dirname "$(ls -d /sys/fs/cgroup/cpu*/c1/cpu.shares | head -n 1)")
	shim update --cpu-period 200000 c1
	[ "$(cat "$cpu/cpu.cfs_quota_us") $(cat "$cpu/cpu.cfs_period_us")" = "50000 200000" ]
	run shim delete -f c1
	assert_nothing_left
}
