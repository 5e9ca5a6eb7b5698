#!/usr/bin/env bats
# host: yes
# linux.seccomp (libseccomp) and linux.personality.

load helpers

setup() {
	require_guest
	setup_bundle true
}

# seccomp_rules JSON-ARRAY [DEFAULT-ACTION]: the profile's syscalls.
seccomp_rules() {
	update_config --argjson r "$1" --arg d "${2:-SCMP_ACT_ALLOW}" \
		'.linux.seccomp = {"defaultAction": $d, "syscalls": $r}'
}

@test "a denied syscall fails with the profile's errnoRet" {
	update_config '.process.args = ["sh", "-c", "mkdir /dev/x 2>&1; echo $?"]'
	seccomp_rules '[{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 38}]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "mkdir: can't create directory '/dev/x': Function not implemented
1"
}

@test "argument conditions: kill with signal 9 is denied, signal 0 is not" {
	update_config '.process.args = ["sh", "-c", "kill -0 $$ && echo zero ok; kill -9 $$ 2>/dev/null || echo nine denied"]'
	seccomp_rules '[{"names": ["kill"], "action": "SCMP_ACT_ERRNO",
		"args": [{"index": 1, "value": 9, "op": "SCMP_CMP_EQ"}]}]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "zero ok
nine denied"
}

@test "SCMP_ACT_KILL_PROCESS kills the process with SIGSYS" {
	update_config '.process.args = ["sh", "-c", "uname; echo not reached"]'
	seccomp_rules '[{"names": ["uname"], "action": "SCMP_ACT_KILL_PROCESS"}]'
	run shim run -b "$BUNDLE" c1
	[ "$status" -eq 159 ] || { show_run; false; }
	[[ "$output" != *"not reached"* ]]
}

@test "a filter loads without noNewPrivileges and leaves the bit unset" {
	update_config '.process.noNewPrivileges = false |
		.process.args = ["sh", "-c", "grep -E \"^(NoNewPrivs|Seccomp):\" /proc/self/status"]'
	seccomp_rules '[{"names": ["mkdir"], "action": "SCMP_ACT_ERRNO"}]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "NoNewPrivs:	0
Seccomp:	2"
}

# clean_fd_table_despite_profile NO-NEW-PRIVILEGES: the container's init
# has only 0, 1 and 2 under a profile forbidding close_range and unshare
# (without noNewPrivileges the filter loads at create, before the exec).
clean_fd_table_despite_profile() {
	update_config --argjson nnp "$1" '.process.noNewPrivileges = $nnp |
		.process.args = ["sh", "-c", "ls /proc/1/fd; true"]'
	seccomp_rules '[{"names": ["close_range", "unshare"], "action": "SCMP_ACT_ERRNO"}]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "$(printf '0\n1\n2')"
}

@test "a profile that forbids close_range and unshare still gets a clean fd table" {
	clean_fd_table_despite_profile true
}

@test "without noNewPrivileges, a profile that forbids close_range and unshare still gets a clean fd table" {
	clean_fd_table_despite_profile false
}

@test "a created container's init runs as process.user and holds no fd of the runtime's but exec.fifo" {
	update_config '.process.user = {"uid": 1000, "gid": 1000}'
	shim_detached --log "$BATS_TEST_TMPDIR/log" create -b "$BUNDLE" c1
	assert_success
	pid=$(shim state c1 | jq .pid)
	[ "$(awk '/^Uid:/ {print $2 $3 $4 $5}' "/proc/$pid/status")" = 1000100010001000 ]
	# 0-2, exec.fifo (O_PATH) and its own fd folder, to reopen the fifo:
	# not the --log file (kept only with --debug)
	run ls "/proc/$pid/fd"
	[ "$(wc -w <<< "$output")" = 5 ] || { show_run; false; }
	fifo=0 folder=0
	for fd in $output; do
		[ "$fd" -le 2 ] && continue
		link=$(readlink "/proc/$pid/fd/$fd")
		case $link in
		"$ROOT/c1/exec.fifo") fifo=$((fifo + 1)) ;;
		*/fd) folder=$((folder + 1)) ;;
		*) echo "fd $fd: $link"; false ;;
		esac
	done
	[ "$fifo$folder" = 11 ]
	shim delete -f c1
	assert_nothing_left
}

