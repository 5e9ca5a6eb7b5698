#!/usr/bin/env bats
# host: yes
# What config.json asks for is what the container gets.

load helpers

setup() {
	require_guest
}

# Run the container with these process.args and expect this output.
run_outputs() {
	local want=$1
	shift
	setup_bundle "$@"
	[ -z "${CONFIG_EDIT:-}" ] || update_config "$CONFIG_EDIT"
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "$want"
}

@test "the init is PID 1 of a new PID namespace" {
	run_outputs 1 sh -c 'echo $$'
}

@test "hostname is set in the new UTS namespace" {
	CONFIG_EDIT='.hostname = "box"' run_outputs box hostname
}

@test "env and cwd are applied" {
	CONFIG_EDIT='.process.env += ["FOO=bar"] | .process.cwd = "/tmp"' \
		run_outputs "bar /tmp" sh -c 'echo $FOO $(pwd)'
}

@test "a missing cwd is created" {
	CONFIG_EDIT='.process.cwd = "/work/here"' run_outputs /work/here pwd
}

@test "HOME comes from the container's /etc/passwd" {
	run_outputs /root sh -c 'echo $HOME'
}

@test "user uid, gid and additionalGids are applied" {
	CONFIG_EDIT='.process.user = {"uid": 1000, "gid": 1001, "additionalGids": [1002, 1003]}' \
		run_outputs "1000 1001 1001 1002 1003" sh -c 'echo $(id -u) $(id -g) $(id -G)'
}

@test "umask is applied" {
	CONFIG_EDIT='.process.user.umask = 63' run_outputs 0077 sh -c 'umask'
}

@test "rlimits are applied" {
	CONFIG_EDIT='.process.rlimits = [{"type": "RLIMIT_NOFILE", "soft": 512, "hard": 800}]' \
		run_outputs "512 800" sh -c 'echo $(ulimit -n) $(ulimit -Hn)'
}

@test "noNewPrivileges is applied" {
	run_outputs "NoNewPrivs:	1" sh -c 'grep NoNewPrivs /proc/self/status'
}

@test "a read-only root cannot be written" {
	setup_bundle sh -c 'touch /x 2>&1; true'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output_has "Read-only file system"
}

@test "a writable root can be written when root.readonly is false" {
	CONFIG_EDIT='.root.readonly = false' run_outputs ok sh -c 'touch /x && echo ok'
}

@test "maskedPaths hide files and folders" {
	# /proc/kcore where the kernel has it, else another masked file
	run_outputs "0 0" sh -c 'f=/proc/kcore; [ -e $f ] || f=/proc/timer_list
		echo $(wc -c < $f) $(ls /sys/firmware | wc -l)'
}

@test "readonlyPaths cannot be written" {
	setup_bundle sh -c 'echo x > /proc/sys/kernel/hostname 2>&1; true'
	run shim run -b "$BUNDLE" c1
	assert_output_has "Read-only file system"
}

@test "/dev has the default devices and a devpts" {
	run_outputs "c c c c c c devpts" sh -c \
		'for d in null zero full random urandom tty; do [ -c /dev/$d ] && printf "c "; done; grep -o "^devpts /dev/pts devpts" /proc/mounts | cut -d" " -f3'
}

@test "/dev/null discards and /dev/zero reads zeros" {
	run_outputs "0" sh -c 'echo x > /dev/null && head -c 4 /dev/zero | tr -d "\\0" | wc -c'
}

@test "the default mounts are there with their options" {
	local cgroup="cgroup2 ro"
	# on a cgroup v1 host "cgroup" is runc's read-only tmpfs of hierarchies
	[ -e /sys/fs/cgroup/cgroup.controllers ] || cgroup="tmpfs ro"
	run_outputs "proc sysfs ro $cgroup" sh -c \
		'awk "\$2==\"/proc\"{a=\$3} \$2==\"/sys\"{b=\$3\" \"substr(\$4,1,2)} \$2==\"/sys/fs/cgroup\"{c=\$3\" \"substr(\$4,1,2)} END{print a, b, c}" /proc/mounts'
}

