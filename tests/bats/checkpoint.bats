#!/usr/bin/env bats
# host: yes
# checkpoint and restore through CRIU (criu swrk): a counter that goes on
# counting, --leave-running, a new ID, pre-dump then dump, bind mounts and
# tmpfs, stdio pipes handed over, failures that leave the container as it
# was (checkpoint) or nothing behind (restore), and podman's
# `container checkpoint` / `restore` with shim as its runtime.

load helpers

setup() {
	require_guest
	command -v criu > /dev/null || skip "criu is not installed (tests/install-deps)"
	# on a host, a kernel newer than its criu (vdso) fails every dump
	[ -z "${SHIM_TESTS_ON_HOST:-}" ] || criu check > /dev/null 2>&1 ||
		skip "criu check fails on this host's kernel"
	IMAGES=$BATS_TEST_TMPDIR/images
	OUT=$BATS_TEST_TMPDIR/out
	mkdir -p "$OUT"
}

teardown() {
	[ -z "${ROOT:-}" ] || for id in c1 c2; do shim delete -f "$id" > /dev/null 2>&1 || true; done
	# a podman test that failed midway: its container and conmon go
	[ -z "${PODMAN_USED:-}" ] || pm rm -f -a > /dev/null 2>&1 || true
}

# A busybox bundle whose process appends 1, 2, 3... to /out/log (a bind
# mount of $OUT) five times a second, its stdio on the container's own
# /dev/null.
setup_counter() {
	setup_bundle sh -c 'exec < /dev/null > /dev/null 2>&1; i=0
		while true; do i=$((i + 1)); echo $i >> /out/log; usleep 200000; done'
	update_config --arg out "$OUT" '.mounts += [{"destination": "/out", "type": "bind",
		"source": $out, "options": ["rbind", "rw"]}]'
}

# The counter running as c1, past its first numbers.
run_counter() {
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	retry 100 0.1 count_past 2
}

# The counter's last number (0 before the first).
last_count() {
	tail -n 1 "$OUT/log" 2>/dev/null || echo 0
}

# The log holds 1..N with no number missing or repeated.
count_unbroken() {
	local log
	log=$(cat "$OUT/log")	# read once: the counter goes on writing
	[ "$(seq 1 "$(tail -n 1 <<< "$log")")" = "$log" ] || {
		echo "the count is broken:"; tr '\n' ' ' <<< "$log"; echo
		return 1
	}
}

count_past() {
	[ "$(last_count)" -gt "$1" ]
}

@test "a checkpointed counter restored goes on counting from where it was" {
	setup_counter
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	retry 100 0.1 count_past 3
	run shim checkpoint --image-path "$IMAGES" c1
	assert_success
	# dumped: the container and its processes are gone
	run shim state c1
	assert_failure
	n=$(last_count)
	sleep 1
	[ "$(last_count)" -eq "$n" ]
	shim_detached restore -d --image-path "$IMAGES" -b "$BUNDLE" c1
	assert_success
	[ "$(container_status c1)" = running ]
	retry 100 0.1 count_past $((n + 3))
	count_unbroken
}

@test "a bind mount whose destination is a link in the rootfs is dumped and restored, as runc" {
	setup_counter
	# the image's /out leads to /data: the mount is made, and found, there
	mkdir "$BUNDLE/rootfs/data"
	ln -s /data "$BUNDLE/rootfs/out"
	run_counter
	run shim checkpoint --image-path "$IMAGES" c1
	assert_success
	n=$(last_count)
	shim_detached restore -d --image-path "$IMAGES" -b "$BUNDLE" c1
	assert_success
	retry 100 0.1 count_past $((n + 3))
	count_unbroken
}

