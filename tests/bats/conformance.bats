#!/usr/bin/env bats
# host: yes
# What runc does that engines and users can tell (issue 13), one behaviour
# a test.

load helpers

setup() {
	require_guest
	setup_bundle true
}

@test "kill ID 0 is a liveness probe" {
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim kill c1 0
	assert_success
	shim kill c1 KILL
	wait_for_status c1 stopped
	run shim kill c1 0
	assert_failure
	assert_output_has "container not running"
}

@test "a tmpfs without mode= takes its folder's mode, special bits too; mode= wins" {
	chmod 'a=rwx,ug+s,+t' "$BUNDLE/rootfs/tmp"
	mode=$(stat -c %A "$BUNDLE/rootfs/tmp")
	update_config '.process.args = ["sh", "-c", "stat -c %A /tmp; stat -c %a /t2 /t3"] |
		.mounts += [{"destination": "/tmp", "type": "tmpfs", "source": "tmpfs",
			"options": ["nosuid", "nodev"]},
			{"destination": "/t2", "type": "tmpfs", "source": "tmpfs", "options": ["mode=0410"]},
			{"destination": "/t3", "type": "tmpfs", "source": "tmpfs"}]'
	mkdir -m 0710 "$BUNDLE/rootfs/t2"
	run shim run -b "$BUNDLE" c1
	assert_success
	# /t3 is made for it: the tmpfs's own 1777
	assert_output "$mode
410
1777"
}

@test "masked folders share one empty read-only tmpfs, as with runc" {
	mkdir "$BUNDLE/rootfs/m1" "$BUNDLE/rootfs/m2" "$BUNDLE/rootfs/m3"
	touch "$BUNDLE/rootfs/m1/secret"
	update_config '.linux.maskedPaths += ["/m1", "/m2", "/m3"] |
		.process.args = ["sh", "-c", "stat -c %d /m1 /m2 /m3 | uniq | wc -l; ls -A /m1 | wc -l; touch /m2/x 2>&1"]'
	run shim run -b "$BUNDLE" c1
	assert_failure
	assert_output "1
0
touch: /m2/x: Read-only file system"
}

@test "exec exits 255 on a runtime error, with the process's status otherwise" {
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec c1 sh -c 'exit 3'
	[ "$status" -eq 3 ]
	run shim exec --cwd relative c1 true
	[ "$status" -eq 255 ] || { show_run; false; }
	run shim exec nope true
	[ "$status" -eq 255 ] || { show_run; false; }
}

@test "--version, -v, --help and -h work anywhere among the global flags, -h after every command" {
	run "$SHIM_BIN" --root "$ROOT" --debug --version
	assert_success
	assert_output_has "shim version"
	run "$SHIM_BIN" --log-format json -v
	assert_output_has "shim version"
	run "$SHIM_BIN" --root "$ROOT" -h
	assert_success
	assert_output_has "commands:"
	for cmd in create start run state kill delete list exec pause resume update ps events spec unpack features; do
		run "$SHIM_BIN" "$cmd" -h
		[ "$status" -eq 0 ] || { echo "$cmd -h"; show_run; false; }
		assert_output_has "usage: shim $cmd"
	done
}

@test "domainname sets the NIS domain name in the container's UTS namespace" {
	local host
	host=$(cat /proc/sys/kernel/domainname)
	update_config '.domainname = "box.example" | .process.args = ["cat", "/proc/sys/kernel/domainname"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output box.example
	[ "$(cat /proc/sys/kernel/domainname)" = "$host" ]
}

@test "hooks without env inherit the runtime's environment" {
	update_config --arg out "$BATS_TEST_TMPDIR/hook.env" '.hooks.prestart = [{"path": "/bin/sh",
		"args": ["sh", "-c", "echo \"$SHIM_HOOK_PROBE\" > \($out)"]}]'
	SHIM_HOOK_PROBE=inherited run shim run -b "$BUNDLE" c1
	assert_success
	[ "$(cat "$BATS_TEST_TMPDIR/hook.env")" = inherited ]
}

@test "update reads limit flags given after the ID" {
	require_cgroup2
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim update c1 --memory 33554432
	assert_success
	local cg
	cg=$(cat "$ROOT/c1/cgroup")
	[ "$(cat "/sys/fs/cgroup$cg/memory.max")" = 33554432 ]
}

@test "ps of a stopped container prints an empty table" {
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	wait_for_status c1 stopped
	run shim ps --format json c1
	assert_success
	assert_output "[]"
	run shim ps c1
	assert_success
	[ "$(echo "$output" | wc -l)" -eq 1 ]
	assert_output_has PID
}