@test "a bind mount shows the host folder, read-only when asked" {
	mkdir -p "$BATS_TEST_TMPDIR/share"
	echo shared > "$BATS_TEST_TMPDIR/share/file"
	setup_bundle sh -c 'cat /mnt/share/file; echo y > /mnt/share/new 2>&1; true'
	update_config --arg src "$BATS_TEST_TMPDIR/share" \
		'.mounts += [{"destination": "/mnt/share", "type": "bind", "source": $src, "options": ["rbind", "ro"]}]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output_has shared
	assert_output_has "Read-only file system"
	[ ! -e "$BATS_TEST_TMPDIR/share/new" ]
}

@test "a bind mount of a file creates its target" {
	echo one-file > "$BATS_TEST_TMPDIR/f"
	CONFIG_EDIT=".mounts += [{\"destination\": \"/etc/extra/f\", \"type\": \"bind\", \"source\": \"$BATS_TEST_TMPDIR/f\", \"options\": [\"bind\"]}]" \
		run_outputs one-file cat /etc/extra/f
}

@test "a mount target through a symlink stays inside the rootfs" {
	setup_bundle sh -c 'ls /escape'
	ln -s /../../../../.. "$BUNDLE/rootfs/escape"
	update_config '.mounts += [{"destination": "/escape/pwned", "type": "tmpfs", "source": "tmpfs"}]'
	run shim run -b "$BUNDLE" c1
	assert_success
	[ ! -e /pwned ]
	[ -d "$BUNDLE/rootfs/pwned" ]
}

@test "a namespace joined by path is shared with its owner" {
	setup_bundle sleep 100
	shim_detached run -d -b "$BUNDLE" owner
	pid=$(shim state owner | jq .pid)
	want=$(readlink "/proc/$pid/ns/net")
	cp -r "$BUNDLE" "$BATS_TEST_TMPDIR/b2"
	BUNDLE=$BATS_TEST_TMPDIR/b2
	update_config --arg p "/proc/$pid/ns/net" \
		'.process.args = ["readlink", "/proc/self/ns/net"] | (.linux.namespaces[] | select(.type == "network")).path = $p'
	run shim run -b "$BUNDLE" c2
	assert_success
	assert_output "$want"
}

@test "mounts reach neither the host nor other containers" {
	setup_bundle sleep 100
	shim_detached run -d -b "$BUNDLE" c1
	[ "$(wc -l < /proc/self/mountinfo)" -eq "$MOUNTS_BEFORE" ]
}

@test "process.capabilities limit the container's root to those sets" {
	# runc's default: CAP_KILL (5), CAP_NET_BIND_SERVICE (10), CAP_AUDIT_WRITE (29)
	run_outputs "0000000020000420 0000000020000420" sh -c \
		'echo $(awk "/^CapEff/{print \$2}" /proc/self/status) $(awk "/^CapBnd/{print \$2}" /proc/self/status)'
}

@test "ambient capabilities reach a non-root process" {
	CONFIG_EDIT='.process.user = {"uid": 1000, "gid": 1000} | .process.capabilities.ambient = ["CAP_KILL"] | .process.capabilities.inheritable = ["CAP_KILL"]' \
		run_outputs "0000000000000020" sh -c 'awk "/^CapEff/{print \$2}" /proc/self/status'
}

@test "without process.capabilities root keeps its capabilities" {
	# the runtime's own bounding set: every one in the guest (a host's
	# root may lack some, CAP_SYS_RESOURCE on the build machine)
	local own
	own=$(awk '/^CapBnd/{print $2}' /proc/self/status)
	[ "$own" = 000001ffffffffff ] || [ -n "${SHIM_TESTS_ON_HOST:-}" ]
	CONFIG_EDIT='del(.process.capabilities)' \
		run_outputs "$own" sh -c 'awk "/^CapBnd/{print \$2}" /proc/self/status'
}

@test "linux.sysctl is written in the container's namespaces, not the host's" {
	local host
	host=$(cat /proc/sys/kernel/shmmni)
	CONFIG_EDIT='.linux.sysctl = {"kernel.shmmni": "1234"}' \
		run_outputs 1234 cat /proc/sys/kernel/shmmni
	[ "$(cat /proc/sys/kernel/shmmni)" = "$host" ]
}

