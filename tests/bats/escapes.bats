#!/usr/bin/env bats
# host: yes
# Attacks of the known runc/crun escape classes (issue 12), tried as a
# hostile image, config or container process would. Each test is named for
# the attack and checks the host side: the runtime binary's hash, a host
# knob, a host folder, a host process. The threat model is in
# docs/design.md ("Threat model").

load helpers

setup() {
	require_guest
	setup_bundle true
	MARKER=/tmp/escape-marker-$BATS_TEST_NUMBER-$$
}

teardown_escape() {
	rm -rf "$MARKER"
}

teardown() {
	default_teardown
	[ -z "${RO_BIN:-}" ] || umount -l "$RO_BIN" 2>/dev/null || true
}

# create/run must fail saying $1 and leave nothing behind.
fails_naming() {
	assert_failure
	assert_output_has "$1"
	assert_nothing_left
}

# --- 1. the runtime's fds through /proc/PID/fd (CVE-2016-9962 class) ---

# A container granted CAP_SYS_PTRACE (docker run --cap-add SYS_PTRACE)
# whose fd-thief tries every fd of every process that appears in its PID
# namespace, until /stop exists; its report is /report in the rootfs.
start_fd_thief() {
	cp "$PAYLOAD/fd-thief" "$BUNDLE/rootfs/bin/"
	mkdir -p "$MARKER"
	rm -f "$PWD/pwned" /pwned
	update_config --arg m "$MARKER/host-file" \
		'.root.readonly = false | .process.args = ["sh", "-c", "exec fd-thief \($m) /stop > /report 2>&1"] |
		.process.capabilities.bounding += ["CAP_SYS_PTRACE"] |
		.process.capabilities.effective += ["CAP_SYS_PTRACE"] |
		.process.capabilities.permitted += ["CAP_SYS_PTRACE"]'
	shim_detached run -d -b "$BUNDLE" thief
	assert_success
}

# Stop the thief: it saw fds of other processes, and made no file on the
# host side: no host file through "..", nothing in a state folder or
# anywhere else of the test's but a container's own rootfs (a process's
# root and cwd fds, which it may write to as it may to its own root).
thief_found_nothing() {
	# made from the host side: a `touch` exec'd in the container could be
	# killed by the thief's exit (it is the PID namespace's init)
	touch "$BUNDLE/rootfs/stop"
	retry 100 0.2 grep -q "^seen" "$BUNDLE/rootfs/report"
	cat "$BUNDLE/rootfs/report"
	# the runtime's cwd and root, where a child that kept them would lead
	local f made=
	for f in "$PWD/pwned" /pwned; do
		[ ! -e "$f" ] || { made="$made $f"; rm -f "$f"; }
	done
	[ -z "$made" ] || { echo "made:$made"; false; }
	[ ! -e "$MARKER/host-file" ]
	[ -z "$(find "$BATS_TEST_TMPDIR" -name pwned -not -path "*/rootfs/*")" ]
	[ "$(sed -n 's/^seen \([0-9]*\) fds.*/\1/p' "$BUNDLE/rootfs/report")" -gt 0 ]
}

@test "a container with CAP_SYS_PTRACE finds no runtime fd in 20 execs' processes" {
	local i
	start_fd_thief
	for i in $(seq 20); do
		run shim exec thief sh -c 'true'
		assert_success
	done
	thief_found_nothing
	teardown_escape
}

@test "without close_range, a container with CAP_SYS_PTRACE finds no runtime fd in exec's processes" {
	local i
	start_fd_thief
	for i in $(seq 10); do
		run "$PAYLOAD/no-syscall" close_range "$SHIM_BIN" --root "$ROOT" exec thief sh -c 'true'
		assert_success
	done
	thief_found_nothing
	teardown_escape
}

# Ten inits join the thief's PID namespace (run with the flags given), each
# with a bind mount, as every pod's container has (/etc/hosts).
ten_joiners() {
	local i pid joiner=$BATS_TEST_TMPDIR/joiner
	# staged on cgroup v2 and on v1 hosts (docs/design.md, threat model)
	[ -e /sys/fs/cgroup/cgroup.controllers ] || [ -e /sys/fs/cgroup/devices/devices.list ] ||
		skip "needs cgroup v2 or a v1 devices hierarchy"
	start_fd_thief
	pid=$(shim state thief | jq .pid)
	"$TOP/tests/payload/make-busybox-bundle" "$joiner" true
	echo pod > "$BATS_TEST_TMPDIR/hosts"
	jq --arg p "/proc/$pid/ns/pid" --arg h "$BATS_TEST_TMPDIR/hosts" \
		'.linux.namespaces |= map(if .type == "pid" then .path = $p else . end) |
		.mounts += [{"destination": "/etc/hosts", "type": "bind", "source": $h,
			"options": ["rbind", "ro"]}] | .process.args = ["cat", "/etc/hosts"]' \
		"$joiner/config.json" > "$joiner/c.json" && mv "$joiner/c.json" "$joiner/config.json"
	for i in $(seq 10); do
		run shim run "$@" -b "$joiner" "joiner$i"
		assert_success
		assert_output pod
	done
	thief_found_nothing
	teardown_escape
}

@test "a container with CAP_SYS_PTRACE finds no way out in 10 inits joining its PID namespace" {
	ten_joiners
}

@test "a container with CAP_SYS_PTRACE finds no way out in 10 --no-pivot inits joining its PID namespace" {
	ten_joiners --no-pivot
}

@test "a container's root in a user namespace finds no way out in 10 inits joining its PID and user namespaces" {
	# a Kubernetes pod with user namespaces and shareProcessNamespace: the
	# joining init is the thief's uid in the thief's user namespace, and
	# sets up in a copy of the host's tree (docs/design.md, threat model)
	local i pid joiner=$BATS_TEST_TMPDIR/joiner d
	d=$BUNDLE
	while [ "$d" != / ]; do chmod a+x "$d"; d=$(dirname "$d"); done
	update_config '.linux.namespaces += [{"type": "user"}] |
		.linux.uidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}] |
		.linux.gidMappings = .linux.uidMappings'
	: > "$BUNDLE/rootfs/report"
	chown 100000:100000 "$BUNDLE/rootfs/report" "$BUNDLE/rootfs"
	start_fd_thief
	# the thief's uid may write there: an escape leaves its file
	chmod 1777 "$MARKER"
	pid=$(shim state thief | jq .pid)
	"$TOP/tests/payload/make-busybox-bundle" "$joiner" true
	d=$joiner
	while [ "$d" != / ]; do chmod a+x "$d"; d=$(dirname "$d"); done
	jq --arg p "/proc/$pid/ns/pid" --arg u "/proc/$pid/ns/user" \
		'.linux.namespaces |= map(if .type == "pid" then .path = $p else . end) |
		.linux.namespaces += [{"type": "user", "path": $u}] |
		.process.args = ["echo", "pod"]' \
		"$joiner/config.json" > "$joiner/c.json" && mv "$joiner/c.json" "$joiner/config.json"
	for i in $(seq 10); do
		run shim run -b "$joiner" "joiner$i"
		assert_success
		assert_output pod
	done
	thief_found_nothing
	teardown_escape
}

