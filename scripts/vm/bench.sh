#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: what RFC 8797 negotiation and short replies buy, measured
# in the VM rig (scripts/vm/lib.sh): NFSv4.2 over rxe between two QEMU
# guests, fixed workloads (metadata; small-file writes and reads from
# 512 B to 16 KiB; fio 4 KiB random reads and writes when fio is
# installed on the host), several configurations, repeated.
#
# Two VM pairs, each booted once: this module on both sides, cycling
# through its configurations round-robin inside each repeat (so noise
# hits them alike), then Debian's stock module on both sides. The guest
# side is scripts/vm/bench-guest.sh. Results: build/bench/raw.txt (one
# line per configuration, repeat and workload), build/bench/results.md
# (medians with min/max), build/bench/bench.png (gnuplot).
#
# Environment:
#   BENCH_REPEATS  repeats (default 5)
#   BENCH_META_N   files in the metadata workload (default 20)
#   BENCH_SMALL_M  files per size in the small-file workload (default 1)
#   BENCH_FIO_SECS seconds per fio job (default 1; 0 skips fio)
# The defaults fit the whole matrix (7 configurations x 5 repeats) in
# about 15 minutes on 2 cores with TCG, where one NFS operation takes
# ~0.1 s: chunk counts per RPC do not need more operations, and every
# workload is the same in every configuration.
#   BENCH_CONFIGS  this module's configurations (see bench-guest.sh)
#   BENCH_STOCK=0  skip the stock pair
#   BENCH_REPORT_ONLY=1  no VMs: rebuild results.md and the plot from
#                  the last run's build/bench/raw.txt
#   BENCH_RIG      the rig's build directory (default build/bench/rig)
#   BENCH_DOC=1    write this kernel's row of Documentation/bench.md's
#                  table (block "bench", scripts/doctables.sh) whatever
#                  ran; by default it is written after a run of the
#                  default configurations and the stock pair over rxe in
#                  which every pair finished; BENCH_DOC=0: never
#   RPCRDMA_KO, VM_MEM (default 1024 here), VM_TIMEOUT: see lib.sh

set -uo pipefail
VMDIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$VMDIR/../.." && pwd)
OUT=$TOP/build/bench
# The rig's build directory (initramfs with fio, module snapshot, logs)
# of its own, so that a vmtest or demo running meanwhile is not
# disturbed and does not disturb this run.
export BUILD=${BENCH_RIG:-$OUT/rig}
mkdir -p "$BUILD"
# lib.sh sets its own VM_TIMEOUT default; a bench needs a longer one
user_timeout=${VM_TIMEOUT:-}
# shellcheck source=scripts/vm/lib.sh
. "$VMDIR/lib.sh"

REPEATS=${BENCH_REPEATS:-5}
META_N=${BENCH_META_N:-20}
SMALL_M=${BENCH_SMALL_M:-1}
FIO_SECS=${BENCH_FIO_SECS:-1}
# name:pdata:reminv:short:thresh ("-": leave as is)
CONFIGS=${BENCH_CONFIGS:-"pdata0:0:1:0:4096 ours:1:1:0:4096 short:1:1:1:4096 short-noreminv:1:0:1:4096 short-16k:1:1:1:16384 short-64k:1:1:1:65536"}
STOCK_CONFIG="stock:-:-:-:-"
export VM_MEM=${VM_MEM:-1024}

need_pkgs gnuplot-nox
if [ "$FIO_SECS" != 0 ]; then
	need_pkgs fio
	# fio and its libraries go into the guests' /usr/local/bin
	fio_bin=$(command -v fio) || die "fio is installed but not on PATH"
	export VM_EXTRA_BINS="${VM_EXTRA_BINS:+$VM_EXTRA_BINS }$fio_bin"
fi
mkdir -p "$OUT"
t_all=$SECONDS

# Our own snapshot of the module: vm_prepare's is shared with any other
# run of the rig. BENCH_REPORT_ONLY=1: no VMs, only the report from the
# last run's raw.txt.
if [ -z "${BENCH_REPORT_ONLY:-}" ]; then
	ko=${RPCRDMA_KO:-$TOP/build/$KVER/rpcrdma.ko}
	[ -f "$ko" ] || die "no module at $ko; run 'make module'"
	cp "$ko" "$OUT/rpcrdma-bench.ko"
	export RPCRDMA_KO=$OUT/rpcrdma-bench.ko
	vm_prepare
