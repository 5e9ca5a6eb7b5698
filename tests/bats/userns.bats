#!/usr/bin/env bats
# host: yes
# A new user namespace: the runtime writes the ID maps while the init
# waits; the init then acts as the namespace's root.

load helpers

setup() {
	require_guest
	setup_bundle sh -c 'echo $(id -u) $(cat /proc/self/uid_map)'
	MAP='[{"containerID": 0, "hostID": 100000, "size": 65536}]'
	# the container's root (host uid 100000) must reach the rootfs, as with
	# runc: bats makes its folders 0700
	local d=$BUNDLE
	while [ "$d" != / ]; do chmod a+x "$d"; d=$(dirname "$d"); done
}

with_user_ns() {
	update_config --argjson m "$MAP" '.linux.namespaces += [{"type": "user"}] |
		.linux.uidMappings = $m | .linux.gidMappings = $m'
}

@test "the container's root is the host ID the mapping gives" {
	with_user_ns
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "0 0 100000 65536"
	assert_nothing_left
}

@test "the host sees the init as the mapped uid and gid" {
	with_user_ns
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	pid=$(shim state c1 | jq .pid)
	[ "$(awk '/^Uid:/ {print $2}' /proc/"$pid"/status)" = 100000 ]
	[ "$(awk '/^Gid:/ {print $2}' /proc/"$pid"/status)" = 100000 ]
	[ "$(readlink /proc/"$pid"/ns/user)" != "$(readlink /proc/self/ns/user)" ]
}

@test "exec joins the container's user namespace" {
	with_user_ns
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec c1 sh -c 'echo $(id -u) $(cat /proc/self/uid_map)'
	assert_success
	assert_output "0 0 100000 65536"
}

@test "a mapping that leaves container ID 0 out is refused and leaves nothing" {
	MAP='[{"containerID": 1000, "hostID": 100000, "size": 10}]'
	with_user_ns
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.uidMappings: container ID 0 is not mapped"
	assert_nothing_left
}

@test "mappings without a new user namespace, and a user namespace without them, are refused" {
	update_config --argjson m "$MAP" '.linux.uidMappings = $m | .linux.gidMappings = $m'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.uidMappings: mappings need a user namespace in linux.namespaces"
	setup_bundle true
	update_config '.linux.namespaces += [{"type": "user"}]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.uidMappings: a new user namespace needs uidMappings and gidMappings"
	assert_nothing_left
}

# A user namespace held by a sleeping process, mapped as $MAP: HOLDER.
# Whether process PID is in another user namespace than ours.
in_own_user_ns() {
	[ "$(readlink "/proc/$1/ns/user")" != "$(readlink /proc/self/ns/user)" ]
}

start_holder() {
	unshare --user sleep 1000 < /dev/null > /dev/null 2>&1 3>&- &
	HOLDER=$!
	retry 50 0.1 in_own_user_ns "$HOLDER"
	echo "0 100000 65536" > /proc/$HOLDER/uid_map
	echo "0 100000 65536" > /proc/$HOLDER/gid_map
}

teardown() {
	[ -z "${HOLDER:-}" ] || kill "$HOLDER" 2>/dev/null || true
	default_teardown
}

join_holder() {
	update_config --arg p "/proc/$HOLDER/ns/user" '.linux.namespaces += [{"type": "user", "path": $p}]'
}

@test "a user namespace joined by path is the container's, its new namespaces owned by it" {
	start_holder
	join_holder
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	pid=$(shim state c1 | jq .pid)
	[ "$(readlink /proc/$pid/ns/user)" = "$(readlink /proc/$HOLDER/ns/user)" ]
	[ "$(readlink /proc/$pid/ns/mnt)" != "$(readlink /proc/self/ns/mnt)" ]
	[ "$(awk '/^Uid:/ {print $2}' /proc/$pid/status)" = 100000 ]
	run shim exec c1 sh -c 'echo $(id -u) $(cat /proc/self/uid_map)'
	assert_success
	assert_output "0 0 100000 65536"
}

