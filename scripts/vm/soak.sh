#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make soak: real workloads across faults in the VM rig (scripts/vm/lib.sh):
# two QEMU guests, this module on both sides over rxe, NFSv4.2 and NFSv4.1
# hard mounts; fio (crc32c verify), stress-ng metadata stressors, dbench
# and a known-content checker run while the client injects faults in a
# seeded random order: link down/up on either side, the RDMA link deleted
# and re-added on either side, nfsd restarted, module parameters and
# inline sysctls changed on both sides with a forced reconnect. After
# each fault: the recovery time, every connection's debugfs line on both
# sides against what the parameters call for, the checker's files read
# back. Guest side: scripts/vm/soak/{client,server}.sh. See
# Documentation/soak.md.
#
# Environment:
#   SOAK_SECONDS  no new round of faults starts after this many seconds of
#                 load (default 150: about 5 minutes in all on 2 cores under
#                 TCG; SOAK_LONG=1: 1800)
#   SOAK_SEED     the seed of the fault order and durations (default:
#                 random; printed, give it again to replay the schedule)
#   SOAK_FAULTS   fault kinds, each once per round (default
#                 "c-rdma s-rdma nfsd params c-link s-link overlap":
#                 c-link, s-link one side's link down, overlap issue 15's
#                 schedule of drops on both sides; without the link drops
#                 with VM_RXE=stock, where they hang, see below)
#   VM_RXE        over rxe: "fixed" (default: make rxe's rdma_rxe, built
#                 when missing) or "stock" (Debian's; scripts/vm/lib.sh)
#   SOAK_MIN_ROUNDS  rounds run whatever SOAK_SECONDS says (default 1)
#   SOAK_TRANSPORTS  the pairs to run, in order (default "rxe"; "rxe siw"
#                 with SOAK_SIW=1); "siw" alone gets siw's own default
#                 faults and configurations (below)
#   SOAK_SIW=1    a second pair over siw, with the rxe pair's faults (siw.ko
#                 is built first when missing)
#   SIW_UPSTREAM=1  siw.ko without the fixes of scripts/coccinelle/siw
#                 (rebuilt to match either way; Documentation/siw.md)
#   SOAK_TRACE=1  record rdma_cma and rpcrdma connect events on both
#                 sides, printed when a mount does not recover, and as
#                 RPCRDMA-TRACE: slow-N lines (client.log) when fault N took
#                 more than SOAK_SLOW_TRACE seconds (default 8), the
#                 client's last SOAK_TRACE_LINES lines (400; 0: all); hung
#                 tasks report after 30 s
#   SOAK_TRACE_EVENTS  with SOAK_TRACE=1: more tracepoints, "system/event"
#                 separated by spaces (e.g. rpcrdma/xprtrdma_mr_localinv);
#                 the events of the RPCs still outstanding at a hang and of
#                 their MRs are printed as RPCRDMA-TRACE: stuck lines
#   SOAK_DIRDELEG=1  keep the client's directory delegations (7.x) on;
#                 the soak turns them off, because nfsd can lose a recall
#                 and block creates for good (SOAK_REPRO=dirdeleg)
#   SOAK_LOAD     the load, any of "fio stress dbench" (the default: all
#                 three); fewer tools leave more of the guests' time to the
#                 ones named (e.g. SOAK_LOAD=fio to hunt a verify error)
#   SOAK_RECOVER_MAX  seconds a mount may take to answer after a fault
#                 (default 180)
#   SOAK_CFGS     the parameter configurations the "params" fault cycles
#                 through, the first applied at the start (see
#                 soak/client.sh)
#   SOAK_REPRO=qp1  instead of the soak, the minimal reproducer of the
#                 link-drop hang (soak/qp1-repro.sh; build/soak/qp1-repro.txt)
#   SOAK_QP1_OFFS  with SOAK_REPRO=qp1: offsets in struct rxe_qp of the
#                 guest kernel's rdma_rxe (ibqp.qp_num, ibqp.qp_type,
#                 attr.qp_state, valid, req.state, comp.state, resp.state;
#                 6.1.0-56-amd64: 176,188,376,592,944,1064,1168) for a
#                 probe of the GSI QP's states (Documentation/soak.md)
#   SOAK_REPRO=sysfs  instead of the soak, the reproducer of the forced
#                 reconnect's stall (soak/sysfs-repro.sh;
#                 build/soak/sysfs-repro.txt)
#   SOAK_REPRO=readwait  instead of the soak, the reproducer of the wedged
#                 nfsd threads behind a stale server transport: Read-chunk
#                 writes and a forced reconnect every 2-4 s, up to
#                 SOAK_REPRO_TRIES (150) times, until a server task blocks
#                 10 s (soak/readwait-repro.sh; build/soak/readwait-repro.txt)
#   SOAK_REPRO=replay  instead of the soak, namespace calls (symlink,
#                 mkdir, rename, unlink, rmdir) on a mount over RDMA, then
#                 on one over TCP (a VM pair each; SOAK_REPRO_PROTO=rdma
#                 or tcp for one), while nfsd restarts every
#                 SOAK_REPRO_GAP (14) s, SOAK_REPRO_TRIES (20) times: each
#                 failed call and the state it left (soak/replay-repro.sh;
#                 build/soak/replay-repro.txt)
#   SOAK_REPRO=eintr  instead of the soak, stress-ng's dentry and rename
#                 stressors in passes of SOAK_REPRO_RUN (2) s on a mount
#                 over RDMA, then over TCP (as replay), while nfsd
#                 restarts every SOAK_REPRO_GAP (14) s, SOAK_REPRO_TRIES
#                 (12) times, nfsdcld stopped so that each grace period
#                 runs its 10 s (SOAK_REPRO_CLD=1 keeps it): the passes
#                 whose opens returned EINTR, and the OPENs nfsd answered
#                 with an error (soak/eintr-repro.sh;
#                 build/soak/eintr-repro.txt)
#   SOAK_REPRO=removal  instead of the soak, the client's rxe0 deleted
#                 under a write load, alone and with a second rxe link,
#                 SOAK_REPRO_TRIES (2) times each: how long the removal
#                 takes, and why (soak/removal-repro.sh;
#                 build/soak/removal-repro.txt; rxe only)
#   SOAK_REPRO=dirdeleg  instead of the soak, a create in the root of an
#                 NFSv4.2 mount while an idle NFSv4.1 mount of the same
#                 server holds a directory delegation on it, both
#                 transports just disconnected: does it finish?
#                 (soak/dirdeleg-repro.sh; build/soak/dirdeleg-repro.txt;
#                 SOAK_REPRO_PROTO=tcp without RDMA, SOAK_REPRO_DIRDELEG=0
#                 the client's directory delegations off,
#                 SOAK_REPRO_OBJ=file an append to a file whose write
#                 delegation the other mount holds)
#   SOAK_CLIENT_KO=stock  Debian's rpcrdma.ko on the client, this module on
#                 the server: the client's parameters and negotiation checks
#                 are skipped, and "params" is a forced reconnect only
#   SOAK_SERVER_KO=stock  (SOAK_REPRO only) Debian's rpcrdma.ko on the
#                 server; with SOAK_CLIENT_KO, one side each
#   SOAK_SERVER_PARAMS  the server's rpcrdma.ko parameters at boot (e.g.
#                 remote_invalidate=0: no Send With Invalidate)
#   SOAK_RUNS=N   N soaks one after another, each with a seed of its own
#                 (SOAK_SEED, SOAK_SEED+1, ... when given): a failure that
#                 comes once in dozens of runs needs a rate; each run's
#                 output in build/soak/runs/<n>.log, the tally in
#                 build/soak/runs/runs.txt, failed runs' logs kept in
#                 $RPCRDMA_CM_CACHE/failed/
#   SOAK_RECORD=1 write this run's row per transport into
#                 Documentation/soak.md's table "soak-long" (default: on
#                 with SOAK_LONG=1, off otherwise; 0: never), replacing the
#                 row of the same kernel and transport
#   SOAK_RIG      the rig's build directory (default build/soak/rig)
#   RPCRDMA_KO, VM_MEM (default 1024 here), VM_TIMEOUT: see lib.sh
# Output: build/soak/report.md (and report-<transport>.md per pair),
# throughput.png, raw logs in the rig's logs/latest/.
# Exit status 0 only when every pair passed: 0 verify errors, 0 application
# errors, every fault recovered from, every reconnect negotiated as
# expected, 0 kernel warnings.