fi
VM_OURS_KO=$OUT/rpcrdma-bench.ko
if [ -z "${BENCH_REPORT_ONLY:-}" ]; then
	modinfo -F parm "$VM_OURS_KO" | grep -q '^short_replies:' ||
		die "$ko has no short_replies parameter"
	echo "$(modinfo -F version "$VM_OURS_KO") (build-id $(vm_buildid "$VM_OURS_KO"))" \
		>"$OUT/module.txt"
fi

# One repeat of one configuration takes a few seconds per workload in
# TCG; leave a wide margin before calling a pair stuck.
n=$(echo "$CONFIGS" | wc -w)
VM_TIMEOUT=${user_timeout:-$((180 + REPEATS * n * (50 + 4 * FIO_SECS)))}
export VM_TIMEOUT

ENV=(BENCH_REPEATS="$REPEATS" BENCH_META_N="$META_N"
	BENCH_SMALL_M="$SMALL_M" BENCH_FIO_SECS="$FIO_SECS")
bench_pair() { # bench_pair RUN KO CONFIGS
	local t0=$SECONDS
	msg "pair $1: $3 (x$REPEATS)"
	if vm_pair "bench-$1" "$2" "" "$2" "" "$VMDIR/bench-guest.sh" \
		"${ENV[@]}" BENCH_CONFIGS="$3"; then
		echo "bench-$1 ok $((SECONDS - t0))s" >>"$OUT/pairs.txt"
	else
		echo "bench-$1 FAILED $((SECONDS - t0))s: $VM_RESULT_DETAIL" >>"$OUT/pairs.txt"
		warn "pair bench-$1: $VM_RESULT_DETAIL"
	fi
	vm_lines "$VM_CLOG" RPCRDMA-BENCH >>"$OUT/raw.txt"
	vm_lines "$VM_CLOG" RPCRDMA-BENCH-CONN | sed 's/^/# /' >>"$OUT/pairs.txt"
	grep -q 'RPCRDMA-BENCH-DONE' "$VM_CLOG" ||
		warn "pair bench-$1 did not finish (log: ${VM_CLOG#"$TOP"/})"
}

order="$(for c in $CONFIGS; do printf '%s ' "${c%%:*}"; done)"
[ "${BENCH_STOCK:-1}" != 0 ] && order+="stock"
if [ -z "${BENCH_REPORT_ONLY:-}" ]; then
	: >"$OUT/raw.txt"
	: >"$OUT/pairs.txt"
	bench_pair ours ours "$CONFIGS"
	[ "${BENCH_STOCK:-1}" != 0 ] && bench_pair stock stock "$STOCK_CONFIG"
fi
[ -s "$OUT/raw.txt" ] || die "no measurement came back; see $VM_RUNDIR"

# ---- aggregate ---------------------------------------------------------
# per row: derived metrics; ratio = ops/s over pdata0's in the same
# repeat and workload.
awk -v base=pdata0 '
function kv(k,  i, a) {
	for (i = 1; i <= NF; i++) { split($i, a, "="); if (a[1] == k) return a[2] }
	return ""
}
function ops_s() {
	if (kv("iops") != "-" && kv("iops") != "") return kv("iops")
	return kv("cs") > 0 ? kv("ops") * 100 / kv("cs") : 0
}
NR == FNR {
	if (kv("cfg") == base) b[kv("wl") " " kv("rep")] = ops_s()
	if (kv("wl") == "idle" && kv("src") != "-") {
		isrc[kv("cfg") " " kv("rep")] = kv("src")
		issr[kv("cfg") " " kv("rep")] = kv("ssr")
	}
	next
}
{
	c = kv("cfg"); w = kv("wl"); r = kv("rep"); n = kv("rpcs")
	if (w == "idle" || n <= 0) next
	o = ops_s()
	printf "%s %s rpcs %s\n", w, c, n
	printf "%s %s rd %.1f\n", w, c, kv("rdch") * 1000 / n
	printf "%s %s wr %.1f\n", w, c, kv("wrch") * 1000 / n
	printf "%s %s rp %.1f\n", w, c, kv("rpch") * 1000 / n
	printf "%s %s all %.1f\n", w, c, (kv("rdch") + kv("wrch") + kv("rpch")) * 1000 / n
	if (kv("src") != "-") {
		# less the control channel (idle) share, never below 0
		x = (kv("src") - isrc[c " " r]) - (kv("ssr") - issr[c " " r])
		printf "%s %s rpw %.1f\n", w, c, (x > 0 ? x : 0) * 1000 / n
	}
	else	# mainline writes every Reply chunk the client offers
		printf "%s %s rpw %.1f\n", w, c, kv("rpch") * 1000 / n
	printf "%s %s bytes %.0f\n", w, c, kv("rpb") / n
	printf "%s %s linv %.1f\n", w, c, kv("linv") * 1000 / n
	printf "%s %s ops %.1f\n", w, c, o
	k = w " " r
	if (k in b && b[k] > 0) printf "%s %s ratio %.2f\n", w, c, o / b[k]
}' "$OUT/raw.txt" "$OUT/raw.txt" |
	sort -k1,1 -k2,2 -k3,3 -k4,4g |
	awk '
