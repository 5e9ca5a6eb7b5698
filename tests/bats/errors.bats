#!/usr/bin/env bats
# host: yes
# Bad input: a clear error naming what was wrong, a non-zero exit, and
# nothing left behind (no state folder, no process, no mount).

load helpers

setup() {
	require_guest
	setup_bundle true
}

# Run create with the bundle; it must fail, say $1, and leave nothing.
create_fails_with() {
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "$1"
	assert_nothing_left
}

@test "a config that is not JSON is rejected" {
	echo '{ "ociVersion": ' > "$BUNDLE/config.json"
	create_fails_with "config.json: invalid JSON"
}

@test "a missing config.json names the file" {
	rm "$BUNDLE/config.json"
	create_fails_with "$BUNDLE/config.json: no such file or directory"
}

@test "empty process.args is rejected by its JSON path" {
	update_config '.process.args = []'
	create_fails_with "process.args: must name the program to run"
}

@test "a wrongly typed field is named with its index" {
	update_config '.process.args = ["sh", 3]'
	create_fails_with "process.args[1]: must be a string"
}

@test "an unknown namespace type is named" {
	update_config '.linux.namespaces[2].type = "bogus"'
	create_fails_with 'linux.namespaces[2].type: unknown namespace type "bogus"'
}

@test "a namespace path that does not exist is named" {
	update_config '.linux.namespaces[1].path = "/proc/999999/ns/net"'
	create_fails_with "linux.namespaces[1].path: open /proc/999999/ns/net"
}

@test "a relative process.cwd is rejected" {
	update_config '.process.cwd = "tmp"'
	create_fails_with 'process.cwd: must be an absolute path, not "tmp"'
}

@test "a cwd through a leaked fd, outside the root, is refused (CVE-2024-21626)" {
	for fd in 3 4 5 6 7 8 9; do
		update_config --arg cwd "/proc/self/fd/$fd" '.process.cwd = $cwd'
		shim_detached create -b "$BUNDLE" c1
		assert_failure
		[[ "$output" == *"process.cwd"* ]] || { show_run; false; }
		assert_nothing_left
	done
}

@test "a missing rootfs is named" {
	rm -rf "$BUNDLE/rootfs"
	create_fails_with "root.path: $BUNDLE/rootfs"
}

@test "a root.path longer than a path can be is refused, not cut short" {
	update_config --arg p "$(printf 'r%.0s' $(seq 5000))" '.root.path = $p'
	create_fails_with "root.path: $BUNDLE/rrrr"
	assert_output_has "...: longer than 4095 bytes"
}

@test "a program not in PATH fails create, as runc says it" {
	update_config '.process.args = ["no-such-program"]'
	create_fails_with 'exec: "no-such-program": executable file not found in $PATH'
}

@test "a bad filesystem option names the mount and the option" {
	update_config '.mounts[1].options = ["mode=bogus"]'
	create_fails_with 'mounts[1] (/dev): mounts[1].options[0] "mode=bogus"'
}

@test "an unknown rlimit is named" {
	update_config '.process.rlimits[0].type = "RLIMIT_BOGUS"'
	create_fails_with 'process.rlimits[0]: type: unknown rlimit "RLIMIT_BOGUS"'
}

@test "a hostname without a uts namespace is refused" {
	update_config '.linux.namespaces |= map(select(.type != "uts"))'
	create_fails_with "hostname: setting it needs a uts namespace"
}

@test "a config without a mount namespace but with masked paths is refused naming them" {
	update_config '.linux.namespaces |= map(select(.type != "mount"))'
	create_fails_with "linux.maskedPaths: linux.namespaces has no mount namespace"
}

@test "a second container with the same ID is refused, the first untouched" {
	update_config '.process.args = ["sleep", "100"]'
	shim_detached create -b "$BUNDLE" c1
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'container "c1" already exists'
	[ "$(container_status c1)" = created ]
}

@test "an ID that is not a plain name is refused" {
	shim_detached create -b "$BUNDLE" ../evil
	assert_failure
	assert_output_has 'invalid container ID format: "../evil"'
	assert_nothing_left
}

@test "every verb on an unknown container says it does not exist" {
	for verb in start state kill delete; do
		run shim "$verb" nope
		assert_failure
		assert_output_has 'container "nope" does not exist'
	done
}

@test "an unknown flag is named" {
	shim_detached create --bogus -b "$BUNDLE" c1
	assert_failure
	assert_output_has "unknown or incomplete flag --bogus"
	assert_nothing_left
}

@test "an unknown signal is named" {
	run shim kill c1 SIGBOGUS
	assert_failure
	assert_output_has 'kill: unknown signal "SIGBOGUS"'
}

@test "an unknown command is named" {
	run shim frobnicate
	assert_failure
	assert_output_has 'unknown command "frobnicate"'
}

@test "a capability that is not a string is named" {
	update_config '.process.capabilities.bounding += [7]'
	create_fails_with 'process.capabilities.bounding[3]: must be a string'
}

@test "a sysctl that does not exist is named" {
	update_config '.linux.sysctl = {"net.ipv4.nope": "1"}'
	create_fails_with "linux.sysctl.net.ipv4.nope: open /proc/sys/net/ipv4/nope: no such file"
}