@test "an init joining a user namespace, non-dumpable, still gets its oomScoreAdj and timeOffsets" {
	start_holder
	join_holder
	update_config '.process.oomScoreAdj = 300 |
		.linux.namespaces += [{"type": "time"}] |
		.linux.timeOffsets = {"boottime": {"secs": 1000000}} |
		.process.args = ["sh", "-c", "cat /proc/self/oom_score_adj; cut -d. -f1 /proc/uptime"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	[ "${lines[0]}" = 300 ]
	[ "${lines[1]}" -ge 1000000 ]
	assert_nothing_left
}

@test "a joined user namespace takes a bind mount and a tmpfs" {
	start_holder
	join_holder
	mkdir -p "$BATS_TEST_TMPDIR/root-only/inner"
	echo from-the-host > "$BATS_TEST_TMPDIR/root-only/inner/f"
	chmod 700 "$BATS_TEST_TMPDIR/root-only"
	update_config --arg s "$BATS_TEST_TMPDIR/root-only/inner" \
		'.process.args = ["sh", "-c", "cat /tmp/f; grep -c \" /root tmpfs\" /proc/mounts"] |
		.mounts += [{"destination": "/tmp", "type": "bind", "source": $s, "options": ["rbind", "ro"]},
		{"destination": "/root", "type": "tmpfs", "source": "tmpfs"}]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "from-the-host
1"
	assert_nothing_left
}

@test "mappings that match the joined user namespace are taken, others refused by name" {
	start_holder
	join_holder
	update_config --argjson m "$MAP" '.linux.uidMappings = $m | .linux.gidMappings = $m'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "0 0 100000 65536"
	update_config '.linux.uidMappings[0].hostID = 200000'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.uidMappings: differ from the joined user namespace's (0 100000 65536)"
	assert_nothing_left
}

@test "a rootfs the container's root cannot reach is named" {
	with_user_ns
	mkdir -m 0700 "$BATS_TEST_TMPDIR/private"
	mv "$BUNDLE" "$BATS_TEST_TMPDIR/private/"
	BUNDLE=$BATS_TEST_TMPDIR/private/bundle
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "root.path: $BUNDLE/rootfs is out of reach of the container's root (host uid 100000)"
	assert_nothing_left
}

# An ext4 image on a loop device: 6.1's tmpfs and overlayfs cannot be idmapped.
make_ext4() {
	IMG_DIR=$BATS_TEST_TMPDIR/ext4
	truncate -s 8M "$BATS_TEST_TMPDIR/fs.img"
	mkfs.ext4 -q "$BATS_TEST_TMPDIR/fs.img"
	mkdir "$IMG_DIR"
	mount -o loop "$BATS_TEST_TMPDIR/fs.img" "$IMG_DIR"
	echo data > "$IMG_DIR/f"
	chmod 755 "$IMG_DIR"
}

idmapped_mount() {
	update_config --arg s "$IMG_DIR" --argjson m "$MAP" --arg o "${1:-idmap}" \
		'.mounts += [{"destination": "/root", "type": "bind", "source": $s,
		"options": ["rbind", $o], "uidMappings": $m, "gidMappings": $m}]'
}

@test "an idmapped mount shows the filesystem's owners as the container's" {
	make_ext4
	setup_bundle sh -c 'stat -c "%u %g" /root/f; echo new > /root/g'
	with_user_ns
	idmapped_mount
	run shim run -b "$BUNDLE" c1
	umount "$IMG_DIR"
	assert_success
	assert_output "0 0"
}

@test "what the container's root writes through an idmapped mount is owned by root on disk" {
	make_ext4
	setup_bundle sh -c 'echo new > /root/g'
	with_user_ns
	idmapped_mount ridmap
	run shim run -b "$BUNDLE" c1
	owner=$(stat -c "%u %g" "$IMG_DIR/g")
	umount "$IMG_DIR"
	assert_success
	[ "$owner" = "0 0" ]
}

@test "ID mappings on a bind mount idmap it without the idmap option" {
	make_ext4
	setup_bundle stat -c "%u %g" /root/f
	with_user_ns
	update_config --arg s "$IMG_DIR" --argjson m "$MAP" \
		'.mounts += [{"destination": "/root", "type": "bind", "source": $s,
		"options": ["rbind"], "uidMappings": $m, "gidMappings": $m}]'
	run shim run -b "$BUNDLE" c1
	umount "$IMG_DIR"
	assert_success
	assert_output "0 0"
}

@test "a mount with uidMappings but no gidMappings is refused, named" {
	update_config --argjson m "$MAP" '.mounts += [{"destination": "/root", "type": "bind",
		"source": "/tmp", "options": ["rbind"], "uidMappings": $m}]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "mounts[7] (/root): idmap needs uidMappings and gidMappings on the mount (invalid mount)"
	assert_nothing_left
}

