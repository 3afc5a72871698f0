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
# Each pair records its wire (VM_PCAP=1, kept whole) and the guest marks
# every workload's window in it; scripts/vm/wireops.py counts the RDMA
# operations, packets and octets of each window, which land on the
# workload's line of raw.txt (wire=1 and wireops.py's fields; wire=-
# when there was no capture or no such window).
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
#   BENCH_PCAP=0  no capture: no operations or packets per RPC
#   VM_WIRECHECK=1 also run the scenarios' wire assertions on the bench
#                  pairs (default 0 here: their premises are the
#                  scenarios', and the capture must stay whole)
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
# 1 GiB guests: set before lib.sh, whose own default is 512
export VM_MEM=${VM_MEM:-1024}
# shellcheck source=scripts/vm/lib.sh
. "$VMDIR/lib.sh"

REPEATS=${BENCH_REPEATS:-5}
META_N=${BENCH_META_N:-20}
SMALL_M=${BENCH_SMALL_M:-1}
FIO_SECS=${BENCH_FIO_SECS:-1}
# name:pdata:reminv:short:thresh ("-": leave as is). DEFAULTS: the
# module's own sizes, client read/write 8192/4096 and server
# max_req_size 4096 (server_send_size 8192 is never changed here):
# "short" is the module as installed; "short-4k" what it negotiated
# before, and Debian's module does, 4096 both ways.
DEFAULTS=8192/4096/4096
CONFIGS=${BENCH_CONFIGS:-"pdata0:0:1:0:4096 ours:1:1:0:$DEFAULTS short-4k:1:1:1:4096 short:1:1:1:$DEFAULTS short-noreminv:1:0:1:$DEFAULTS short-16k:1:1:1:16384 short-64k:1:1:1:65536"}
STOCK_CONFIG="stock:-:-:-:-"
if [ "${BENCH_PCAP:-1}" != 0 ] && [ "$VM_RDMA" = rxe ]; then
	# wireops.py needs every frame: lib.sh's wire check would keep only
	# the Sends of a passing pair
	export VM_PCAP=1 VM_PCAP_FULL=1 VM_WIRECHECK=${VM_WIRECHECK:-0}
else
	# siw's MPA framing is not counted (wireops.py: RoCEv2 only)
	export VM_PCAP=
fi

need_pkgs gnuplot-nox
[ -n "${VM_PCAP:-}" ] && need_tshark
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

# wire_ops PAIRDIR: wireops.py's counts per window of the pair's pcap
# into PAIRDIR/ops.txt; its notes (marks that do not pair up) warned.
wire_ops() {
	local home=$BUILD/wireshark/home
	: >"$1/ops.txt"
	[ -s "$1/wire.pcap" ] || return 0
	mkdir -p "$home"
	python3 "$VMDIR/wireops.py" count "$1" --home "$home" \
		--lua "$TOP/tools/wireshark/rpcrdma_cm.lua" >"$1/ops.txt" 2>&1 ||
		warn "wireops.py failed on ${1#"$TOP"/}: $(head -n 1 "$1/ops.txt")"
	grep '^ops note: ' "$1/ops.txt" | head -n 5 | while read -r l; do warn "${1##*/}: $l"; done
}

# wire_join OPS: the RPCRDMA-BENCH lines on stdin, each with its
# window's counts from OPS appended (wire=1 ...), or wire=-. A window
# with no packet of two does not know the path MTU: it takes the
# pair's (the "all" line's).
wire_join() {
	# (FILENAME, not NR == FNR: OPS may be empty)
	awk 'FILENAME == ARGV[1] {
		if ($1 != "ops" || $2 !~ /^mk=/) next
		k = substr($2, 4)
		$1 = $2 = ""
		w[k] = substr($0, 3)
		if (k == "all" && match(w[k], /pmtu=[0-9]+/))
			apmtu = substr(w[k], RSTART + 5, RLENGTH - 5)
		next
	}
	{
		k = ""
		for (i = 1; i <= NF; i++) if ($i ~ /^mk=/) k = substr($i, 4)
		if (k == "" || !(k in w)) { print $0 " wire=-"; next }
		l = w[k]
		if (apmtu != "") sub(/pmtu=0$/, "pmtu=" apmtu, l)
		print $0 " wire=1 " l
	}' "$1" -
}