function flush() {
	if (key == "") return
	m = (cnt % 2) ? v[(cnt + 1) / 2] : (v[cnt / 2] + v[cnt / 2 + 1]) / 2
	print key, m, v[1], v[cnt], cnt
}
{ k = $1 " " $2 " " $3
  if (k != key) { flush(); key = k; cnt = 0 }
  v[++cnt] = $4 }
END { flush() }' >"$OUT/summary.txt"

# results.md: one table per workload, configurations in run order
{
	echo "# make bench results"
	echo
	echo "Kernel $KVER, $VM_RDMA, module $(cat "$OUT/module.txt" 2>/dev/null)," \
		"$(date -u -r "$OUT/raw.txt" '+%Y-%m-%d %H:%M UTC'), ${REPEATS} repeats" \
		"(pairs: $(grep -v '^#' "$OUT/pairs.txt" | paste -sd, -))."
	echo "Workloads: meta = $META_N files created, stat, listed, renamed, removed;" \
		"small = $SMALL_M files of each of 512 B..16 KiB written then read;" \
		"fio = 4 KiB random O_DIRECT I/O, ${FIO_SECS} s per job (if fio ran)."
	echo "Cells: median (min-max) over repeats. Chunks are per 1000 RPCs, counted by the client"
	echo "(mountstats: registered segments); 'reply written' = Reply chunks the server actually"
	echo "wrote (this module's debugfs counters less the control channel's share measured by an"
	echo "idle window; stock: every offered one, as mainline always writes it), 'RDMA B/RPC' = octets"
	echo "the server wrote into Write and Reply chunks per RPC; LINV = LOCAL_INV needed."
	echo
	echo "Configurations (name:pdata:remote_invalidate:short_replies:thresholds):"
	echo "$CONFIGS${BENCH_STOCK:+}" | tr ' ' '\n' | sed 's/^/- /'
	[ "${BENCH_STOCK:-1}" != 0 ] && echo "- stock: Debian's rpcrdma.ko on both sides, defaults (4096)"
	echo
	echo "Negotiated (client's debugfs line, once per configuration):"
	echo
	grep '^# cfg=' "$OUT/pairs.txt" | sed 's/^# //' | sort -u -t' ' -k1,1 | sed 's/^/    /'
	echo
	echo "VM pairs: $(grep -v '^#' "$OUT/pairs.txt" | paste -sd';' -)"
	for w in meta small fio-randread fio-randwrite; do
		grep -q "^$w " "$OUT/summary.txt" || continue
		echo
		echo "## $w"
		echo
		echo "| config | RPCs | read ch | write ch | reply ch | all ch | reply written | RDMA B/RPC | LINV | ops/s | vs pdata0 |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|"
		for c in $order; do
			awk -v w="$w" -v c="$c" '
			function cell(m,  f, s) {
				if (!(m in med)) return "-"
				f = (m == "ratio") ? "%.2f" : (m == "rpcs" || m == "bytes") ? "%.0f" : "%.1f"
				s = sprintf(f, med[m])
				if (lo[m] != hi[m]) s = s " (" sprintf(f, lo[m]) "-" sprintf(f, hi[m]) ")"
				return s
			}
			$1 == w && $2 == c { med[$3] = $4; lo[$3] = $5; hi[$3] = $6; seen = 1 }
			END {
				if (!seen) exit
				printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c,
					cell("rpcs"), cell("rd"), cell("wr"), cell("rp"), cell("all"),
					cell("rpw"), cell("bytes"), cell("linv"), cell("ops"), cell("ratio")
			}' "$OUT/summary.txt"
		done
	done
	if grep -q '^meta stock ' "$OUT/summary.txt" && grep -q '^meta short ' "$OUT/summary.txt"; then
		echo
		echo "## Issue 6 target (meta, short vs stock, medians)"
		echo
		awk '$1 == "meta" && ($2 == "short" || $2 == "stock") { m[$2 " " $3] = $4 }
		END {
			printf "- Reply chunks offered by the client per 1000 RPCs: short %s, stock %s (target <= 1/10)\n", m["short rp"], m["stock rp"]
			printf "- Reply chunks written by the server per 1000 RPCs: short %s, stock %s", m["short rpw"], m["stock rpw"]
			if (m["stock rpw"] > 0) printf " (ratio %.3f)", m["short rpw"] / m["stock rpw"]
			printf "\n"
			printf "- All chunks offered per 1000 RPCs: short %s, stock %s", m["short all"], m["stock all"]
			if (m["stock all"] > 0) printf " (ratio %.3f; target <= 1/2)", m["short all"] / m["stock all"]
			printf "\n"
			w = m["short all"] - m["short rp"] + m["short rpw"]
			s = m["stock all"] - m["stock rp"] + m["stock rpw"]
			printf "- All chunks the server used per 1000 RPCs (read + write + reply written): short %.1f, stock %.1f", w, s
			if (s > 0) printf " (ratio %.3f)", w / s
			printf "\n"
		}' "$OUT/summary.txt"
	fi
} >"$OUT/results.md"