# --- 2. cwd through a runtime fd (CVE-2024-21626 variant) ---

@test "process.cwd through a runtime fd makes no host folder" {
	for fd in $(seq 3 16); do
		update_config --arg c "/proc/self/fd/$fd/../../../../../../../../..$MARKER" \
			'.process.cwd = $c'
		shim_detached run -b "$BUNDLE" "c$fd"
		if [ -e "$MARKER" ]; then
			echo "cwd through fd $fd made $MARKER on the host"
			teardown_escape
			false
		fi
		assert_failure
		assert_output_has "process.cwd"
	done
	assert_nothing_left
}

@test "exec --cwd through a runtime fd makes no host folder" {
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	for fd in $(seq 3 16); do
		run shim exec --cwd "/proc/self/fd/$fd/../../../../../../../../..$MARKER" c1 true
		if [ -e "$MARKER" ]; then
			echo "exec --cwd through fd $fd made $MARKER on the host"
			teardown_escape
			false
		fi
		assert_failure
	done
}

@test "a missing process.cwd is still made, inside the root, through its symlinks" {
	mkdir -p "$BUNDLE/rootfs/srv/real"
	ln -s /srv/real "$BUNDLE/rootfs/work"
	update_config '.process.cwd = "/work/deeper" | .process.args = ["pwd"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output /srv/real/deeper
	[ -d "$BUNDLE/rootfs/srv/real/deeper" ]
	[ ! -e /srv/real ]
}

# --- 3. maskedPaths through a planted /dev/null (CVE-2025-31133) ---

# /dev from the rootfs (no tmpfs there), so the image decides what it holds.
dev_from_rootfs() {
	update_config 'del(.mounts[] | select(.destination == "/dev"))'
}

@test "a /dev/null symlink to a host knob makes no masked path writable" {
	local before
	before=$(cat /proc/sys/kernel/core_pattern)
	dev_from_rootfs
	ln -s /proc/sys/kernel/core_pattern "$BUNDLE/rootfs/dev/null"
	update_config '.linux.maskedPaths += ["/proc/version"] |
		.process.args = ["sh", "-c", "echo \"|/tmp/pwned %p\" > /proc/version"]'
	shim_detached run -b "$BUNDLE" c1
	[ "$(cat /proc/sys/kernel/core_pattern)" = "$before" ] || {
		echo "host core_pattern changed"; echo "$before" > /proc/sys/kernel/core_pattern; false; }
	fails_naming "open /dev/null without following links"
}

@test "a /dev/null that is not the null device is not bound over a masked path" {
	dev_from_rootfs
	echo secret > "$BUNDLE/rootfs/dev/null"
	update_config '.linux.maskedPaths += ["/proc/version"]'
	shim_detached run -b "$BUNDLE" c1
	fails_naming "/dev/null in the container is not the null device (char 1:3)"
}