bench_pair() { # bench_pair RUN KO CONFIGS
	local t0=$SECONDS dir
	msg "pair $1: $3 (x$REPEATS)"
	if vm_pair "bench-$1" "$2" "" "$2" "" "$VMDIR/bench-guest.sh" \
		"${ENV[@]}" BENCH_CONFIGS="$3"; then
		echo "bench-$1 ok $((SECONDS - t0))s" >>"$OUT/pairs.txt"
	else
		echo "bench-$1 FAILED $((SECONDS - t0))s: $VM_RESULT_DETAIL" >>"$OUT/pairs.txt"
		warn "pair bench-$1: $VM_RESULT_DETAIL"
	fi
	dir=$(dirname "$VM_CLOG")
	wire_ops "$dir"
	vm_lines "$VM_CLOG" RPCRDMA-BENCH | wire_join "$dir/ops.txt" >>"$OUT/raw.txt"
	vm_lines "$VM_CLOG" RPCRDMA-BENCH-CONN | sed 's/^/# /' >>"$OUT/pairs.txt"
	vm_lines "$VM_CLOG" RPCRDMA-BENCH-MEM >>"$OUT/mem.txt"
	grep -q 'RPCRDMA-BENCH-DONE' "$VM_CLOG" ||
		warn "pair bench-$1 did not finish (log: ${VM_CLOG#"$TOP"/})"
}

order="$(for c in $CONFIGS; do printf '%s ' "${c%%:*}"; done)"
[ "${BENCH_STOCK:-1}" != 0 ] && order+="stock"
if [ -z "${BENCH_REPORT_ONLY:-}" ]; then
	: >"$OUT/raw.txt"
	: >"$OUT/pairs.txt"
	: >"$OUT/mem.txt"
	bench_pair ours ours "$CONFIGS"
	[ "${BENCH_STOCK:-1}" != 0 ] && bench_pair stock stock "$STOCK_CONFIG"
fi
[ -s "$OUT/raw.txt" ] || die "no measurement came back; see $VM_RUNDIR"

