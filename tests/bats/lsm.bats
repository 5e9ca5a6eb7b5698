#!/usr/bin/env bats
# host: yes
# Linux security modules: process.apparmorProfile (the guest kernel has
# AppArmor, as Debian's does), process.selinuxLabel and linux.mountLabel
# where SELinux is off (their error paths; selinux.bats has the SELinux
# guest).

load helpers

setup() {
	require_guest
	setup_bundle true
}

# The AppArmor tests: where the kernel runs AppArmor (the guest, Debian's
# kernels); a host without it skips them.
require_apparmor() {
	[ "$(cat /sys/module/apparmor/parameters/enabled 2>/dev/null)" = Y ] ||
		skip "AppArmor is not enabled here"
}

# A profile that allows everything but writes below /etc.
load_test_profile() {
	local profile=$BATS_TEST_TMPDIR/shim-test.profile
	cat > "$profile" <<'PROFILE'
profile shim-test flags=(attach_disconnected,mediate_deleted) {
  file,
  capability,
  network,
  signal,
  ptrace,
  unix,
  mount,
  umount,
  pivot_root,
  deny /etc/** w,
}
PROFILE
	apparmor_parser -r -W "$profile"
}

@test "features says AppArmor is enabled, SELinux is not" {
	require_apparmor
	run shim features
	assert_success
	[ "$(jq -c '[.linux.apparmor.enabled, .linux.selinux.enabled]' <<< "$output")" = '[true,false]' ]
}

@test "process.apparmorProfile confines the container: it is current, its denial holds" {
	require_apparmor
	load_test_profile
	update_config '.process.apparmorProfile = "shim-test" | .root.readonly = false |
		.process.args = ["sh", "-c", "cat /proc/self/attr/current; touch /etc/x 2>&1; touch /tmp/y && echo tmp ok"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "shim-test (enforce)
touch: /etc/x: Permission denied
tmp ok"
	[ ! -e "$BUNDLE/rootfs/etc/x" ]
	assert_nothing_left
}

@test "exec runs under the container's profile, or the one --apparmor names" {
	require_apparmor
	load_test_profile
	update_config '.process.apparmorProfile = "shim-test" | .process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec c1 cat /proc/self/attr/current
	assert_success
	assert_output "shim-test (enforce)"
	local proc='{"args": ["cat", "/proc/self/attr/current"], "cwd": "/", "user": {"uid": 0, "gid": 0}}'
	run sh -c "echo '$proc' | '$SHIM_BIN' --root '$ROOT' exec -p - c1"
	assert_success
	assert_output "shim-test (enforce)"
	run shim exec --apparmor unconfined c1 cat /proc/self/attr/current
	assert_success
	assert_output "unconfined"
}

@test "an AppArmor profile the kernel does not have fails create, named, leaving nothing" {
	update_config '.process.apparmorProfile = "no-such-profile"'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'process.apparmorProfile: "no-such-profile"'
	assert_nothing_left
}

@test "an AppArmor profile name longer than a write can hold is refused, not cut short" {
	require_apparmor
	update_config --arg p "$(printf 'p%.0s' $(seq 5000))" '.process.apparmorProfile = $p'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "process.apparmorProfile: exec pppp"
	assert_output_has "...: longer than 4095 bytes"
	assert_nothing_left
}

@test "process.selinuxLabel without SELinux fails create, named, leaving nothing" {
	update_config '.process.selinuxLabel = "system_u:system_r:container_t:s0"'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'process.selinuxLabel: "system_u:system_r:container_t:s0" asked for, but SELinux is not enabled on this host'
	assert_nothing_left
}

@test "linux.mountLabel without SELinux fails create, named" {
	update_config '.linux.mountLabel = "system_u:object_r:container_file_t:s0"'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'linux.mountLabel: "system_u:object_r:container_file_t:s0" asked for, but SELinux is not enabled on this host'
	assert_nothing_left
}

@test "exec --process-label without SELinux is refused, named" {
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec --process-label system_u:system_r:container_t:s0 c1 true
	assert_failure
	assert_output_has "process.selinuxLabel"
}