set -uo pipefail
VMDIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$VMDIR/../.." && pwd)
OUT=$TOP/build/soak
# A rig of its own (its base image carries fio, stress-ng and dbench):
# a vmtest running meanwhile keeps its own base.
export BUILD=${SOAK_RIG:-$OUT/rig}
mkdir -p "$BUILD"
user_timeout=${VM_TIMEOUT:-}
# Over rxe, make rxe's rdma_rxe: Debian's never recovers from a send its
# GSI QP failed during a link drop (VM_RXE=stock keeps it, to show that;
# Documentation/investigations/rxe-gsi-qp-link-drop.md)
export VM_RXE=${VM_RXE:-fixed}
# 1 GiB guests: set before lib.sh, whose own default is 512
export VM_MEM=${VM_MEM:-1024}
# shellcheck source=scripts/vm/lib.sh
. "$VMDIR/lib.sh"

# SOAK_RUNS=N: this script N times, each run a make soak of its own
if [ "${SOAK_RUNS:-1}" != 1 ]; then
	case ${SOAK_RUNS:-} in '' | 0 | *[!0-9]*) die "SOAK_RUNS=${SOAK_RUNS:-} is not a number of runs" ;; esac
	[ -z "${SOAK_REPRO:-}" ] || die "SOAK_RUNS repeats the soak, not a reproducer (those take SOAK_REPRO_TRIES)"
	rm -rf "$OUT/runs"
	mkdir -p "$OUT/runs"
	ok=0 failed=
	for i in $(seq "$SOAK_RUNS"); do
		s=$(( (RANDOM << 15 | RANDOM) % 1000000 ))
		[ -z "${SOAK_SEED:-}" ] || s=$((SOAK_SEED + i - 1))
		msg "soak run $i of $SOAK_RUNS, seed $s (output: ${OUT#"$TOP"/}/runs/$i.log)"
		if SOAK_RUNS=1 SOAK_SEED=$s "$0" >"$OUT/runs/$i.log" 2>&1; then
			ok=$((ok + 1))
			r=PASS
		else
			failed+=" $s"
			r="FAIL: $(grep -a -m1 '^error: ' "$OUT/runs/$i.log" | cut -c8-400)"
		fi
		echo "$i $s $r" >>"$OUT/runs/runs.txt"
		msg "soak run $i of $SOAK_RUNS, seed $s: $r"
	done
	msg "SOAK_RUNS=$SOAK_RUNS: $ok passed, $((SOAK_RUNS - ok)) failed${failed:+ (seeds$failed; logs kept in $RPCRDMA_CM_CACHE/failed/)}"
	[ "$ok" = "$SOAK_RUNS" ]
	exit
fi

if [ "${SOAK_LONG:-0}" = 1 ]; then
	SECS=${SOAK_SECONDS:-1800}
else
	SECS=${SOAK_SECONDS:-150}
fi
SIW=${SOAK_SIW:-0}
case $SECS in '' | *[!0-9]*) die "SOAK_SECONDS=$SECS is not a number of seconds" ;; esac
SEED=${SOAK_SEED:-$(( (RANDOM << 15 | RANDOM) % 1000000 ))}
case $SEED in '' | *[!0-9]*) die "SOAK_SEED=$SEED is not a number" ;; esac
# Link drops (c-link, s-link, overlap: issue 15) need make rxe's rdma_rxe
# (VM_RXE=fixed, the default here). With Debian's (VM_RXE=stock), a send
# its GSI QP fails while the link is down leaves that side's CM deaf for
# good and the mount hangs, with either rpcrdma.ko (SOAK_REPRO=qp1,
# Documentation/investigations/rxe-gsi-qp-link-drop.md): they are left
# out of the default set then.
KINDS=${SOAK_FAULTS:-"c-rdma s-rdma nfsd params c-link s-link overlap"}
if [ -z "${SOAK_FAULTS:-}" ] && [ "$VM_RXE" = stock ]; then
	KINDS="c-rdma s-rdma nfsd params"
fi
# Over siw alone (SOAK_TRANSPORTS=siw) the defaults are what siw recovers
# from today: link drops (issue 15's overlap too), nfsd restarts, and
# parameter changes that keep remote invalidation on. Removing siw's
# device, and reconnecting while the client invalidates its own MRs,
# hang with Debian's modules too (Documentation/soak.md, "Siw").
if [ "${SOAK_TRANSPORTS:-}" = siw ]; then
	[ -n "${SOAK_FAULTS:-}" ] || KINDS="c-link s-link overlap nfsd params"
	SOAK_CFGS=${SOAK_CFGS:-"c0:4096:4096:1:1:4096:1:1:1 c1:16384:16384:1:1:8192:1:1:1 c2r:8192:16384:1:1:16384:1:1:0"}
