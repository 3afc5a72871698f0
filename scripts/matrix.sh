#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make matrix`: every kernel of scripts/kernels.tab whose "full" column
# is not "-" (MATRIX_ALL=1: every line; MATRIX="trixie sid": those
# names) through build, lint and the VM scenarios its line names, then
# the kernel x {build, lint, vmtest} table. MATRIX_TIER=check takes the
# "check" column instead (make check's shorter lists). Each step runs even when an
# earlier one failed; the exit status is non-zero when any failed.
#
#   MATRIX_REPORT=1  print the table of the last runs only (no run)
#   MATRIX_STEPS     "build lint vmtest" (default) or a subset
#   MATRIX_SCENARIOS scenario list for every kernel instead of the table's
#   MATRIX_DOC=1     also write the table into Documentation/kernels.md
#                    (block "matrix") and README.md's kernel table from
#                    scripts/kernels.tab (scripts/doctables.sh); done by
#                    default after a run of every step for the default
#                    kernels (plain `make matrix`); MATRIX_DOC=0: never
#
# Per-kernel results are kept in build/matrix/<release>.txt (one line per
# step), so the table of a partly re-run matrix still shows the others;
# <release>.when holds the date and tree of the kernel's last run.

. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

OUT=$BUILD/matrix
mkdir -p "$OUT"
STEPS=${MATRIX_STEPS:-build lint vmtest}
# the kernels.tab column of the scenario lists: 5 check, 8 full
case ${MATRIX_TIER:-full} in
check) COL=5 ;;
full) COL=8 ;;
*) die "MATRIX_TIER=${MATRIX_TIER}: use check or full" ;;
esac

# names: the kernels to run.
names() {
	if [ -n "${MATRIX:-}" ]; then
		echo "$MATRIX"
	elif [ "${MATRIX_ALL:-0}" = 1 ]; then
		ktab_names
	else
		ktab | awk -v c="$COL" '$c != "-" {print $1}'
	fi
}

# record REL STEP RESULT SECONDS DETAIL
record() {
	local f=$OUT/$1.txt
	touch "$f"
	grep -v "^$2 " "$f" >"$f.new"
	printf '%s %s %s %s\n' "$2" "$3" "$4" "$5" >>"$f.new"
	mv "$f.new" "$f"
}

# run_kernel NAME: build, lint and vmtest for the current release of NAME.
run_kernel() {
	local name=$1 rel only log t0 rc summary c
	rel=$(kver_resolve "$name") || return 1
	only=${MATRIX_SCENARIOS:-$(ktab_field "$name" "$COL")}
	local steps=$STEPS
	# "-": build and lint only (a line MATRIX= or MATRIX_ALL=1 named)
	[ "$only" = - ] && steps=${steps//vmtest/}
	[ "$only" = all ] || [ "$only" = - ] && only=
	msg "matrix: $name ($rel)"
	for step in $steps; do
		log=$OUT/$rel.$step.log
		t0=$SECONDS
		case $step in
		build) KVER=$rel make -s module >"$log" 2>&1 ;;
		lint) KVER=$rel make -s lint >"$log" 2>&1 ;;
		vmtest) KVER=$rel VMTEST_ONLY="${only//,/ }" make -s vmtest >"$log" 2>&1 ;;
		*) die "MATRIX_STEPS: unknown step $step" ;;
		esac
		rc=$?
		# the scripts' shellcheck does not depend on the kernel: once per matrix
		[ "$step" = lint ] && export LINT_SHELL=0
		summary=$([ $rc -eq 0 ] && echo ok || echo FAIL)
		if [ "$step" = vmtest ]; then
			summary=$(grep -oE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1 |
				sed 's/, /\//')
			[ -n "$summary" ] || summary=FAIL
			[ $rc -eq 0 ] || summary="$summary!"
		fi
		record "$rel" "$step" "$summary" $((SECONDS - t0)) "${log#"$TOP"/}"
		msg "  $step: $summary ($((SECONDS - t0)) s; log ${log#"$TOP"/})"
		[ $rc -eq 0 ] || failed=$((failed + 1))
	done
	echo "$name" >"$OUT/$rel.name"
	c=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null) || c=unknown
	tree_dirty && c+=-dirty
	echo "$(date -u +%F) $c" >"$OUT/$rel.when"
}

