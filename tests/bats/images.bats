#!/usr/bin/env bats
# host: yes
# images: `shim unpack LAYOUT[:NAME] BUNDLE` turns an OCI image layout into a
# bundle: layers in order, whiteouts honoured, every path kept inside the
# rootfs, blobs checked against their digests, the image config mapped into
# config.json. The busybox image is built locally and stored by skopeo.

load helpers

setup_file() {
	export IMAGE=$BATS_FILE_TMPDIR/layout
	"$TOP/tests/payload/make-busybox-image" "$IMAGE"
}

setup() {
	require_guest
	ROOT=$BATS_TEST_TMPDIR/root
	OUT=$BATS_TEST_TMPDIR/bundle
	MOUNTS_BEFORE=$(wc -l < /proc/self/mountinfo)
	CGROUPS_BEFORE=$(cgroup_folders)
}

# blob FILE: store FILE as a blob of $LAYOUT; prints its descriptor's
# "digest size".
blob() {
	local sum size
	sum=$(sha256sum < "$1" | cut -d' ' -f1)
	size=$(stat -c %s "$1")
	mkdir -p "$LAYOUT/blobs/sha256"
	cp "$1" "$LAYOUT/blobs/sha256/$sum"
	echo "sha256:$sum $size"
}

# make_layout DIR USER TAR...: a one-image OCI layout by hand (no skopeo),
# for layers skopeo would not write: its config has User and Cmd `id`.
make_layout() {
	local tar d s layers='[]' ids='[]' cfg man
	LAYOUT=$1
	local user=$2
	shift 2
	mkdir -p "$LAYOUT"
	echo '{"imageLayoutVersion": "1.0.0"}' > "$LAYOUT/oci-layout"
	for tar in "$@"; do
		read -r d s < <(blob "$tar")
		layers=$(jq -c --arg d "$d" --argjson s "$s" \
			'. + [{"mediaType": "application/vnd.oci.image.layer.v1.tar",
			       "digest": $d, "size": $s}]' <<< "$layers")
		ids=$(jq -c --arg d "$d" '. + [$d]' <<< "$ids")
	done
	cfg=$BATS_TEST_TMPDIR/config.json
	jq -n --arg u "$user" --argjson ids "$ids" '{"os": "linux", "architecture": "amd64",
		"config": {"User": $u, "Cmd": ["id"]},
		"rootfs": {"type": "layers", "diff_ids": $ids}}' > "$cfg"
	read -r d s < <(blob "$cfg")
	man=$BATS_TEST_TMPDIR/manifest.json
	jq -n --arg d "$d" --argjson s "$s" --argjson l "$layers" '{"schemaVersion": 2,
		"mediaType": "application/vnd.oci.image.manifest.v1+json",
		"config": {"mediaType": "application/vnd.oci.image.config.v1+json",
			   "digest": $d, "size": $s}, "layers": $l}' > "$man"
	read -r d s < <(blob "$man")
	jq -n --arg d "$d" --argjson s "$s" '{"schemaVersion": 2, "manifests": [{
		"mediaType": "application/vnd.oci.image.manifest.v1+json",
		"digest": $d, "size": $s}]}' > "$LAYOUT/index.json"
}

# layer_tar NAME DIR [TAR-FLAGS...]: NAME.tar of DIR's content, root-owned.
layer_tar() {
	local name=$1 dir=$2
	shift 2
	tar --numeric-owner --owner=0 --group=0 -C "$dir" -cf "$BATS_TEST_TMPDIR/$name.tar" "$@" .
	echo "$BATS_TEST_TMPDIR/$name.tar"
}

# The busybox rootfs as one layer tar.
busybox_layer() {
	layer_tar base "$BUILD/busybox-rootfs"
}

@test "unpack stacks the layers in order and honours whiteouts" {
	run "$SHIM_BIN" unpack "$IMAGE:busybox" "$OUT"
	assert_success
	[ "$(cat "$OUT/rootfs/layer2")" = "layer 2" ]
	[ "$(cat "$OUT/rootfs/opt/new")" = new ]
	[ -x "$OUT/rootfs/bin/busybox" ]
	[ "$(readlink "$OUT/rootfs/bin/sh")" = busybox ]
	# .wh.motd hid /etc/motd, the opaque marker all that /opt held below
	[ ! -e "$OUT/rootfs/etc/motd" ] && [ -e "$OUT/rootfs/etc/passwd" ]
	[ "$(ls -A "$OUT/rootfs/opt")" = new ]
	# the whiteout files themselves are not part of the rootfs
	[ -z "$(find "$OUT/rootfs" -name '.wh.*')" ]
	[ "$(stat -c %a "$OUT/rootfs/tmp")" = 1777 ]
}