# ---- aggregate ---------------------------------------------------------
# per row: derived metrics; ratio = ops/s over pdata0's in the same
# repeat and workload.
#
# Operations and packets per RPC (rows with wire=1): the RPCs are the
# Calls on the wire in the workload's window (wireops.py), not
# mountstats' sends: the same capture and window as every operation
# and packet counted, so a ratio never mixes two sources' boundaries
# (the mountstats window encloses the wire window; the two counts are
# in results.md side by side). FastReg = read + write + reply chunk
# segments (mountstats): the client registers one MR, one REG_MR work
# request chained before the Send (frwr_send), per segment it encodes
# (rpc_rdma.c, 6.1 to 7.3); 6.1 and 6.12 also count a write-pad
# segment, which uses a premade MR, for a READ whose length is no
# multiple of 4 (none in these workloads). LINV = local_inv_needed,
# one per LOCAL_INV work request (frwr_unmap_sync/async).
# The floor per RPC: one Send each way, i.e. 2 operations; 2 + P/pmtu
# packets, P the workload's file data per RPC (pay, octets written and
# read), pmtu the payload a full packet carries on this wire; octets:
# P plus 58 of framing per floor packet (Ethernet 14, IPv4 20, UDP 8,
# BTH 12, ICRC 4) plus the 28-octet RPC-over-RDMA header of each Send.
# Each operation kind is given against the 2-operation floor too.
# Memory (mem.txt, bench-guest.sh's mem_report): "mem CFG client|server
# KiB", one per repeat, through the same medians.
{
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
	if (kv("wire") == 1 && kv("calls") > 0) {
		m = kv("calls")
		p = kv("pay") / m
		fp = 2 + p / (kv("pmtu") > 0 ? kv("pmtu") : 1024)
		fo = p + 58 * fp + 2 * 28
		v["send"] = kv("send"); v["swi"] = kv("swi")
		v["write"] = kv("write"); v["read"] = kv("read")
		v["fastreg"] = kv("rdch") + kv("wrch") + kv("rpch")
		v["linv"] = kv("linv")
		a = 0
		printf "%s %s calls %d\n", w, c, m
		for (x in v) {
			printf "%s %s o_%s %.4f\n", w, c, x, v[x] / m
			printf "%s %s f_%s %.4f\n", w, c, x, v[x] / m / 2
			a += v[x]
		}
		printf "%s %s o_all %.4f\n", w, c, a / m
		printf "%s %s f_all %.4f\n", w, c, a / m / 2
		printf "%s %s o_pkts %.4f\n", w, c, kv("pkts") / m
		printf "%s %s f_pkts %.4f\n", w, c, kv("pkts") / m / fp
		printf "%s %s o_octets %.1f\n", w, c, kv("octets") / m
		printf "%s %s f_octets %.4f\n", w, c, kv("octets") / m / fo
		if (kv("hw") != "-" && kv("hw") != "") {
			printf "%s %s o_hw %.4f\n", w, c, kv("hw") / m
			printf "%s %s f_hw %.4f\n", w, c, kv("hw") / m / fp
		}
	}
	k = w " " r
	if (k in b && b[k] > 0) printf "%s %s ratio %.2f\n", w, c, o / b[k]
}' "$OUT/raw.txt" "$OUT/raw.txt"
awk '{ for (i = 1; i <= NF; i++) { split($i, a, "="); f[a[1]] = a[2] }
	if (f["client_kib"] != "-") print "mem", f["cfg"], "client", f["client_kib"]
	if (f["server_kib"] != "-") print "mem", f["cfg"], "server", f["server_kib"] }' \
	"$OUT/mem.txt" 2>/dev/null
} |
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
	echo "Operations and wire per RPC (under each workload's table, from each pair's pcap:"
	echo "scripts/vm/wireops.py on the workload's marked window): per RPC-over-RDMA Call on"
	echo "the wire, Sends, Sends With Invalidate, RDMA Writes and Reads (both directions),"
	echo "the MRs the client registered (FastReg, one per chunk segment, mountstats) and its"
	echo "LOCAL_INVs, all of them, every RoCEv2 packet (ACKs and retransmissions included),"
	echo "the packets the client's rxe counted (hw_counters sent_pkts + rcvd_pkts: the check"
	echo "of the window), and the Ethernet octets. Cells: median [to the floor, to stock]:"
	echo "the median of each repeat's ratio to its own floor, and the median over stock's"
	echo "median in this run. The floor per RPC is one Send each way: 2 operations (each"
	echo "kind is given against it too), 2 + P/pmtu packets and P + 58 x that + 56 octets,"
	echo "P = the workload's file data per RPC (none for meta but its few file octets)."
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
	# the windows' check: the capture's packets against rxe's counters
	awk '
	function kv(k,  i, a) {
		for (i = 1; i <= NF; i++) { split($i, a, "="); if (a[1] == k) return a[2] }
		return ""
	}
	{ n++ }
	kv("wire") == 1 { w++; p += kv("pkts"); if (kv("hw") != "-") { h++; hp += kv("pkts"); hc += kv("hw") } }
	END {
		if (!w) { print ""; print "Wire: no window was captured (BENCH_PCAP=0, siw, or no pcap)."; exit }
		printf "\nWire: %d of %d workload windows captured, %d packets in them;", w, n, p
		if (h) printf " in the %d with rxe counters the capture has %d packets, the counters %d%s.\n",
			h, hp, hc, hp == hc ? " (equal)" : sprintf(" (%+d)", hp - hc)
		else printf " no rxe counters.\n"
	}' "$OUT/raw.txt"
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
		grep -q "^$w [^ ]* o_all " "$OUT/summary.txt" || continue
		echo
		echo "Operations and wire per RPC ($w): median [to the floor, to stock]"
		echo
		echo "| config | Calls (wire) | Send | SWI | Write | Read | FastReg | LINV | all ops | packets | rxe packets | octets |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
		for c in $order; do
			awk -v w="$w" -v c="$c" '
			function cell(k, f,  s, x) {
				if (!(("o_" k) in med)) return "-"
				s = sprintf(f, med["o_" k])
				x = (("f_" k) in med) ? sprintf("%.2f", med["f_" k]) : "-"
				s = s " [" x ", "
				x = "-"
				if (("o_" k) in st && st["o_" k] > 0)
					x = sprintf("%.2f", med["o_" k] / st["o_" k])
				return s x "]"
			}
			$1 == w && $2 == c { med[$3] = $4 }
			$1 == w && $2 == "stock" { st[$3] = $4 }
			END {
				if (!("calls" in med)) exit
				printf "| %s | %.0f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
					c, med["calls"], cell("send", "%.3f"), cell("swi", "%.3f"),
					cell("write", "%.3f"), cell("read", "%.3f"),
					cell("fastreg", "%.3f"), cell("linv", "%.3f"),
					cell("all", "%.2f"), cell("pkts", "%.2f"),
					cell("hw", "%.2f"), cell("octets", "%.0f")
			}' "$OUT/summary.txt"
		done
	done
	if grep -q '^mem ' "$OUT/summary.txt"; then
		echo
		echo "## Memory per connection"
		echo
		echo "KiB that one mount's connection holds on each side: memory in use with the"
		echo "caches dropped, slabs counted by their objects in use (a freed buffer's slab page"
		echo "may stay with its cache), mounted after the workloads, against the same side with"
		echo "no connection (scripts/vm/guest/lib.sh, mem_used_kib; scripts/vm/bench-guest.sh,"
		echo "mem_report). The figure holds NFSv4's state for the"
		echo "mount as well, the same in every configuration; the last two columns are the"
		echo "differences of the medians to short-4k (4096 both ways) and to stock."
		echo
		echo "| config | client KiB | server KiB | client, server over short-4k | client, server over stock |"
		echo "|---|---|---|---|---|"
		for c in $order; do
			awk -v c="$c" '$1 == "mem" { m[$2 " " $3] = $4; lo[$2 " " $3] = $5; hi[$2 " " $3] = $6 }
			function cell(k) { return (k in m) ? sprintf("%.0f (%.0f-%.0f)", m[k], lo[k], hi[k]) : "-" }
			function d(b, k) { return ((c " " k) in m && (b " " k) in m) ? sprintf("%+.0f", m[c " " k] - m[b " " k]) : "-" }
			END {
				if (!((c " client") in m) && !((c " server") in m)) exit
				printf "| %s | %s | %s | %s, %s | %s, %s |\n", c, cell(c " client"), cell(c " server"),
					d("short-4k", "client"), d("short-4k", "server"), d("stock", "client"), d("stock", "server")
			}' "$OUT/summary.txt"
		done
	fi
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
	{ k = $1 " " $2 " " $3; m[k] = $4; lo[k] = $5; hi[k] = $6 }
	function v(w, c, k) {
		return ((w " " c " " k) in m) ? sprintf("%.1f", m[w " " c " " k]) : "-"
	}
	# median (min-max)
	function vs(w, c, k,  x) {
		x = w " " c " " k
		return (x in m) ? sprintf("%.1f (%.1f-%.1f)", m[x], lo[x], hi[x]) : "-"
	}
	function kib(c,  a, b) {
		a = "mem " c " client"; b = "mem " c " server"
		return sprintf("%s, %s", (a in m) ? sprintf("%.0f", m[a]) : "-",
			(b in m) ? sprintf("%.0f", m[b]) : "-")
	}
	END {
		printf "| `%s` | %s | %s, %s | %s / %s / %s / %s | %s / %s | %s / %s / %s |", name, rel,
			when, mod, v("meta", "pdata0", "rp"), vs("meta", "short-4k", "rp"),
			vs("meta", "short", "rp"), v("meta", "short-16k", "rp"),
			v("meta", "stock", "rpw"), vs("meta", "short", "rpw"),
			v("meta", "pdata0", "linv"), v("meta", "short", "linv"),
			v("meta", "short-noreminv", "linv")
		printf " %s / %s / %s / %s / %s | %s / %s / %s | %s / %s / %s | %s; %s; %s |\n",
			v("small", "pdata0", "all"), v("small", "short-4k", "all"),
			v("small", "short", "all"), v("small", "short-16k", "all"),
			v("small", "short-64k", "all"),
			v("fio-randread", "pdata0", "all"), v("fio-randread", "short", "all"),
			v("fio-randread", "short-16k", "all"), v("fio-randwrite", "pdata0", "all"),
			v("fio-randwrite", "short", "all"), v("fio-randwrite", "short-16k", "all"),
			kib("short-4k"), kib("short"), kib("stock")
	}' "$OUT/summary.txt"
}

