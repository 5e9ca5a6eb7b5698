#!/usr/bin/env bats
# host: yes
# linux.netDevices: a host interface lent to the container, renamed there
# with its addresses and up, and given back (down, its host name, its
# addresses) when the container is deleted or its create fails.

load helpers

setup() {
	require_guest
	# a veth pair: shimA goes into the container, shimB stays as its peer
	ip link add shimA type veth peer name shimB
	ip addr add 10.99.0.2/24 dev shimA
	ip addr add fd99::2/64 dev shimA
	ip addr add 10.99.0.1/24 dev shimB
	ip link set shimB up
}

teardown() {
	default_teardown
	ip link del shimA 2>/dev/null || ip link del shimB 2>/dev/null || true
}

lend() {
	update_config '.linux.netDevices = {"shimA": {"name": "ctr0"}}'
}

# The container's root with every capability (ping, ip link set).
all_caps() {
	update_config 'del(.process.capabilities)'
}

# shimA is on the host, down, with both its addresses.
assert_given_back() {
	run ip -o link show shimA
	assert_success
	[[ "$output" != *"<"*"UP"*">"* ]] || { echo "shimA is up: $output"; return 1; }
	run ip -o addr show dev shimA
	assert_output_has "inet 10.99.0.2/24"
	assert_output_has "inet6 fd99::2/64"
}

@test "netDevices: the interface is in the container under its new name, up, with its addresses" {
	setup_bundle sh -c 'ip -o addr show dev ctr0; cat /sys/class/net/ctr0/operstate;
		ip link show shimA 2>&1; true'
	lend
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output_has "inet 10.99.0.2/24"
	assert_output_has "inet6 fd99::2/64"
	assert_output_has $'\nup\n'
	assert_output_has "can't find device 'shimA'"
	assert_nothing_left
}

@test "netDevices: the container reaches the host through it" {
	setup_bundle ping -c 1 -W 5 10.99.0.1
	lend
	all_caps
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output_has "1 packets received"
}

@test "netDevices: the host does not see the interface while the container holds it" {
	setup_bundle sleep 1000
	lend
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	run ip link show shimA
	assert_failure
	run ip link show ctr0
	assert_failure
}

@test "netDevices: delete gives the interface back down, under its host name, with its addresses" {
	setup_bundle true
	lend
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_given_back
	run ip link show ctr0
	assert_failure
}

@test "netDevices: the interface outlives a stopped init until delete" {
	setup_bundle true
	lend
	shim_detached create -b "$BUNDLE" c1
	assert_success
	shim start c1
	wait_for_status c1 stopped
	# a veth would die with a namespace nobody holds; the hold keeps it
	run ip link show shimA
	assert_failure
	shim delete c1
	assert_given_back
	assert_nothing_left
}

@test "netDevices: a container can be made twice with the same interface" {
	setup_bundle sh -c 'ip -o -4 addr show dev ctr0'
	lend
	run shim run -b "$BUNDLE" c1
	assert_output_has "inet 10.99.0.2/24"
	run shim run -b "$BUNDLE" c2
	assert_success
	assert_output_has "inet 10.99.0.2/24"
	assert_given_back
}

@test "netDevices: an interface the host lacks fails create, named, the others given back" {
	setup_bundle true
	update_config '.linux.netDevices = {"shimA": {"name": "ctr0"}, "nope0": {}}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.netDevices.nope0: no such interface on the host"
	assert_given_back
	assert_nothing_left
}

@test "netDevices: a create that fails after the move gives the interface back" {
	setup_bundle true
	lend
	shim_detached create --pidfd-socket "$BATS_TEST_TMPDIR/nobody" -b "$BUNDLE" c1
	assert_failure
	assert_output_has "--pidfd-socket"
	assert_given_back
	assert_nothing_left
}

@test "netDevices: without a network namespace of its own, refused by name" {
	setup_bundle true
	lend
	update_config '.linux.namespaces |= map(select(.type != "network"))'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.netDevices: needs a network namespace of the container's own"
	assert_nothing_left
	ip link show shimA
}

@test "netDevices: the loopback cannot be lent, named" {
	setup_bundle true
	update_config '.linux.netDevices = {"lo": {"name": "lo2"}}'
	shim_detached create -b "$BUNDLE" c1
	assert_failure
	assert_output_has "linux.netDevices.lo: moving it"
	assert_nothing_left
	ip link show lo
}

@test "netDevices: lent to a container with a user namespace, and given back" {
	setup_bundle sh -c 'ip -o -4 addr show dev ctr0'
	local d=$BUNDLE
	while [ "$d" != / ]; do chmod a+x "$d"; d=$(dirname "$d"); done
	lend
	update_config --argjson m '[{"containerID": 0, "hostID": 100000, "size": 65536}]' \
		'.linux.namespaces += [{"type": "user"}] | .linux.uidMappings = $m |
		 .linux.gidMappings = $m'
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output_has "inet 10.99.0.2/24"
	assert_given_back
	assert_nothing_left
}

@test "netDevices: what the container did to the interface's name and addresses stays in it" {
	# renamed, given an address, and a new interface under the lent name
	setup_bundle sh -c 'ip link set ctr0 down && ip link set ctr0 name other0 &&
		ip addr add 10.66.0.1/24 dev other0 &&
		ip link add ctr0 type veth peer name fake1 && ip addr add 10.67.0.1/24 dev ctr0'
	lend
	all_caps
	links_before=$(ip -o link show | wc -l)
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_given_back
	run ip -o addr show
	[[ "$output" != *10.66.0.1* && "$output" != *10.67.0.1* ]] || { show_run; false; }
	run ip link show fake1
	assert_failure
	[ "$(ip -o link show | wc -l)" -eq "$links_before" ]
	assert_nothing_left
}

@test "netDevices: an interface the container removed is said, and nothing is left" {
	setup_bundle ip link del ctr0
	lend
	all_caps
	run shim run -b "$BUNDLE" c1
	assert_success
	assert_output_has "linux.netDevices.shimA: the interface lent as ctr0 is no longer in the container"
	assert_nothing_left
	# a veth goes with its peer
	run ip link show shimB
	assert_failure
}

@test "netDevices: an interface the container made at the lent index stays in it" {
	setup_bundle sleep 1000
	lend
	shim_detached run -d -b "$BUNDLE" c1
	assert_success
	pid=$(shim state c1 | jq .pid)
	index=$(nsenter --net="/proc/$pid/ns/net" ip -o link show ctr0 | cut -d: -f1)
	# the container's root with CAP_NET_ADMIN there: the lent veth
	# destroyed, one of its own made at the same index, its peer kept
	nsenter --net="/proc/$pid/ns/net" ip link del ctr0
	nsenter --net="/proc/$pid/ns/net" ip link add name ctr0 index "$index" type veth peer name fake1
	run shim delete -f c1
	assert_success
	assert_output_has "linux.netDevices.shimA: what is at index $index in the container (veth) is not the interface lent (veth, peer outside): left there"
	run ip link show ctr0
	assert_failure
	run ip link show fake1
	assert_failure
	run ip link show shimA
	assert_failure
	assert_nothing_left
}

@test "netDevices: features says they are supported" {
	run "$SHIM_BIN" features
	assert_success
	[ "$(jq -c .linux.netDevices <<< "$output")" = '{"enabled":true}' ]
}
