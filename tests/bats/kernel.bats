#!/usr/bin/env bats
# host: yes
# The guest runs our patched kernel, and its mount-API fds are cloexec.

load helpers

setup() {
	require_guest
	require_patched_kernel
}

@test "the guest runs the kernel built from kernel/" {
	run uname -r
	assert_success
	assert_output "$SHIM_KERNEL_RELEASE"
	[[ "$output" == *-shim ]]
}

@test "the running kernel's config is the one kernel/build made" {
	run bash -c 'zcat /proc/config.gz | cmp - "$SHIM_KERNEL_DIR/config"'
	assert_success
}

@test "fsopen without FSOPEN_CLOEXEC returns a close-on-exec fd" {
	run "$PAYLOAD/mountfd-flags" fsopen
	assert_success
	assert_output cloexec
}

@test "fspick without FSPICK_CLOEXEC returns a close-on-exec fd" {
	run "$PAYLOAD/mountfd-flags" fspick
	assert_success
	assert_output cloexec
}

@test "fsmount without FSMOUNT_CLOEXEC returns a close-on-exec fd" {
	run "$PAYLOAD/mountfd-flags" fsmount
	assert_success
	assert_output cloexec
}

@test "open_tree without OPEN_TREE_CLOEXEC returns a close-on-exec fd" {
	run "$PAYLOAD/mountfd-flags" open_tree
	assert_success
	assert_output cloexec
}

@test "the old CLOEXEC flags are still accepted" {
	for call in fsopen fspick fsmount open_tree; do
		run "$PAYLOAD/mountfd-flags" "$call" cloexec
		assert_success
		assert_output cloexec
	done
}
