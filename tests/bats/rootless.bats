#!/usr/bin/env bats
# host: yes
# Rootless: shim run by an unprivileged user (uid 1987, made here), as
# podman rootless and `docker --rootless` run it. The container gets a user
# namespace mapping that user to its root (`spec --rootless`), more IDs
# through newuidmap/newgidmap, its state under $XDG_RUNTIME_DIR/shim, a
# cgroup only where one is delegated to the user; what needs the host's
# root is refused, named, leaving nothing.

load helpers

RL_UID=1987
RL_NAME=shim-rootless
RL_XDG=/run/user/$RL_UID

setup_file() {
	on_test_machine || return 0
	# the guest's /etc is a tmpfs overlay: the host's stays as it was
	getent passwd "$RL_NAME" >/dev/null ||
		useradd -u "$RL_UID" -U -M -d /nonexistent -s /usr/sbin/nologin "$RL_NAME"
	grep -q "^$RL_NAME:" /etc/subuid 2>/dev/null || echo "$RL_NAME:200000:65536" >> /etc/subuid
	grep -q "^$RL_NAME:" /etc/subgid 2>/dev/null || echo "$RL_NAME:200000:65536" >> /etc/subgid
}

# The first subordinate ID /etc/subuid (or subgid) grants the user.
first_sub_id() {
	awk -F: -v u="$RL_NAME" '$1 == u { print $2; exit }' "$1"
}

setup() {
	require_guest
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	mkdir -p "$RL_XDG"
	chown "$RL_UID:$RL_UID" "$RL_XDG"
	chmod 700 "$RL_XDG"
	setup_bundle
	ROOT=$RL_XDG/shim	# shim's default for the user (after setup_bundle's)
	rootless_bundle
}

teardown() {
	default_teardown
	# what podman leaves running as the user (its pause process)
	pkill -KILL -u "$RL_UID" 2>/dev/null || true
	retry 50 0.1 sh -c '! pgrep -u "$1" >/dev/null' - "$RL_UID" || true
	rm -rf "$RL_XDG"
	if [ -d /sys/fs/cgroup/shim-rl ]; then
		find /sys/fs/cgroup/shim-rl -depth -mindepth 1 -type d -exec rmdir {} + 2>/dev/null || true
		rmdir /sys/fs/cgroup/shim-rl 2>/dev/null || true
	fi
}

# The bundle as the user's own: its config from `shim spec --rootless` run
# by the user, its rootfs the user's files, every folder above searchable.
rootless_bundle() {
	local d=$BUNDLE
	rm -f "$BUNDLE/config.json"
	chown -R "$RL_UID:$RL_UID" "$BUNDLE"
	while [ "$d" != / ]; do chmod a+x "$d"; d=$(dirname "$d"); done
	as_user sh -c 'cd "$1" && "$2" spec --rootless' - "$BUNDLE" "$SHIM_BIN"
	update_config '.process.terminal = false | .process.args = ["sh", "-c", "echo hi"]'
	chown "$RL_UID:$RL_UID" "$BUNDLE/config.json"
}

# CMD as the unprivileged user, with no capability, group or environment of
# ours but its XDG_RUNTIME_DIR.
as_user() {
	setpriv --reuid="$RL_UID" --regid="$RL_UID" --clear-groups --inh-caps=-all \
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="${RL_HOME:-/}" XDG_RUNTIME_DIR="$RL_XDG" "$@"
}

# shim as the user, with its default --root; status and output as `run`'s.
# stdio on a file and fd 3 closed: a detached init keeps what it inherited.
rl_shim() {
	local out=$BATS_TEST_TMPDIR/rl.$RANDOM
	status=0
	as_user "$SHIM_BIN" "$@" < /dev/null > "$out" 2>&1 3>&- || status=$?
	output=$(cat "$out")
}

