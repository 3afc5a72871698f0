#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh check|full: the two test tiers. Each step runs even when an
# earlier one failed, so one report shows every problem; the exit status
# is non-zero when any step failed.
#
# `make check` (CI's command; at most 30 min from nothing on 2 cores, 15
# warm): the codec's KUnit suites, a short fuzz, the probe,
# rpcrdma-cm-status's verdicts, the first errors a user meets (make
# errtest), build and
# lint of every supported kernel, the VM scenarios of kernels.tab's
# "check" column (Debian stable's kernel: the RFC 8797 scenarios with
# their wire checks; every other supported kernel: a smoke pair), the
# dissector, and the Debian package build with lintian when the tree
# has one.
#
# `make check-full`: the same steps with the "full" column's scenarios
# (make matrix), plus the debug kernel lane (the default kernel's, and a
# short run on trixie-backports' with a planted bug), the short soak,
# rxe's two reproducers on 7.3, the client's UNREACHABLE one, and 6.1's
# ADDR_CHANGE one (scenario 14, LD_REPRO=old-ack, unsent-first,
# unreachable, addr-change),
# make scale's short cell, the patch series, the bare-host test (make hosttest) and the package
# install tests (make debtest, of the DKMS package and of the prebuilt
# modules from make repo's repository). Run it before resolving an issue
# that touches kernel-facing code, the VM rig or the packaging.
#
# Environment: CHECK_KERNELS="<names>" (default: every kernels.tab line
# whose column names scenarios), CHECK_SCENARIOS="<list>" (every
# kernel's VM scenarios instead of the table's, e.g. 1 for a smoke test;
# make hosttest uses both), FUZZ_SECONDS, CHECK_DOC=cold|ci|warm (write
# the summary into Documentation/testing.md's table of that name; make
# check only: cold for a fresh clone with an empty RPCRDMA_CM_CACHE, ci
# for a fresh clone with the cache filled, as CI runs it, warm for a
# clone that ran it before).
#
# The check-full ledger. check-full takes longer than a working session
# on a 2-core machine (about 4 h from nothing), so it can be run in
# parts. Each check-full step is written into Documentation/testing.md's
# block "check-full" as soon as it ends: its result, seconds, and the
# code key it ran on (code_key below). CHECK_RESUME=1 carries a step
# whose last run passed on the same code key instead of running it
# again; every other step runs. CHECK_UNTIL="<time>" (anything date -d
# reads, e.g. 23:40) starts no step that its last recorded time says
# would end after then (a step never recorded: 20 minutes); such steps
# are reported NOT RUN. The run passes only when every step passed, in
# this run or carried.

. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

tier=${1:-check}
case $tier in
check) col=5 ;;
full) col=8 ;;
*) die "usage: check.sh check|full" ;;
esac

declare -a results
failed=0
t_check=$(date +%s)
case ${CHECK_DOC:-} in
cold | ci | warm) [ "$tier" = check ] || die "CHECK_DOC is for make check" ;;
"") ;;
*) die "CHECK_DOC=$CHECK_DOC: use cold (a fresh clone, empty cache), ci (a fresh clone, cache filled) or warm (a clone that ran it before)" ;;
esac
# what the run started from, for the documentation's table
load0=$(cut -d' ' -f1 /proc/loadavg)
cache0=empty
[ -z "$(ls -A "$RPCRDMA_CM_CACHE" 2>/dev/null)" ] ||
	cache0=$(du -sh "$RPCRDMA_CM_CACHE" 2>/dev/null | cut -f1)
nsteps=0
ndone=0
ncarried=0
nnotrun=0
LEDGER=$TOP/Documentation/testing.md

# code_key: what a step's result depends on, as a short hash: every
# tracked file but the prose and pictures (*.md, *.png), as committed.
# Empty when such a file has uncommitted changes or the tree is not a
# git clone: a result of code that no commit holds cannot be carried.
code_key() {
	[ -z "$(git -C "$TOP" status --porcelain -- . ':(exclude)*.md' ':(exclude)*.png' 2>/dev/null)" ] ||
		return 0
	git -C "$TOP" ls-tree -r HEAD 2>/dev/null | grep -vE '\.(md|png)$' | sha1sum | cut -c1-12
}