@test "linux.devices are made with their mode and owner, and allowed by the device rules" {
	# as with runc, a listed node is only made: the allow rule is the
	# config's (an engine adds one for each device it passes). A device
	# neither allowed nor in the default rules is refused (EPERM; allowed,
	# this minor with no driver would say ENXIO)
	mknod -m 666 "$BUNDLE/rootfs/unlisted" c 1 12
	update_config '.linux.devices = [
		{"path": "/dev/kmsg", "type": "c", "major": 1, "minor": 11, "fileMode": 438, "uid": 1000, "gid": 5},
		{"path": "/dev/net/tun", "type": "c", "major": 10, "minor": 200, "fileMode": 432}] |
		.linux.resources.devices += [{"allow": true, "type": "c", "major": 1, "minor": 11, "access": "rwm"}] |
		.process.args = ["sh", "-c", "stat -c \"%n %t:%T %a %u:%g\" /dev/kmsg /dev/net/tun;
			echo listed > /dev/kmsg && echo written; echo x > /unlisted || echo refused"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output_has "/dev/kmsg 1:b 666 1000:5
/dev/net/tun a:c8 660 0:0
written"
	assert_output_has "refused"
	[[ "$output" == *"Operation not permitted"* ]] || { show_run; false; }
}

@test "a linux.devices entry without a type is named" {
	update_config '.linux.devices = [{"path": "/dev/fuse", "major": 10, "minor": 229}]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.devices[0]: type: missing"
	assert_nothing_left
}

