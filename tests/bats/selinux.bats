#!/usr/bin/env bats
# guest: selinux
# SELinux labels, in the SELinux guest (tests/vm/run --selinux: Debian's
# reference policy, permissive): process.selinuxLabel, exec
# --process-label and linux.mountLabel, each seen from the host (the
# init's attr/current, the container's mountinfo, the labels of its files)
# as well as inside. The labels carry an MCS category pair: the comma must
# reach the kernel whole. lsm.bats has the paths where SELinux is off.

load helpers

PROC_LABEL=system_u:system_r:svirt_t:s0:c1,c2
FILE_LABEL=system_u:object_r:svirt_image_t:s0:c1,c2

setup() {
	require_guest
	[ -e /sys/fs/selinux/enforce ] || skip "needs the SELinux guest (tests/vm/run --selinux)"
	setup_bundle true
}

# The context a process of the container runs in, as it reads it.
CURRENT='cat /proc/self/attr/current | tr -d "\000"'

# The init's PID, from shim's state.
init_pid() {
	shim state "$1" | jq -r .pid
}

# The super options of the container's mount at PATH (init PID).
super_options() {
	awk -v p="$2" '$5 == p { print $NF }' "/proc/$1/mountinfo"
}

@test "features says SELinux is enabled in the SELinux guest" {
	run shim features
	assert_success
	[ "$(jq -c '[.linux.selinux.enabled, .linux.apparmor.enabled]' <<< "$output")" = '[true,false]' ]
}

@test "process.selinuxLabel is the context the container's process runs in" {
	update_config --arg l "$PROC_LABEL" --arg c "$CURRENT" \
		'.process.selinuxLabel = $l | .process.args = ["sh", "-c", $c]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "$PROC_LABEL"
	assert_nothing_left
}

@test "process.selinuxLabel: the host sees the running init in that context" {
	update_config --arg l "$PROC_LABEL" '.process.selinuxLabel = $l | .process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	[ "$(tr -d '\0' < "/proc/$(init_pid c1)/attr/current")" = "$PROC_LABEL" ]
	# the runtime itself kept its own context
	[ "$(tr -d '\0' < /proc/self/attr/current)" != "$PROC_LABEL" ]
}

@test "exec runs in the container's context, or in the one --process-label names" {
	update_config --arg l "$PROC_LABEL" '.process.selinuxLabel = $l | .process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec c1 sh -c "$CURRENT"
	assert_success
	assert_output "$PROC_LABEL"
	run shim exec --process-label system_u:system_r:svirt_t:s0:c3,c4 c1 sh -c "$CURRENT"
	assert_success
	assert_output "system_u:system_r:svirt_t:s0:c3,c4"
}

@test "linux.mountLabel is the context= of the container's tmpfs and devpts mounts" {
	update_config --arg l "$FILE_LABEL" '.linux.mountLabel = $l | .process.args = ["sleep", "1000"] |
		.mounts += [{"destination": "/scratch", "type": "tmpfs", "source": "tmpfs"}]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	local pid mp
	pid=$(init_pid c1)
	for mp in /dev /dev/pts /dev/shm /scratch; do
		[[ "$(super_options "$pid" "$mp")" == *"context=\"$FILE_LABEL\""* ]] ||
			{ echo "$mp: $(super_options "$pid" "$mp")"; false; }
	done
	# proc and sysfs take no context= (as runc: not given one)
	[[ "$(super_options "$pid" /proc)" != *context=* ]]
	[[ "$(super_options "$pid" /sys)" != *context=* ]]
	# what the container creates there has the label
	run shim exec c1 touch /dev/shm/f /scratch/f
	assert_success
	[ "$(stat -c %C "/proc/$pid/root/dev/shm/f")" = "$FILE_LABEL" ]
	[ "$(stat -c %C "/proc/$pid/root/scratch/f")" = "$FILE_LABEL" ]
}

@test "linux.mountLabel labels the mqueue root and masked directories" {
	mkdir "$BUNDLE/rootfs/masked"
	update_config --arg l "$FILE_LABEL" '.linux.mountLabel = $l | .process.args = ["sleep", "1000"] |
		.linux.maskedPaths += ["/masked"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	local pid
	pid=$(init_pid c1)
	[ "$(stat -c %C "/proc/$pid/root/dev/mqueue")" = "$FILE_LABEL" ]
	[[ "$(super_options "$pid" /masked)" == *"context=\"$FILE_LABEL\""* ]] ||
		{ echo "/masked: $(super_options "$pid" /masked)"; false; }
}

@test "a process label the policy does not know fails create, named, leaving nothing" {
	update_config '.process.selinuxLabel = "system_u:system_r:no_such_domain_t:s0"'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'process.selinuxLabel: "system_u:system_r:no_such_domain_t:s0"'
	assert_nothing_left
}

@test "a mount label the policy does not know fails create, named, leaving nothing" {
	update_config '.linux.mountLabel = "system_u:object_r:no_such_file_t:s0"'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has 'linux.mountLabel "system_u:object_r:no_such_file_t:s0"'
	assert_nothing_left
}
