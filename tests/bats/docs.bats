#!/usr/bin/env bats
# docs: the man page keeps up with the commands.

load helpers

@test "every command shim --help lists has an entry in the man page shim(1)" {
	local cmds
	cmds=$("$SHIM_BIN" --help | sed -n 's/^  \([a-z]*\) .*/\1/p')
	[ "$(wc -w <<< "$cmds")" -ge 15 ]
	for c in $cmds; do
		grep -A1 '^\.TP' "$TOP/docs/shim.1" | grep -Eq "^\.B[IR]? \"?$c\b" ||
			{ echo "no .TP entry for $c in docs/shim.1"; false; }
	done
}