@test "exec'd processes run under the container's filter" {
	update_config '.process.args = ["sleep", "1000"]'
	seccomp_rules '[{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 38}]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec c1 sh -c 'mkdir /dev/y 2>&1'
	assert_output_has "Function not implemented"
}

@test "syscall names this machine does not know are skipped" {
	update_config '.process.args = ["sh", "-c", "echo fine"]'
	seccomp_rules '[{"names": ["no_such_syscall_at_all"], "action": "SCMP_ACT_ERRNO"}]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output fine
}

@test "a bad profile fails create naming the JSON path and leaves nothing" {
	seccomp_rules '[{"names": ["read"], "action": "SCMP_ACT_BOGUS"}]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'linux.seccomp.syscalls[0]: action: unknown action "SCMP_ACT_BOGUS"'
	assert_nothing_left
}

@test "an architecture libseccomp does not know fails create naming it" {
	update_config '.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_VAX"]}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'linux.seccomp.architectures: libseccomp does not know "vax"'
	assert_nothing_left
}

# What the static payload needs to start and print, all numbered below 335
# on x86_64 (rseq is 334): the highest syscall these profiles name.
STARTUP='["execve", "exit_group", "write", "brk", "arch_prctl", "set_tid_address",
	"set_robust_list", "rseq", "prlimit64", "mmap", "mprotect", "readlink",
	"getrandom", "newfstatat"]'

# enosys_profile DEFAULT-ACTION [EXTRA-NAMES]: allow STARTUP (+ extra).
enosys_profile() {
	cp "$PAYLOAD/syscall-errno" "$BUNDLE/rootfs/bin/"
	update_config --arg d "$1" --argjson s "$STARTUP" --argjson x "${2:-[]}" \
		'.process.args = ["syscall-errno", "435", "439", "300", "258"] |
		.linux.seccomp = {"defaultAction": $d,
		"architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"],
		"syscalls": [{"names": ($s + $x), "action": "SCMP_ACT_ALLOW"}]}'
}

@test "seccomp: syscalls newer than the profile get ENOSYS, older unnamed ones its errno" {
	enosys_profile SCMP_ACT_ERRNO
	run shim run -b "$BUNDLE" c1
	assert_success
	# clone3 (435) and faccessat2 (439) are newer than rseq (334)
	assert_output "435 ENOSYS
439 ENOSYS
300 EPERM
258 EPERM"
}

@test "seccomp: the ENOSYS threshold is the highest syscall the profile names" {
	enosys_profile SCMP_ACT_ERRNO '["epoll_pwait2"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	# epoll_pwait2 is 441: clone3 and faccessat2 are now below it, and denied
	assert_output "435 EPERM
439 EPERM
300 EPERM
258 EPERM"
}

@test "seccomp: a killing default action still answers ENOSYS above the profile" {
	enosys_profile SCMP_ACT_KILL_PROCESS
	update_config '.process.args = ["syscall-errno", "435", "439"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "435 ENOSYS
439 ENOSYS"
}

@test "seccomp: an allowing default action gets no ENOSYS stub" {
	enosys_profile SCMP_ACT_ALLOW
	update_config '.process.args = ["syscall-errno", "439"] |
		.linux.seccomp.syscalls = [{"names": ["mkdirat"], "action": "SCMP_ACT_ERRNO"}]'
	run shim run -b "$BUNDLE" c1
	assert_success
	# faccessat2 reached the kernel, which faulted on the NULL path
	assert_output "439 EFAULT"
}