# ledger_rows: the block's step rows, "| name | result | s | key | when |"
ledger_rows() {
	"$TOP/scripts/doctables.sh" get "$LEDGER" check-full 2>/dev/null |
		grep -E '^\| ' | grep -vE '^\| (step|---)'
}

# ledger_row NAME: step NAME's row, its columns (name, result, seconds,
# key, when) separated by tabs; empty when the step has none.
ledger_row() {
	ledger_rows | awk -F' [|] ' -v n="| $1" -v OFS='\t' \
		'{ sub(/ [|]$/, "") } $1 == n { $1 = $1; print; exit }'
}

# ledger_put NAME RESULT SECONDS: NAME's row replaced (or appended).
ledger_put() {
	local row rows
	[ -n "$key" ] || return 0
	row="| $1 | $2 | $3 | $key | $(date -u '+%Y-%m-%d %H:%M') |"
	rows=$(ledger_rows | awk -F' [|] ' -v n="| $1" -v r="$row" \
		'$1 == n { print r; done = 1; next } { print } END { if (!done) print r }')
	{
		echo "Each row is the last run of its step. Code key: the files of the"
		echo "tree but \*.md and \*.png, as committed (scripts/check.sh code_key)."
		echo
		echo "| step | result | seconds | code key | finished (UTC) |"
		echo "|---|---|---|---|---|"
		printf '%s\n' "$rows"
	} | "$TOP/scripts/doctables.sh" put "$LEDGER" check-full ||
		warn "could not record '$1' in Documentation/testing.md"
}

step() {
	local name=$1 start rc row=() est
	shift
	nsteps=$((nsteps + 1))
	if [ "$tier" = full ]; then
		# row: name, result, seconds, key, time (the ledger's columns)
		IFS=$'\t' read -r -a row < <(ledger_row "$name")
		if [ "${CHECK_RESUME:-0}" = 1 ] && [ -n "$key" ] && [ "$name" != "$DOCSTEP" ] &&
		   [ "${row[1]:-}" = PASS ] && [ "${row[3]:-}" = "$key" ]; then
			results+=("PASS  $name (carried: passed on this code at ${row[4]} UTC, ${row[2]} s)")
			ncarried=$((ncarried + 1))
			return 0
		fi
		# a step never recorded (new, or renamed) counts as 20 minutes:
		# taken as 0 it would start whatever time is left
		est=${row[2]:-1200}
		if [ -n "$until" ] && [ $(($(date +%s) + est)) -gt "$until" ]; then
			results+=("NOT RUN  $name (CHECK_UNTIL; $([ -n "${row[2]:-}" ] && echo "last run took $est s" || echo "never recorded, taken as $est s"))")
			nnotrun=$((nnotrun + 1))
			return 0
		fi
	fi
	msg "$tier step $nsteps: $name (at $(($(date +%s) - t_check)) s)"
	start=$(date +%s)
	"$@"
	rc=$?
	ndone=$((ndone + 1))
	if [ $rc -eq 0 ]; then
		results+=("PASS  $name ($(($(date +%s) - start)) s)")
	else
		results+=("FAIL  $name (exit $rc, $(($(date +%s) - start)) s)")
		failed=$((failed + 1))
	fi
	[ "$tier" = full ] && [ "$name" != "$DOCSTEP" ] &&
		ledger_put "$name" "$([ $rc -eq 0 ] && echo PASS || echo "FAIL (exit $rc)")" \
			"$(($(date +%s) - start))"
	return 0
}

# has_target T: the Makefile has target T (packaging lands on its own).
has_target() { grep -qE "^$1:" "$TOP/Makefile"; }

if [ "$tier" = check ]; then
	: "${FUZZ_SECONDS:=30}"
else
	: "${FUZZ_SECONDS:=60}"