# ---- Documentation/bench.md ---------------------------------------------
# One row per kernel in the block "bench": the medians per 1000 RPCs
# that show what negotiation and short replies buy on that kernel.
# bench_doc_row NAME WHEN MODULE
bench_doc_row() {
	awk -v name="$1" -v rel="$KVER" -v when="$2" -v mod="$3 x$REPEATS" '
	{ m[$1 " " $2 " " $3] = $4 }
	function v(w, c, k) {
		return ((w " " c " " k) in m) ? sprintf("%.1f", m[w " " c " " k]) : "-"
	}
	END {
		printf "| `%s` | %s | %s, %s | %s / %s / %s | %s / %s | %s / %s / %s |", name, rel,
			when, mod, v("meta", "pdata0", "rp"), v("meta", "short", "rp"),
			v("meta", "short-16k", "rp"), v("meta", "stock", "rpw"),
			v("meta", "short", "rpw"), v("meta", "pdata0", "linv"),
			v("meta", "short", "linv"), v("meta", "short-noreminv", "linv")
		printf " %s / %s / %s / %s | %s / %s / %s | %s / %s / %s |\n",
			v("small", "pdata0", "all"), v("small", "short", "all"),
			v("small", "short-16k", "all"), v("small", "short-64k", "all"),
			v("fio-randread", "pdata0", "all"), v("fio-randread", "short", "all"),
			v("fio-randread", "short-16k", "all"), v("fio-randwrite", "pdata0", "all"),
			v("fio-randwrite", "short", "all"), v("fio-randwrite", "short-16k", "all")
	}' "$OUT/summary.txt"
}