@test "SCMP_ACT_NOTIFY hands the syscall to the agent at listenerPath, with the state" {
	SOCK=$BATS_TEST_TMPDIR/agent.sock
	"$PAYLOAD/seccomp-agent" "$SOCK" "$BATS_TEST_TMPDIR/agent.state" 18 3>&- &
	retry 50 0.1 test -S "$SOCK"
	update_config --arg s "$SOCK" '.process.args = ["sh", "-c", "mkdir /dev/x 2>&1; echo $?"] |
		.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW", "listenerPath": $s,
		"listenerMetadata": "for-the-agent",
		"syscalls": [{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_NOTIFY"}]}'
	run shim run -b "$BUNDLE" c1
	assert_success
	# the agent answered EXDEV (18)
	assert_output "mkdir: can't create directory '/dev/x': Invalid cross-device link
1"
	run jq -c '[.fds, .metadata, .state.id, .state.status, (.pid > 0)]' "$BATS_TEST_TMPDIR/agent.state"
	assert_output '[["seccompFd"],"for-the-agent","c1","creating",true]'
}

# Whether the agent started as $AGENT has exited (gone, or a zombie).
agent_gone() {
	local state
	read -r _ _ state _ < "/proc/$AGENT/stat" 2>/dev/null || return 0
	[ "$state" = Z ]
}

@test "SCMP_ACT_NOTIFY: exec's process goes to the agent too, with its own PID" {
	SOCK=$BATS_TEST_TMPDIR/agent.sock
	"$PAYLOAD/seccomp-agent" "$SOCK" "$BATS_TEST_TMPDIR/agent.state" 18 2 3>&- &
	AGENT=$!
	retry 50 0.1 test -S "$SOCK"
	update_config --arg s "$SOCK" '.process.args = ["sleep", "1000"] |
		.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW", "listenerPath": $s,
		"listenerMetadata": "for-the-agent",
		"syscalls": [{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_NOTIFY"}]}'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec --pid-file "$BATS_TEST_TMPDIR/exec.pid" c1 sh -c 'mkdir /tmp/x 2>&1; echo $?'
	assert_success
	# the agent answered EXDEV (18) for the exec'd process as well
	assert_output "mkdir: can't create directory '/tmp/x': Invalid cross-device link
1"
	run jq -c '[.fds, .metadata, .state.id, .state.status, .pid]' "$BATS_TEST_TMPDIR/agent.state.1"
	assert_output "[[\"seccompFd\"],\"for-the-agent\",\"c1\",\"running\",$(cat "$BATS_TEST_TMPDIR/exec.pid")]"
	shim delete -f c1
	# with both filters' processes gone, the agent is done
	retry 100 0.1 agent_gone
}

@test "SCMP_ACT_NOTIFY without a listenerPath, or with nobody listening, is refused" {
	seccomp_rules '[{"names": ["mkdir"], "action": "SCMP_ACT_NOTIFY"}]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.seccomp.listenerPath: SCMP_ACT_NOTIFY needs a seccomp agent here"
	update_config --arg s "$BATS_TEST_TMPDIR/none.sock" '.linux.seccomp.listenerPath = $s'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.seccomp.listenerPath: failed to connect with seccomp agent: connect $BATS_TEST_TMPDIR/none.sock"
	assert_nothing_left
}

@test "SCMP_ACT_NOTIFY for write or as the default action is refused, as runc does" {
	update_config '.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW", "listenerPath": "/a.sock",
		"syscalls": [{"names": ["write"], "action": "SCMP_ACT_NOTIFY"}]}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.seccomp.syscalls[0]: names[0]: SCMP_ACT_NOTIFY cannot be used for the write syscall"
	update_config '.linux.seccomp = {"defaultAction": "SCMP_ACT_NOTIFY", "listenerPath": "/a.sock"}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.seccomp.defaultAction: SCMP_ACT_NOTIFY cannot be used as default action"
	assert_nothing_left
}

@test "linux.personality LINUX32 makes uname report a 32-bit machine" {
	update_config '.process.args = ["uname", "-m"] | .linux.personality = {"domain": "LINUX32"}'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output i686
}

@test "an unknown personality domain is named" {
	update_config '.linux.personality = {"domain": "SVR4"}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'linux.personality.domain: must be "LINUX" or "LINUX32"'
	assert_nothing_left
}
