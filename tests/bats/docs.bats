#!/usr/bin/env bats
# docs: the man page keeps up with the commands and their flags.
# host: yes

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

# The man page's text for COMMAND: from its .TP entry in COMMANDS to the
# next command's (or the section's end), escapes and fonts taken out.
man_entry() {
	local cmds
	cmds=$("$SHIM_BIN" --help | sed -n 's/^  \([a-z]*\) .*/\1/p' | paste -sd'|')
	awk -v cmd="$1" -v cmds="$cmds" '
		/^\.SH/ { in_cmds = ($0 == ".SH COMMANDS"); on = 0 }
		in_cmds && prev == ".TP" && $0 ~ "^\\.B[IR]? \"?(" cmds ")([ \"]|$)" {
			on = ($0 ~ "^\\.B[IR]? \"?" cmd "([ \"]|$)")
		}
		on { print }
		{ prev = $0 }' "$TOP/docs/shim.1" | sed 's/\\-/-/g; s/\\f[BIRP]//g'
}

@test "every flag shim VERB --help lists is in VERB's entry of the man page" {
	local c f text missing="" n=0
	for c in $("$SHIM_BIN" --help | sed -n 's/^  \([a-z]*\) .*/\1/p'); do
		text=$(man_entry "$c")
		[ -n "$text" ] || { echo "no entry for $c"; false; }
		for f in $("$SHIM_BIN" "$c" --help | grep -o -- '--[a-z-]*' | grep -v '^--help$'); do
			n=$((n + 1))
			grep -q -- "$f\b" <<< "$text" || missing="$missing $c:$f"
		done
	done
	[ -z "$missing" ] || { echo "not in shim(1):$missing"; false; }
	[ "$n" -ge 70 ]
}

@test "every global flag shim --help lists is in the man page's GLOBAL OPTIONS" {
	local f text
	text=$(sed -n '/^\.SH GLOBAL OPTIONS/,/^\.SH COMMANDS/p' "$TOP/docs/shim.1" |
		sed 's/\\-/-/g; s/\\f[BIRP]//g')
	local n=0
	for f in $("$SHIM_BIN" --help | sed -n 's/^usage: //p' | grep -o -- '--[a-z-]*'); do
		n=$((n + 1))
		grep -q -- "$f\b" <<< "$text" || { echo "$f not in GLOBAL OPTIONS"; false; }
	done
	[ "$n" -ge 6 ]
}

@test "shim VERB --help lists the verb's flags, -h too" {
	run "$SHIM_BIN" exec --help
	assert_success
	assert_output_has "-t, --tty"
	assert_output_has "    --cwd VALUE"
	run "$SHIM_BIN" update -h
	assert_success
	assert_output_has "-r, --resources VALUE"
	assert_output_has "--pids-limit VALUE"
	run "$SHIM_BIN" start --help
	assert_success
	[[ "$output" != *flags:* ]]
}

@test "docs/code-map.md names every source file of shim/ and oci/" {
	local f base dir missing="" n=0
	while read -r f; do
		n=$((n + 1))
		dir=${f%/*} base=${f##*/}
		grep -q "\`$f\`" "$TOP/docs/code-map.md" ||
			grep -q "^| \`$dir/${base%.*}\.[ch]\` .*\`$base\`" "$TOP/docs/code-map.md" ||
			missing="$missing $f"
	done < <(cd "$TOP" && find shim oci -name '*.[ch]' | sort)
	[ -z "$missing" ] || { echo "not in docs/code-map.md:$missing"; false; }
	[ "$n" -ge 150 ]
}

@test "every function design.md's stage table names is defined in the file named after it" {
	local row tok pending="" n=0 missing=""
	while read -r row; do
		# tokens in order: `function`s, each group followed by its (file)
		for tok in $(grep -o '`[a-z_0-9]*`\|([a-z_/]*\.c)' <<< "$row"); do
			case $tok in
			\`*) pending="$pending ${tok//\`/}" ;;
			\(*)
				tok=${tok#(} tok=${tok%)}
				[ -e "$TOP/$tok" ] || missing="$missing $tok"
				for fn in $pending; do
					n=$((n + 1))
					grep -q "^[a-z].*[ *]$fn(" "$TOP/$tok" || missing="$missing $tok:$fn"
				done
				pending="" ;;
			esac
		done
		# functions after the row's last file are in that same file
		[ -z "$pending" ] || missing="$missing (no file for:$pending)"
		pending=""
	done < <(sed -n '/^| stage | function (file) |/,/^$/p' "$TOP/docs/design.md" | tail -n +3 |
		sed 's/^| [^|]* |//')
	[ -z "$missing" ] || { echo "not found:$missing"; false; }
	[ "$n" -ge 30 ]
}

@test "the layers hold: oci/base includes nothing above it, oci/ nothing of shim/" {
	local bad
	bad=$(cd "$TOP" && grep -n '#include "' oci/base/*.[ch] | grep -v '#include "oci/base/' || true)
	[ -z "$bad" ] || { echo "oci/base reaches up: $bad"; false; }
	bad=$(cd "$TOP" && grep -rn '#include "shim/' oci || true)
	[ -z "$bad" ] || { echo "oci/ includes shim/: $bad"; false; }
	[ "$(cd "$TOP" && ls oci/base/*.h | wc -l)" -ge 5 ]
}