@test "rootless: spec --rootless runs as the caller, its state under XDG_RUNTIME_DIR" {
	update_config '.process.args = ["sh", "-c", "id -u; cat /proc/self/uid_map /proc/self/gid_map"]'
	rl_shim run -b "$BUNDLE" c1
	assert_success
	[ "$(echo "$output" | sed -n 1p)" = 0 ]
	[ "$(echo "$output" | sed -n 2p | tr -s ' ')" = " 0 $RL_UID 1" ]
	[ "$(echo "$output" | sed -n 3p | tr -s ' ')" = " 0 $RL_UID 1" ]
	assert_nothing_left
}

@test "rootless: the host sees the init as the caller, with no cgroup made for it" {
	update_config '.process.args = ["sleep", "1000"]'
	rl_shim run -d -b "$BUNDLE" c1
	assert_success
	[ -d "$RL_XDG/shim/c1" ]
	[ "$(stat -c %u "$RL_XDG/shim/c1")" = "$RL_UID" ]
	pid=$(shim state c1 | jq .pid)
	[ "$(awk '/^Uid:/ {print $2, $3, $4, $5}' /proc/"$pid"/status)" = "$RL_UID $RL_UID $RL_UID $RL_UID" ]
	[ "$(awk '/^CapEff:/ {print $2}' /proc/"$pid"/status)" != 0000000000000000 ]
	[ "$(readlink /proc/"$pid"/ns/user)" != "$(readlink /proc/self/ns/user)" ]
	[ "$(cgroup_folders)" = "$CGROUPS_BEFORE" ]
	rl_shim delete -f c1
	assert_success
	assert_nothing_left
}

@test "rootless: a created init's namespaces open to the user, as a network helper needs" {
	# podman starts pasta or slirp4netns between create and start, as the
	# user, on /proc/PID/ns/net: the init must stay dumpable for its user
	update_config '.process.args = ["sleep", "1000"] | .linux.namespaces += [{"type": "network"}]'
	rl_shim create -b "$BUNDLE" c1
	assert_success
	pid=$(shim state c1 | jq .pid)
	[ "$(stat -c %u /proc/"$pid"/ns)" = "$RL_UID" ]
	run as_user nsenter --user=/proc/"$pid"/ns/user --net=/proc/"$pid"/ns/net \
		--preserve-credentials true
	assert_success
	rl_shim delete -f c1
	assert_success
	assert_nothing_left
}

@test "rootless: exec, kill and delete" {
	update_config '.process.args = ["sleep", "1000"]'
	rl_shim run -d -b "$BUNDLE" c1
	assert_success
	rl_shim exec c1 sh -c 'echo $(id -u) $(cat /proc/self/uid_map)'
	assert_success
	assert_output "0 0 $RL_UID 1"
	rl_shim kill c1 KILL
	assert_success
	retry 50 0.1 status_is c1 stopped
	rl_shim delete c1
	assert_success
	[ ! -e "$RL_XDG/shim/c1" ]
	assert_nothing_left
}

@test "rootless: a bind mount and a tmpfs" {
	mkdir "$BATS_TEST_TMPDIR/data"
	chown "$RL_UID:$RL_UID" "$BATS_TEST_TMPDIR/data"
	update_config --arg s "$BATS_TEST_TMPDIR/data" '.process.args = ["sh", "-c",
		"echo written > /data/f && echo scratch > /scratch/g && cat /scratch/g"] |
		.mounts += [{"destination": "/data", "type": "bind", "source": $s,
			"options": ["rbind", "rw"]},
		{"destination": "/scratch", "type": "tmpfs", "source": "tmpfs",
			"options": ["nosuid", "nodev", "size=1m"]}]'
	rl_shim run -b "$BUNDLE" c1
	assert_success
	assert_output scratch
	[ "$(cat "$BATS_TEST_TMPDIR/data/f")" = written ]
	[ "$(stat -c %u "$BATS_TEST_TMPDIR/data/f")" = "$RL_UID" ]
	assert_nothing_left
}