@test "the unpacked bundle runs the image's command with its env and working dir" {
	"$SHIM_BIN" unpack "$IMAGE" "$OUT"
	[ "$(jq -r .process.cwd "$OUT/config.json")" = /opt ]
	[ "$(jq -r '.annotations["org.example.built-by"]' "$OUT/config.json")" = make-busybox-image ]
	[ "$(jq -r .process.terminal "$OUT/config.json")" = false ]
	run "$SHIM_BIN" --root "$ROOT" run -b "$OUT" c1
	assert_success
	assert_output "hello from the image"
	BUNDLE=$OUT
	update_config '.process.args = ["sh", "-c", "pwd; echo $GREETING"]'
	run "$SHIM_BIN" --root "$ROOT" run -b "$OUT" c2
	assert_success
	assert_output "/opt
hello from the image"
	assert_nothing_left
}

@test "the image's User is resolved in the rootfs's own passwd and group files" {
	mkdir -p "$BATS_TEST_TMPDIR/users/etc"
	printf 'root:x:0:0::/:/bin/sh\napp:x:1000:1001::/:/bin/sh\n' > "$BATS_TEST_TMPDIR/users/etc/passwd"
	printf 'root:x:0:\napp:x:1001:\nstaff:x:1002:app\n' > "$BATS_TEST_TMPDIR/users/etc/group"
	base=$(busybox_layer)
	users=$(layer_tar users "$BATS_TEST_TMPDIR/users")
	for case in "app 1000 1001" "app:staff 1000 1002" "1234 1234 0" "1234:5 1234 5"; do
		read -r user uid gid <<< "$case"
		rm -rf "$OUT" "$BATS_TEST_TMPDIR/l"
		make_layout "$BATS_TEST_TMPDIR/l" "$user" "$base" "$users"
		run "$SHIM_BIN" unpack "$LAYOUT" "$OUT"
		assert_success
		[ "$(jq -c .process.user "$OUT/config.json")" = "{\"uid\":$uid,\"gid\":$gid}" ] ||
			{ echo "User $user: $(jq -c .process.user "$OUT/config.json")"; false; }
	done
	run "$SHIM_BIN" --root "$ROOT" run -b "$OUT" c1
	assert_output "uid=1234 gid=5"
}

@test "a User the image does not know is named and no bundle is left" {
	make_layout "$BATS_TEST_TMPDIR/l" ghost "$(busybox_layer)"
	run "$SHIM_BIN" unpack "$LAYOUT" "$OUT"
	assert_failure
	assert_output_has "config.User \"ghost\": user \"ghost\": not in the image's /etc/passwd"
	[ ! -e "$OUT" ]
}

@test "a symlink in a layer cannot send a later file out of the rootfs" {
	# /tmp is in the rootfs and on the host: the file must land in the first
	local name=escape-$$-$RANDOM
	mkdir -p "$BATS_TEST_TMPDIR/evil1" "$BATS_TEST_TMPDIR/evil2/abs" "$BATS_TEST_TMPDIR/evil2/rel"
	ln -s /tmp "$BATS_TEST_TMPDIR/evil1/abs"
	ln -s ../../../../../../../../tmp "$BATS_TEST_TMPDIR/evil1/rel"
	echo a > "$BATS_TEST_TMPDIR/evil2/abs/$name-a"
	echo r > "$BATS_TEST_TMPDIR/evil2/rel/$name-r"
	# layer 2 holds only the files, not its own abs/ and rel/ folders
	tar --numeric-owner --owner=0 --group=0 -C "$BATS_TEST_TMPDIR/evil2" \
		-cf "$BATS_TEST_TMPDIR/evil2.tar" "abs/$name-a" "rel/$name-r"
	make_layout "$BATS_TEST_TMPDIR/l" "" "$(busybox_layer)" \
		"$(layer_tar evil1 "$BATS_TEST_TMPDIR/evil1")" "$BATS_TEST_TMPDIR/evil2.tar"
	run "$SHIM_BIN" unpack "$LAYOUT" "$OUT"
	assert_success
	[ ! -e "/tmp/$name-a" ] && [ ! -e "/tmp/$name-r" ]
	[ "$(cat "$OUT/rootfs/tmp/$name-a")" = a ]
	[ "$(cat "$OUT/rootfs/tmp/$name-r")" = r ]
}