@test "oomScoreAdj is applied" {
	CONFIG_EDIT='.process.oomScoreAdj = 500' run_outputs 500 cat /proc/self/oom_score_adj
}

@test "linux.timeOffsets shift boottime and monotonic in a new time namespace" {
	CONFIG_EDIT='.linux.namespaces += [{"type": "time"}] |
		.linux.timeOffsets = {"boottime": {"secs": 1000000, "nanosecs": 5},
		"monotonic": {"secs": 86400}}' \
		run_outputs "monotonic 86400 0
boottime 1000000 5" sh -c 'tr -s " " < /proc/self/timens_offsets'
	# /proc/uptime counts boottime: the offset is in it, the host's is not
	setup_bundle sh -c 'cut -d. -f1 /proc/uptime'
	update_config '.linux.namespaces += [{"type": "time"}] |
		.linux.timeOffsets = {"boottime": {"secs": 1000000}}'
	run shim run -b "$BUNDLE" c1
	assert_success
	[ "$output" -ge 1000000 ] && [ "$(cut -d. -f1 /proc/uptime)" -lt 1000000 ]
	assert_nothing_left
}

@test "exec joins the container's time namespace, offsets included" {
	setup_bundle sleep 1000
	update_config '.linux.namespaces += [{"type": "time"}] |
		.linux.timeOffsets = {"boottime": {"secs": 1000000}}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec c1 cut -d. -f1 /proc/uptime
	assert_success
	[ "$output" -ge 1000000 ]
}

@test "linux.timeOffsets without a new time namespace is refused, named" {
	setup_bundle true
	update_config '.linux.timeOffsets = {"boottime": {"secs": 1}}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.timeOffsets: needs a new time namespace in linux.namespaces"
	assert_nothing_left
}

# The guest has two NUMA nodes (tests/vm/run); a host with one skips.
require_two_numa_nodes() {
	[ -d /sys/devices/system/node/node1 ] && return 0
	[ -z "${SHIM_TESTS_ON_HOST:-}" ] || skip "one NUMA node here"
	echo "the guest has one NUMA node"
	false
}

@test "linux.memoryPolicy interleaves over the guest's two NUMA nodes" {
	require_two_numa_nodes
	CONFIG_EDIT='.linux.memoryPolicy = {"mode": "MPOL_INTERLEAVE", "nodes": "0-1"}' \
		run_outputs "interleave:0-1" sh -c 'head -1 /proc/self/numa_maps | cut -d" " -f2'
}

@test "linux.memoryPolicy binds to a node with its flags, for exec too" {
	require_two_numa_nodes
	setup_bundle sleep 1000
	update_config '.linux.memoryPolicy = {"mode": "MPOL_BIND", "nodes": "1",
		"flags": ["MPOL_F_STATIC_NODES"]}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	pid=$(shim state c1 | jq .pid)
	[ "$(head -1 /proc/$pid/numa_maps | cut -d' ' -f2)" = "bind=static:1" ]
	run shim exec c1 sh -c 'head -1 /proc/self/numa_maps | cut -d" " -f2'
	assert_success
	assert_output "bind=static:1"
}

@test "linux.memoryPolicy on a node the machine lacks fails create, named" {
	setup_bundle true
	update_config '.linux.memoryPolicy = {"mode": "MPOL_BIND", "nodes": "5"}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'linux.memoryPolicy: set_mempolicy(2, "5"): invalid argument'
	assert_nothing_left
}

@test "linux.intelRdt without a resctrl mount fails create, named, leaving nothing" {
	# TCG has no RDT: the guest can mount no resctrl (the group steps are
	# unit-tested on a folder laid out as resctrl's: test-resctrl)
	! grep -q " - resctrl " /proc/self/mountinfo
	setup_bundle true
	update_config '.linux.intelRdt = {"closID": "gold", "l3CacheSchema": "L3:0=f"}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.intelRdt: no resctrl filesystem is mounted here"
	assert_nothing_left
	run shim features
	[ "$(jq -c .linux.intelRdt <<< "$output")" = '{"enabled":false,"schemata":true,"monitoring":true}' ]
}
