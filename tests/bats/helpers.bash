# Shared by every bats file; load with `load helpers`.
# Tests run in the QEMU guest (tests/vm/run), as root, from the checkout.

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
BUILD=${SHIM_BUILD:-$TOP/.build}
PAYLOAD=$BUILD/payload

# Print what ran and what it said, so a failing test shows why.
show_run() {
	echo "# status: $status"
	printf '# output: %s\n' "$output"
}

# Fail unless $output is exactly the expected text.
assert_output() {
	if [ "$output" != "$1" ]; then
		echo "expected output: $1"
		show_run
		return 1
	fi
}

assert_success() {
	if [ "$status" -ne 0 ]; then
		show_run
		return 1
	fi
}

require_guest() {
	[ -n "${SHIM_KERNEL_RELEASE:-}" ] || skip "runs only in the QEMU guest (tests/vm/run)"
}