# bench_doc: this kernel's row replaces its old one; the other rows stay,
# in the order of scripts/kernels.tab.
bench_doc() {
	local doc=$TOP/Documentation/bench.md name n old row
	name=$(ktab_field "$KVER" 1)
	# a debug kernel takes its base's table line, not its row
	case $KVER in *-rpcrdma-dbg-*) name= ;; esac
	row=$(bench_doc_row "${name:-$KVER}" "$(date -u -r "$OUT/raw.txt" +%F)" \
		"$(cut -d' ' -f1 "$OUT/module.txt" 2>/dev/null)")
	old=$("$TOP/scripts/doctables.sh" get "$doc" bench) || return 1
	{
		echo "<!-- generated by make bench (scripts/vm/bench.sh): one row per kernel, its last run -->"
		echo "| kernel | release | measured (UTC), module x repeats | meta: Reply chunks offered, 1 KiB / 4 KiB / 16 KiB | meta: Reply chunks written, stock / short | meta: LOCAL_INV, 1 KiB / 4 KiB / 4 KiB without R | small: all chunks, 1 / 4 / 16 / 64 KiB | fio-randread: all chunks, 1 / 4 / 16 KiB | fio-randwrite: all chunks, 1 / 4 / 16 KiB |"
		echo "|---|---|---|---|---|---|---|---|---|"
		for n in $(ktab_names); do
			if [ "$n" = "$name" ]; then
				echo "$row"
			else
				grep "^| \`$n\` " <<<"$old"
			fi
		done
		# a kernel that is no line of the table (a debug kernel) goes last
		[ -n "$name" ] || echo "$row"
	} >"$OUT/doc.md"
	"$TOP/scripts/doctables.sh" put "$doc" bench <"$OUT/doc.md" &&
		msg "bench: row of ${name:-$KVER} written into ${doc#"$TOP"/}"
}

doc=${BENCH_DOC:-}
if [ -z "$doc" ]; then
	doc=0
	[ -z "${BENCH_CONFIGS:-}" ] && [ "${BENCH_STOCK:-1}" != 0 ] && [ "$VM_RDMA" = rxe ] &&
		! grep -q FAILED "$OUT/pairs.txt" 2>/dev/null && doc=1
fi
[ "$doc" = 1 ] && { bench_doc || warn "Documentation/bench.md not written"; }

# ---- plot --------------------------------------------------------------
# left: chunks per 1000 RPCs on the metadata workload; right: ops/s
# relative to pdata0 per workload
{
	for c in $order; do
		awk -v c="$c" '$1 == "meta" && $2 == c { m[$3] = $4 }
			END { if ("rpcs" in m) print c, m["rd"] + 0, m["wr"] + 0, m["rp"] + 0, m["rpw"] + 0, m["linv"] + 0 }' \
			"$OUT/summary.txt"
	done
} >"$OUT/plot-chunks.dat"
{
	for c in $order; do
		awk -v c="$c" '$2 == c && $3 == "ratio" { m[$1] = $4 }
			END { printf "%s %s %s %s %s\n", c, ("meta" in m) ? m["meta"] : "NaN",
				("small" in m) ? m["small"] : "NaN",
				("fio-randread" in m) ? m["fio-randread"] : "NaN",
				("fio-randwrite" in m) ? m["fio-randwrite"] : "NaN" }' "$OUT/summary.txt"
	done
} >"$OUT/plot-ratio.dat"
# only the workloads that have figures
ratio_plot=
col=2
for w in meta small fio-randread fio-randwrite; do
	if awk -v c=$col '$c != "NaN" { found = 1 } END { exit !found }' "$OUT/plot-ratio.dat"; then
		if [ -z "$ratio_plot" ]; then
			ratio_plot="\"$OUT/plot-ratio.dat\" using $col:xtic(1) title \"$w\""
		else
			ratio_plot+=", \"\" using $col title \"$w\""
		fi
	fi
	col=$((col + 1))
done
gnuplot <<EOF || warn "gnuplot failed"
set terminal pngcairo size 1400,560 noenhanced font ",10"
set output "$OUT/bench.png"
set multiplot layout 1,2 title "make bench: NFSv4.2 over rxe ($KVER), medians of $REPEATS"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -30
set key top right
set grid ytics
set title "metadata workload: chunks and LOCAL_INV per 1000 RPCs"
set ylabel "per 1000 RPCs"
plot "$OUT/plot-chunks.dat" using 2:xtic(1) title "read", \\
	"" using 3 title "write", "" using 4 title "reply offered", \\
	"" using 5 title "reply written", "" using 6 title "LOCAL_INV needed"
set title "ops/s relative to pdata=0 (same run)"
set key below horizontal
set ylabel "ratio"
set yrange [0:*]
plot ${ratio_plot:-0 notitle}
unset multiplot
EOF

msg "make bench: $((SECONDS - t_all)) s; results in ${OUT#"$TOP"/}/results.md and bench.png"
cat "$OUT/results.md"