@test "unknown capability names are skipped with a warning naming them" {
	update_config '.process.capabilities.bounding += ["CAP_FROM_THE_FUTURE"] |
		.process.args = ["sh", "-c", "grep CapBnd /proc/self/status"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output_has 'process.capabilities.bounding[3] CAP_FROM_THE_FUTURE: unknown capability, skipped'
	assert_output_has "CapBnd:"
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c2
	run shim exec --cap CAP_NOPE c2 true
	assert_success
	assert_output_has "exec: --cap CAP_NOPE: unknown capability, skipped"
}

@test "run --keep leaves the container stopped, for a later delete" {
	run shim run --keep -b "$BUNDLE" c1
	assert_success
	[ "$(container_status c1)" = stopped ]
	run shim delete c1
	assert_success
	assert_nothing_left
}

@test "run --no-pivot chroots into the rootfs with the host's proc and sys detached" {
	update_config '.process.args = ["ls", "/"]'
	run shim --debug run --no-pivot -b "$BUNDLE" c1
	assert_success
	assert_output_has "init: --no-pivot: moving the rootfs onto / and chroot"
	assert_output_has "init: --no-pivot: the host's /proc detached"
	assert_output_has "init: --no-pivot: the host's /sys detached"
	[ "$(grep -v level= <<< "$output")" = "$(ls "$BUNDLE/rootfs")" ]
	assert_nothing_left
}

@test "run --no-pivot keeps the rootfs read-only and the masked paths masked" {
	update_config '.process.args = ["sh", "-c", "touch /x 2>/dev/null || echo ro; cat /proc/timer_list | wc -c"] |
		.root.readonly = true | .linux.maskedPaths = ["/proc/timer_list"]'
	run shim run --no-pivot -b "$BUNDLE" c1
	assert_success
	assert_output "ro
0"
	assert_nothing_left
}

@test "exec -p - and -p /dev/fd/N read the process from a pipe" {
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	local proc='{"args": ["echo", "from-a-pipe"], "cwd": "/", "user": {"uid": 0, "gid": 0}}'
	run sh -c "echo '$proc' | '$SHIM_BIN' --root '$ROOT' exec -p - c1"
	assert_success
	assert_output from-a-pipe
	run bash -c "'$SHIM_BIN' --root '$ROOT' exec -p /dev/fd/5 c1 5< <(echo '$proc')"
	assert_success
	assert_output from-a-pipe
}

@test "the pty belongs to process.user.uid, group tty, for run and exec -t" {
	update_config '.process.terminal = true | .process.user = {"uid": 1000, "gid": 1000} |
		.process.args = ["sh", "-c", "stat -c %u:%g $(tty)"]'
	run shim run -b "$BUNDLE" c1 < /dev/null
	assert_success
	assert_output "$(printf '1000:5\r')"
	update_config '.process.terminal = false | .process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c2
	assert_success
	run shim exec -t --user 1001:1001 c2 sh -c 'stat -c %u:%g $(tty)' < /dev/null
	assert_success
	assert_output "$(printf '1001:5\r')"
}

# dev_filled_then_readonly OPTION: /dev with OPTION has its nodes, links
# and mount points, and is read-only once the container runs.
dev_filled_then_readonly() {
	update_config --arg o "$1" '(.mounts[] | select(.destination == "/dev")).options += [$o] |
		.process.args = ["sh", "-c", "ls /dev/null /dev/pts/ptmx /dev/shm > /dev/null && echo filled; touch /dev/x 2>/dev/null || echo ro"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "filled
ro"
}

@test "a read-only /dev is filled first, then made read-only" {
	dev_filled_then_readonly ro
}

@test "a /dev asked rro is filled first, then made read-only too" {
	dev_filled_then_readonly rro
}

@test "atime and nostrictatime undo noatime and strictatime, as runc's options do" {
	update_config '.mounts += [
		{"destination": "/a", "type": "tmpfs", "source": "tmpfs", "options": ["noatime", "atime"]},
		{"destination": "/b", "type": "tmpfs", "source": "tmpfs", "options": ["strictatime", "nostrictatime"]},
		{"destination": "/c", "type": "tmpfs", "source": "tmpfs", "options": ["noatime", "iversion"]},
		{"destination": "/d", "type": "bind", "source": "/etc", "options": ["rbind", "rnoatime", "ratime", "rnorelatime"]}] |
		.process.args = ["sh", "-c", "for m in /a /b /c /d; do awk -v m=$m \"\\$5 == m { print m, \\$6 }\" /proc/self/mountinfo; done"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "/a rw,relatime
/b rw,relatime
/c rw,noatime
/d rw,relatime"
}

@test "a mount destination through a dangling symlink is made inside the rootfs" {
	ln -s /real/deep "$BUNDLE/rootfs/dangling"
	ln -s ../rel/x "$BUNDLE/rootfs/tmp/relative"
	update_config '.mounts += [{"destination": "/dangling/m", "type": "tmpfs", "source": "tmpfs"},
		{"destination": "/tmp/relative", "type": "tmpfs", "source": "tmpfs"}] |
		.process.args = ["sh", "-c", "grep -oE \" /(real|rel)[^ ]* \" /proc/mounts"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output " /real/deep/m 
 /rel/x "
	[ -d "$BUNDLE/rootfs/real/deep/m" ] && [ -d "$BUNDLE/rootfs/rel/x" ]
	[ ! -e /real ] && [ ! -e /rel ]
}

@test "a file bind onto a dangling symlink makes its target a file inside the rootfs" {
	echo content > "$BATS_TEST_TMPDIR/source"
	ln -s /real/file "$BUNDLE/rootfs/linked"
	update_config --arg s "$BATS_TEST_TMPDIR/source" \
		'.mounts += [{"destination": "/linked", "type": "bind", "source": $s, "options": ["bind"]}] |
		.process.args = ["cat", "/real/file"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "content"
	[ -f "$BUNDLE/rootfs/real/file" ] && [ -L "$BUNDLE/rootfs/linked" ] && [ ! -e /real ]
}

# tmpfs_at DIR OPTIONS-JSON ARGS...: a tmpfs on DIR with those options, running ARGS.
tmpfs_at() {
	local args a
	args=$(for a in "${@:3}"; do jq -n --arg a "$a" '$a'; done | jq -sc .)
	update_config --arg d "$1" --argjson o "$2" --argjson a "$args" \
		'.mounts += [{"destination": $d, "type": "tmpfs", "source": "tmpfs", "options": $o}] |
		.process.args = $a'
}

@test "tmpcopyup fills the tmpfs with the folder's files, their modes and owners kept" {
	local r=$BUNDLE/rootfs
	mkdir -p "$r/dir1/dir2"
	chmod 777 "$r/dir1/dir2"
	echo kept > "$r/dir1/file"
	chown 123:456 "$r/dir1/file"
	chmod 4755 "$r/dir1/file"
	ln -s /etc/passwd "$r/dir1/link"
	mkfifo -m 0640 "$r/dir1/fifo"
	umask 022
	tmpfs_at /dir1 '["tmpcopyup"]' sh -c 'stat -c "%A %u %g %n" /dir1/dir2 /dir1/file /dir1/fifo &&
readlink /dir1/link && cat /dir1/file && touch /dir1/new && grep -c "^tmpfs /dir1 " /proc/mounts'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "drwxrwxrwx 0 0 /dir1/dir2
-rwsr-xr-x 123 456 /dir1/file
prw-r----- 0 0 /dir1/fifo
/etc/passwd
kept
1"
	[ ! -e "$r/dir1/new" ]
}

@test "a read-only tmpcopyup tmpfs is filled first, then read-only" {
	mkdir -p "$BUNDLE/rootfs/dir1"
	echo kept > "$BUNDLE/rootfs/dir1/file"
	tmpfs_at /dir1 '["tmpcopyup", "ro"]' sh -c 'cat /dir1/file; touch /dir1/new 2>/dev/null || echo refused'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "kept
refused"
}

@test "tmpcopyup copies from inside the rootfs, never through a link out of it" {
	mkdir -p "$BATS_TEST_TMPDIR/host"
	echo secret > "$BATS_TEST_TMPDIR/host/secret"
	ln -s "$BATS_TEST_TMPDIR/host" "$BUNDLE/rootfs/dir1"
	tmpfs_at /dir1 '["tmpcopyup"]' ls -A /dir1/
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output ""
}

@test "tmpcopyup on anything but a tmpfs is refused by name" {
	update_config --arg s "$BATS_TEST_TMPDIR" '.mounts += [{"destination": "/b", "source": $s,
		"options": ["rbind", "tmpcopyup"]}]'
	shim_detached run -b "$BUNDLE" c1
	assert_failure
	assert_output_has '(/b): options[1]: "tmpcopyup" is for a tmpfs only'
	assert_nothing_left
}

@test "--debug logs each stage, to stderr or to --log as JSON" {
	update_config '.linux.sysctl = {"kernel.shmmni": "99"}'
	run shim --debug run -b "$BUNDLE" c1
	assert_success
	local stage
	for stage in "create c1: bundle" "cgroup " "init cloned: pid" "init: mounts[0]: proc on /proc" \
		"init: mounts[1]: tmpfs on /dev" "pivot_root" "linux.sysctl kernel.shmmni = 99" \
		"the program is /bin/true" "maskedPaths" "ready" "state.json written" "start c1" \
		"exec /bin/true" "delete c1"; do
		assert_output_has "$stage"
	done
	run shim --debug --log "$BATS_TEST_TMPDIR/log" --log-format json run -b "$BUNDLE" c2
	assert_success
	run jq -r 'select(.level == "debug") | .msg' "$BATS_TEST_TMPDIR/log"
	assert_output_has "init: mounts[0]: proc on /proc"
	assert_output_has "exec /bin/true"
}

@test "create into a frozen cgroup fails at once, naming it, and leaves nothing" {
	require_cgroup2
	local parent=/sys/fs/cgroup/frozen-$$
	mkdir "$parent"
	echo 1 > "$parent/cgroup.freeze"
	update_config --arg p "/frozen-$$/c1" '.linux.cgroupsPath = $p'
	run timeout 60 "$SHIM_BIN" --root "$ROOT" run -d -b "$BUNDLE" c1 < /dev/null 3>&-
	local removed=no
	rmdir "$parent" && removed=yes	# fails if c1 was left in it
	[ "$status" -ne 124 ] || { echo "run -d hung"; false; }
	assert_failure
	assert_output_has "linux.cgroupsPath: container's cgroup unexpectedly frozen: cgroup.freeze 1 in /sys/fs/cgroup/frozen-$$/c1"
	[ "$removed" = yes ]
	assert_nothing_left
}

@test "delete -f removes the cgroups the container made below its own" {
	require_cgroup2
	update_config '(.mounts[] | select(.destination == "/sys/fs/cgroup")).options -= ["ro"] |
		.process.args = ["sh", "-c", "mkdir -p /sys/fs/cgroup/sub/deeper && echo $$ > /sys/fs/cgroup/sub/deeper/cgroup.procs && exec sleep 1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	retry 50 0.1 test -d "/sys/fs/cgroup/$(cat "$ROOT/c1/cgroup")/sub/deeper"
	run shim delete -f c1
	assert_success
	assert_nothing_left
}

@test "delete removes a stopped container's cgroup with the empty folders made below it" {
	require_cgroup2
	update_config '(.mounts[] | select(.destination == "/sys/fs/cgroup")).options -= ["ro"] |
		.process.args = ["mkdir", "-p", "/sys/fs/cgroup/sub/deeper"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	wait_for_status c1 stopped
	local cg
	cg=/sys/fs/cgroup$(cat "$ROOT/c1/cgroup")
	[ -d "$cg/sub/deeper" ]
	run shim delete c1
	assert_success
	[ ! -e "$cg" ]
	assert_nothing_left
}

@test "delete removes an emptied container's cgroup" {
	require_cgroup2
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	wait_for_status c1 stopped
	local cg
	cg=/sys/fs/cgroup$(cat "$ROOT/c1/cgroup")
	grep -qx "populated 0" "$cg/cgroup.events"
	run shim delete c1
	assert_success
	[ ! -e "$cg" ]
	assert_nothing_left
}

@test "features names libseccomp's version, and no config annotation can change shim" {
	run shim features
	assert_success
	[ "$(jq -r '.annotations["io.github.seccomp.libseccomp.version"]' <<< "$output")" = \
		"$(dpkg-query -W -f='${Version}' libseccomp2 | cut -d- -f1)" ]
	[ "$(jq -c .potentiallyUnsafeConfigAnnotations <<< "$output")" = "[]" ]
	[ "$(jq -c '[.linux.intelRdt.enabled, .linux.selinux.enabled]' <<< "$output")" = "[false,false]" ]
}

@test "features says runtime-spec 1.3.0 with its members: intelRdt schemata and monitoring, memoryPolicy" {
	run "$SHIM_BIN" features
	assert_success
	[ "$(jq -r .ociVersionMax <<< "$output")" = 1.3.0 ]
	[ "$(jq -c '.linux.intelRdt | [.schemata, .monitoring]' <<< "$output")" = "[true,true]" ]
	[ "$(jq -c .linux.memoryPolicy.modes <<< "$output")" = \
		'["MPOL_DEFAULT","MPOL_PREFERRED","MPOL_BIND","MPOL_INTERLEAVE","MPOL_LOCAL","MPOL_PREFERRED_MANY","MPOL_WEIGHTED_INTERLEAVE"]' ]
	[ "$(jq -c .linux.memoryPolicy.flags <<< "$output")" = \
		'["MPOL_F_NUMA_BALANCING","MPOL_F_RELATIVE_NODES","MPOL_F_STATIC_NODES"]' ]
}

@test "linux.intelRdt.schemata is an array of lines (1.3): a string is refused, named" {
	setup_bundle true
	update_config '.linux.intelRdt = {"schemata": "L3:0=f"}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.intelRdt.schemata"
	assert_nothing_left
}

@test "linux.intelRdt.enableMonitoring without a resctrl mount fails create, named" {
	! grep -q " - resctrl " /proc/self/mountinfo || skip "resctrl is mounted here"
	setup_bundle true
	update_config '.linux.intelRdt = {"enableMonitoring": true}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.intelRdt: no resctrl filesystem is mounted here"
	assert_nothing_left
}

@test "features lists capabilities, seccomp actions, operators and archs, recursive mount options" {
	run "$SHIM_BIN" features
	assert_success
	[ "$(jq '.linux.capabilities | index("CAP_CHECKPOINT_RESTORE") != null' <<< "$output")" = true ]
	[ "$(jq '.linux.seccomp.actions | index("SCMP_ACT_NOTIFY") != null' <<< "$output")" = true ]
	[ "$(jq '.linux.seccomp.operators | length' <<< "$output")" = 7 ]
	[ "$(jq '.linux.seccomp.archs | index("SCMP_ARCH_X86_64") != null' <<< "$output")" = true ]
	[ "$(jq '[.mountOptions[] | select(. == "rro" or . == "rnosymfollow" or . == "nosymfollow")] | length' <<< "$output")" = 3 ]
}

@test "exec into a paused container is refused, or with --ignore-paused runs once resumed" {
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	shim pause c1
	run shim exec c1 true
	assert_failure
	assert_output_has "cannot exec in a paused container c1 (--ignore-paused"
	"$SHIM_BIN" --root "$ROOT" exec --ignore-paused c1 sh -c 'echo ran > /dev/shm/mark' 3>&- &
	local execer=$!
	sleep 1
	# frozen with the rest of the container until resume
	[ ! -e "/proc/$(shim state c1 | jq .pid)/root/dev/shm/mark" ]
	shim resume c1
	wait "$execer"
	[ "$(cat "/proc/$(shim state c1 | jq .pid)/root/dev/shm/mark")" = ran ]
}

@test "exec --cgroup puts the process into a cgroup below the container's" {
	require_cgroup2
	update_config '(.mounts[] | select(.destination == "/sys/fs/cgroup")).options -= ["ro"] |
		.process.args = ["sh", "-c", "mkdir /sys/fs/cgroup/init /sys/fs/cgroup/side && echo $$ > /sys/fs/cgroup/init/cgroup.procs && exec sleep 1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	local cg=/sys/fs/cgroup$(cat "$ROOT/c1/cgroup")
	retry 50 0.1 test -d "$cg/side"
	run shim exec --cgroup /side c1 cat /proc/self/cgroup
	assert_success
	assert_output "0::/side"
	run shim exec --cgroup /../.. c1 true
	assert_failure
	assert_output_has "exec --cgroup /../..: bad sub cgroup path: it leads out of the container's cgroup"
	run shim exec --cgroup nonexistent c1 true
	assert_failure
	assert_output_has "exec --cgroup nonexistent: adding pid to cgroups: opening nonexistent below the container's cgroup: no such file or directory"
}

@test "exec falls back to the init's cgroup when the container's has controllers on" {
	require_cgroup2
	update_config '(.mounts[] | select(.destination == "/sys/fs/cgroup")).options -= ["ro"] |
		.process.args = ["sh", "-c", "mkdir /sys/fs/cgroup/init && echo $$ > /sys/fs/cgroup/init/cgroup.procs && echo +pids > /sys/fs/cgroup/cgroup.subtree_control && exec sleep 1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	local cg=/sys/fs/cgroup$(cat "$ROOT/c1/cgroup")
	retry 50 0.1 grep -q pids "$cg/cgroup.subtree_control"
	run shim exec c1 cat /proc/self/cgroup
	assert_success
	assert_output "0::/init"
	# an explicit --cgroup / is not moved elsewhere
	run shim exec --cgroup / c1 true
	assert_failure
	assert_output_has "exec --cgroup /: adding pid to cgroups: "
	assert_output_has "device or resource busy"
}

@test "an RLIMIT_NOFILE above the hard maximum fails create, naming it, and leaves nothing" {
	update_config '.process.rlimits = [{"type": "RLIMIT_NOFILE", "hard": 2000000000, "soft": 2000000000}]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "process.rlimits[0]: setrlimit"
	assert_nothing_left
}

@test "each container gets a session keyring of its own; --no-new-keyring keeps the caller's" {
	cp "$PAYLOAD/keyring-id" "$BUNDLE/rootfs/bin/"
	update_config '.process.args = ["keyring-id"]'
	local ours a b
	ours=$("$PAYLOAD/keyring-id")
	a=$(shim run -b "$BUNDLE" c1)
	b=$(shim run -b "$BUNDLE" c2)
	[ -n "$a" ] && [ "$a" != 0 ] && [ "$a" != "$ours" ] && [ "$a" != "$b" ] ||
		{ echo "ours $ours, c1 $a, c2 $b"; false; }
	run shim run --no-new-keyring -b "$BUNDLE" c3
	assert_success
	assert_output "$ours"
}

# linux.namespaces without a mount namespace, and nothing that would mount.
no_mount_ns() {
	update_config 'del(.linux.namespaces[] | select(.type == "mount")) | .mounts = [] |
		.linux.maskedPaths = [] | .linux.readonlyPaths = [] | .root.readonly = false'
}

@test "without a mount namespace the container runs in the runtime's, chrooted in root.path" {
	local pid
	no_mount_ns
	echo rootfs > "$BUNDLE/rootfs/marker"
	update_config '.process.args = ["/bin/sh", "-c", "cat /marker; pwd; sleep 1000"] | .process.cwd = "/tmp"'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	pid=$(shim state c1 | jq .pid)
	[ "$(readlink /proc/$pid/ns/mnt)" = "$(readlink /proc/self/ns/mnt)" ]
	[ "$(readlink /proc/$pid/root)" = "$(realpath "$BUNDLE/rootfs")" ]
	# exec'd processes go where the init is
	run shim exec c1 cat /marker
	assert_output rootfs
	run shim delete -f c1
	# a process.cwd missing there is named, made nowhere
	update_config '.process.cwd = "/no-such-folder-here" | .process.args = ["true"]'
	run shim run -b "$BUNDLE" c2
	assert_failure
	assert_output_has "process.cwd /no-such-folder-here"
	[ ! -e /no-such-folder-here ] && [ ! -e "$BUNDLE/rootfs/no-such-folder-here" ]
	assert_nothing_left
}

@test "without a mount namespace, masked paths and a user namespace's mounts are refused by name" {
	update_config 'del(.linux.namespaces[] | select(.type == "mount"))'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.maskedPaths: linux.namespaces has no mount namespace"
	no_mount_ns
	update_config '.linux.readonlyPaths = ["/proc/sys"]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.readonlyPaths: linux.namespaces has no mount namespace"
	no_mount_ns
	update_config '.mounts = [{"destination": "/proc", "type": "proc", "source": "proc"}] |
		.linux.namespaces += [{"type": "user"}] |
		.linux.uidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}] |
		.linux.gidMappings = .linux.uidMappings'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "mounts[0] (/proc): linux.namespaces has no mount namespace, and a user namespace's root may not mount in the runtime's"
	assert_nothing_left
}

# The mounts below $1 in our (the runtime's) mount table.
mounts_below() {
	awk -v r="$1/" 'index($5, r) == 1' /proc/self/mountinfo | wc -l
}

@test "without a mount namespace the config's mounts are made below root.path, and go at delete" {
	local root
	root=$(realpath "$BUNDLE/rootfs")
	mkdir -p "$BATS_TEST_TMPDIR/shared"
	echo from-the-host > "$BATS_TEST_TMPDIR/shared/f"
	update_config --arg s "$BATS_TEST_TMPDIR/shared" \
		'del(.linux.namespaces[] | select(.type == "mount")) |
		.linux.maskedPaths = [] | .linux.readonlyPaths = [] | .root.readonly = false |
		.mounts += [{"destination": "/srv", "type": "bind", "source": $s, "options": ["rbind", "ro"]}] |
		.process.args = ["sleep", "1000"]'
	[ "$(mounts_below "$root")" = 0 ]
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	# the default spec's seven and the bind, in the host's table
	[ "$(mounts_below "$root")" -ge 8 ]
	run shim exec c1 sh -c 'cat /srv/f; echo > /srv/f || echo read-only; cat /proc/1/comm; ls /dev/null'
	assert_output "from-the-host
sh: can't create /srv/f: Read-only file system
read-only
sleep
/dev/null"
	run shim delete -f c1
	assert_success
	[ "$(mounts_below "$root")" = 0 ]
	[ "$(cat "$BATS_TEST_TMPDIR/shared/f")" = from-the-host ]
	assert_nothing_left
}

@test "without a mount namespace a create whose mount fails leaves none of its mounts" {
	local root
	root=$(realpath "$BUNDLE/rootfs")
	update_config 'del(.linux.namespaces[] | select(.type == "mount")) |
		.linux.maskedPaths = [] | .linux.readonlyPaths = [] | .root.readonly = false |
		.mounts += [{"destination": "/srv", "type": "bind", "source": "/no/such/source",
			"options": ["rbind"]}]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "/no/such/source"
	[ "$(mounts_below "$root")" = 0 ]
	assert_nothing_left
	# run in the foreground: gone when it returns
	update_config '.mounts |= map(select(.destination != "/srv")) | .process.args = ["true"]'
	run shim run -b "$BUNDLE" c2
	assert_success
	[ "$(mounts_below "$root")" = 0 ]
	assert_nothing_left
}

@test "process.ioPriority and execCPUAffinity apply to run and exec" {
	update_config '.process.ioPriority = {"class": "IOPRIO_CLASS_BE", "priority": 6} |
		.process.execCPUAffinity = {"initial": "0", "final": "1"} |
		.process.args = ["sh", "-c", "ionice -p $$; taskset -p $$ | cut -d: -f2"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "best-effort: prio 6
 2"
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c2
	assert_success
	run shim exec c2 sh -c 'ionice -p $$; taskset -p $$ | cut -d: -f2'
	assert_output "best-effort: prio 6
 2"
}

@test "a bad ioPriority class or CPU list is named" {
	update_config '.process.ioPriority = {"class": "IOPRIO_CLASS_FAST", "priority": 1}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'process.ioPriority.class: "IOPRIO_CLASS_FAST" is not IOPRIO_CLASS_RT'
	update_config 'del(.process.ioPriority) | .process.execCPUAffinity = {"final": "3-1"}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'process.execCPUAffinity.final: "3-1" is not a CPU list'
	assert_nothing_left
}

@test "linux.resources.rdma is written to rdma.max; a device the host lacks is named" {
	require_cgroup2
	update_config '.linux.resources.rdma = {"mlx5_1": {"hcaHandles": 3, "hcaObjects": 10000}}'
	shim_detached create -b "$BUNDLE" c1
	# no RDMA device in the guest: the kernel refuses the line, by name
	assert_failure
	assert_output_has 'linux.resources.rdma.mlx5_1'
	assert_output_has 'rdma.max'
	assert_nothing_left
}

@test "process.scheduler sets the policy and nice value; a bad policy is named" {
	update_config '.process.scheduler = {"policy": "SCHED_BATCH", "nice": 5} |
		.process.args = ["sh", "-c", "cut -d\" \" -f19,41 /proc/self/stat"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "5 3"
	update_config '.process.scheduler = {"policy": "SCHED_FASTEST"}'
	shim_detached create -b "$BUNDLE" c2
	assert_failure
	assert_output_has 'process.scheduler.policy: unknown policy "SCHED_FASTEST"'
	assert_nothing_left
}

@test "a new network namespace has its loopback up: 127.0.0.1 and ::1 answer, as with runc" {
	update_config '.process.args = ["sh", "-c", "cat /sys/class/net/lo/flags;
		nc -l -p 7001 > /dev/shm/v4 & nc -l -p 7002 > /dev/shm/v6 & sleep 0.5;
		echo four | nc -w 2 127.0.0.1 7001; echo six | nc -w 2 ::1 7002; wait;
		cat /dev/shm/v4 /dev/shm/v6"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output $'0x9\nfour\nsix'
	assert_nothing_left
}

@test "a network namespace joined by path is left as the engine made it" {
	# a namespace held by a process, not by a mount: lo down, as made
	unshare --net sleep 1000 &
	local holder=$!
	sleep 0.5
	update_config --arg ns "/proc/$holder/ns/net" '.process.args = ["cat", "/sys/class/net/lo/flags"] |
		.linux.namespaces |= map(if .type == "network" then .path = $ns else . end)'
	run shim run -b "$BUNDLE" c1
	kill "$holder"
	assert_success
	assert_output "0x8"
	assert_nothing_left
}

@test "filesystem data on a bind mount is ignored and logged, as runc and crun mount it" {
	mkdir -p "$BATS_TEST_TMPDIR/src"
	echo bound > "$BATS_TEST_TMPDIR/src/f"
	update_config --arg s "$BATS_TEST_TMPDIR/src" '.mounts += [{"destination": "/mnt",
		"type": "bind", "source": $s, "options": ["rbind", "mode=755", "size=1k"]}] |
		.process.args = ["cat", "/mnt/f"]'
	run shim --debug run -b "$BUNDLE" c1
	assert_success
	assert_output_has bound
	assert_output_has '.options[1]: \"mode=755\" ignored: a bind mount takes no data'
	assert_nothing_left
}

# The runtime as a container engine runs it in docker-in-docker, kind or a
# CI runner: without CAP_SYS_RESOURCE.
shim_without_sys_resource() {
	run setpriv --bounding-set -sys_resource "$SHIM_BIN" --root "$ROOT" "$@"
}

@test "rlimits apply to a non-root process.user where the runtime lacks CAP_SYS_RESOURCE, as with runc" {
	update_config '.process.user = {"uid": 1000, "gid": 1000} |
		.process.rlimits = [{"type": "RLIMIT_NOFILE", "soft": 1024, "hard": 1024}] |
		.process.args = ["sh", "-c", "ulimit -n; ulimit -Hn; id -u"]'
	shim_without_sys_resource run -b "$BUNDLE" c1
	assert_success
	assert_output "1024
1024
1000"
	assert_nothing_left
}

@test "rlimits apply in a new user namespace where the runtime lacks CAP_SYS_RESOURCE" {
	update_config '.process.user = {"uid": 1000, "gid": 1000} |
		.process.rlimits = [{"type": "RLIMIT_NOFILE", "soft": 1024, "hard": 1024}] |
		.process.args = ["sh", "-c", "ulimit -n; id -u"] |
		.linux.namespaces += [{"type": "user"}] |
		.linux.uidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}] |
		.linux.gidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}]'
	chown -R 100000:100000 "$BUNDLE/rootfs"
	# bats makes its folders 0700: the container's root must reach it
	local d=$BUNDLE
	while [ "$d" != / ]; do chmod a+x "$d"; d=$(dirname "$d"); done
	shim_without_sys_resource run -b "$BUNDLE" c1
	assert_success
	assert_output "1024