@test "rootless: a read-only root, and no device but the bound ones" {
	update_config '.process.args = ["sh", "-c",
		"touch /x 2>&1 | grep -o \"Read-only file system\"; mknod /dev/sda b 8 0 2>&1 | grep -o \"Operation not permitted\"; echo z > /dev/null && echo null"]'
	rl_shim run -b "$BUNDLE" c1
	assert_success
	assert_output "Read-only file system
Operation not permitted
null"
	assert_nothing_left
}

@test "rootless: more IDs through newuidmap and newgidmap, from /etc/subuid" {
	command -v newuidmap >/dev/null || skip "uidmap is not installed (tests/install-deps)"
	local u g
	u=$(first_sub_id /etc/subuid) g=$(first_sub_id /etc/subgid)
	update_config --argjson u "$u" --argjson g "$g" '
		.linux.uidMappings += [{"containerID": 1, "hostID": $u, "size": 65536}] |
		.linux.gidMappings += [{"containerID": 1, "hostID": $g, "size": 65536}] |
		.process.user = {"uid": 1000, "gid": 1000, "additionalGids": [10]} |
		.process.args = ["sleep", "1000"]'
	rl_shim run -d -b "$BUNDLE" c1
	assert_success
	pid=$(shim state c1 | jq .pid)
	# the container's uid 1000 is the host's first subordinate one + 999
	retry 50 0.1 sh -c '[ "$(awk "/^Uid:/ {print \$2}" /proc/$1/status)" = "$2" ]' - "$pid" $((u + 999))
	[ "$(awk '/^Gid:/ {print $2}' /proc/"$pid"/status)" = $((g + 999)) ]
	[ "$(awk '/^Groups:/ {print $2}' /proc/"$pid"/status)" = $((g + 9)) ]
	rl_shim delete -f c1
	assert_success
	assert_nothing_left
}

@test "rootless: IDs /etc/subuid does not grant are refused, named, leaving nothing" {
	command -v newuidmap >/dev/null || skip "uidmap is not installed (tests/install-deps)"
	# a range below every subordinate one useradd or we hand out
	update_config '.linux.uidMappings += [{"containerID": 1, "hostID": 50000, "size": 10}]'
	rl_shim run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.uidMappings: newuidmap"
	assert_output_has "not allowed"
	assert_nothing_left
}

@test "rootless: a config without a user namespace is refused, naming linux.namespaces" {
	update_config 'del(.linux.uidMappings, .linux.gidMappings) |
		.linux.namespaces |= map(select(.type != "user"))'
	rl_shim run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.namespaces: shim runs as uid $RL_UID, not root: the container needs a user namespace"
	assert_nothing_left
}

@test "rootless: limits or a cgroupsPath with no cgroup to write are refused, named" {
	update_config '.linux.resources = {"pids": {"limit": 10}}'
	rl_shim run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.resources.pids: shim runs rootless, and may not make this cgroup"
	assert_nothing_left
	update_config 'del(.linux.resources) | .linux.cgroupsPath = "/shim-rl-denied"'
	rl_shim run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.cgroupsPath: shim runs rootless, and may not make this cgroup"
	assert_nothing_left
}

@test "rootless: what needs the host's root is refused by name" {
	update_config '.linux.namespaces += [{"type": "network"}] | .linux.netDevices = {"lo": {}}'
	rl_shim run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.netDevices: moving a host interface needs the host's root (shim runs rootless)"
	update_config 'del(.linux.netDevices) | .linux.intelRdt = {"closID": "x"}'
	rl_shim run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.intelRdt: resctrl needs the host's root (shim runs rootless)"
	update_config 'del(.linux.intelRdt)'
	rl_shim --systemd-cgroup run -b "$BUNDLE" c1
	assert_failure
	assert_output_has "--systemd-cgroup: shim runs rootless"
	assert_nothing_left
}