@test "a masked file reads empty and its bind is read-only" {
	update_config '.linux.maskedPaths += ["/proc/version"] |
		.process.args = ["sh", "-c", "wc -c < /proc/version; grep \" /proc/version \" /proc/mounts | cut -d\" \" -f4 | cut -d, -f1"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "0
ro"
}

# --- 4. /proc and /sys writes redirected (CVE-2025-52881) ---

@test "a bind over /proc/sys turns no sysctl into a write to the host's knob" {
	local before
	before=$(cat /proc/sys/net/ipv4/ip_default_ttl)
	update_config '.linux.sysctl = {"net.ipv4.ip_default_ttl": "42"} |
		.mounts += [{"destination": "/proc/sys/net/ipv4/ip_default_ttl", "type": "bind",
			"source": "/proc/sys/net/ipv4/ip_default_ttl", "options": ["bind"]}]'
	shim_detached run -b "$BUNDLE" c1
	[ "$(cat /proc/sys/net/ipv4/ip_default_ttl)" = "$before" ] || {
		echo "host ip_default_ttl changed"; echo "$before" > /proc/sys/net/ipv4/ip_default_ttl; false; }
	fails_naming "mounts[7] (/proc/sys/net/ipv4/ip_default_ttl): destination /proc/sys/net/ipv4/ip_default_ttl is inside /proc"
}

@test "a symlink in the image cannot lead a mount into /proc" {
	local before
	before=$(cat /proc/sys/net/ipv4/ip_default_ttl)
	ln -s /proc/sys/net/ipv4 "$BUNDLE/rootfs/etc/ipv4"
	update_config '.linux.sysctl = {"net.ipv4.ip_default_ttl": "42"} |
		.mounts += [{"destination": "/etc/ipv4/ip_default_ttl", "type": "bind",
			"source": "/proc/sys/net/ipv4/ip_default_ttl", "options": ["bind"]}]'
	shim_detached run -b "$BUNDLE" c1
	[ "$(cat /proc/sys/net/ipv4/ip_default_ttl)" = "$before" ] || {
		echo "host ip_default_ttl changed"; echo "$before" > /proc/sys/net/ipv4/ip_default_ttl; false; }
	fails_naming "destination /etc/ipv4/ip_default_ttl is inside /proc"
}

@test "only proc itself may be mounted on /proc" {
	update_config '(.mounts[] | select(.destination == "/proc")) |= {"destination": "/proc", "type": "tmpfs", "source": "tmpfs"}'
	shim_detached run -b "$BUNDLE" c1
	fails_naming "mounts[0] (/proc): destination /proc: only a proc filesystem may be mounted there"
}

@test "proc is never mounted through a symlink the image put at /proc" {
	rm -rf "$BUNDLE/rootfs/proc"
	ln -s /elsewhere "$BUNDLE/rootfs/proc"
	shim_detached run -b "$BUNDLE" c1
	fails_naming "mounts[0] (/proc): proc must be mounted on ordinary directory: /proc is a symbolic link in the rootfs"
	[ ! -e "$BUNDLE/rootfs/elsewhere" ]
}

@test "sysfs is never mounted through a symlink the image put at /sys" {
	rm -rf "$BUNDLE/rootfs/sys"
	mkdir "$BUNDLE/rootfs/elsewhere"
	ln -s /elsewhere "$BUNDLE/rootfs/sys"
	shim_detached run -b "$BUNDLE" c1
	fails_naming "(/sys): sysfs must be mounted on ordinary directory: /sys is a symbolic link in the rootfs"
	[ -z "$(ls -A "$BUNDLE/rootfs/elsewhere")" ]
}

@test "the /dev the runtime fills is never mounted through a symlink at /dev" {
	rm -rf "$BUNDLE/rootfs/dev"
	ln -s /elsewhere "$BUNDLE/rootfs/dev"
	shim_detached run -b "$BUNDLE" c1
	fails_naming "(/dev): tmpfs must be mounted on ordinary directory: /dev is a symbolic link in the rootfs"
	[ ! -e "$BUNDLE/rootfs/elsewhere" ]
}

# reroute_hook FOLDER: a createRuntime hook (it runs between the mounts and
# the masks) plays a process sharing the rootfs: it renames the folder a
# mount of the container sits on to /moved and puts a link to /decoy in
# its place. Each test then lists the mounts under /moved and /decoy.
reroute_hook() {
	local r=$BUNDLE/rootfs
	mkdir -p "$r/decoy"
	update_config --arg h "mv $r/$1 $r/moved && ln -s /decoy $r/$1" \
		'.hooks.createRuntime = [{"path": "/bin/sh", "args": ["sh", "-c", $h]}]'
}

@test "masks and read-only paths below /proc follow the proc mount, not a link put in its place" {
	reroute_hook proc
	touch "$BUNDLE/rootfs/decoy/kcore"
	mkdir "$BUNDLE/rootfs/decoy/sys"
	update_config '.process.args = ["awk", "$5 ~ /^\\/(moved|decoy)\\// { print $5, substr($6, 1, 2) }",
		"/moved/self/mountinfo"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	# /proc/kcore where the kernel has it, else another masked file
	if [ -e /proc/kcore ]; then
		assert_output_has "/moved/kcore ro"
	else
		assert_output_has "/moved/timer_list ro"
	fi
	assert_output_has "/moved/sys ro"
	[[ "$output" != *decoy* ]] || { show_run; false; }
}

@test "masks below /sys follow the sysfs mount, not a link put in its place" {
	reroute_hook sys
	mkdir "$BUNDLE/rootfs/decoy/firmware"
	update_config '.process.args = ["awk", "$5 ~ /^\\/(moved|decoy)\\// { print $5, substr($6, 1, 2) }",
		"/proc/self/mountinfo"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output_has "/moved/firmware ro"
	[[ "$output" != *decoy* ]] || { show_run; false; }
}

@test "lxcfs-style binds over /proc/uptime are still allowed" {
	echo "12345.00 1.00" > "$BATS_TEST_TMPDIR/uptime"
	update_config --arg s "$BATS_TEST_TMPDIR/uptime" '.process.args = ["cat", "/proc/uptime"] |
		.mounts += [{"destination": "/proc/uptime", "type": "bind", "source": $s, "options": ["bind", "ro"]}]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "12345.00 1.00"
}

@test "sysctls are written through the runtime's procfs, even with no /proc in the container" {
	update_config 'del(.mounts[] | select(.destination == "/proc")) | .linux.maskedPaths = [] |
		.linux.readonlyPaths = [] | .linux.sysctl = {"kernel.shmmni": "777"} |
		.process.capabilities.bounding += ["CAP_SYS_ADMIN"] |
		.process.capabilities.effective += ["CAP_SYS_ADMIN"] |
		.process.capabilities.permitted += ["CAP_SYS_ADMIN"] |
		.process.args = ["sh", "-c", "mount -t proc proc /proc && cat /proc/sys/kernel/shmmni"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output 777
}

# --- 5. non-namespaced sysctls ---

# sysctl_refused KEY VALUE MESSAGE [JQ-EDIT]: refused, and the host's value kept.
sysctl_refused() {
	local key=$1 value=$2 msg=$3 edit=${4:-.} file before
	file=/proc/sys/$(echo "$key" | tr . /)
	before=$(cat "$file")
	update_config --arg k "$key" --arg v "$value" ".linux.sysctl = {(\$k): \$v} | $edit"
	shim_detached run -b "$BUNDLE" c1
	[ "$(cat "$file")" = "$before" ] || {
		echo "host $key changed to $(cat "$file")"; echo "$before" > "$file"; false; }
	fails_naming "$msg"
}

@test "fs.mqueue.queues_max without an IPC namespace of its own leaves the host's" {
	sysctl_refused fs.mqueue.queues_max 1234 \
		"linux.sysctl.fs.mqueue.queues_max: needs an IPC namespace of the container's own" \
		'del(.linux.namespaces[] | select(.type == "ipc"))'
}

@test "net.ipv4.ping_group_range without a network namespace of its own leaves the host's" {
	sysctl_refused net.ipv4.ping_group_range "0 2147483647" \
		"linux.sysctl.net.ipv4.ping_group_range: needs a network namespace of the container's own" \
		'del(.linux.namespaces[] | select(.type == "network"))'
}

@test "joining the host's own network namespace by path is no namespace of its own" {
	sysctl_refused net.ipv4.ping_group_range "0 2147483647" \
		"linux.sysctl.net.ipv4.ping_group_range: needs a network namespace of the container's own" \
		'(.linux.namespaces[] | select(.type == "network")).path = "/proc/1/ns/net"'
}

@test "a sysctl no namespace scopes (kernel.pid_max) is refused by key" {
	sysctl_refused kernel.pid_max 4242 "linux.sysctl.kernel.pid_max: not namespaced"
}

@test "kernel.hostname is refused for the config's field, as runc refuses it" {
	sysctl_refused kernel.hostname evil \
		"linux.sysctl.kernel.hostname: refused: set hostname in the config instead"
}

@test "kernel.domainname without a UTS namespace of its own leaves the host's" {
	sysctl_refused kernel.domainname evil.example \
		"linux.sysctl.kernel.domainname: needs a UTS namespace of the container's own" \
		'del(.linux.namespaces[] | select(.type == "uts")) | del(.hostname)'
}

@test "kernel.domainname with a UTS namespace of its own is set inside, as runc and crun set it" {
	local before
	before=$(cat /proc/sys/kernel/domainname)
	update_config '.linux.sysctl = {"kernel.domainname": "inside.example"} |
		.process.args = ["cat", "/proc/sys/kernel/domainname"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output inside.example
	[ "$(cat /proc/sys/kernel/domainname)" = "$before" ]
	assert_nothing_left
}

@test "namespaced sysctls apply inside and leave the host's values" {
	local mq ping
	mq=$(cat /proc/sys/fs/mqueue/queues_max)
	ping=$(cat /proc/sys/net/ipv4/ping_group_range)
	update_config '.linux.sysctl = {"fs.mqueue.queues_max": "77", "net.ipv4.ping_group_range": "5 6"} |
		.process.args = ["sh", "-c", "cat /proc/sys/fs/mqueue/queues_max /proc/sys/net/ipv4/ping_group_range"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "$(printf '77\n5\t6')"
	[ "$(cat /proc/sys/fs/mqueue/queues_max)" = "$mq" ]
	[ "$(cat /proc/sys/net/ipv4/ping_group_range)" = "$ping" ]
}

# --- 10. bad input ---

@test "300,000 nested arrays are refused, not a crash" {
	{
		printf '{"a":'
		head -c 300000 < /dev/zero | tr '\0' '['
		head -c 300000 < /dev/zero | tr '\0' ']'
		printf '}\n'
	} > "$BUNDLE/config.json"
	shim_detached create -b "$BUNDLE" c1
	[ "$status" -eq 1 ] || { show_run; false; }
	fails_naming "a[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nested deeper than 512 levels"
}

@test "a NUL byte in a string is refused by its JSON path, not cut" {
	local field
	cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/good.json"
	for field in '.process.args[1]' '.process.env[0]' '.process.cwd' '.mounts[3].destination' \
		'.root.path' ; do
		jq "$field |= . + \"\\u0000x\"" "$BATS_TEST_TMPDIR/good.json" > "$BUNDLE/config.json"
		shim_detached create -b "$BUNDLE" c1
		fails_naming "${field#.}: holds a NUL byte"
	done
	jq '.linux.sysctl = {"kernel.shmmni\u0000x": "1"}' "$BATS_TEST_TMPDIR/good.json" \
		> "$BUNDLE/config.json"
	shim_detached create -b "$BUNDLE" c1
	fails_naming "linux.sysctl.kernel.shmmni: a member name holds a NUL byte"
}

@test "/etc/passwd linked to /dev/zero or a FIFO does not hang create" {
	ln -sf /dev/zero "$BUNDLE/rootfs/etc/passwd"
	update_config '.process.args = ["sh", "-c", "echo $HOME"]'
	run timeout 60 "$SHIM_BIN" --root "$ROOT" run -b "$BUNDLE" c1
	assert_success
	assert_output /
	rm "$BUNDLE/rootfs/etc/passwd"
	mkfifo "$BUNDLE/rootfs/etc/passwd"
	run timeout 60 "$SHIM_BIN" --root "$ROOT" run -b "$BUNDLE" c2
	assert_success
	assert_output /
}

@test "a rename race during create does not fail openat2 (EAGAIN is retried)" {
	mkdir -p "$BATS_TEST_TMPDIR/flip/a"
	(while :; do mv "$BATS_TEST_TMPDIR/flip/a" "$BATS_TEST_TMPDIR/flip/b"
		mv "$BATS_TEST_TMPDIR/flip/b" "$BATS_TEST_TMPDIR/flip/a"; done) 3>&- &
	local flipper=$! failed=0 i
	update_config '.process.cwd = "/tmp/../etc/../tmp/x/../y" |
		.mounts += [{"destination": "/tmp/../etc/../tmp/m/../n", "type": "tmpfs", "source": "tmpfs"}]'
	for i in $(seq 20); do
		shim_detached run -b "$BUNDLE" "c$i"
		[ "$status" -eq 0 ] || { failed=$((failed + 1)); echo "run $i: $output"; }
	done
	kill "$flipper"
	wait "$flipper" 2>/dev/null || true
	[ "$failed" -eq 0 ]
}

# --- 1. the runtime binary (CVE-2019-5736) ---

# The container's process is the runtime's own code (an entrypoint the
# image made a link to /proc/self/exe), blocked reading a FIFO the test
# holds open. Sets PID to it.
start_runtime_in_container() {
	mkfifo "$BATS_TEST_TMPDIR/stdin"
	exec 7<>"$BATS_TEST_TMPDIR/stdin"
	update_config 'del(.linux.namespaces[] | select(.type == "pid")) | .root.readonly = false |
		.process.args = ["/entry", "update", "--resources", "-", "x"]'
	"$SHIM_BIN" --root "$ROOT" run -d -b "$BUNDLE" c1 <&7 >/dev/null 2>&1 3>&-
	PID=$(shim state c1 | jq .pid)
	[ "$PID" -gt 0 ]
}

@test "an entrypoint linked to /proc/self/exe cannot rewrite the runtime binary" {
	local before i
	before=$(sha256sum < "$SHIM_BIN")
	ln -s /proc/self/exe "$BUNDLE/rootfs/entry"
	start_runtime_in_container
	# the attacker, in the container: hold /proc/PID/exe, wait for the
	# runtime's code to exit, then write through it
	"$SHIM_BIN" --root "$ROOT" exec -d -e PID="$PID" c1 sh -c '
		exec 5< /proc/$PID/exe || { echo noopen > /tmp/result; exit; }
		echo opened > /tmp/result
		for i in $(seq 100); do
			if printf pwned 1<> /proc/self/fd/5 2>/dev/null; then echo written > /tmp/result; exit; fi
			sleep 0.05
		done
		echo refused > /tmp/result' < /dev/null > /dev/null 2>&1 3>&-
	retry 100 0.1 test -s "$BUNDLE/rootfs/tmp/result"
	kill -9 "$PID"
	exec 7>&-
	retry 150 0.1 grep -qE "written|refused|noopen" "$BUNDLE/rootfs/tmp/result"
	[ "$(sha256sum < "$SHIM_BIN")" = "$before" ] || { echo "the runtime binary was rewritten"; false; }
	run cat "$BUNDLE/rootfs/tmp/result"
	assert_output refused
}

# run -d a container whose process is the runtime's code, blocked opening
# its --log FIFO (an image whose entrypoint is a "#!/proc/self/exe"
# script); $@ goes before the runtime. Sets PID.
start_script_entry() {
	printf '#!/proc/self/exe --log=/fifo\n' > "$BUNDLE/rootfs/entry"
	chmod 755 "$BUNDLE/rootfs/entry"
	mkfifo "$BUNDLE/rootfs/fifo"
	update_config 'del(.linux.namespaces[] | select(.type == "pid")) | .process.args = ["/entry"] |
		.linux.maskedPaths = [] | .linux.readonlyPaths = []'
	status=0
	"$@" "$SHIM_BIN" --root "$ROOT" run -d -b "$BUNDLE" c1 < /dev/null > "$BATS_TEST_TMPDIR/out" 2>&1 3>&- || status=$?
	output=$(cat "$BATS_TEST_TMPDIR/out")
	assert_success
	PID=$(shim state c1 | jq .pid)
	run cat "/proc/$PID/cmdline"
	[[ "$output" == "/proc/self/exe"* ]] || { echo "not the runtime's code: $output"; false; }
}

# assert_held_exe_unwritable PID HASH STOP...: hold /proc/PID/exe, let
# STOP... make the process exit, then write through it with every
# capability: refused, and the binary still hashes to HASH.
assert_held_exe_unwritable() {
	local pid=$1 before=$2
	exec 8< "/proc/$pid/exe"
	"${@:3}"
	run sh -c 'printf pwned 1<> /proc/self/fd/8'
	exec 8<&-
	assert_failure
	[ "$(sha256sum < "$SHIM_BIN")" = "$before" ]
}

stop_container() {
	kill -9 "$PID"
	wait_for_status c1 stopped
}

# the container's process, running the runtime's code (PID), killed
assert_exe_unwritable() {
	assert_held_exe_unwritable "$PID" "$1" stop_container
}

@test "a #!/proc/self/exe script runs the runtime through a read-only mount, never writable" {
	local before
	before=$(sha256sum < "$SHIM_BIN")
	start_script_entry
	run readlink "/proc/$PID/exe"
	[ "$output" != "$(readlink -f "$SHIM_BIN")" ] || { echo "the container runs $output"; false; }
	assert_exe_unwritable "$before"
	assert_output_has "Read-only file system"
}

# `run` in the foreground, $@ before it, its container sleeping: RPID is
# the runtime's own process, its --debug log in $BATS_TEST_TMPDIR/log.
start_foreground_runtime() {
	update_config '.process.args = ["sleep", "1000"]'
	"$@" "$SHIM_BIN" --debug --log "$BATS_TEST_TMPDIR/log" --root "$ROOT" run -b "$BUNDLE" c1 \
		< /dev/null > /dev/null 2>&1 3>&- &
	RPID=$!
	wait_for_status c1 running
}

# The runtime's process holds no mapping of its binary's path, its exe
# is on a read-only mount, and once it exits no write gets through it.
assert_runtime_unwritable() {
	local before=$1 path
	path=$(readlink -f "$SHIM_BIN")
	run grep -c -F "$path" "/proc/$RPID/maps"
	assert_output 0
	run readlink "/proc/$RPID/exe"
	[ "$output" != "$path" ] || { echo "the runtime runs $output"; false; }
	assert_held_exe_unwritable "$RPID" "$before" stop_runtime
	assert_output_has "Read-only file system"
}

# Mapping itself again in place needs PR_SET_MM, which needs
# CAP_SYS_RESOURCE: a host's root without it re-executes instead (the
# tests of that way run everywhere).
require_cap_sys_resource() {
	local eff
	eff=$(awk '/^CapEff/ { print $2 }' /proc/self/status)
	(( (16#$eff >> 24) & 1 )) || skip "no CAP_SYS_RESOURCE here: the runtime re-executes"
}

stop_runtime() {
	shim kill c1 KILL
	wait "$RPID" || true
}

@test "the runtime maps itself again from a read-only bind of its binary, with no exec" {
	require_cap_sys_resource
	local before
	before=$(sha256sum < "$SHIM_BIN")
	start_foreground_runtime
	run grep -c "mapped in place" "$BATS_TEST_TMPDIR/log"
	assert_output 1
	run grep -c "re-executing" "$BATS_TEST_TMPDIR/log"
	assert_output 0
	assert_runtime_unwritable "$before"
}

@test "the runtime's code mapped again keeps each segment's protection" {
	require_cap_sys_resource
	local inode
	inode=$(stat -c %i "$(readlink -f "$SHIM_BIN")")
	start_foreground_runtime
	# as the kernel mapped them at exec: headers, code, read-only data
	# (the written data is an anonymous copy now)
	run awk -v inode="$inode" '$5 == inode { printf "%s ", $2 }' "/proc/$RPID/maps"
	assert_output "r--p r-xp r--p "
	stop_runtime
}

@test "where the runtime may not set its exe, it re-executes through the read-only bind" {
	local before
	before=$(sha256sum < "$SHIM_BIN")
	# PR_SET_MM (35) refused: not even its capability probe gets through
	start_foreground_runtime "$PAYLOAD/no-syscall" prctl@0=35
	run grep -c "re-executing through a read-only bind" "$BATS_TEST_TMPDIR/log"
	assert_output 1
	assert_runtime_unwritable "$before"
}

@test "a runtime that fails midway through mapping itself again re-executes, unwritable" {
	require_cap_sys_resource
	local before
	before=$(sha256sum < "$SHIM_BIN")
	# its code is mapped again before the writable segment's mremap fails
	start_foreground_runtime "$PAYLOAD/no-syscall" mremap
	run grep -c "mremap of the writable segment" "$BATS_TEST_TMPDIR/log"
	assert_output 1
	run grep -c "re-executing through a read-only bind" "$BATS_TEST_TMPDIR/log"
	assert_output 1
	assert_runtime_unwritable "$before"
}

@test "a runtime binary already on a read-only mount runs as it is, never writable" {
	local before
	RO_BIN=$BATS_TEST_TMPDIR/shim-ro
	cp "$SHIM_BIN" "$RO_BIN"
	mount --bind "$RO_BIN" "$RO_BIN"
	mount -o remount,bind,ro "$RO_BIN"
	before=$(sha256sum < "$RO_BIN")
	SHIM_BIN=$RO_BIN start_script_entry
	# no second exec: the container runs the very file it was started as
	run readlink "/proc/$PID/exe"
	assert_output "$RO_BIN"
	SHIM_BIN=$RO_BIN assert_exe_unwritable "$before"
	assert_output_has "Read-only file system"
}

@test "where its binary cannot be bound, the runtime enters from a sealed memfd copy" {
	local before
	before=$(sha256sum < "$SHIM_BIN")
	# open_tree fails only as the runtime's bind of its own binary calls it
	# (a clone of one file's mount, by fd); the rootfs is still bound
	start_script_entry "$PAYLOAD/no-syscall" open_tree@2=0x81001
	run readlink "/proc/$PID/exe"
	[[ "$output" == "/memfd:shim"* ]] || { echo "the container runs $output"; false; }
	assert_exe_unwritable "$before"
}

@test "LD_PRELOAD and the image's own libraries are never loaded into the runtime's code" {
	ln -s /proc/self/exe "$BUNDLE/rootfs/entry"
	mkdir -p "$BUNDLE/rootfs/lib"
	printf 'not really a library' > "$BUNDLE/rootfs/lib/evil.so"
	update_config '.process.env += ["LD_PRELOAD=/lib/evil.so", "LD_LIBRARY_PATH=/lib"]'
	start_runtime_in_container
	[ -d "/proc/$PID" ]
	run grep -c '\.so' "/proc/$PID/maps"
	assert_output 0
	exec 7>&-
}

@test "exec's own process is the sealed copy too" {
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec c1 sh -c 'readlink /proc/$PPID/exe 2>&1 || true; cat /proc/self/status | grep -c "^NoNewPrivs"'
	assert_success
	[[ "$output" != *"$(readlink -f "$SHIM_BIN")"* ]]
}

# --- 6. kill --all ---

@test "kill --all without a PID namespace signals no host process" {
	local got=$BATS_TEST_TMPDIR/got host
	sh -c "trap 'echo got >> $got' CONT; while :; do sleep 0.1; done" 3>&- &
	host=$!
	update_config 'del(.linux.namespaces[] | select(.type == "pid")) | .process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	sleep 0.3
	run shim kill --all c1 CONT
	assert_success
	run shim kill --all c1 KILL
	assert_success
	sleep 0.5
	kill -0 "$host" || { echo "a host process was killed"; false; }
	kill "$host"
	[ ! -e "$got" ] || { echo "a host process got SIGCONT"; false; }
	wait_for_status c1 stopped
}

@test "kill --all after the init exited kills what the container left, and only that" {
	update_config 'del(.linux.namespaces[] | select(.type == "pid")) |
		.process.args = ["sh", "-c", "sleep 4321 & exit 0"]'
	sleep 4322 3>&- &
	local host=$!
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	wait_for_status c1 stopped
	pgrep -f "sleep 4321" > /dev/null
	run shim kill --all c1 KILL
	assert_success
	sleep 0.5
	! pgrep -f "sleep 4321" > /dev/null
	kill -0 "$host"
	kill "$host"
}

# --- 7. /dev/console ---

@test "process.terminal binds the pty on /dev/console" {
	update_config '.process.terminal = true |
		.process.args = ["sh", "-c", "stat -c %t:%T /dev/console; stat -c %t:%T $(tty)"]'
	run shim run -b "$BUNDLE" c1 < /dev/null
	assert_success
	[ "$(echo "$output" | tr -d '\r' | sort -u | wc -l)" -eq 1 ] || { show_run; false; }
	[[ "$output" == 88:* ]] || { show_run; false; }
}

@test "a /dev/console symlink to a host knob is never mounted over" {
	local before
	before=$(cat /proc/sys/kernel/core_pattern)
	dev_from_rootfs
	ln -s /proc/sys/kernel/core_pattern "$BUNDLE/rootfs/dev/console"
	ln -s pts/ptmx "$BUNDLE/rootfs/dev/ptmx"
	update_config '.process.terminal = true | .linux.maskedPaths = []'
	run shim run -b "$BUNDLE" c1 < /dev/null
	[ "$(cat /proc/sys/kernel/core_pattern)" = "$before" ]
	assert_failure
	assert_output_has "process.terminal: /dev/console is not a file or a device"
	assert_nothing_left
}

@test "a /dev/ptmx linked to a runtime fd is never opened as the terminal" {
	dev_from_rootfs
	update_config 'del(.mounts[] | select(.destination | startswith("/dev/"))) |
		.linux.maskedPaths = [] | .process.terminal = true'
	ln -s /proc/self/fd/3 "$BUNDLE/rootfs/dev/ptmx"
	run shim run -b "$BUNDLE" c1 < /dev/null
	assert_failure
	assert_output_has "process.terminal: open /dev/ptmx in the container"
	assert_nothing_left
}

# --- 8. mount options ---

@test "an unknown option on a bind mount is refused by mounts[i].options[j]" {
	update_config --arg s "$BATS_TEST_TMPDIR" '.mounts += [{"destination": "/mnt", "type": "bind",
		"source": $s, "options": ["rbind", "ro", "nosuidd"]}]'
	shim_detached create -b "$BUNDLE" c1
	fails_naming 'mounts[7].options[2]: "nosuidd" is no option of a bind mount'
}

@test "an unknown option on a tmpfs is refused by mounts[i].options[j]" {
	update_config '.mounts += [{"destination": "/mnt", "type": "tmpfs", "source": "tmpfs",
		"options": ["nosuid", "bogus"]}]'
	shim_detached create -b "$BUNDLE" c1
	fails_naming 'mounts[7].options[1] "bogus"'
}

@test "ro makes the top of an rbind read-only, rro every mount below it too" {
	local src=$BATS_TEST_TMPDIR/src
	mkdir -p "$src/sub"
	mount -t tmpfs tmpfs "$src/sub"
	update_config --arg s "$src" '.mounts += [{"destination": "/mnt", "type": "bind", "source": $s,
		"options": ["rbind", "ro"]}] | .process.args = ["sh", "-c",
		"touch /mnt/top 2>/dev/null && echo top-rw || echo top-ro; touch /mnt/sub/x 2>/dev/null && echo sub-rw || echo sub-ro"]'
	run shim run -b "$BUNDLE" c1
	assert_output "top-ro
sub-rw"
	update_config '.mounts[-1].options = ["rbind", "rro"]'
	run shim run -b "$BUNDLE" c2
	umount "$src/sub"
	assert_output "top-ro
sub-ro"
}

@test "nosymfollow refuses to follow symlinks on the mount" {
	update_config '.mounts += [{"destination": "/t", "type": "tmpfs", "source": "tmpfs",
		"options": ["nosymfollow"]}] | .process.args = ["sh", "-c",
		"ln -s /etc /t/l && cat /t/l/passwd > /dev/null 2>&1 && echo followed || echo refused"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output refused
}

