#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 17 (client guest): connection floods (issue 53 item 3), with
# the probe in this guest, against this module's nfsd (port 20049).
#
# 1. the real NFS mount, and what the server holds for it: its debugfs
#    connection lines, its rpcrdma Protection Domains and rpcrdma CM IDs
#    (rdma resource show; a transport whose accept failed is never
#    listed in debugfs, scenario 12, but holds its PD until freed);
# 2. a warm-up of 20 cycles, then the server back to that (first-use
#    allocations, a listener's first child CM ID, rxe's pools, must
#    not count as growth); on a kmemleak kernel, what it has reported
#    so far is cleared; the server's memory, quiet: the baseline;
# 3. the copy loop (copy_loop_start) and rpcrdma-cm-probe --flood
#    FLOOD_N --seed FLOOD_SEED beside it: blocks of 10 cycles, 4 good, 3
#    hostile (--fuzz inputs), 1 left at the request, 1 left at the reply
#    (no RTU), 1 refused (no Read resources offered: svc_rdma_accept()
#    turns the initiator depth of 0 down); the server's memory at each
#    quarter of the flood;
# 4. the probe's summary: every cycle ended as its kind asks (exit 0,
#    unexpected=0); the server's svcrdma_initdepth_err events: one per
#    refused cycle, so the server refused them for the reason meant;
# 5. the copy loop stops, every copy exact, and the server's sums; then
#    the server must hold exactly what it held for the mount again
#    (debugfs lines, PDs, CM IDs), within FLOOD_SETTLE s (180);
# 6. its memory must come back: SUnreclaim within max(2 MiB, 5 %) of
#    the baseline (see MARGIN below), within 60 s; and on a kmemleak
#    kernel, no new leak with a frame in our modules or their
#    neighbours (srv leakcheck: the server-kmemleak line).
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
P=/usr/local/bin/rpcrdma-cm-probe
N=${FLOOD_N:-10000}
SEED=${FLOOD_SEED:-8797}
SETTLE=${FLOOD_SETTLE:-180}
DBG=${CONNS%/*}
IDEP=$TRACING/events/rpcrdma/svcrdma_initdepth_err/enable
# the sampler, written into the export for the server to run
SAMPLER=.flood-mem.sh

[ -x $P ] || { status probe FAIL "no $P in the guest"; finish; exit 1; }
modprobe rdma_ucm || status probe FAIL "modprobe rdma_ucm failed"
mount_nfs 4.2 || { finish; exit 1; }
srv run /sbin/modprobe rdma_ucm >/dev/null
# the copy loop would fill the server's trace buffer with its Sends:
# only the refusals' event is recorded there, in a buffer that holds
# those of FLOOD_N=100000 (8 MiB, about 150 octets an event)
srv run echo 0 \>$TRACING/events/rpcrdma/svcrdma_post_send/enable >/dev/null
srv run echo 8192 \>$TRACING/buffer_size_kb >/dev/null
show_conns

# The server's memory, one line in KiB: MemAvailable, Slab and
# SUnreclaim from /proc/meminfo, and from /proc/slabinfo active objects
# times object size of the kmalloc caches and of the RDMA ones (ib_*,
# rdma*, rxe*, siw*, iw_*, svc_rdma*, rpcrdma*; most RDMA objects come
# from kmalloc caches, and SLUB merges caches of one size). "shrink"
# first has each cache give back its empty slabs (/sys/kernel/slab/*/
# shrink, kmem_cache_shrink()), so that slabs kept for reuse do not
# pass for growth; on a KASAN kernel it also empties the cache's part
# of the quarantine, freed objects KASAN holds back (up to 1/32 of
# memory, 16 MiB of a 512 MiB guest: far over the margin). The baseline
# and the samples after the flood take it, the ones during it do not
# (they are reported, not judged).
cat >"$MNT/$SAMPLER" <<'EOF'
if [ "$1" = shrink ]; then
	for f in /sys/kernel/slab/*/shrink; do echo 1 >"$f"; done 2>/dev/null
fi
awk '/^(MemAvailable|Slab|SUnreclaim):/ { sub(":", "", $1); printf "%s=%s ", $1, $2 }' /proc/meminfo
if [ -r /proc/slabinfo ]; then
	awk 'NR > 2 && $1 ~ /^(dma-)?kmalloc-/ { k += $2 * $4 }
	     NR > 2 && $1 ~ /^(ib_|rdma|rxe|siw|iw_|svc_rdma|rpcrdma)/ { r += $2 * $4 }
	     END { printf "kmalloc=%d rdma=%d\n", k / 1024, r / 1024 }' /proc/slabinfo
else
	echo "kmalloc=- rdma=-"
fi
EOF
# mem_sample TAG [shrink]: the server's memory line, kept in /tmp/mem.TAG
mem_sample() {
	srv run sh /export/$SAMPLER "${2:-}" >/tmp/mem."$1"
	echo "RPCRDMA-MEM: server $1 $(cat /tmp/mem."$1")"
}
# mem TAG KEY: a value of that sample
mem() { kv "$(cat /tmp/mem."$1")" "$2"; }

# res_counts: what the server holds for connections: debugfs lines,
# rpcrdma PDs, rpcrdma CM IDs (its listener's among them)
res_counts() {
	_rc=$(srv run grep -c role= $CONNS)
	_rp=$(srv run rdma resource show pd | grep -c 'comm \[rpcrdma\]')
	_ri=$(srv run rdma resource show cm_id | grep -c 'comm \[rpcrdma\]')
	echo "$_rc/$_rp/$_ri"
}
# settle SECS: until the server holds RES_BASE again, SECS at most;
# prints the seconds waited and what it holds, returns 0 when back
settle() {
	_w=0
	_now=$(res_counts)
	while [ "$_now" != "$RES_BASE" ] && [ $_w -lt "$1" ]; do
		sleep 3
		_w=$((_w + 3))
		_now=$(res_counts)
	done
	echo "$_w $_now"
	[ "$_now" = "$RES_BASE" ]
}

# ---- 1, 2. what the mount holds; warm-up; the baseline -------------------------
RES_BASE=$(res_counts)
step "server holds $RES_BASE (debugfs lines/rpcrdma PDs/rpcrdma CM IDs) for the mount"
step "warm-up: probe --flood 20 --seed $SEED"
$P --flood 20 --seed "$SEED" "$VM_SERVER_IP" >/tmp/warm.out 2>&1
rc=$?
check flood-warmup "probe exit $rc (want 0): $(grep -a '^flood-summary ' /tmp/warm.out | cut -c1-300) $(grep -av '^f' /tmp/warm.out | head -c 200)" [ $rc -eq 0 ]
data_check before-flood
# shellcheck disable=SC2046 # two words
set -- $(settle "$SETTLE")
check flood-warmup-settled "the server holds $2 again after $1 s (want $RES_BASE)" [ "$2" = "$RES_BASE" ]
# a kmemleak kernel: forget what it has reported so far (boot, mount,
# warm-up), so that what it reports after the flood is new
_leak=no
if [ "$(srv run test -r $KMEMLEAK \&\& echo yes)" = yes ]; then
	_leak=yes
	# twice, as leak_scan does: an object is reported once it stayed
	# unreferenced across scans
	srv run echo scan \>$KMEMLEAK \&\& sleep 6 \&\& echo scan \>$KMEMLEAK \&\& echo clear \>$KMEMLEAK >/dev/null
fi
_traced=no
[ "$(srv run echo 1 \>$IDEP \&\& echo on)" = on ] && _traced=yes
srv trace_clear >/dev/null
AF0=$(srv run cat "$DBG/accept_failed")
sleep 5
mem_sample base shrink

# ---- 3. the flood, NFS copies beside it -------------------------------------
copy_loop_start flood
step "probe --flood $N --seed $SEED against $VM_SERVER_IP:20049"
$P --flood "$N" --seed "$SEED" "$VM_SERVER_IP" >/tmp/fl.out 2>/tmp/fl.err &
FPID=$!
_q=0
while kill -0 $FPID 2>/dev/null; do
	_n=$(grep -c '^flood-progress ' /tmp/fl.out)
	if [ "$_n" -gt "$_q" ]; then
		_q=$_n
		grep -a '^flood-progress ' /tmp/fl.out | tail -n 1 | sed 's/^/RPCRDMA-STEP: /'
		mem_sample "q$_q"
		step "server holds $(res_counts) at quarter $_q"
	fi
	sleep 1
done
wait $FPID
rc=$?

# ---- 4. the probe's verdict, and the server's reason for each refusal ----------
sum=$(grep -a '^flood-summary ' /tmp/fl.out | tail -n 1)
grep -a 'verdict=unexpected' /tmp/fl.out | head -n 5 | cut -c1-400 | sed 's/^/RPCRDMA-STEP: /'
_ok=no
case $sum in
*" cycles=$N "*" unexpected=0 "*) [ $rc -eq 0 ] && _ok=yes ;;
esac
check flood "probe exit $rc (want 0): $sum $(head -c 200 /tmp/fl.err)" [ $_ok = yes ]
_rf=$(kv "$sum" refuse)
_rf=${_rf%/*}
if [ $_traced = yes ]; then
	_ie=$(srv run grep -c svcrdma_initdepth_err: $TRACING/trace)
	check flood-refusals "server svcrdma_initdepth_err events: ${_ie:-?}, refused cycles: ${_rf:-?} (each refused for the initiator depth of 0 it was offered)" \
		[ "${_ie:-x}" = "${_rf:-y}" ]
else
	status flood-refusals INFO "no rpcrdma:svcrdma_initdepth_err on the server: ${_rf:-?} refusals not traced to their reason"
fi
status flood-accept-failed INFO "<debugfs>/rpcrdma_cm/accept_failed $AF0 -> $(srv run cat "$DBG/accept_failed") (6.1's error path only, scripts/coccinelle/server_accept_errout.cocci)"

# ---- 5. the copies; nothing left over ---------------------------------------------
copy_loop_stop flood flood-copies "the flood"
data_check after-flood
# shellcheck disable=SC2046 # two words
set -- $(settle "$SETTLE")
check flood-leftovers "the server holds $2 (debugfs lines/rpcrdma PDs/rpcrdma CM IDs) after $1 s (want $RES_BASE, what it held for the mount alone)" \
	[ "$2" = "$RES_BASE" ]

# ---- 6. the memory back --------------------------------------------------------------
# MARGIN: SUnreclaim must be back within max(2 MiB, 5 % of the
# baseline). A leak of one kmalloc-256 object per cycle is 2.4 MiB over
# the default 10000 cycles and goes over it; a leaked transport holds
# far more (its Receive buffers alone, 4 KiB each, dozens of them).
# What may differ without a leak stays well under it: the slabs of a
# few dozen objects the flood made a cache grow by and that are still
# partly in use, per-CPU partial slabs shrink cannot take back, the
# NFS files this scenario wrote (tmpfs inodes). 5 % is there for a
# larger guest, whose baseline, and its noise, grow with it.
_b=$(mem base SUnreclaim)
_margin=$((_b * 5 / 100))
[ "$_margin" -ge 2048 ] || _margin=2048
_w=0
while :; do
	mem_sample after shrink
	_a=$(mem after SUnreclaim)
	[ $((${_a:-0} - ${_b:-0})) -le $_margin ] || [ $_w -ge 60 ] && break
	sleep 10
	_w=$((_w + 10))
done
_during=
for _t in q1 q2 q3; do
	[ -e /tmp/mem.$_t ] && _during="$_during $_t:$(mem $_t SUnreclaim)"
done
_ok=no
[ -n "$_a" ] && [ -n "$_b" ] && [ $((_a - _b)) -le $_margin ] && _ok=yes
check flood-memory "SUnreclaim=${_b:-?}->${_a:-?} KiB (+$((${_a:-0} - ${_b:-0})), margin $_margin: max(2 MiB, 5 %)) after ${_w} s; during:${_during:- none}; Slab $(mem base Slab)->$(mem after Slab), MemAvailable $(mem base MemAvailable)->$(mem after MemAvailable), kmalloc caches $(mem base kmalloc)->$(mem after kmalloc), RDMA caches $(mem base rdma)->$(mem after rdma) KiB" \
	[ $_ok = yes ]
if [ $_leak = yes ]; then
	srv leakcheck >/dev/null
	status flood-kmemleak INFO "server scanned after the flood: its server-kmemleak line says whether anything new leaked"
fi
rm -f "$MNT/$SAMPLER"
umount_nfs
finish
