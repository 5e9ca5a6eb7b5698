#!/usr/bin/env bats
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

# create/run must fail saying $1 and leave nothing behind.
fails_naming() {
	assert_failure
	assert_output_has "$1"
	assert_nothing_left
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

@test "kernel.hostname and kernel.domainname are refused for the config's fields" {
	sysctl_refused kernel.domainname evil.example \
		"linux.sysctl.kernel.domainname: refused: set domainname in the config instead"
	sysctl_refused kernel.hostname evil \
		"linux.sysctl.kernel.hostname: refused: set hostname in the config instead"
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
	python3 -c "print('{\"a\":' + '[' * 300000 + ']' * 300000 + '}')" > "$BUNDLE/config.json"
	shim_detached create -b "$BUNDLE" c1
	[ "$status" -eq 1 ] || { show_run; false; }
	fails_naming "a[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nested deeper than 512 levels"
}

@test "a NUL byte in a string is refused by its JSON path, not cut" {
	local field
	for field in '.process.args[1]' '.process.env[0]' '.process.cwd' '.mounts[3].destination' \
		'.root.path' ; do
		setup_bundle true
		update_config "$field |= . + \"\\u0000x\""
		shim_detached create -b "$BUNDLE" c1
		fails_naming "${field#.}: holds a NUL byte"
	done
	update_config '.linux.sysctl = {"kernel.shmmni\u0000x": "1"}'
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