fi
# Debian's module has no parameters to change: its default set is the
# same without "params"
if [ -z "${SOAK_FAULTS:-}" ] && [ "${RPCRDMA_KO:-}" = stock ]; then
	kept=
	for k in $KINDS; do [ "$k" = params ] || kept+="${kept:+ }$k"; done
	KINDS=$kept
fi
for k in $KINDS; do
	case $k in
	c-link | s-link | c-rdma | s-rdma | nfsd | params | overlap) ;;
	*) die "SOAK_FAULTS: unknown fault kind '$k' (known: c-link s-link c-rdma s-rdma nfsd params overlap)" ;;
	esac
done
[ -n "${SOAK_LOAD-x}" ] || die "SOAK_LOAD is empty: name at least one of fio stress dbench"
for l in ${SOAK_LOAD:-}; do
	case $l in
	fio | stress | dbench) ;;
	*) die "SOAK_LOAD: unknown tool '$l' (known: fio stress dbench)" ;;
	esac
done
if [ "${RPCRDMA_KO:-}" = stock ]; then
	case " $KINDS " in
	*" params "*) die "RPCRDMA_KO=stock has none of this module's parameters: leave 'params' out of SOAK_FAULTS" ;;
	esac
fi
# the module under test and siw.ko live in the main build tree, not the rig's
export RPCRDMA_KO=${RPCRDMA_KO:-$TOP/build/$KVER/rpcrdma.ko}
export SIW_KO=${SIW_KO:-$TOP/build/$KVER/siw/siw.ko}
export RXE_KO=${RXE_KO:-$TOP/build/$KVER/rxe/rdma_rxe.ko}
[ "$RPCRDMA_KO" = stock ] || [ -f "$RPCRDMA_KO" ] ||
	die "no module under test at $RPCRDMA_KO; run 'make module' (or set RPCRDMA_KO=<path>, RPCRDMA_KO=stock for Debian's)"
TRANSPORTS=${SOAK_TRANSPORTS:-rxe$([ "$SIW" = 1 ] && echo " siw")}
for tr in $TRANSPORTS; do
	case $tr in rxe | siw) ;; *) die "SOAK_TRANSPORTS: '$tr' is neither rxe nor siw" ;; esac
done
case ${SOAK_REPRO:-} in
'') ;;
qp1 | sysfs | readwait | replay | eintr | dirdeleg)
	# a reproducer runs on VM_RDMA's transport
	TRANSPORTS=$VM_RDMA ;;
removal)
	[ "$VM_RDMA" = rxe ] || die "SOAK_REPRO=removal deletes and re-adds rxe links: run it with VM_RDMA=rxe"
	TRANSPORTS=rxe ;;
*) die "SOAK_REPRO=$SOAK_REPRO: say qp1 (link-drop hang), sysfs (forced reconnect stall), readwait (wedged nfsd threads), replay (a call executed twice across an nfsd restart), eintr (an open interrupted in the grace period), removal (a slow rxe removal) or dirdeleg (a create behind a lost recall)" ;;
esac
if [ "${TRANSPORTS#*siw}" != "$TRANSPORTS" ]; then
	vm_ensure_siw
fi
if [ "${TRANSPORTS#*rxe}" != "$TRANSPORTS" ]; then
	vm_ensure_rxe
fi

need_pkgs fio stress-ng dbench gnuplot-nox
bins=()
for b in fio stress-ng dbench; do
	p=$(command -v "$b") || die "$b is installed but not on PATH"
	bins+=("$p")
done
export VM_EXTRA_BINS="${VM_EXTRA_BINS:+$VM_EXTRA_BINS }${bins[*]}"
# dbench's profile: Debian ships only the NetBench client profile
# (client.txt, 458k operations; one takes ~0.1 s here), so the guests get
# its longest prefix of at most 4000 lines after which no file is open
# (dbench loops over the file: a prefix that leaves handles open would
# leak them on every pass).
loadsrc=/usr/share/dbench/client.txt
[ -f "$loadsrc" ] || die "$loadsrc is missing; reinstall dbench (apt-get install --reinstall dbench)"
mkdir -p "$OUT"
awk '$1 == "NTCreateX" && $NF == "NT_STATUS_OK" { open[$5] = 1 }
	$1 == "Close" { delete open[$2] }
	{ n = 0; for (h in open) n++; if (n == 0) last = NR }
	NR >= 4000 { exit }
	END { print last }' "$loadsrc" >"$OUT/.loadlines"
lines=$(cat "$OUT/.loadlines")
[ "${lines:-0}" -gt 100 ] || die "no usable prefix of $loadsrc (every prefix leaves a file open?)"
head -n "$lines" "$loadsrc" >"$OUT/client-soak.txt.new"
cmp -s "$OUT/client-soak.txt.new" "$BUILD/client-soak.txt" ||
	mv "$OUT/client-soak.txt.new" "$BUILD/client-soak.txt"
rm -f "$OUT/client-soak.txt.new" "$OUT/.loadlines"
export VM_EXTRA_FILES="${VM_EXTRA_FILES:+$VM_EXTRA_FILES }$BUILD/client-soak.txt=/usr/local/share/dbench/client-soak.txt"