# bench_doc_ops_row NAME WHEN MODULE: the same kernel's row of the
# second table, operations and wire per RPC (medians; in parentheses the
# median ratio to the floor, see the aggregate above): `short` (this
# module's defaults, DEFAULTS) against stock, "-" for what did not run.
bench_doc_ops_row() {
	awk -v name="$1" -v rel="$KVER" -v when="$2" -v mod="$3 x$REPEATS" '
	{ m[$1 " " $2 " " $3] = $4 }
	function v(w, c, k, f) {
		return ((w " " c " o_" k) in m) ? sprintf(f, m[w " " c " o_" k]) : "-"
	}
	# value (ratio to the floor)
	function vf(w, c, k) {
		if (!((w " " c " o_" k) in m)) return "-"
		return sprintf("%.2f (%.2f)", m[w " " c " o_" k], m[w " " c " f_" k])
	}
	function rs(w, k,  a, b) {
		a = w " short o_" k; b = w " stock o_" k
		return (a in m && b in m && m[b] > 0) ? sprintf("%.2f", m[a] / m[b]) : "-"
	}
	function kinds(w, c) {
		return v(w, c, "send", "%.2f") " / " v(w, c, "swi", "%.2f") " / " \
			v(w, c, "write", "%.2f") " / " v(w, c, "read", "%.2f") " / " \
			v(w, c, "fastreg", "%.2f") " / " v(w, c, "linv", "%.2f")
	}
	END {
		printf "| `%s` | %s | %s, %s | %s | %s | %s / %s | %s / %s | %s / %s | %s / %s / %s |", name, rel,
			when, mod, kinds("meta", "short"), kinds("meta", "stock"),
			vf("meta", "short", "all"), vf("meta", "stock", "all"),
			vf("meta", "short", "pkts"), vf("meta", "stock", "pkts"),
			v("meta", "short", "octets", "%.0f"), v("meta", "stock", "octets", "%.0f"),
			rs("meta", "all"), rs("meta", "pkts"), rs("meta", "octets")
		for (i = 1; i <= 3; i++) {
			w = i == 1 ? "small" : i == 2 ? "fio-randread" : "fio-randwrite"
			printf " %s / %s; %s / %s |", vf(w, "short", "all"), vf(w, "stock", "all"),
				vf(w, "short", "pkts"), vf(w, "stock", "pkts")
		}
		printf "\n"
	}' "$OUT/summary.txt"
}