fi
key=''
until=''
if [ "$tier" = full ]; then
	key=$(code_key)
	if [ -z "$key" ]; then
		warn "files other than *.md and *.png have uncommitted changes: this run is not recorded in Documentation/testing.md, and CHECK_RESUME carries nothing"
	else
		msg "check-full: code key $key (results go into Documentation/testing.md, block check-full)"
	fi
	if [ -n "${CHECK_UNTIL:-}" ]; then
		until=$(date -d "$CHECK_UNTIL" +%s 2>/dev/null) ||
			die "CHECK_UNTIL=$CHECK_UNTIL: give a time date -d reads, e.g. 23:40"
	fi
	[ -z "${CHECK_KERNELS:-}${CHECK_SCENARIOS:-}" ] ||
		die "CHECK_KERNELS and CHECK_SCENARIOS bound make check; check-full runs every kernel and scenario"
elif [ -n "${CHECK_RESUME:-}${CHECK_UNTIL:-}" ]; then
	die "CHECK_RESUME and CHECK_UNTIL are for make check-full"
fi
# the docs step reads the Markdown files: it is never carried
DOCSTEP="documentation: README's kernel table matches kernels.tab, every relative link resolves"
kernels=${CHECK_KERNELS:-$(ktab | awk -v c="$col" '$c != "-" {print $1}')}

step "codec KUnit suites (make kunit)" make -s kunit
step "codec fuzz, $FUZZ_SECONDS s (make fuzz)" make -s fuzz FUZZ_SECONDS="$FUZZ_SECONDS"
step "probe build (make tools)" make -s tools
step "rpcrdma-cm-status: every verdict on made-up hosts (make status-test)" make -s status-test
step "$DOCSTEP" \
	bash -c "'$TOP/scripts/doctables.sh' check && python3 '$TOP/scripts/doclinks.py'"
step "first errors: no network, no space, not root, unknown release, unsupported host (make errtest)" \
	make -s errtest
# One step per kernel: module build, lint and the VM scenarios of its
# tier's column (make matrix). The scripts' shellcheck does not depend
# on the kernel: the first lint runs it.
for name in $kernels; do
	scope=${CHECK_SCENARIOS:-$(ktab_field "$name" "$col")}
	step "kernel $name: build, lint, VM scenarios ${scope//,/ } (make matrix MATRIX=$name)" \
		env MATRIX="$name" MATRIX_TIER="$tier" MATRIX_SCENARIOS="${CHECK_SCENARIOS:-}" \
		LINT_SHELL="${lint_shell:-1}" "$TOP/scripts/matrix.sh"
	lint_shell=0
done
step "make install: signed with the DKMS key, stops under Secure Boot without one (make install-test)" \
	make -s install-test
