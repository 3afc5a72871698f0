#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make ab`: run one vmtest scenario many times in several
# configurations ("cells") and count kernel faults per cell: the A/B
# table that tells a fault of this module from one of the emulator or of
# the kernel below it.
#
#   AB_SCENARIO   scenario number or name (default 7)
#   AB_RUNS       runs per cell (default 20)
#   AB_CELLS      cells, each MODULE:QEMU:SMP (default
#                 "ours:system:1 ours:backports:1 stock:system:1");
#                 MODULE ours|stock (both sides), QEMU as VM_QEMU, SMP as
#                 VM_SMP
#   KVER          the kernel (short names work)
#   AB_RUNS=0 prints the table of the runs recorded so far
#
# A run's outcome: "fault" when either guest log has a kernel fault
# (Oops, BUG, double fault, general protection, panic) or a process was
# killed by a signal; else "rig" when a guest's virtio-net transmit queue
# stalled (NETDEV WATCHDOG: the emulated link, not the stack, failed);
# else "pass" or "fail" (the scenario's own checks;
# with the stock module the scenario's checks are expected to fail, the
# faults are what counts). Runs alternate between cells, so a slow drift
# of the host affects every cell alike. Results accumulate in
# build/ab/<release>/runs.txt (one line per run); the table is printed
# from all runs recorded there (AB_RESET=1 starts over).

set -uo pipefail
VMDIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/vm/lib.sh
. "$VMDIR/lib.sh"

SCEN=${AB_SCENARIO:-7}
RUNS=${AB_RUNS:-20}
read -r -a CELLS <<<"${AB_CELLS:-ours:system:1 ours:backports:1 stock:system:1}"
OUT=$BUILD/ab/$KVER
mkdir -p "$OUT"
[ "${AB_RESET:-0}" = 1 ] && rm -f "$OUT/runs.txt"
FAULT_RE='double fault|BUG:|Oops|general protection|Kernel panic|segfault|killed by signal|SIGSEGV'

# one_run CELL: one vmtest run of the scenario in CELL; appends a line
# "cell scenario outcome seconds logdir first-fault-line" to runs.txt.
one_run() {
	local cell=$1 mod qemu smp ko log dir t0 outcome fault
	IFS=: read -r mod qemu smp <<<"$cell"
	ko=
	[ "$mod" = stock ] && ko=stock
	log=$(mktemp)
	t0=$SECONDS
	RPCRDMA_KO=${ko:-${RPCRDMA_KO:-}} VM_QEMU=$qemu VM_SMP=$smp VMTEST_ONLY=$SCEN \
		"$VMDIR/vmtest.sh" >"$log" 2>&1
	outcome=$([ $? -eq 0 ] && echo pass || echo fail)
	dir=$(sed -n 's/.*(logs: \(build\/vm\/[^)]*\)\/).*/\1/p' "$log" | tail -1)
	fault=$(grep -ahE "$FAULT_RE" "$TOP/$dir"/*/*.log 2>/dev/null | tr -d '\r' | head -1 | cut -c1-120)
	# a kernel fault counts whatever set it off; without one, a stalled
	# virtio-net queue (scenario 14's rig fault) makes the run say nothing
	if [ -n "$fault" ]; then
		outcome=fault
	elif grep -aqsE 'NETDEV WATCHDOG|TX timeout on queue' "$TOP/$dir"/*/*.log; then
		outcome=rig
		fault=$(grep -ahm1 -E 'NETDEV WATCHDOG|TX timeout on queue' "$TOP/$dir"/*/*.log | tr -d '\r' | cut -c1-120)
	fi
	[ -n "$dir" ] || { outcome=error; fault=$(tail -1 "$log"); }
	printf '%s %s %s %s %s %s\n' "$cell" "$SCEN" "$outcome" $((SECONDS - t0)) "${dir:--}" "${fault:--}" >>"$OUT/runs.txt"
	msg "ab: $cell run: $outcome ($((SECONDS - t0)) s) ${fault:+-- $fault}"
	rm -f "$log"
}

table() {
	local key cell sc rows
	printf '%-24s %-9s %5s %6s %5s %5s %4s %s\n' cell scenario runs faults pass fail rig "median s"
	for key in $(awk '{print $1 "/" $2}' "$OUT/runs.txt" | sort -u); do
		cell=${key%/*}
		sc=${key##*/}
		rows=$(awk -v c="$cell" -v s="$sc" '$1 == c && $2 == s' "$OUT/runs.txt")
		printf '%-24s %-9s %5d %6d %5d %5d %4d %d\n' "$cell" "$sc" \
			"$(wc -l <<<"$rows")" "$(grep -c ' fault ' <<<"$rows")" \
			"$(grep -c ' pass ' <<<"$rows")" "$(grep -cE ' (fail|error) ' <<<"$rows")" \
			"$(grep -c ' rig ' <<<"$rows")" \
			"$(awk '{print $4}' <<<"$rows" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')"
	done
}

msg "ab: scenario $SCEN, $RUNS runs per cell, cells ${CELLS[*]}, kernel $KVER"
"$TOP/scripts/build-module.sh" || die "module build failed"
for ((i = 1; i <= RUNS; i++)); do
	for c in "${CELLS[@]}"; do
		one_run "$c"
	done
done
echo
echo "A/B, kernel $KVER (all runs in ${OUT#"$TOP"/}/runs.txt):"
table | tee "$OUT/table.txt"