# --- 9. the state folder ---

@test "delete -f of a state folder that is a symlink leaves what it points to" {
	mkdir -p "$ROOT" "$BATS_TEST_TMPDIR/victim"
	echo precious > "$BATS_TEST_TMPDIR/victim/file"
	ln -s "$BATS_TEST_TMPDIR/victim" "$ROOT/evil"
	run shim state evil
	assert_failure
	assert_output_has "is not a folder of the runtime's"
	run shim delete -f evil
	assert_success
	[ "$(cat "$BATS_TEST_TMPDIR/victim/file")" = precious ]
	[ ! -e "$ROOT/evil" ] && [ ! -L "$ROOT/evil" ]
}

@test "--pid-file through a planted symlink writes no host file" {
	echo precious > "$BATS_TEST_TMPDIR/victim"
	ln -s "$BATS_TEST_TMPDIR/victim" "$BATS_TEST_TMPDIR/pid"
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached create --pid-file "$BATS_TEST_TMPDIR/pid" -b "$BUNDLE" c1
	assert_success
	[ "$(cat "$BATS_TEST_TMPDIR/victim")" = precious ]
	[ ! -L "$BATS_TEST_TMPDIR/pid" ]
	[ "$(cat "$BATS_TEST_TMPDIR/pid")" = "$(shim state c1 | jq .pid)" ]
}

