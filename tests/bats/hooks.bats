#!/usr/bin/env bats
# host: yes
# hooks: each kind at its point of the lifecycle, in its namespaces, with the
# state on stdin, only fds 0-2, its env and its timeout; failures stop the
# container (poststart: runtime-spec 1.3 and runc; poststop only warns).

load helpers

setup() {
	require_guest
	HK=$BATS_TEST_TMPDIR/hk
	mkdir -p "$HK"
	# a hook that logs its name, the state's status and where it ran
	cat > "$HK/log-hook" <<-EOS
	#!/bin/sh
	state=\$(cat)
	echo "\$1 \$(echo "\$state" | jq -r .status) \$(readlink /proc/self/ns/mnt)" >> $HK/log
	EOS
	chmod +x "$HK/log-hook"
	setup_bundle sh -c 'echo main'
	update_config --arg hk "$HK" '.mounts += [{"destination": "/hk", "type": "bind",
		"source": $hk, "options": ["rbind", "rw"]}]'
}

# add_hook KIND PATH ARGS-JSON [EXTRA-JSON]
add_hook() {
	update_config --arg k "$1" --arg p "$2" --argjson a "$3" --argjson x "${4:-{\}}" \
		'.hooks[$k] += [{"path": $p, "args": $a} + $x]'
}

log_hook() {
	add_hook "$1" "$HK/log-hook" "[\"log-hook\", \"$1\"]"
}

@test "every kind of hook runs once, in lifecycle order, with the state on stdin" {
	for k in prestart createRuntime createContainer poststart poststop; do log_hook $k; done
	add_hook startContainer /bin/sh '["sh", "-c", "echo startContainer $(cat | grep -o created) >> /hk/log"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output main
	run awk '{print $1, $2}' "$HK/log"
	assert_output "prestart creating
createRuntime creating
createContainer creating
startContainer created
poststart running
poststop stopped"
	assert_nothing_left
}

@test "poststart hooks run after the startContainer hooks end, however long those take" {
	log_hook poststart
	add_hook startContainer /bin/sh '["sh", "-c", "sleep 1; echo startContainer done >> /hk/log"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	run awk '{print $1}' "$HK/log"
	assert_output "startContainer
poststart"
	assert_nothing_left
}

@test "createRuntime runs in the runtime's namespaces, createContainer in the container's" {
	log_hook createRuntime
	log_hook createContainer
	run shim run -b "$BUNDLE" c1
	assert_success
	ours=$(readlink /proc/self/ns/mnt)
	[ "$(awk '$1 == "createRuntime" {print $3}' "$HK/log")" = "$ours" ]
	[ "$(awk '$1 == "createContainer" {print $3}' "$HK/log")" != "$ours" ]
}

@test "a hook gets only fds 0, 1 and 2 and exactly its env" {
	add_hook createRuntime /bin/sh "[\"sh\", \"-c\", \"ls /proc/self/fd > $HK/fds; env > $HK/env\"]" \
		'{"env": ["ONLY=this"]}'
	shim_detached create -b "$BUNDLE" c1
	assert_success
	# ls's own directory fd is 3
	[ "$(tr '\n' ' ' < "$HK/fds")" = "0 1 2 3 " ]
	grep -qx ONLY=this "$HK/env"
	! grep -q '^PATH=' "$HK/env"
}

@test "a failing createRuntime hook fails create naming it and what it said, and leaves nothing" {
	add_hook createRuntime /bin/sh '["sh", "-c", "echo no space for you; exit 3"]'
	log_hook poststop
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "hooks.createRuntime[0] (/bin/sh): exited with status 3: no space for you"
	assert_nothing_left
	# the lifecycle still ends with poststop
	[ "$(awk '{print $1}' "$HK/log")" = poststop ]
}

@test "a failing createContainer hook fails create and leaves nothing" {
	log_hook createContainer
	add_hook createContainer /bin/false '["false"]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	# runc's words first, then the hook's JSON path
	assert_output_has "error running createContainer hook #1: hooks.createContainer[1] (/bin/false): exited with status 1"
	assert_nothing_left
}

@test "a hook over its timeout is killed and create fails saying so" {
	add_hook prestart /bin/sleep '["sleep", "100"]' '{"timeout": 1}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "hooks.prestart[0] (/bin/sleep): timed out after 1 s"
	assert_nothing_left
}

@test "a hook that cannot be run fails create naming it" {
	add_hook createRuntime /no/such/hook '["x"]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "hooks.createRuntime[0] (/no/such/hook): exited with status 127: exec: no such file or directory"
	assert_nothing_left
}