if [ "$tier" = full ]; then
	# The debug kernel lane, for the default kernel: the codec's KUnit
	# suites inside the KASAN/lockdep/kmemleak/UBSAN kernel and scenario
	# 1 (NFSv4.1 and 4.2 I/O, this module on both sides) under the
	# detectors, kmemleak scan of both guests after it.
	step "debug kernel: KUnit in the guest, scenario ${DEBUGTEST_CHECK:=1} under KASAN/lockdep/kmemleak (make debugtest)" \
		env DEBUGTEST_SCENARIOS="$DEBUGTEST_CHECK" make -s debugtest
	# The same lane on the newest series, trixie-backports' (7.3 today,
	# its own debug kernel, built with the host's compiler), kept short:
	# KUnit in the guest, scenario 1, and the one-octet over-read planted
	# in the codec, which KASAN must report. make debugtest
	# KVER=trixie-backports runs the other scenarios.
	step "debug kernel of trixie-backports: KUnit in the guest, scenario $DEBUGTEST_CHECK under KASAN/lockdep/kmemleak, a planted over-read caught (make debugtest KVER=trixie-backports DEBUGTEST_PLANT=1)" \
		env KVER=trixie-backports DEBUGTEST_SCENARIOS="$DEBUGTEST_CHECK" DEBUGTEST_PLANT=1 make -s debugtest
	# The short soak: fio with crc32c verify, stress-ng, dbench and a
	# known-content checker on NFSv4.2 + 4.1 hard mounts across the
	# default faults: 0 verify and application errors, every fault
	# recovered, every reconnect negotiated as the parameters say.
	step "soak, ${SOAK_CHECK_SECONDS:=150} s of faults over rxe (make soak)" \
		env SOAK_SECONDS="$SOAK_CHECK_SECONDS" SOAK_SIW=0 make -s soak
	# make rxe's newest fix against its reproducer, on 7.3: the client
	# replays old ACKs between the responses of the server's RDMA Reads;
	# with the fix no warning, no reconnect, every file exact
	# (Documentation/investigations/rxe-comp-error-success-61.md)
	step "rxe: old ACKs inside the server's RDMA Reads on trixie-backports, make rxe's rdma_rxe (LD_REPRO=old-ack VMTEST_ONLY=14 make vmtest KVER=trixie-backports)" \
		env KVER=trixie-backports LD_REPRO=old-ack VMTEST_ONLY=14 make -s vmtest
	# and the other path to the same warning: the client's first Read
	# response packets dropped on its egress, resent as FIRSTs with the fix
	step "rxe: the first packet of the client's Read responses dropped on trixie-backports, make rxe's rdma_rxe (LD_REPRO=unsent-first VMTEST_ONLY=14 make vmtest KVER=trixie-backports)" \
		env KVER=trixie-backports LD_REPRO=unsent-first VMTEST_ONLY=14 make -s vmtest
	# the client's hang after rdma_cm's UNREACHABLE on a live connection:
	# with the module's client_unreachable it reconnects and the writes
	# that exhaust its MRs finish
	# (Documentation/investigations/xprt-write-space-stuck.md)
	step "xprtrdma: UNREACHABLE on a live connection, then its MRs exhausted, on trixie-backports (LD_REPRO=unreachable VMTEST_ONLY=14 make vmtest KVER=trixie-backports)" \
		env KVER=trixie-backports LD_REPRO=unreachable VMTEST_ONLY=14 make -s vmtest
	# 6.1's ADDR_CHANGE during a connect (a bond failover), then on the
	# established connection: with the module's client_addr_change no
	# underflow, and no cm_id left after the unmount. On 6.12 and 7.3
	# mainline's fix leaks the established one (documented; not here)
	# (Documentation/investigations/addr-change-kref.md)
	step "xprtrdma: ADDR_CHANGE (bond failover) during a connect and established, on bookworm (LD_REPRO=addr-change VMTEST_ONLY=14 make vmtest KVER=bookworm)" \
		env KVER=bookworm LD_REPRO=addr-change VMTEST_ONLY=14 make -s vmtest
	# make scale's short cell, on trixie (6.1's NFSv4 client ignores
	# nconnect over RDMA): a 16 KiB client and a stock one on one
	# server, nconnect=4 each, every connection negotiated on both
	# sides, one nfsd restart under fio's crc32c verify. make scale runs
	# the four clients and nconnect 1, 4 and 16.
	step "scale, short cell: 2 clients (16 KiB, stock) x nconnect=4 on trixie, an nfsd restart under fio verify (make scale KVER=trixie SCALE_CLIENTS=2 SCALE_NCONNECT=4 SCALE_FAULTS=nfsd)" \
		env KVER=trixie SCALE_CLIENTS=2 SCALE_NCONNECT=4 SCALE_FAULTS=nfsd make -s scale
	# The kernel patch series, patch by patch: build, checkpatch
	# --strict, KUnit after the first and the last. Its VM scenarios run
	# the same rules and files as the drop-in module the matrix tested.
	step "patches: the fixes per tree and their 6.12 and 6.1 backports (each built alone, checkpatch, scenario 15 with the fixes-only module on each kernel), the features (build, checkpatch, KUnit per patch) (PATCHES_VM=fixes make patches-check)" \
		env PATCHES_VM=fixes make -s patches-check