@test "nested bind mounts are restored after their mount point left the outer source, as runc" {
	local outer=$BATS_TEST_TMPDIR/outer inner=$BATS_TEST_TMPDIR/inner
	mkdir -p "$outer" "$inner"
	echo nested > "$inner/f"
	setup_counter
	update_config --arg o "$outer" --arg i "$inner" '.mounts += [
		{"destination": "/test", "type": "bind", "source": $o, "options": ["rbind", "rw"]},
		{"destination": "/test/for/nested", "type": "bind", "source": $i, "options": ["rbind", "rw"]}]'
	run_counter
	run shim checkpoint --image-path "$IMAGES" c1
	assert_success
	n=$(last_count)
	# what create made in the outer source goes: restore makes it again
	rm -rf "${outer:?}"/*
	shim_detached restore -d --image-path "$IMAGES" -b "$BUNDLE" c1
	assert_success
	retry 100 0.1 count_past $((n + 3))
	run shim exec c1 cat /test/for/nested/f
	assert_success
	assert_output nested
}

@test "a container in a network namespace joined by path is restored into it, as runc" {
	local ns=shim-ext-$$ pid
	ip netns add $ns
	setup_counter
	update_config --arg p /run/netns/$ns \
		'.linux.namespaces |= map(if .type == "network" then .path = $p else . end)'
	run_counter
	run shim checkpoint --image-path "$IMAGES" c1
	assert_success
	n=$(last_count)
	shim_detached restore -d --image-path "$IMAGES" -b "$BUNDLE" c1
	status_now=$status
	out_now=$output
	local want got counting=0
	pid=$(shim state c1 | jq .pid) || true
	want=$(stat -L -c %i /run/netns/$ns)
	got=$(stat -L -c %i /proc/$pid/ns/net) || true
	retry 100 0.1 count_past $((n + 2)) || counting=1
	shim delete -f c1 || true
	ip netns del $ns
	status=$status_now
	output=$out_now
	assert_success
	[ "$got" = "$want" ]
	[ $counting = 0 ]
}

@test "checkpoint --leave-running dumps and keeps the container running" {
	setup_counter
	run_counter
	run shim checkpoint --leave-running --image-path "$IMAGES" c1
	assert_success
	[ "$(container_status c1)" = running ]
	n=$(last_count)
	retry 100 0.1 count_past $((n + 2))
	[ -s "$IMAGES/inventory.img" ]
	[ -s "$IMAGES/descriptors.json" ]
}

@test "a checkpoint is restored under a new ID" {
	setup_counter
	run_counter
	run shim checkpoint --image-path "$IMAGES" c1
	assert_success
	n=$(last_count)
	shim_detached restore -d --image-path "$IMAGES" -b "$BUNDLE" c2
	assert_success
	[ "$(container_status c2)" = running ]
	run shim state c1
	assert_failure
	retry 100 0.1 count_past $((n + 2))
	count_unbroken
	run shim list -q
	assert_output c2
}

@test "a pre-dump then a dump with --parent-path restore the counter" {
	setup_counter
	run_counter
	run shim checkpoint --pre-dump --image-path "$IMAGES/pre" c1
	assert_success
	# a pre-dump leaves the container running
	[ "$(container_status c1)" = running ]
	n=$(last_count)
	retry 100 0.1 count_past $((n + 2))
	run shim checkpoint --image-path "$IMAGES/final" --parent-path ../pre c1
	assert_success
	[ -L "$IMAGES/final/parent" ]
	n=$(last_count)
	shim_detached restore -d --image-path "$IMAGES/final" -b "$BUNDLE" c1
	assert_success
	retry 100 0.1 count_past $((n + 2))
	count_unbroken
}

@test "a tmpfs comes back with what it held, a bind mount from its source" {
	setup_counter
	update_config '.mounts += [{"destination": "/scratch", "type": "tmpfs",
		"source": "tmpfs", "options": ["size=1m"]}]'
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim exec c1 sh -c 'echo kept in tmpfs > /scratch/note'
	assert_success
	run shim checkpoint --image-path "$IMAGES" c1
	assert_success
	shim_detached restore -d --image-path "$IMAGES" -b "$BUNDLE" c1
	assert_success
	run shim exec c1 cat /scratch/note
	assert_success
	assert_output "kept in tmpfs"
	run shim exec c1 sh -c 'grep -c " /out " /proc/self/mountinfo; echo from inside > /out/note'
	assert_success
	assert_output 1
	[ "$(cat "$OUT/note")" = "from inside" ]
}

@test "the restored init is held by the runtime: state, cgroup, kill, delete" {
	setup_counter
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run shim checkpoint --image-path "$IMAGES" c1
	assert_success
	shim_detached restore -d --image-path "$IMAGES" -b "$BUNDLE" --pid-file "$OUT/pid" c1
	assert_success
	pid=$(shim state c1 | jq -r .pid)
	[ "$pid" = "$(cat "$OUT/pid")" ]
	# in the restored container's own cgroup, which state names
	cg=$(cat "$ROOT/c1/cgroup")
	[ "$(cut -d: -f3 "/proc/$pid/cgroup")" = "$cg" ] ||
		{ echo "init in $(cat "/proc/$pid/cgroup"), container cgroup $cg"; false; }
	# nothing of the runtime or of CRIU among its fds: only /dev/null
	for fd in /proc/"$pid"/fd/*; do
		[ "$(readlink "$fd")" = /dev/null ] ||
			{ echo "restored init holds $fd -> $(readlink "$fd")"; false; }
	done
	run shim kill c1 KILL
	assert_success
	retry 50 0.1 sh -c "[ \"\$(\"$SHIM_BIN\" --root \"$ROOT\" state c1 | jq -r .status)\" = stopped ]"
	run shim delete c1
	assert_success
	assert_nothing_left
}

@test "a restored process's stdout pipe is the one restore was given" {
	setup_bundle sh -c 'i=0; while true; do i=$((i + 1)); echo line $i; usleep 200000; done'
	# stdio all pipes: a file of the host's (its /dev/null) is outside
	# what CRIU can dump
	true | "$SHIM_BIN" --root "$ROOT" run -d -b "$BUNDLE" c1 2>&1 3>&- | cat > "$OUT/before" &
	retry 100 0.1 grep -q "line 3" "$OUT/before"
	run shim checkpoint --image-path "$IMAGES" c1
	assert_success
	grep -q 'pipe:\[' "$IMAGES/descriptors.json"
	true | "$SHIM_BIN" --root "$ROOT" restore -d --image-path "$IMAGES" -b "$BUNDLE" c1 2>&1 \
		3>&- | cat > "$OUT/after" &
	retry 100 0.1 grep -q "line" "$OUT/after"
	# the count goes on in the new pipe
	first=$(head -n 1 "$OUT/after" | cut -d' ' -f2)
	last=$(tail -n 1 "$OUT/before" | cut -d' ' -f2)
	[ "$first" -eq $((last + 1)) ] || { echo "before ended at $last, after began at $first"; false; }
}

# recvtty on a socket of the test's, copying a pty to $BATS_TEST_TMPDIR/NAME.out
start_receiver() {
	SOCK=$BATS_TEST_TMPDIR/$1.sock
	"$PAYLOAD/recvtty" "$SOCK" "$BATS_TEST_TMPDIR/$1.out" > "$BATS_TEST_TMPDIR/$1.log" 2>&1 3>&- &
	retry 50 0.1 test -S "$SOCK"
}

# The last "tick N" a pty copy holds.
last_tick() {
	tr -d '\r' < "$BATS_TEST_TMPDIR/$1.out" | sed -n 's/^tick //p' | tail -n 1
}

@test "a restored terminal's new pty master goes to --console-socket" {
	setup_bundle sh -c 'i=0; while true; do i=$((i + 1)); echo tick $i; usleep 200000; done'
	update_config '.process.terminal = true'
	start_receiver before
	shim_detached run -d --console-socket "$SOCK" -b "$BUNDLE" c1
	assert_success
	retry 100 0.1 grep -q "tick 3" "$BATS_TEST_TMPDIR/before.out"
	run shim checkpoint --image-path "$IMAGES" c1
	assert_success
	n=$(last_tick before)
	start_receiver after
	shim_detached restore -d --console-socket "$SOCK" --image-path "$IMAGES" -b "$BUNDLE" c1
	assert_success
	retry 100 0.1 grep -q "tick" "$BATS_TEST_TMPDIR/after.out"
	grep -qx "received a terminal" "$BATS_TEST_TMPDIR/after.log"
	first=$(tr -d '\r' < "$BATS_TEST_TMPDIR/after.out" | sed -n 's/^tick //p' | head -n 1)
	[ "$first" -gt "$n" ] || { echo "before ended at $n, after began at $first"; false; }
}

@test "a checkpoint that CRIU refuses leaves the container running" {
	setup_counter
	# fd 3, a file of the host's, is beyond what CRIU can dump
	exec 5> "$OUT/host-file"
	"$SHIM_BIN" --root "$ROOT" run -d --preserve-fds 1 -b "$BUNDLE" c1 \
		< /dev/null > /dev/null 2>&1 3>&5 5>&-
	exec 5>&-
	retry 100 0.1 count_past 2
	update_config '.process.args = ["true"]'	# not read again: the saved config is
	run shim checkpoint --image-path "$IMAGES" c1
	assert_failure
	assert_output_has "checkpoint c1"
	assert_output_has "dump.log"
	[ "$(container_status c1)" = running ]
	n=$(last_count)
	retry 100 0.1 count_past $((n + 2))
}

@test "a restore that fails leaves nothing behind" {
	setup_counter
	mkdir -p "$IMAGES"
	echo '["/dev/null", "/dev/null", "/dev/null"]' > "$IMAGES/descriptors.json"
	run shim restore -d --image-path "$IMAGES" -b "$BUNDLE" c1
	assert_failure
	assert_output_has "restore c1"
	assert_nothing_left
}

@test "checkpoint and restore refuse what they cannot do, naming it" {
	setup_bundle sleep 1000
	shim_detached create -b "$BUNDLE" c1
	assert_success
	run shim checkpoint --image-path "$IMAGES" c1
	assert_failure
	assert_output_has "container c1 cannot be checkpointed in created state"
	run shim checkpoint --manage-cgroups-mode bogus c1
	assert_failure
	assert_output_has '--manage-cgroups-mode: "bogus" is not soft, full, strict or ignore'
	run shim checkpoint --lazy-pages c1
	assert_failure
	assert_output_has "--lazy-pages is not supported"
	run shim restore --empty-ns pid -b "$BUNDLE" c2
	assert_failure
	assert_output_has '--empty-ns: namespace "pid" is not supported'
	run shim restore -d --image-path "$IMAGES/none" -b "$BUNDLE" c2
	assert_failure
	assert_output_has "--image-path"
	run shim state c2
	assert_failure
}

# podman with all its state in this file's folder, cgroupfs, no network,
# shim as its runtime (as engines.bats has it).
pm() {
	podman --root "$BATS_FILE_TMPDIR/podman/root" --runroot /run/shim-checkpoint-podman \
		--storage-driver vfs --cgroup-manager cgroupfs --events-backend file \
		--runtime "$SHIM_BIN" --log-level=error "$@"
}

pm_count() {
	pm exec cr1 cat /tmp/count
}

pm_count_past() {
	[ "$(pm_count)" -gt "$1" ]
}

@test "podman checkpoints and restores a container through shim" {
	command -v podman > /dev/null || skip "podman is not installed (tests/install-deps)"
	PODMAN_USED=1
	"$TOP/tests/payload/make-busybox-image" "$BATS_TEST_TMPDIR/layout" "$BATS_TEST_TMPDIR/bb.tar"
	pm load -q -i "$BATS_TEST_TMPDIR/bb.tar"
	run pm run -d --network none --name cr1 localhost/busybox:latest sh -c \
		'i=0; while true; do i=$((i + 1)); echo $i > /tmp/c; mv /tmp/c /tmp/count; usleep 100000; done'
	assert_success
	retry 100 0.2 pm_count_past 10
	n=$(pm_count)
	run pm container checkpoint cr1
	assert_success
	[ "$(pm inspect -f '{{.State.Status}}' cr1)" = exited ]
	run pm container restore cr1
	assert_success
	[ "$(pm inspect -f '{{.State.Status}} {{.OCIRuntime}}' cr1)" = "running $SHIM_BIN" ]
	# the count goes on from memory: a new start would be back below n
	[ "$(pm_count)" -ge "$n" ]
	retry 100 0.2 pm_count_past $((n + 5))
	run pm rm -f cr1
	assert_success
	no_process_with "usleep 100000" conmon
}