@test "idmap without mappings on the mount, or on a non-bind mount, is refused" {
	update_config '.mounts += [{"destination": "/root", "type": "bind", "source": "/tmp",
		"options": ["rbind", "idmap"]}]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "mounts[7] (/root): idmap needs uidMappings and gidMappings on the mount"
	setup_bundle true
	update_config --argjson m "$MAP" '.mounts += [{"destination": "/root", "type": "tmpfs",
		"source": "tmpfs", "options": ["idmap"], "uidMappings": $m, "gidMappings": $m}]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "mounts[7] (/root): idmap: only a bind mount can be idmapped"
	assert_nothing_left
}

@test "a bind source only host root can reach is mounted into a new user namespace" {
	with_user_ns
	# /root-only/inner: the container's root (host uid 100000) cannot search
	# /root-only, so the runtime opens the source for it
	mkdir -p "$BATS_TEST_TMPDIR/root-only/inner"
	echo hidden-data > "$BATS_TEST_TMPDIR/root-only/inner/f"
	chmod 700 "$BATS_TEST_TMPDIR/root-only"
	chmod 755 "$BATS_TEST_TMPDIR/root-only/inner"
	update_config --arg s "$BATS_TEST_TMPDIR/root-only/inner" \
		'.process.args = ["sh", "-c", "cat /tmp/f; touch /tmp/g 2>/dev/null || echo read-only"] |
		.mounts += [{"destination": "/tmp", "type": "bind", "source": $s,
		"options": ["rbind", "ro"]}]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "hidden-data
read-only"
	[ ! -e "$BATS_TEST_TMPDIR/root-only/inner/g" ]
	assert_nothing_left
}

@test "a missing bind source in a user namespace is named by the init" {
	with_user_ns
	update_config '.mounts += [{"destination": "/tmp", "type": "bind",
		"source": "/no/such/source", "options": ["rbind"]}]'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "(/tmp): source /no/such/source: no such file or directory"
	assert_nothing_left
}

@test "a process.user the user namespace does not map fails create, named, leaving nothing" {
	with_user_ns
	update_config '.process.user.uid = 70000'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "process.user.uid: setuid 70000: invalid argument"
	assert_nothing_left
}

# A folder of the container's uid 1000 whose group the namespace does not
# map: its root may not enter it (capabilities reach only an inode whose
# owner and group are both mapped), uid 1000 may, as its owner.
only_user_1000_folder() {
	mkdir -p "$BUNDLE/rootfs/home/u"
	chown "${1:-101000}:0" "$BUNDLE/rootfs/home/u"
	chmod 700 "$BUNDLE/rootfs/home/u"
}

@test "a process.cwd only process.user may enter is entered as that user, as runc does" {
	with_user_ns
	only_user_1000_folder
	update_config '.process.user.uid = 1000 | .process.user.gid = 1000 |
		.process.cwd = "/home/u" | .process.args = ["sh", "-c", "pwd; id -u"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "/home/u
1000"
	assert_nothing_left
}

@test "exec --user into a process.cwd only that user may enter" {
	with_user_ns
	only_user_1000_folder
	update_config '.process.args = ["sleep", "1000"]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec --user 1000:1000 --cwd /home/u c1 sh -c 'pwd; id -u'
	assert_success
	assert_output "/home/u
1000"
}

@test "a process.cwd process.user may not enter either fails create, named, leaving nothing" {
	with_user_ns
	only_user_1000_folder 102000
	update_config '.process.user.uid = 1000 | .process.user.gid = 1000 |
		.process.cwd = "/home/u"'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "process.cwd: chdir /home/u: permission denied"
	assert_nothing_left
}

@test "tmpcopyup in a user namespace copies with the image's owners, as the namespace sees them" {
	with_user_ns
	mkdir -p "$BUNDLE/rootfs/dir1"
	echo kept > "$BUNDLE/rootfs/dir1/file"
	chown 100123:100456 "$BUNDLE/rootfs/dir1/file"
	chown 100000:100000 "$BUNDLE/rootfs/dir1"
	update_config '.mounts += [{"destination": "/dir1", "type": "tmpfs", "source": "tmpfs",
		"options": ["tmpcopyup"]}] | .process.args = ["sh", "-c", "stat -c \"%u %g\" /dir1/file; cat /dir1/file"]'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output "123 456
kept"
}