@test "a layer entry with .. in its path is refused, named, and no bundle is left" {
	mkdir -p "$BATS_TEST_TMPDIR/d"
	echo x > "$BATS_TEST_TMPDIR/d/f"
	(cd "$BATS_TEST_TMPDIR/d" && tar -P -cf "$BATS_TEST_TMPDIR/dotdot.tar" ../d/f)
	make_layout "$BATS_TEST_TMPDIR/l" "" "$(busybox_layer)" "$BATS_TEST_TMPDIR/dotdot.tar"
	run "$SHIM_BIN" unpack "$LAYOUT" "$OUT"
	assert_failure
	assert_output_has 'layer 1 ('
	assert_output_has 'entry ../d/f: ".." in the path'
	[ ! -e "$OUT" ]
}

@test "a layer entry owned by uid 2^32 is refused, not made root's, and no bundle is left" {
	mkdir -p "$BATS_TEST_TMPDIR/d"
	echo x > "$BATS_TEST_TMPDIR/d/f"
	chmod 4755 "$BATS_TEST_TMPDIR/d/f"
	tar --numeric-owner --owner=0 --group=0 -C "$BATS_TEST_TMPDIR/d" -cf "$BATS_TEST_TMPDIR/wide.tar" ./f
	# the uid field in base-256 (GNU): 2^32, which a 32-bit uid_t wraps to 0
	perl -e 'open(my $f, "+<", $ARGV[0]) or die; binmode $f; read($f, my $h, 512) == 512 or die;
		substr($h, 108, 8) = "\x80\x00\x00\x01\x00\x00\x00\x00"; substr($h, 148, 8) = " " x 8;
		substr($h, 148, 8) = sprintf("%06o\0 ", unpack("%32C*", $h));
		seek($f, 0, 0); print $f $h;' "$BATS_TEST_TMPDIR/wide.tar"
	make_layout "$BATS_TEST_TMPDIR/l" "" "$(busybox_layer)" "$BATS_TEST_TMPDIR/wide.tar"
	run "$SHIM_BIN" unpack "$LAYOUT" "$OUT"
	assert_failure
	assert_output_has 'entry ./f: owner 4294967296:0 is not a uid:gid'
	[ ! -e "$OUT" ]
}

@test "a blob whose content does not match its digest is refused and no bundle is left" {
	cp -r "$IMAGE" "$BATS_TEST_TMPDIR/bad"
	big=$(ls -S "$BATS_TEST_TMPDIR/bad/blobs/sha256" | head -n 1)
	printf 'X' | dd of="$BATS_TEST_TMPDIR/bad/blobs/sha256/$big" bs=1 seek=100 conv=notrunc 2>/dev/null
	run "$SHIM_BIN" unpack "$BATS_TEST_TMPDIR/bad" "$OUT"
	assert_failure
	assert_output_has "blob sha256:$big: its content has digest sha256:"
	[ ! -e "$OUT" ]
}

@test "unpack names what is wrong: an existing bundle, an unknown name, not a layout" {
	mkdir "$OUT"
	run "$SHIM_BIN" unpack "$IMAGE" "$OUT"
	assert_failure
	assert_output_has "bundle $OUT exists already"
	[ -z "$(ls -A "$OUT")" ]
	rmdir "$OUT"
	run "$SHIM_BIN" unpack "$IMAGE:nope" "$OUT"
	assert_failure
	assert_output_has 'no image named "nope" for linux/amd64 in index.json'
	[ ! -e "$OUT" ]
	run "$SHIM_BIN" unpack "$BATS_TEST_TMPDIR" "$OUT"
	assert_failure
	assert_output_has "$BATS_TEST_TMPDIR is not an OCI image layout"
	run "$SHIM_BIN" unpack "$IMAGE"
	assert_failure
	assert_output_has "usage: shim unpack LAYOUT[:NAME] BUNDLE"
}