fi
# After the VM runs: the test also decodes the pcaps they recorded.
# make check runs the C dissector under the host's tshark only (4.0 on
# bookworm), within its budget; check-full adds trixie's 4.4 in a root
if [ "$tier" = full ]; then
	step "Wireshark dissector: codec vectors and VM pcaps (make wireshark)" make -s wireshark
else
	step "Wireshark dissectors, Lua and C under the host's tshark: codec vectors and VM pcaps (make wireshark)" \
		env WIRESHARK_C_TRIXIE=0 make -s wireshark
fi
if has_target deb; then
	step "Debian packages: build in a clean root, lintian (make deb)" make -s deb
fi
if [ "$tier" = full ]; then
	# the host's release was built above; debtest needs both
	step "Debian packages for trixie (make deb DEB_RELEASE=trixie)" \
		make -s deb DEB_RELEASE=trixie
	# Both debtest steps install the packages the two steps above built
	# from this tree (build/deb/<release>/tree-key), and make none of
	# their own (DEBTEST_BUILD=0): a make deb that failed above would
	# fail twice more, minutes each, and the packages of an earlier tree
	# are no test of this one.
	has_target debtest &&
		step "Debian packages: install, DKMS, VM pair, removal (make debtest)" \
			env DEBTEST_BUILD=0 make -s debtest
	has_target repo &&
		step "prebuilt modules: from make repo's signed repository into fresh roots without a compiler, VM pair, upgrade, removal (make debtest DEBTEST_PATH=modules)" \
			env DEBTEST_BUILD=0 make -s debtest DEBTEST_PATH=modules
	# make demo in both roots, no make check there: CI runs make check
	# on a bookworm host every time, trixie's demo already builds the
	# module natively on a trixie host and runs its VM pair, and the
	# bounded check in a root costs nine minutes of check-full's 100
	# for KUnit, fuzz and lint it runs again. make hosttest alone
	# still runs both.
	step "bare hosts: fresh bookworm and trixie roots, make demo in both (make hosttest HOSTTEST_CHECK=0)" \
		env HOSTTEST_CHECK=0 make -s hosttest
fi
echo
# check-full also writes the results into Documentation/kernels.md
MATRIX_REPORT=1 MATRIX_TIER="$tier" MATRIX_DOC=$([ "$tier" = full ] && echo 1 || echo 0) \
	"$TOP/scripts/matrix.sh" 2>/dev/null
echo
total=$(($(date +%s) - t_check))
echo "make $([ "$tier" = check ] && echo check || echo check-full) summary ($total s):"
printf '  %s\n' "${results[@]}"
if [ -n "${CHECK_DOC:-}" ]; then
	{
		echo "$total s in all, $failed step(s) failed: tree $(git -C "$TOP" rev-parse --short HEAD 2>/dev/null),"
		echo "finished $(date -u '+%Y-%m-%d %H:%M') UTC, $(. /etc/os-release && echo "$PRETTY_NAME"), $(nproc) cores,"
		echo "load $load0 at the start, cache $cache0 at the start."
		echo
		printf '  %s\n' "${results[@]}" | "$TOP/scripts/doctables.sh" steps
	} | "$TOP/scripts/doctables.sh" put "$TOP/Documentation/testing.md" "check-$CHECK_DOC" &&
		msg "summary written into Documentation/testing.md"
fi
[ $failed -eq 0 ] || { echo "$failed step(s) failed"; exit 1; }
if [ $nnotrun -gt 0 ]; then
	echo "$nnotrun step(s) not run (CHECK_UNTIL): to go on, commit the recorded results and run make check-full CHECK_RESUME=1 on the same code"
	exit 1
fi
if [ "$tier" = full ] && [ $ncarried -gt 0 ]; then
	echo "all $nsteps steps passed on code key $key: $ndone in this run, $ncarried carried from earlier runs (Documentation/testing.md)"
else
	echo "all steps passed"
fi