@test "a failing startContainer hook stops the container before its program runs" {
	add_hook startContainer /bin/sh '["sh", "-c", "exit 4"]'
	run shim run -b "$BUNDLE" c1
	[ "$status" -eq 127 ] || { show_run; false; }
	assert_output_has "hooks.startContainer[0] (/bin/sh): exited with status 4"
	[[ "$output" != *main* ]]
}

@test "startContainer hooks run as process.user, as the program does" {
	chmod 777 "$HK"
	update_config '.process.user = {"uid": 1000, "gid": 1001} |
		.process.args = ["sh", "-c", "echo main $(id -u) $(id -g) >> /hk/log"]'
	add_hook startContainer /bin/sh '["sh", "-c", "echo hook $(id -u) $(id -g) >> /hk/log"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	run cat "$HK/log"
	assert_output "hook 1000 1001
main 1000 1001"
}

@test "startContainer hooks run with the container's capabilities, not the runtime's" {
	update_config '.process.args = ["sh", "-c", "grep -E \"^Cap(Eff|Bnd)\" /proc/self/status >> /hk/main"]'
	add_hook startContainer /bin/sh '["sh", "-c", "grep -E \"^Cap(Eff|Bnd)\" /proc/self/status >> /hk/hook"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	# the bundle's set, not the full one the runtime (and this shell) holds
	[ "$(grep CapBnd "$HK/main")" != "$(grep CapBnd /proc/self/status)" ]
	diff "$HK/main" "$HK/hook"
}

@test "startContainer hooks run under the container's seccomp filter, whatever noNewPrivileges" {
	for nnp in true false; do
		update_config --argjson n $nnp '.process.noNewPrivileges = $n |
			.process.rlimits = [{"type": "RLIMIT_CORE", "soft": 0, "hard": 0}] |
			.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW",
				"syscalls": [{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_KILL"}]} |
			.hooks = {"startContainer": [{"path": "/bin/sh", "args": ["sh", "-c", "mkdir /tmp/x"]}]}'
		run shim run -b "$BUNDLE" c1
		[ "$status" -eq 127 ] || { show_run; false; }
		assert_output_has "error running startContainer hook #0: hooks.startContainer[0] (/bin/sh): killed by signal 31 (bad system call)"
		[[ "$output" != *main* ]]
		assert_nothing_left
	done
}

@test "a startContainer hook gets only fds 0-2 where the filter refuses close_range" {
	update_config '.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW",
			"syscalls": [{"names": ["close_range"], "action": "SCMP_ACT_ERRNO"}]}'
	add_hook startContainer /bin/sh '["sh", "-c", "ls /proc/self/fd > /hk/fds"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output main
	# ls's own directory fd is 3
	[ "$(tr '\n' ' ' < "$HK/fds")" = "0 1 2 3 " ]
}

@test "a failing poststart hook fails start, stops the container, runs no later one (1.3)" {
	setup_bundle sleep 1000
	update_config --arg hk "$HK" '.mounts += [{"destination": "/hk", "type": "bind",
		"source": $hk, "options": ["rbind", "rw"]}]'
	log_hook poststart
	add_hook poststart /bin/false '["false"]'
	log_hook poststart
	log_hook poststop
	shim_detached create -b "$BUNDLE" c1
	assert_success
	local pid
	pid=$(shim state c1 | jq .pid)
	run shim start c1
	assert_failure
	assert_output_has "hooks.poststart[1] (/bin/false): exited with status 1"
	assert_output_has "container c1 stopped"
	# runtime-spec 1.3: the container is stopped, the later hook not run
	[ "$(shim state c1 | jq -r .status)" = stopped ]
	[ ! -e /proc/$pid ] || [ "$(awk '{print $3}' /proc/$pid/stat)" = Z ]
	run awk '{print $1, $2}' "$HK/log"
	assert_output "poststart running"
	shim delete c1
	run awk '{print $1, $2}' "$HK/log"
	assert_output "poststart running
poststop stopped"
	assert_nothing_left
}

@test "a failing poststart hook fails run, which leaves nothing" {
	add_hook poststart /bin/false '["false"]'
	run shim run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "hooks.poststart[0] (/bin/false): exited with status 1"
	assert_nothing_left
}

@test "a failing poststop hook only warns" {
	add_hook poststop /bin/false '["false"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output_has "main"
	assert_output_has "warning: error running poststop hook #0: hooks.poststop[0] (/bin/false): exited with status 1"
	assert_nothing_left
}

@test "a hook without an absolute path is refused naming it" {
	add_hook poststart bin/true '["true"]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "hooks.poststart[0]: path: must be an absolute path"
	assert_nothing_left
}