1000"
	assert_nothing_left
}

@test "an rlimit the runtime may not raise fails create, named, leaving nothing" {
	local hard
	hard=$(setpriv --bounding-set -sys_resource sh -c 'ulimit -Hn')
	update_config --argjson h "$((hard + 1))" '.process.user = {"uid": 1000, "gid": 1000} |
		.process.rlimits = [{"type": "RLIMIT_NOFILE", "soft": 1024, "hard": $h}]'
	shim_without_sys_resource run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "process.rlimits[0]: setrlimit: operation not permitted"
	assert_nothing_left
}

# A caller's NOTIFY_SOCKET (what systemd gives a Type=notify unit): each
# datagram it gets goes to $NOTIFY_LOG as a line; it stops after MAINPID=
# or 60 s.
start_notify_listener() {
	NOTIFY_SOCK=$BATS_TEST_TMPDIR/notify.sock NOTIFY_LOG=$BATS_TEST_TMPDIR/notify.log
	python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(60)
with open(sys.argv[2], "w") as out:
    while True:
        d = s.recv(4096).decode()
        out.write(d.rstrip("\n") + "\n")
        out.flush()
        if d.startswith("MAINPID="):
            break' "$NOTIFY_SOCK" "$NOTIFY_LOG" 3>&- &
	NOTIFY_LISTENER=$!
	retry 50 0.1 test -S "$NOTIFY_SOCK"
	cp "$PAYLOAD/sd-notify" "$BUNDLE/rootfs/bin/"
}