# The schedule: rounds, each a seeded permutation of the fault kinds with
# their durations (link down 2-5 s, RDMA link deleted 2-4 s). More rounds
# than the time allows: the client stops starting rounds after SECS. A
# fault takes 6 s at the least (the 4-s gap, the fastest recoveries), so
# that many rounds never run out (they did with one fast kind: 28 params
# faults in 390 s of a 1500-s run). Extra rounds go at the end: a seed
# replays the same schedule as before.
RANDOM=$SEED
read -r -a ks <<<"$KINDS"
nrounds=$((SECS / (6 * ${#ks[@]}) + 3))
plan=
for ((r = 0; r < nrounds; r++)); do
	read -r -a ks <<<"$KINDS"
	for ((i = ${#ks[@]} - 1; i > 0; i--)); do
		j=$((RANDOM % (i + 1)))
		t=${ks[i]} ks[i]=${ks[j]} ks[j]=$t
	done
	round=
	for k in "${ks[@]}"; do
		case $k in
		overlap) a=0 ;;
		*-link) a=$((2 + RANDOM % 4)) ;;
		*-rdma) a=$((2 + RANDOM % 3)) ;;
		*) a=0 ;;
		esac
		round+="${round:+,}$k:$a"
	done
	plan+="${plan:+/}$round"
done

# boot, mounts and stopping the load (300 s), SECS, and the round under
# way at SECS: 150 s per fault kind (a fault, its checks and the gap took
# 100-140 s on loaded cores; the seven default kinds ran out of the old
# flat 900 s, which the four of before keep)
read -r -a ks <<<"$KINDS"
VM_TIMEOUT=${user_timeout:-$((SECS + 300 + 150 * ${#ks[@]}))}
export VM_TIMEOUT
export VM_SERVER_SCRIPT=$VMDIR/soak/server.sh
vm_prepare
msg "make soak: seed $SEED (SOAK_SEED=$SEED replays this schedule), ${SECS}s of faults, transports: $TRANSPORTS"
msg "schedule: $plan"
t_all=$SECONDS

# siwstall PCAP: "N of M connections" from scripts/vm/siwstall.py, its
# stall lines kept beside the capture
siwstall() {
	python3 "$VMDIR/siwstall.py" "$1" >"${1%.pcap}-siwstall.txt" 2>&1 &&
		sed -n 's/^siwstall: //p' "${1%.pcap}-siwstall.txt" || echo "not read (${1%.pcap}-siwstall.txt)"
}

# errs_nfsd FAULTS: the tools' error lines from stdin, each whose pass
# ([start-end], client uptime) overlapped an nfsd restart (its start
# until both mounts answered) marked so: an unlink, rename or rmdir
# failing with ENOENT, or a create with EEXIST, there is what a call
# executed twice looks like ("A call executed twice across an nfsd
# restart" in Documentation/soak.md). A note for the reader; the error
# still counts.
errs_nfsd() {
	awk 'FILENAME == ARGV[1] { n++; f[n] = $1; s[n] = $2; e[n] = $3; next }
		{ m = ""
		  if (match($0, /\[[0-9.]+-[0-9.]+\]/)) {
			split(substr($0, RSTART + 1, RLENGTH - 2), t, "-")
			for (i = 1; i <= n; i++) if (t[1] <= e[i] && t[2] >= s[i]) m = m " " f[i]
		  }
		  print $0 (m == "" ? "" : "  <- the pass spanned nfsd restart(s)" m) }' <(nfsd_windows "$1") -
}

# interrupted FAULTS: of the client's error lines on stdin, the
# stress-ng passes whose failures are calls interrupted while NFSv4
# waited out the grace period of a restarted nfsd ("An open interrupted
# in the grace period" in Documentation/soak.md): the pass overlapped an
# nfsd restart, and every failure line comes from a stressor that
# reported a call failing with EINTR (errno=4; its later calls then
# meet a state it did not make: an interrupted mkdir, then ENOENT), or
# is the parent's report that such a stressor failed. One line per such
# pass: "PASS START END NFSD-FAULTS" (client uptime). Any other failure
# keeps the pass an application error.
interrupted() {
	awk 'FILENAME == ARGV[1] { n++; f[n] = $1; s[n] = $2; e[n] = $3; next }
		$1 != "stress-ng" || ($5 != "fail:" && $5 != "error:") { next }
		{ p = $2; sub(/:$/, "", p); pid = $6; gsub(/[^0-9]/, "", pid)
		  if (!(p in t)) { t[p] = $3; order[++np] = p }
		  k = ++nl[p]; line[p, k] = $0; who[p, k] = pid
		  if ($0 ~ /errno=4[ :]/) eintr[p, pid] = 1 }
		END {
		  for (j = 1; j <= np; j++) {
			p = order[j]; ok = 0
			for (k = 1; k <= nl[p]; k++) if (eintr[p, who[p, k]]) ok = 1
			for (k = 1; ok && k <= nl[p]; k++) {
				if (eintr[p, who[p, k]]) continue
				if (match(line[p, k], /process \[[0-9]+\] \([a-z-]+\) terminated with an error/)) {
					q = substr(line[p, k], RSTART, RLENGTH); gsub(/^process \[|\].*$/, "", q)
					if (eintr[p, q]) continue
				}
				ok = 0
			}
			split(substr(t[p], 2, length(t[p]) - 2), w, "-"); m = ""
			for (i = 1; i <= n; i++) if (w[1] <= e[i] && w[2] >= s[i]) m = m (m == "" ? "" : ",") f[i]
			if (ok && m != "") print p, w[1], w[2], m
		  } }' <(nfsd_windows "$1") -
}

# nfsd_windows FAULTS: "N START END" for each nfsd restart in a
# faults-TRANSPORT.txt, from its start until both mounts answered again
# (END 1e9 if they never did)
nfsd_windows() {
	awk '$2 == "nfsd" { print $1, $3, (($5 == "-") ? 1e9 : $5) }' "$1"
}

# report RUN TRANSPORT RC: build/soak/report-TRANSPORT.md from the pair's
# client log; sets REPORT_WHY, the failed criteria (empty: passed)
report() {
	local run=$1 tr=$2 rc=$3 clog=$VM_CLOG slog=$VM_SLOG md=$OUT/report-$2.md
	local ops verr aerr nf nrec bad neg sum shung nrep nint
	vm_lines "$clog" RPCRDMA-SOAK-OPS >"$OUT/ops-$tr.txt"
	vm_lines "$clog" RPCRDMA-SOAK-FAULT >"$OUT/faults-$tr.txt"
	vm_lines "$clog" RPCRDMA-SOAK-NEG >"$OUT/neg-$tr.txt"
	vm_lines "$clog" RPCRDMA-SOAK-T >"$OUT/samples-$tr.txt"
	sum=$(vm_lines "$clog" RPCRDMA-SOAK-SUM | tail -n 1)
	ops=$(awk '{ split($3, o, "="); n[$1] += o[2]; it[$1]++ }
		END { for (t in n) printf "%s %d ops in %d iterations; ", t, n[t], it[t] }' "$OUT/ops-$tr.txt")
	verr=$(awk '{ split($5, v, "="); s += v[2] } END { print s + 0 }' "$OUT/ops-$tr.txt")
	aerr=$(awk '{ split($6, e, "="); s += e[2] } END { print s + 0 }' "$OUT/ops-$tr.txt")
	verr=$((verr + $(echo " $sum" | sed -n 's/.* checker_bad=\([0-9]*\).*/\1/p')0 / 10))
	# a namespace call executed twice (client.sh's lcall) is NFS's, not an
	# application error, only when it overlapped an nfsd restart: the
	# restart's start until both mounts answered again
	vm_lines "$clog" RPCRDMA-SOAK-REPLAY >"$OUT/replays-$tr.txt"
	awk 'FILENAME == ARGV[1] { n++; s[n] = $2; e[n] = $3; next }
		{ ok = 0; for (i = 1; i <= n; i++) if ($1 <= e[i] && $2 >= s[i]) ok = 1
		  print (ok ? "nfsd-restart" : "NONE"), $0 }' \
		<(nfsd_windows "$OUT/faults-$tr.txt") "$OUT/replays-$tr.txt" >"$OUT/replays-$tr.tmp" &&
		mv "$OUT/replays-$tr.tmp" "$OUT/replays-$tr.txt"
	nrep=$(grep -c '^nfsd-restart ' "$OUT/replays-$tr.txt")
	aerr=$((aerr + $(grep -c '^NONE ' "$OUT/replays-$tr.txt")))
	# a stress-ng pass that failed only because its open was interrupted
	# in the grace period of an nfsd restart (each failed pass counts 1)
	vm_lines "$clog" RPCRDMA-SOAK-ERR | interrupted "$OUT/faults-$tr.txt" >"$OUT/interrupted-$tr.txt"
	nint=$(grep -c . "$OUT/interrupted-$tr.txt")
	aerr=$((aerr - nint))
	aerr=$((aerr + $(echo " $sum" | sed -n 's/.* checker_errors=\([0-9]*\).*/\1/p')0 / 10))
	nf=$(grep -c . "$OUT/faults-$tr.txt")
	nrec=$(awk '$5 != "-"' "$OUT/faults-$tr.txt" | grep -c .)
	# (not the blocked-task stacks the client prints as RPCRDMA-DIAG
	# lines when a fault is not recovered from, a failure already; nor
	# hung_watch's RPCRDMA-HUNG stacks, counted below)
	bad=$( { vm_bad_lines "$slog" | sed 's/^/server: /'; vm_bad_lines "$clog" | sed 's/^/client: /'; } | grep -c .)
	# Blocked tasks: on the server a wedged nfsd thread (or worse), a
	# failure; on the client a hard mount blocks applications through a
	# fault by design, so its count is reported, not judged.
	shung=$(echo " $sum" | sed -n 's/.* server_hung=\([0-9]*\).*/\1/p')
	# REPORT_WHY: every failed criterion, for the last line a CI log shows
	REPORT_WHY=
	[ "$rc" = 0 ] || REPORT_WHY+="VM pair: ${VM_RESULT_DETAIL:-exit $rc}; "
	[ "$verr" = 0 ] || REPORT_WHY+="$verr verify errors; "
	[ "$aerr" = 0 ] || REPORT_WHY+="$aerr application errors; "
	[ "$nf" -gt 0 ] || REPORT_WHY+="no fault injected; "
	[ "$nf" = "$nrec" ] || REPORT_WHY+="$((nf - nrec)) of $nf faults not recovered from; "
	[ "$bad" = 0 ] || REPORT_WHY+="$bad kernel warning lines; "
	[ "${shung:-0}" = 0 ] || REPORT_WHY+="$shung server tasks blocked; "
	# every kind of the schedule at least once
	for k in $KINDS; do
		awk -v k="$k" '$2 == k { f = 1 } END { exit !f }' "$OUT/faults-$tr.txt" ||
			REPORT_WHY+="no $k fault; "
	done
	REPORT_WHY=${REPORT_WHY%; }
	{
		echo "# make soak: $tr"
		echo
		echo "Kernel $KVER, module $(modinfo -F version "$VM_OURS_KO" 2>/dev/null || echo stock) (build-id $(vm_buildid "${VM_OURS_KO:-/dev/null}")), $tr, NFSv4.2 + NFSv4.1 hard mounts,"
		echo "seed $SEED, SOAK_SECONDS=$SECS, $(date -u '+%Y-%m-%d %H:%M UTC'). Verdict: $([ -z "$REPORT_WHY" ] && echo PASS || echo "FAIL ($REPORT_WHY)")."
		echo
		echo "| figure | value |"
		echo "|---|---|"
		echo "| operations | ${ops:-none} |"
		echo "| verify errors (fio, checker) | $verr |"
		echo "| application errors (failed calls, non-zero exits) | $aerr |"
		echo "| namespace calls executed twice across an nfsd restart (EEXIST/ENOENT with the call's effect in place: the restart drops NFSv4.1's reply cache; not counted above) | $nrep |"
		echo "| stress-ng passes failed only on calls interrupted by the stressor's own SIGALRM while NFSv4 waited out a restarted nfsd's grace period (EINTR; SOAK_REPRO=eintr shows it over TCP too; not counted above) | $nint |"
		echo "| faults injected / recovered from | $nf / $nrec |"
		echo "| reconnects seen | $(echo "$sum" | sed -n 's/.*client_negotiations=\([0-9]*\) server_negotiations=\([0-9]*\) connect_count=\([0-9]*\).*/client \1 connections negotiated (mountstats connect_count \3), server \2/p') (2 are the mounts' first) |"
		echo "| checker | $(echo "$sum" | sed -n 's/.*checker_files=\([0-9]*\).*/\1/p') file read-backs |"
		echo "| kernel warnings (BUG/WARNING/Oops/Call Trace) | $bad |"
		echo "| tasks the hung-task detector reported blocked (server: must be 0; client: a hard mount's applications wait through a fault) | server ${shung:--}, client $(echo " $sum" | sed -n 's/.* hung=\([-0-9]*\).*/\1/p') |"
		echo "| forced reconnects whose dstaddr store slept until an nfsd restart woke it (sunrpc, Documentation/soak.md) | $(echo " $sum" | sed -n 's/.* dstaddr_stalls=\([0-9]*\).*/\1/p') |"
		echo "| client RPCs released after a drain left them pinned (a LOCAL_INV the device never completed: <debugfs>/rpcrdma_cm/stranded) | $(echo " $sum" | sed -n 's/.* stranded=\([-0-9]*\).*/\1/p') |"
		echo "| client connections closed and made again after rdma_cm reported the server unreachable while connected (a neighbour entry that failed: Debian's client would hang; <debugfs>/rpcrdma_cm/unreachable) | $(echo " $sum" | sed -n 's/.* unreachable=\([-0-9]*\).*/\1/p') |"
		echo "| server: connection requests refused as a closing listener went (an nfsd restart; <debugfs>/rpcrdma_cm/unaccepted) | $(echo " $sum" | sed -n 's/.* unaccepted=\([-0-9]*\).*/\1/p') |"
		echo "| server: READ replies dropped as their Write chunk's post failed on a closing connection (6.1; <debugfs>/rpcrdma_cm/unposted) | $(echo " $sum" | sed -n 's/.* unposted=\([-0-9]*\).*/\1/p') |"
		echo "| server: new transports whose accept failed, freed (6.1 leaked them; <debugfs>/rpcrdma_cm/accept_failed) | $(echo " $sum" | sed -n 's/.* accept_failed=\([-0-9]*\).*/\1/p') |"
		echo "| server: detaches that waited for posted replies before disconnecting / whose wait ended with some still posted / of those, waits shared with an earlier detach's (<debugfs>/rpcrdma_cm/drained, drain_timeouts, drain_shortened) | $(echo " $sum" | sed -n 's/.* drained=\([-0-9]*\).*/\1/p') / $(echo " $sum" | sed -n 's/.* drain_timeouts=\([-0-9]*\).*/\1/p') / $(echo " $sum" | sed -n 's/.* drain_shortened=\([-0-9]*\).*/\1/p') |"
		[ "$tr" != siw ] ||
			echo "| siw: completions lost to a full Completion Queue (kprobe on siw_cq_event; the Work Requests behind them never complete) | client $(echo " $sum" | sed -n 's/.* siw_cq_full=\([-0-9]*\).*/\1/p'), server $(echo " $sum" | sed -n 's/.* server_siw_cq_full=\([-0-9]*\).*/\1/p') |"
		[ "$tr" != siw ] || [ ! -s "$(dirname "$clog")/wire.pcap" ] ||
			echo "| siw connections whose first Call the server never read (VM_PCAP=1 capture, scripts/vm/siwstall.py; siw's accept race, Documentation/siw.md) | $(siwstall "$(dirname "$clog")/wire.pcap") |"
		echo "| VM pair | $([ "$rc" = 0 ] && echo passed || echo "FAILED: $VM_RESULT_DETAIL") |"
		echo
		echo "Recovery time per fault kind (seconds from the fault's end, e.g. the link back up,"
		echo "until both mounts completed a synchronous 4 KiB write and an O_DIRECT read):"
		echo
		echo "| fault | count | median | max |"
		echo "|---|---|---|---|"
		for k in $KINDS; do
			awk -v k="$k" '$2 == k && $6 != "-" { print $6 }' "$OUT/faults-$tr.txt" | sort -g |
				awk -v k="$k" '{ v[++n] = $1 } END { if (n) printf "| %s | %d | %.1f | %.1f |\n", k, n,
					(n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2, v[n]; else printf "| %s | 0 | - | - |\n", k }'
		done
		echo
		echo "Faults in order (uptime of the client guest: start, end, recovered; seconds):"
		echo
		awk '{ d = ""; for (i = 7; i <= NF; i++) d = d " " $i; printf "    %2d %-7s %8s %8s %8s %6s %s\n", $1, $2, $3, $4, $5, $6, d }' "$OUT/faults-$tr.txt"
		echo
		echo "Negotiated after each fault (every connection, both sides; exact values checked):"
		echo
		awk '{ l = ""; for (i = 5; i <= NF; i++) if ($i !~ /^peer=/) l = l " " $i; printf "    %2s %-7s %s %-6s%s\n", $1, $2, $3, $4, l }' "$OUT/neg-$tr.txt" | uniq
		neg=$(vm_lines "$clog" RPCRDMA-STATUS | grep -c '^neg-.* FAIL')
		echo
		echo "Negotiation checks failed: $neg."
		if grep -q . < <(vm_lines "$clog" RPCRDMA-SOAK-ERR); then
			echo
			echo "Errors reported by the tools:"
			echo
			vm_lines "$clog" RPCRDMA-SOAK-ERR | head -n 40 | errs_nfsd "$OUT/faults-$tr.txt" | sed 's/^/    /'
		fi
		if [ -s "$OUT/replays-$tr.txt" ]; then
			echo
			echo "Namespace calls that failed with their effect in place (the nfsd restart they overlapped, or NONE: counted as application errors; client uptime start, end):"
			echo
			head -n 40 "$OUT/replays-$tr.txt" | sed 's/^/    /'
		fi
		if [ -s "$OUT/interrupted-$tr.txt" ]; then
			echo
			echo "stress-ng passes failed only on interrupted calls (pass, client uptime start, end, the nfsd restarts it overlapped):"
			echo
			sed 's/^/    /' "$OUT/interrupted-$tr.txt"
		fi
		if vm_lines "$clog" RPCRDMA-SOAK-STRANDED | grep -q .; then
			echo
			echo "RPCs released after a drain (client uptime, task, xid; rpcrdma_cm:rpcrdma_cm_unpin_stranded):"
			echo
			vm_lines "$clog" RPCRDMA-SOAK-STRANDED | head -n 40 | sed 's/^/    /'
		fi
		if vm_lines "$clog" RPCRDMA-SOAK-CQFULL | grep -q .; then
			echo
			echo "Client: siw completions lost to a full CQ (client uptime; kprobe siwcq/siw_cq_full on siw_cq_event):"
			echo
			vm_lines "$clog" RPCRDMA-SOAK-CQFULL | head -n 40 | sed 's/^/    /'
		fi
		if grep -q . < <(vm_lines "$slog" RPCRDMA-HUNG; vm_lines "$clog" RPCRDMA-HUNG); then
			echo
			echo "Blocked tasks' stacks (the first 80 lines per side; scripts/vm/guest/lib.sh hung_watch):"
			echo
			{ vm_lines "$slog" RPCRDMA-HUNG | head -n 80 | sed 's/^/server: /'
				vm_lines "$clog" RPCRDMA-HUNG | head -n 80 | sed 's/^/client: /'; } | sed 's/^/    /'
		fi
		if [ "$bad" != 0 ]; then
			echo
			echo "Kernel warnings:"
			echo
			{ vm_bad_lines "$slog" | sed 's/^/server: /'; vm_bad_lines "$clog" | sed 's/^/client: /'; } |
				head -n 20 | sed 's/^/    /'
		fi
		echo
		echo "Logs: ${VM_RUNDIR#"$TOP"/}/$run/{server,client}.log"
	} >"$md"
	plot "$tr"
}

# plot TRANSPORT: throughput (RPCs/s, MB/s of payload) over the client's
# uptime, each fault shaded from its start to its recovery
plot() {
	local tr=$1 s f objs
	s=$OUT/samples-$tr.txt f=$OUT/faults-$tr.txt
	# a counter that went backwards (reset, or a sampler's overflow)
	# leaves its sample's rate blank rather than negative
	awk 'NR > 1 && $1 > t {
			rr = ($2 < r) ? "NaN" : sprintf("%.1f", ($2 - r) / ($1 - t))
			mb = ($3 < b) ? "NaN" : sprintf("%.3f", ($3 - b) / ($1 - t) / 1e6)
			print $1, rr, mb }
		{ t = $1; r = $2; b = $3 }' "$s" >"$OUT/rate-$tr.dat"
	[ -s "$OUT/rate-$tr.dat" ] || return 0
	objs=$(awk '{ e = ($5 == "-") ? "graph 1" : $5
		printf "set object %d rect from %s, graph 0 to %s, graph 1 fc rgb \"#ffcccc\" fs solid 0.5 noborder behind\n", NR, $3, (e == "graph 1") ? $4 + 1 : e
		printf "set label %d \"%s\" at %s, graph 0.97 rotate by 90 right font \",8\"\n", NR, $2, $3 }' "$f")
	gnuplot <<EOF >/dev/null 2>&1 || warn "gnuplot failed on $OUT/rate-$tr.dat"
set terminal pngcairo size 1400,500 noenhanced font ",10"
set output "$OUT/throughput-$tr.png"
set title "make soak ($tr, $KVER, seed $SEED): throughput, faults shaded from start to recovery"
set xlabel "client uptime (s)"
set ylabel "RPCs/s"
set y2label "payload MB/s"
set y2tics
set grid
$objs
plot "$OUT/rate-$tr.dat" using 1:2 with lines title "RPCs/s", "" using 1:3 axes x1y2 with lines title "MB/s read+written"
EOF
	gnuplot <<EOF >"$OUT/throughput-$tr.txt" 2>/dev/null
set terminal dumb 110 24
set title "RPCs/s over client uptime ($tr); F = a fault started"
set xlabel "s"
$(awk '{ printf "set arrow from %s, graph 0 to %s, graph 1 nohead\nset label \"F\" at %s, graph 1.02\n", $3, $3, $3 }' "$f")
plot "$OUT/rate-$tr.dat" using 1:2 with lines notitle
EOF
}

# soak_doc_row TRANSPORT WALL: this pair's row of Documentation/soak.md's
# table "soak-long", from the files report() wrote and REPORT_WHY
soak_doc_row() {
	local tr=$1 wall=$2 f dev rec slow verr aerr bad
	f=$OUT/faults-$tr.txt
	case $tr in
	rxe) dev="rxe ($([ "$VM_RXE" = stock ] && echo "Debian's" || echo "make rxe's") rdma_rxe)" ;;
	siw) dev="siw ($([ "${SIW_UPSTREAM:-0}" = 1 ] && echo "without" || echo "with") make siw's fixes)" ;;
	*) dev=$tr ;;
	esac
	# recovery over every fault recovered from: min / median / max
	rec=$(awk '$6 != "-" { print $6 }' "$f" | sort -g |
		awk '{ v[++n] = $1 } END { if (n) printf "%.1f / %.1f / %.1f", v[1],
			(n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2, v[n]; else print "-" }')
	slow=$(awk '$6 != "-" && (m == "" || $6 + 0 > m + 0) { m = $6; k = $2 } END { print (k == "" ? "-" : k) }' "$f")
	verr=$(sed -n 's/^| verify errors (fio, checker) | \(.*\) |$/\1/p' "$OUT/report-$tr.md")
	aerr=$(sed -n 's/^| application errors (failed calls, non-zero exits) | \(.*\) |$/\1/p' "$OUT/report-$tr.md")
	bad=$(sed -n 's/^| kernel warnings (BUG\/WARNING\/Oops\/Call Trace) | \(.*\) |$/\1/p' "$OUT/report-$tr.md")
	printf '| %s | %s | %s | %s | %s / %s | %s / %s | %s | %s | %s | %s | %s | %s | %s |\n' \
		"$KVER" "$dev" "$(modinfo -F version "$VM_OURS_KO" 2>/dev/null || echo stock)" \
		"$SEED" "$SECS" "$wall" "$(grep -c . "$f")" "$(awk '$5 != "-"' "$f" | grep -c .)" \
		"$rec" "$slow" "${verr:--}" "${aerr:--}" "${bad:--}" \
		"$([ -z "$REPORT_WHY" ] && echo PASS || echo "FAIL: $REPORT_WHY")" \
		"$(date -u '+%Y-%m-%d %H:%M')"
}

# soak_doc TRANSPORT WALL: the row replaces the one of the same kernel
# and transport in Documentation/soak.md's block "soak-long"; the
# others stay. A failed run is recorded as failed.
soak_doc() {
	local doc=$TOP/Documentation/soak.md old row key
	old=$("$TOP/scripts/doctables.sh" get "$doc" soak-long) || return 1
	row=$(soak_doc_row "$1" "$2")
	key=$(cut -d'|' -f1-3 <<<"$row")
	{
		echo "<!-- generated by make soak (scripts/vm/soak.sh) with SOAK_LONG=1 or SOAK_RECORD=1: one row per kernel and transport, its last recorded run -->"
		echo "$SOAK_DOC_HEAD"
		echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
		{
			grep '^| [0-9]' <<<"$old" | while IFS= read -r l; do
				[ "$(cut -d'|' -f1-3 <<<"$l")" = "$key" ] || echo "$l"
			done
			echo "$row"
		} | sort -t'|' -k2,2V -k3,3
		echo
		echo "Recovery: seconds from a fault's end (e.g. the link back up) until both mounts completed a synchronous write and an O_DIRECT read; each run's report (build/soak/report.md) gives them per fault kind."
	} | "$TOP/scripts/doctables.sh" put "$doc" soak-long &&
		msg "recorded in Documentation/soak.md (table soak-long): $row"
}
SOAK_DOC_HEAD="| kernel | transport | module | seed | fault time / wall (s) | faults / recovered | recovery min / median / max (s) | slowest kind | verify errors | application errors | kernel reports | verdict | finished (UTC) |"
case ${SOAK_RECORD:-${SOAK_LONG:-0}} in
0 | 1) ;;
*) die "SOAK_RECORD=${SOAK_RECORD:-}: say 1 (write the row into Documentation/soak.md) or 0" ;;
esac

# soak_pair TRANSPORT
fails=0 FAIL_WHY=
soak_pair() {
	local tr=$1 rc t0=$SECONDS
	msg "pair soak-$tr: load and faults (${SECS}s of faults plus boot, mounts and recovery)"
	VM_RDMA=$tr vm_pair "soak-$tr" ours "${SOAK_SERVER_PARAMS:-}" \
		"${SOAK_CLIENT_KO:-ours}" "" "$VMDIR/soak/client.sh" \
		SOAK_SEED="$SEED" SOAK_PLAN="$plan" SOAK_SECONDS="$SECS" \
		SOAK_MIN_ROUNDS="${SOAK_MIN_ROUNDS:-1}" SOAK_TRACE="${SOAK_TRACE:-0}" \
		SOAK_TRACE_EVENTS="${SOAK_TRACE_EVENTS:-}" SOAK_SLOW_TRACE="${SOAK_SLOW_TRACE:-8}" \
		SOAK_TRACE_LINES="${SOAK_TRACE_LINES:-400}" \
		SOAK_RECOVER_MAX="${SOAK_RECOVER_MAX:-180}" SOAK_CFGS="${SOAK_CFGS:-}" \
		SOAK_LOAD="${SOAK_LOAD:-}" SOAK_DIRDELEG="${SOAK_DIRDELEG:-0}" SERVER_THREADS=8
	rc=$?
	report "soak-$tr" "$tr" "$rc"
	[ "${SOAK_RECORD:-${SOAK_LONG:-0}}" != 1 ] || soak_doc "$tr" "$((SECONDS - t0))" ||
		warn "soak-$tr: the row for Documentation/soak.md was not written (above)"
	if [ -z "$REPORT_WHY" ]; then
		msg "soak-$tr passed ($((SECONDS - t0))s)"
	else
		fails=$((fails + 1))
		FAIL_WHY+="soak-$tr: $REPORT_WHY. "
		# a failure the host found in the report (vm_pair kept the
		# logs of one the guests found); the report goes with them
		cp "$OUT/report-$tr.md" "$(vm_keep_logs "$VM_RUNDIR/soak-$tr")/" 2>/dev/null
		warn "soak-$tr FAILED ($((SECONDS - t0))s): $REPORT_WHY"
	fi
	cat "$OUT/report-$tr.md"
	[ -s "$OUT/throughput-$tr.txt" ] && cat "$OUT/throughput-$tr.txt"
}

# SOAK_REPRO=qp1|sysfs|readwait|replay|eintr|removal|dirdeleg: a reproducer instead of the soak
# (Documentation/soak.md); its verdict lines are INFO
if [ -n "${SOAK_REPRO:-}" ]; then
	case $SOAK_REPRO in
	qp1) msg "SOAK_REPRO=qp1: server eth0 down, nfsd stopped and started, eth0 up; does the mount recover?" ;;
	sysfs) msg "SOAK_REPRO=sysfs: dstaddr rewritten under load; does the store return, and what wakes it?" ;;
	readwait) msg "SOAK_REPRO=readwait: forced reconnects under Read-chunk writes; does an nfsd thread block for good?" ;;
	replay) msg "SOAK_REPRO=replay: namespace calls over RDMA and TCP across nfsd restarts; which fail, and in what state?" ;;
	eintr) msg "SOAK_REPRO=eintr: stress-ng's creating stressors over RDMA and TCP across nfsd restarts; which opens return EINTR, and why?" ;;
	dirdeleg) msg "SOAK_REPRO=dirdeleg: a create in the root while the other mount holds a directory delegation and both just reconnected; does it finish?" ;;
	removal) msg "SOAK_REPRO=removal: the client's rxe0 deleted under load, alone and beside a second rxe link; how long does the removal take?" ;;
	esac
	# readwait: about 4.5 s per reconnect under TCG, two pairs sharing
	# the cores (300 tries took 1300 s), then its reports
	budget=1200
	[ "$SOAK_REPRO" = readwait ] && budget=$((600 + ${SOAK_REPRO_TRIES:-150} * 6))
	# replay and eintr compare RDMA with TCP, one pair each: two mounts of
	# one server with the same NFS version share one NFSv4 client (the
	# client's trunking detection finds the same client ID), so a second
	# mount with proto=tcp would run over the first one's RDMA transport
	protos=${SOAK_REPRO_PROTO:-}
	case $SOAK_REPRO in replay | eintr) protos=${protos:-rdma tcp} ;; esac
	: >"$OUT/$SOAK_REPRO-repro.txt"
	rc=0
	for proto in ${protos:-default}; do
		run=soak-$SOAK_REPRO-repro
		if [ "$proto" = default ]; then
			proto=""
		else
			run=$run-$proto
			msg "$SOAK_REPRO over $proto"
		fi
		VM_TIMEOUT=${user_timeout:-$budget} vm_pair "$run" \
			"${SOAK_SERVER_KO:-ours}" "" "${SOAK_CLIENT_KO:-ours}" "" \
			"$VMDIR/soak/$SOAK_REPRO-repro.sh" \
			SOAK_RECOVER_MAX="${SOAK_RECOVER_MAX:-300}" SOAK_TRACE="${SOAK_TRACE:-0}" \
			SOAK_QP1_OFFS="${SOAK_QP1_OFFS:-}" SOAK_REPRO_TRIES="${SOAK_REPRO_TRIES:-}" \
			SOAK_TRACE_EVENTS="${SOAK_TRACE_EVENTS:-}" SOAK_REPRO_GAP="${SOAK_REPRO_GAP:-}" \
			SOAK_REPRO_PROTO="$proto" SOAK_REPRO_DIRDELEG="${SOAK_REPRO_DIRDELEG:-}" \
			SOAK_REPRO_OBJ="${SOAK_REPRO_OBJ:-}" SOAK_REPRO_RUN="${SOAK_REPRO_RUN:-}" \
			SOAK_REPRO_CLD="${SOAK_REPRO_CLD:-}" \
			"S:SOAK_HUNG_SECS=$([ "$SOAK_REPRO" = readwait ] && echo 10)" || rc=1
		{ grep -ahE 'RPCRDMA-(STATUS|DIAG)' "$VM_CLOG"; grep -ahE 'RPCRDMA-HUNG' "$VM_SLOG" | head -n 120; } |
			tr -d '\r' | tee -a "$OUT/$SOAK_REPRO-repro.txt"
		msg "logs: ${VM_RUNDIR#"$TOP"/}/$run/"
	done
	exit $rc
fi

# this run's reports only
rm -f "$OUT"/report*.md "$OUT"/throughput*.png "$OUT"/throughput*.txt
for tr in $TRANSPORTS; do
	soak_pair "$tr"
done
for tr in $TRANSPORTS; do cat "$OUT/report-$tr.md"; done >"$OUT/report.md"
cp "$OUT/throughput-${TRANSPORTS%% *}.png" "$OUT/throughput.png" 2>/dev/null
msg "make soak: $((SECONDS - t_all)) s, seed $SEED; report in ${OUT#"$TOP"/}/report.md, plot throughput.png"
[ "$fails" = 0 ] || die "$fails soak pair(s) failed: ${FAIL_WHY% } (replay the schedule with SOAK_SEED=$SEED)"