@test "rootless: a cgroup delegated to the user holds the container and its limits" {
	[ -e /sys/fs/cgroup/cgroup.controllers ] || skip "needs cgroup v2"
	echo "+memory +pids" > /sys/fs/cgroup/cgroup.subtree_control
	mkdir -p /sys/fs/cgroup/shim-rl/runner
	echo "+memory +pids" > /sys/fs/cgroup/shim-rl/cgroup.subtree_control
	chown -R "$RL_UID:$RL_UID" /sys/fs/cgroup/shim-rl
	CGROUPS_BEFORE=$(cgroup_folders)
	update_config '.linux.resources = {"memory": {"limit": 67108864}, "pids": {"limit": 20}} |
		.linux.cgroupsPath = "c1" |
		.process.args = ["sh", "-c", "cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/pids.max; sleep 1000"]'
	# the caller's own cgroup inside the delegated folder (root moves it,
	# then drops to the user): a relative cgroupsPath lands beside it
	out=$BATS_TEST_TMPDIR/out
	status=0
	sh -c 'echo $$ > /sys/fs/cgroup/shim-rl/runner/cgroup.procs && exec "$@"' - \
		setpriv --reuid="$RL_UID" --regid="$RL_UID" --clear-groups --inh-caps=-all \
		env -i PATH=/usr/bin:/bin XDG_RUNTIME_DIR="$RL_XDG" \
		"$SHIM_BIN" --debug run -d -b "$BUNDLE" c1 < /dev/null > "$out" 2>&1 3>&- || status=$?
	output=$(cat "$out")
	assert_success
	pid=$(shim state c1 | jq .pid)
	[ "$(cat /proc/"$pid"/cgroup)" = "0::/shim-rl/c1" ]
	[ "$(cat /sys/fs/cgroup/shim-rl/c1/memory.max)" = 67108864 ]
	[ "$(cat /sys/fs/cgroup/shim-rl/c1/pids.max)" = 20 ]
	rl_shim pause c1
	assert_success
	[ "$(container_status c1)" = paused ]
	rl_shim resume c1
	assert_success
	rl_shim update --pids-limit 30 c1
	assert_success
	[ "$(cat /sys/fs/cgroup/shim-rl/c1/pids.max)" = 30 ]
	rl_shim delete -f c1
	assert_success
	[ ! -e /sys/fs/cgroup/shim-rl/c1 ]
	assert_nothing_left
}

# podman, run by the user, with all its state in RL_HOME and its runroot,
# no network, cgroupfs, shim as its runtime.
rl_podman() {
	as_user podman --root "$RL_HOME/storage" --runroot "$RL_XDG/containers" \
		--storage-driver vfs --cgroup-manager cgroupfs --events-backend file \
		--runtime "$SHIM_BIN" --log-level=error "$@"
}

@test "rootless: podman run by the user runs a container through shim" {
	command -v podman >/dev/null || skip "podman is not installed (tests/install-deps)"
	command -v newuidmap >/dev/null || skip "uidmap is not installed (tests/install-deps)"
	RL_HOME=$BATS_TEST_TMPDIR/home
	mkdir -p "$RL_HOME"
	"$TOP/tests/payload/make-busybox-image" "$BATS_TEST_TMPDIR/layout" "$RL_HOME/busybox.tar"
	chown -R "$RL_UID:$RL_UID" "$RL_HOME"
	run rl_podman load -q -i "$RL_HOME/busybox.tar"
	assert_success
	run rl_podman run --rm --network none localhost/busybox:latest \
		sh -c 'id -u; cat /proc/self/uid_map; echo ok > /tmp/f && cat /tmp/f'
	assert_success
	[ "$(echo "$output" | sed -n 1p)" = 0 ]
	[ "$(echo "$output" | sed -n 2p | tr -s ' ')" = " 0 $RL_UID 1" ]
	[ "$(echo "$output" | sed -n 3p | tr -s ' ')" = " 1 $(first_sub_id /etc/subuid) 65536" ]
	[ "$(echo "$output" | sed -n 4p)" = ok ]
	run rl_podman ps -a -q
	assert_output ""
}