@test "NOTIFY_SOCKET: run -d returns once the container says READY=1, its messages and MAINPID passed on" {
	start_notify_listener
	# what the config says of NOTIFY_SOCKET is replaced
	update_config '.process.env += ["NOTIFY_SOCKET=/elsewhere"] | .process.args = ["sh", "-c",
		"echo $NOTIFY_SOCKET > /dev/shm/env; sd-notify STATUS=starting; sleep 1; sd-notify READY=1; sleep 1000"]'
	NOTIFY_SOCKET=$NOTIFY_SOCK shim_detached run -d -b "$BUNDLE" c1
	assert_success
	wait "$NOTIFY_LISTENER"
	[ "$(cat "$NOTIFY_LOG")" = "$(printf 'STATUS=starting\nREADY=1\nMAINPID=%s' "$(shim state c1 | jq .pid)")" ]
	run shim exec c1 cat /dev/shm/env
	assert_output /run/notify/notify.sock
	run shim delete -f c1
	assert_nothing_left
}

@test "NOTIFY_SOCKET: create, then start waits for READY=1" {
	start_notify_listener
	update_config '.process.args = ["sh", "-c", "sd-notify READY=1; sleep 1000"]'
	NOTIFY_SOCKET=$NOTIFY_SOCK shim_detached create -b "$BUNDLE" c1
	assert_success
	NOTIFY_SOCKET=$NOTIFY_SOCK run shim start c1
	assert_success
	wait "$NOTIFY_LISTENER"
	[ "$(cat "$NOTIFY_LOG")" = "$(printf 'READY=1\nMAINPID=%s' "$(shim state c1 | jq .pid)")" ]
	run shim delete -f c1
	assert_nothing_left
}

@test "NOTIFY_SOCKET: start returns when the container exits without READY" {
	start_notify_listener
	update_config '.process.args = ["sh", "-c", "sd-notify STATUS=failing; exit 3"]'
	NOTIFY_SOCKET=$NOTIFY_SOCK shim_detached run -d -b "$BUNDLE" c1
	assert_success
	retry 50 0.1 grep -q STATUS=failing "$NOTIFY_LOG"
	kill "$NOTIFY_LISTENER"
	run shim delete -f c1
	assert_nothing_left
}