# kernel_rows NAME ROW OLD: a table's rows in kernels.tab's order, ROW
# for kernel NAME and the OLD table's row for every other; a kernel that
# is no line of kernels.tab (a debug kernel, NAME empty) goes last.
kernel_rows() {
	local n
	for n in $(ktab_names); do
		if [ "$n" = "$1" ]; then
			echo "$2"
		else
			grep "^| \`$n\` " <<<"$3"
		fi
	done
	[ -n "$1" ] || echo "$2"
}


# bench_doc: this kernel's rows replace its old ones; the other rows stay,
# in the order of scripts/kernels.tab. The block holds two tables, the
# second after the line OPS_MARK.
OPS_MARK="<!-- operations and wire per RPC (scripts/vm/wireops.py) -->"
bench_doc() {
	local doc=$TOP/Documentation/bench.md name n old old_ops row row_ops
	name=$(ktab_field "$KVER" 1)
	# a debug kernel takes its base's table line, not its row
	case $KVER in *-rpcrdma-dbg-*) name= ;; esac
	row=$(bench_doc_row "${name:-$KVER}" "$(date -u -r "$OUT/raw.txt" +%F)" \
		"$(cut -d' ' -f1 "$OUT/module.txt" 2>/dev/null)")
	row_ops=$(bench_doc_ops_row "${name:-$KVER}" "$(date -u -r "$OUT/raw.txt" +%F)" \
		"$(cut -d' ' -f1 "$OUT/module.txt" 2>/dev/null)")
	old=$("$TOP/scripts/doctables.sh" get "$doc" bench) || return 1
	old_ops=$(awk -v m="$OPS_MARK" '$0 == m { f = 1 } f' <<<"$old")
	old=$(awk -v m="$OPS_MARK" '$0 == m { f = 1 } !f' <<<"$old")
	{
		echo "<!-- generated by make bench (scripts/vm/bench.sh): one row per kernel, its last run -->"
		echo "| kernel | release | measured (UTC), module x repeats | meta: Reply chunks offered, 1 KiB / 4 KiB / defaults / 16 KiB | meta: Reply chunks written, stock / defaults | meta: LOCAL_INV, 1 KiB / defaults / defaults without R | small: all chunks, 1 / 4 / defaults / 16 / 64 KiB | fio-randread: all chunks, 1 KiB / defaults / 16 KiB | fio-randwrite: all chunks, 1 KiB / defaults / 16 KiB | memory per connection, KiB client, server: 4 KiB; defaults; stock |"
		echo "|---|---|---|---|---|---|---|---|---|---|"
		kernel_rows "$name" "$row" "$old"
		echo
		echo "$OPS_MARK"
		echo "| kernel | release | measured (UTC), module x repeats | meta, defaults: Send / SWI / Write / Read / FastReg / LINV per RPC | meta, stock: the same | meta: operations per RPC (x floor), defaults / stock | meta: packets per RPC (x floor), defaults / stock | meta: octets per RPC, defaults / stock | meta, defaults over stock: operations / packets / octets | small: operations; packets per RPC (x floor), defaults / stock | fio-randread: the same | fio-randwrite: the same |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
		kernel_rows "$name" "$row_ops" "$old_ops"
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