@test "unpack keeps the image's set-uid program, device node and open folder from the host's other users" {
	local d=$BATS_TEST_TMPDIR/priv
	mkdir -p "$d/bin" "$d/dev" "$d/open"
	cp "$BUILD/busybox-rootfs/bin/busybox" "$d/bin/suid"
	chmod 4755 "$d/bin/suid"
	mknod -m 666 "$d/dev/kmsg" c 1 11
	chmod 0777 "$d/open"
	make_layout "$BATS_TEST_TMPDIR/l" "" "$(busybox_layer)" "$(layer_tar priv "$d")"
	run "$SHIM_BIN" unpack "$LAYOUT" "$OUT"
	assert_success
	# inside, every file is as the image has it: the container needs them
	[ "$(stat -c %a "$OUT/rootfs/bin/suid")" = 4755 ]
	[ "$(stat -c '%F %a' "$OUT/rootfs/dev/kmsg")" = "character special file 666" ]
	[ "$(stat -c %a "$OUT/rootfs/open")" = 777 ]
	# the bundle folder is the host's root's alone
	[ "$(stat -c '%a %u' "$OUT")" = "700 0" ]
	run setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "$OUT/rootfs/bin/suid id -u"
	assert_failure
	assert_output_has "Permission denied"
	run setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "head -c 1 $OUT/rootfs/dev/kmsg"
	assert_failure
	run setpriv --reuid=65534 --regid=65534 --clear-groups touch "$OUT/rootfs/open/x"
	assert_failure
	[ ! -e "$OUT/rootfs/open/x" ]
}

@test "a whiteout .wh.. or .wh... is refused, named, and the folder above the rootfs is unchanged" {
	local name d
	for name in .wh.. .wh...; do
		d=$BATS_TEST_TMPDIR/wh
		rm -rf "$d" "$OUT" "$BATS_TEST_TMPDIR/l"
		mkdir -p "$d/etc"
		: > "$d/etc/$name"
		make_layout "$BATS_TEST_TMPDIR/l" "" "$(busybox_layer)" "$(layer_tar wh "$d")"
		echo keep > "$BATS_TEST_TMPDIR/sibling"
		run "$SHIM_BIN" unpack "$LAYOUT" "$OUT"
		assert_failure
		assert_output_has "whiteout $name names no file"
		[ ! -e "$OUT" ]
		[ "$(cat "$BATS_TEST_TMPDIR/sibling")" = keep ]
	done
}

# point_index_at FILE: store FILE as a blob and make index.json name it as the
# image's manifest.
point_index_at() {
	local d s
	read -r d s < <(blob "$1")
	jq --arg d "$d" --argjson s "$s" '.manifests[0].digest = $d | .manifests[0].size = $s' \
		"$LAYOUT/index.json" > "$BATS_TEST_TMPDIR/i.json"
	mv "$BATS_TEST_TMPDIR/i.json" "$LAYOUT/index.json"
}

@test "a blob longer than its descriptor stops the unpack, and no bundle is left" {
	local man
	make_layout "$BATS_TEST_TMPDIR/l" "" "$(busybox_layer)"
	# the layer's descriptor says one byte less than the blob holds
	man=$(jq -r '.manifests[0].digest' "$LAYOUT/index.json" | cut -d: -f2)
	jq '.layers[0].size -= 1' "$LAYOUT/blobs/sha256/$man" > "$BATS_TEST_TMPDIR/m.json"
	point_index_at "$BATS_TEST_TMPDIR/m.json"
	run "$SHIM_BIN" unpack "$LAYOUT" "$OUT"
	assert_failure
	assert_output_has "longer than the"
	assert_output_has "bytes its descriptor says"
	[ ! -e "$OUT" ]
}

@test "a layer whose uncompressed digest is not the config's diff_id is refused, and no bundle is left" {
	local cfg man d s
	make_layout "$BATS_TEST_TMPDIR/l" "" "$(busybox_layer)"
	man=$(jq -r '.manifests[0].digest' "$LAYOUT/index.json" | cut -d: -f2)
	cfg=$(jq -r '.config.digest' "$LAYOUT/blobs/sha256/$man" | cut -d: -f2)
	jq '.rootfs.diff_ids[0] = "sha256:" + ("0" * 64)' "$LAYOUT/blobs/sha256/$cfg" > "$BATS_TEST_TMPDIR/c.json"
	read -r d s < <(blob "$BATS_TEST_TMPDIR/c.json")
	jq --arg d "$d" --argjson s "$s" '.config.digest = $d | .config.size = $s' \
		"$LAYOUT/blobs/sha256/$man" > "$BATS_TEST_TMPDIR/m.json"
	point_index_at "$BATS_TEST_TMPDIR/m.json"
	run "$SHIM_BIN" unpack "$LAYOUT" "$OUT"
	assert_failure
	assert_output_has "its uncompressed content has digest sha256:"
	assert_output_has "rootfs.diff_ids says sha256:0000"
	[ ! -e "$OUT" ]
}