@test "a corrupt or truncated state.json does not make a container undeletable" {
	local how pid
	update_config '.process.args = ["sleep", "1000"]'
	for how in corrupt truncated; do
		shim_detached run -d -b "$BUNDLE" c1
		assert_success
		pid=$(shim state c1 | jq .pid)
		if [ "$how" = corrupt ]; then echo '{"ociVersion": [' > "$ROOT/c1/state.json"
		else : > "$ROOT/c1/state.json"; fi
		run shim state c1
		assert_failure
		run shim delete -f c1
		assert_success
		# killed: gone, or a zombie its new parent has not reaped yet
		retry 50 0.1 dead "$pid" || { echo "$how: the init is still alive"; false; }
		assert_nothing_left
	done
}

@test "a state.json cgroupPath rewritten to climb out of the cgroup tree is refused, no host file written" {
	local pid bad
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	pid=$(shim state c1 | jq .pid)
	mkdir -p "$MARKER"
	for bad in "/../../../$MARKER" "/" "relative/x" "/a//b"; do
		jq --arg p "$bad" '.shim.cgroupPath = $p' "$ROOT/c1/state.json" > "$BATS_TEST_TMPDIR/s"
		cp "$BATS_TEST_TMPDIR/s" "$ROOT/c1/state.json"
		run shim kill --all c1 KILL
		assert_failure
		assert_output_has "state.json shim.cgroupPath: \"$bad\" is no container's folder"
		[ ! -e "$MARKER/cgroup.kill" ] && [ ! -e "$MARKER/cgroup.procs" ]
		kill -0 "$pid"
	done
	[ -z "$(ls -A "$MARKER")" ]
	# delete -f still removes the container and kills its init
	run shim delete -f c1
	assert_success
	! kill -0 "$pid" 2>/dev/null
	assert_nothing_left
	teardown_escape
}

@test "device cgroup deny: a linux.devices node is not allowed past an explicit deny" {
	# runc's own suite: the rules the config gives decide, linux.devices
	# only makes the node
	update_config '.linux.devices = [{"path": "/dev/kmsg", "type": "c", "major": 1, "minor": 11,
		"fileMode": 438}] |
		.linux.resources.devices = [{"allow": false, "access": "rwm"}] |
		.process.args = ["sh", "-c", "test -c /dev/kmsg && echo made; echo x > /dev/kmsg || echo refused"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output_has made
	assert_output_has refused
	assert_output_has "Operation not permitted"
}