# cell REL STEP: "<result>" of a recorded step, "-" when never run.
cell() { awk -v s="$2" '$1 == s {r = $2; for (i = 3; i <= NF - 2; i++) r = r " " $i; print r}' "$OUT/$1.txt"; }

# secs REL: the recorded seconds of each step, "build/lint/vmtest".
secs() { awk '{t[$1] = $(NF - 1)} END {print t["build"] "/" t["lint"] "/" t["vmtest"] " s"}' "$OUT/$1.txt"; }

# table: one line per kernel with recorded results.
table() {
	local f rel name fmt='%-18s %-22s %-6s %-6s %-18s %-17s %s\n'
	printf "$fmt" kernel release build lint vmtest scenarios "time (build/lint/vmtest)"
	for name in $(ktab_names); do
		for f in "$OUT"/*.name; do
			[ -e "$f" ] && [ "$(cat "$f")" = "$name" ] || continue
			rel=$(basename "$f" .name)
			printf "$fmt" "$name" "$rel" "$(cell "$rel" build)" "$(cell "$rel" lint)" \
				"$(cell "$rel" vmtest)" "$(ktab_field "$name" "$COL")" "$(secs "$rel")"
		done
	done
}

# dcell REL STEP: cell, "-" for a step that never ran.
dcell() { local c; c=$(cell "$1" "$2"); echo "${c:--}"; }

# doc_rows: the table's rows in Markdown, one per kernel with records.
doc_rows() {
	local f rel name when
	for name in $(ktab_names); do
		for f in "$OUT"/*.name; do
			[ -e "$f" ] && [ "$(cat "$f")" = "$name" ] || continue
			rel=$(basename "$f" .name)
			# records older than the .when files: the results file's date
			when=$(cat "$OUT/$rel.when" 2>/dev/null ||
				echo "$(date -u -r "$OUT/$rel.txt" +%F) ?")
			printf '| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$rel" \
				"$(dcell "$rel" build)" "$(dcell "$rel" lint)" "$(dcell "$rel" vmtest)" \
				"$(ktab_field "$name" "$COL")" "$(secs "$rel")" "${when% *}" "${when#* }"
		done
	done
}

# write_doc: Documentation/kernels.md's block "matrix", with this run's
# rows replacing those of the same kernels and the others kept, in the
# order of scripts/kernels.tab; README.md's kernel table from kernels.tab.
write_doc() {
	local doc=$TOP/Documentation/kernels.md rows name
	rows=$(doc_rows)
	{
		echo "<!-- generated by make matrix (scripts/matrix.sh): each row is the last run of its kernel -->"
		echo "| kernel | release | build | lint | vmtest | scenarios | time (build/lint/vmtest) | run on (UTC) | tree |"
		echo "|---|---|---|---|---|---|---|---|---|"
		for name in $(ktab_names); do
			if grep -q "^| \`$name\` " <<<"$rows"; then
				grep "^| \`$name\` " <<<"$rows"
			else
				"$TOP/scripts/doctables.sh" get "$doc" matrix | grep "^| \`$name\` "
			fi
		done
	} >"$OUT/doc.md" || true
	"$TOP/scripts/doctables.sh" put "$doc" matrix <"$OUT/doc.md" &&
		msg "matrix: table written into ${doc#"$TOP"/}" &&
		"$TOP/scripts/doctables.sh" kernels
}

failed=0
if [ "${MATRIX_REPORT:-0}" != 1 ]; then
	for n in $(names); do
		[ -n "$(ktab | awk -v n="$n" '$1 == n')" ] ||
			die "MATRIX: no kernel named $n in scripts/kernels.tab ($(ktab_names | xargs))"
		run_kernel "$n" || failed=$((failed + 1))
	done
	echo
fi
table | tee "$OUT/table.txt"
# the documentation's table: asked for, or a whole default matrix run
doc=${MATRIX_DOC:-}
if [ -z "$doc" ]; then
	doc=0
	[ "${MATRIX_REPORT:-0}" != 1 ] && [ -z "${MATRIX:-}" ] && [ "${MATRIX_ALL:-0}" != 1 ] &&
		[ "${MATRIX_TIER:-full}" = full ] && [ -z "${MATRIX_SCENARIOS:-}" ] &&
		[ "$STEPS" = "build lint vmtest" ] && doc=1
fi
[ "$doc" = 1 ] && { write_doc || failed=$((failed + 1)); }
[ $failed -eq 0 ] || { echo "matrix: $failed step(s) failed"; exit 1; }
