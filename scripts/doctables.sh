#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The generated blocks of the documentation. A block sits between two
# marker lines of a Markdown file,
#
#   <!-- begin NAME: ... -->
#   ...
#   <!-- end NAME -->
#
# and only this script writes what is between them, so a table that
# commands produce cannot be edited by hand by mistake and go stale.
#
#   doctables.sh kernels        README.md's supported-kernels table from
#                               scripts/kernels.tab (make doctables)
#   doctables.sh check          exit 1, naming the file, when README.md's
#                               table differs from what kernels.tab gives
#   doctables.sh get FILE NAME  print block NAME of FILE
#   doctables.sh put FILE NAME  replace block NAME of FILE with stdin
#   doctables.sh steps          a Markdown table of the step lines of a
#                               scripts/check.sh summary read on stdin
#
# scripts/matrix.sh writes Documentation/kernels.md's block "matrix",
# scripts/vm/bench.sh Documentation/bench.md's block "bench" and
# scripts/vm/scale.sh its block "scale" with put.

# Self-contained: no kernel lookup (scripts/lib.sh resolves $KVER when
# sourced), so the tables can be written on any host.
TOP=$(cd "$(dirname "$0")/.." && pwd)
msg() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
# ktab: the lines of scripts/kernels.tab, comments and blank lines left out
ktab() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/scripts/kernels.tab"; }

# markers FILE NAME: the line numbers of NAME's begin and end markers;
# dies, naming the file, unless there is exactly one of each, in order.
markers() {
	local b e
	[ -f "$1" ] || die "$1: no such file"
	b=$(grep -n "^<!-- begin $2[: ]" "$1" | cut -d: -f1)
	e=$(grep -n "^<!-- end $2 -->" "$1" | cut -d: -f1)
	[ "$(echo "$b" | wc -w)" = 1 ] && [ "$(echo "$e" | wc -w)" = 1 ] ||
		die "$1: needs exactly one '<!-- begin $2: ... -->' and one '<!-- end $2 -->' line"
	[ "$b" -lt "$e" ] || die "$1: block $2 ends before it begins"
	echo "$b $e"
}

# get FILE NAME
block_get() {
	local b e
	read -r b e < <(markers "$1" "$2") || exit 1
	sed -n "$((b + 1)),$((e - 1))p" "$1"
}

# put FILE NAME: the file is replaced only once the new text is complete.
block_put() {
	local b e new
	read -r b e < <(markers "$1" "$2") || exit 1
	new=$(mktemp "$1.XXXXXX") || die "cannot write next to $1"
	{
		head -n "$b" "$1"
		cat
		tail -n "+$e" "$1"
	} >"$new" || { rm -f "$new"; die "cannot write $new"; }
	chmod --reference="$1" "$new"
	mv "$new" "$1"
}

# series ERE: the kernel series a release pattern pins ("6.12"), or
# empty when the suite's newest series is meant.
series() { sed -nE 's/^\^([0-9]+)\\\.([0-9]+)\\\..*/\1.\2/p' <<<"$1"; }

# scope CHECK: the check column in words.
scope() {
	case $1 in
	-) echo "-" ;;
	all) echo "all scenarios" ;;
	*,*) echo "scenarios ${1//,/, }" ;;
	*) echo "scenario $1" ;;
	esac
}

# kernels_table: the supported-kernels table, from scripts/kernels.tab.
kernels_table() {
	local name suites family re check status full s
	echo "| short name | Debian suites | series | built with the userland of | status | VM scenarios: \`make check\` | \`make check-full\`, \`make matrix\` |"
	echo "|---|---|---|---|---|---|---|"
	# columns: name suites family release check status qemu full; a
	# table without the "full" column runs the check lists in both
	while read -r name suites family re check status _ full _; do
		s=$(series "$re")
		printf '| `%s` | %s | %s | %s | %s | %s | %s |\n' "$name" "${suites//,/, }" \
			"${s:-newest the suite carries}" "$family" "$status" "$(scope "$check")" \
			"$(scope "${full:-$check}")"
	done < <(ktab)
}

# steps_table: check.sh's summary lines ("  PASS  name (12 s)",
# "  FAIL  name (exit 2, 12 s)") as a table; other lines are skipped.
steps_table() {
	echo "| step | result | seconds |"
	echo "|---|---|---|"
	sed -nE 's/^ *(PASS|FAIL)  (.*) \((exit [0-9]+, )?([0-9]+) s\)$/| \2 | \1 | \4 |/p'
}

kernels_block() {
	echo "<!-- generated: edit scripts/kernels.tab, then run make doctables -->"
	kernels_table
}

case ${1:-} in
kernels)
	kernels_block | block_put "$TOP/README.md" kernels
	msg "README.md: kernel table written from scripts/kernels.tab"
	;;
check)
	if ! diff -u <(block_get "$TOP/README.md" kernels) <(kernels_block) >&2; then
		die "README.md: the kernel table differs from scripts/kernels.tab; run make doctables"
	fi
	;;
get)
	[ $# = 3 ] || die "usage: $0 get FILE NAME"
	block_get "$2" "$3"
	;;
steps)
	steps_table
	;;
put)
	[ $# = 3 ] || die "usage: $0 put FILE NAME < text"
	block_put "$2" "$3"
	;;
*)
	die "usage: $0 kernels | check | steps | get FILE NAME | put FILE NAME"
	;;
esac
