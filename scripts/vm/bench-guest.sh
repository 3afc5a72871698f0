#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench, client guest (busybox sh; /vm/run.sh of the client VM,
# see scripts/vm/bench.sh). The server runs scripts/vm/guest/server.sh.
#
# For each repeat, for each configuration in BENCH_CONFIGS, mount
# NFSv4.2 over RDMA with that configuration's settings on both sides
# and run the workloads; around each workload, snapshot the client's
# "xprt: rdma" mountstats line and the server's per-connection reply
# counters (this module only), and print one line:
#
#   RPCRDMA-BENCH: cfg=C rep=R wl=W ops=N cs=CENTISECONDS rpcs=..
#     rdch=.. wrch=.. rpch=.. rqb=.. rpb=.. linv=.. src=.. ssr=.. iops=..
#     mk=K hw=.. pay=..
#
# (rdch/wrch/rpch: Read/Write/Reply chunk segments the client
# registered; rqb: octets it registered for them; rpb: octets the
# server wrote into Write and Reply chunks; linv: LOCAL_INV needed;
# src/ssr: server Replies to Calls with a Reply chunk / of those sent
# short, "-" on a stock server; iops: fio's figure, fio workloads;
# mk: the wire window of the workload, marked for scripts/vm/wireops.py;
# hw: RoCE packets the client's rxe sent and received meanwhile;
# pay: the workload's file data in octets, written plus read.)
# Workload "idle" runs nothing: the server counters move anyway by the
# control channel's (srv) own RPCs, which bench.sh subtracts.
#
# BENCH_CONFIGS: space-separated "name:pdata:reminv:short:thresh";
# each field except name may be "-" (leave as is: the stock module has
# none of these parameters). pdata/reminv apply to both sides, short to
# the server, thresh to the client sysctls rdma_max_inline_read/write
# and the server's sunrpc.svc_rdma.max_req_size: one number for all
# three, or "read/write/max_req_size" (the module's defaults are
# 8192/4096/4096; its server_send_size stays at its default, 8192, and
# the server offers min(8192, the client's read) when that is above
# max_req_size).
# BENCH_REPEATS, BENCH_META_N (files), BENCH_SMALL_M (files per size),
# BENCH_FIO_SECS (seconds per fio job, 0 skips fio).

# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
REPEATS=${BENCH_REPEATS:-5}
META_N=${BENCH_META_N:-20}
SMALL_M=${BENCH_SMALL_M:-1}
SMALL_SIZES="512 1024 2048 4096 8192 16384"
FIO_SECS=${BENCH_FIO_SECS:-1}
FIO=$(command -v fio 2>/dev/null)

# cs: uptime in centiseconds
cs() { read -r _u _ </proc/uptime; echo "${_u%.*}${_u#*.}" | sed 's/^0*//;s/^$/0/'; }

# xline: the client's rdma transport counters (awk fields 8 13 14 15 16
# 17 27: sends, read/write/reply chunks, rdma request/reply octets,
# local_inv_needed).
xline() {
	awk '$1 == "xprt:" && $2 == "rdma" {
		print $8, $13, $14, $15, $16, $17, $27; exit }' /proc/self/mountstats
}

# mark 0|1: open (0) or close (1) wire window MK: an ICMP echo request
# to the server of MARK_BASE + 2 * (MK mod MARK_SLOTS) + 0|1 octets of
# data, which scripts/vm/wireops.py finds in the pair's pcap (the two
# numbers are its own). ping returns once the echo reply is back, so
# the window's RoCE frames follow the opening mark on the wire, and the
# workload has ended (every Reply received) before the closing one.
MARK_BASE=200 MARK_SLOTS=500
mark() {
	ping -c 1 -W 5 -p a5 -s $((MARK_BASE + 2 * (MK % MARK_SLOTS) + $1)) \
		"$VM_SERVER_IP" >/dev/null 2>&1 || step "window $MK: mark $1 had no echo reply"
}

# hwc: RoCE packets the client's rxe sent plus those it received (the
# port's hw_counters sent_pkts and rcvd_pkts, rxe_hw_counters.c, 6.1
# on), "-" without them (siw has none). The wire check of the pcap's
# window: the two count the same frames (the capture sees both ways).
HWC=$(ls -d /sys/class/infiniband/*/ports/1/hw_counters 2>/dev/null | head -n 1)
hwc() {
	if [ -r "$HWC/sent_pkts" ] && [ -r "$HWC/rcvd_pkts" ]; then
		echo $(($(cat "$HWC/sent_pkts") + $(cat "$HWC/rcvd_pkts")))
	else
		echo -
	fi
}

# scount: the server's "reply_chunks short_replies" for this client, or
# "- -" (stock server).
scount() {
	_l=$(srv conns | grep "peer=$VM_CLIENT_IP:" | tail -n 1)
	_a=$(kv "$_l" reply_chunks)
	_b=$(kv "$_l" short_replies)
	echo "${_a:--} ${_b:--}"
}

# report CFG REP WL OPS T0 T1 "X0" "X1" "S0" "S1" IOPS H0 H1
report() {
	_c=$1 _r=$2 _w=$3 _o=$4 _cs=$(($6 - $5)) _x0=$7 _x1=$8 _s0=$9
	shift 9
	_s1=$1 _io=${2:--} _hw=-
	[ "$3" = - ] || [ "$4" = - ] || _hw=$(($4 - $3))
	# shellcheck disable=SC2086
	_d=$(echo $_x0 $_x1 | awk '{ printf "rpcs=%d rdch=%d wrch=%d rpch=%d rqb=%d rpb=%d linv=%d",
		$8-$1, $9-$2, $10-$3, $11-$4, $12-$5, $13-$6, $14-$7 }')
	# shellcheck disable=SC2086
	_s=$(echo $_s0 $_s1 | awk '{ if ($1 == "-" || $3 == "-") print "src=- ssr=-";
		else printf "src=%d ssr=%d", $3-$1, $4-$2 }')
	echo "RPCRDMA-BENCH: cfg=$_c rep=$_r wl=$_w ops=$_o cs=$_cs $_d $_s iops=$_io mk=$MK hw=$_hw pay=${PAY:-0}"
}

# measure CFG REP WL COMMAND...: run COMMAND between snapshots. The
# server's counters are read once between workloads (S_LAST: the
# previous reading), the client's right around COMMAND, inside them
# the wire window's marks and inside those the rxe counters: nothing
# but COMMAND touches the wire between a mark and its counter reading.
MK=0
measure() {
	_mc=$1 _mr=$2 _mw=$3
	shift 3
	PAY=0
	X0=$(xline)
	mark 0
	H0=$(hwc)
	T0=$(cs)
	"$@"
	T1=$(cs)
	H1=$(hwc)
	mark 1
	X1=$(xline)
	S1=$(scount)
	report "$_mc" "$_mr" "$_mw" "$OPS" "$T0" "$T1" "$X0" "$X1" "$S_LAST" "$S1" "${IOPS:--}" "$H0" "$H1"
	S_LAST=$S1
	IOPS=
	MK=$((MK + 1))
}

# nothing: what the snapshots themselves cost (srv goes through NFS)
wl_idle() { OPS=0; }

wl_meta() {
	_d=$MNT/bench_meta
	mkdir "$_d"
	_i=0
	while [ $_i -lt "$META_N" ]; do echo "$_i" >"$_d/f$_i"; _i=$((_i + 1)); done
	drop_caches
	_i=0
	while [ $_i -lt "$META_N" ]; do stat "$_d/f$_i" >/dev/null; _i=$((_i + 1)); done
	ls -l "$_d" >/dev/null
	_i=0
	while [ $_i -lt "$META_N" ]; do mv "$_d/f$_i" "$_d/g$_i"; _i=$((_i + 1)); done
	_i=0
	while [ $_i -lt "$META_N" ]; do rm "$_d/g$_i"; _i=$((_i + 1)); done
	rmdir "$_d"
	OPS=$((META_N * 4 + 3))
	# file data: "$_i\n" per file, written (never read back)
	PAY=$(seq 0 $((META_N - 1)) | wc -c)
}

wl_small() {
	_d=$MNT/bench_small
	mkdir -p "$_d"
	for _s in $SMALL_SIZES; do
		_j=0
		while [ $_j -lt "$SMALL_M" ]; do
			cp "/tmp/bsrc_$_s" "$_d/f_${_s}_$_j"
			_j=$((_j + 1))
		done
	done
	drop_caches
	for _s in $SMALL_SIZES; do
		_j=0
		while [ $_j -lt "$SMALL_M" ]; do
			cat "$_d/f_${_s}_$_j" >/dev/null
			_j=$((_j + 1))
		done
	done
	OPS=$((SMALL_M * 2 * $(echo "$SMALL_SIZES" | wc -w)))
	# every file written, then read back over the wire
	PAY=0
	for _s in $SMALL_SIZES; do PAY=$((PAY + 2 * SMALL_M * _s)); done
}

# wl_fio RW FIELD KB: 4 KiB random I/O on an 8 MiB file, O_DIRECT;
# FIELD is the terse (v3) iops field: 8 for reads, 49 for writes; KB
# the KiB moved: 6 for reads, 47 for writes.
wl_fio() {
	"$FIO" --name=bench --filename="$MNT/bench_fio" --size=8m --bs=4k \
		--direct=1 --ioengine=psync --rw="$1" --runtime="$FIO_SECS" \
		--time_based --minimal >/tmp/fio.out 2>/tmp/fio.err
	IOPS=$(awk -F';' -v f="$2" '{ print int($f); exit }' /tmp/fio.out)
	OPS=$((IOPS * FIO_SECS))
	PAY=$(awk -F';' -v f="$3" '{ print int($f) * 1024; exit }' /tmp/fio.out)
}

# settings CFG: fields of a configuration
cfg_field() { echo "$1" | cut -d: -f"$2"; }

# server_apply CFG: the server side of CFG (needs a mount; applies to
# the next connection). Only what differs from the last values set.
SRV_P='' SRV_V='' SRV_S='' SRV_T=''
server_apply() {
	_p=$(cfg_field "$1" 2) _v=$(cfg_field "$1" 3) _s=$(cfg_field "$1" 4) _t=$(cfg_field "$1" 5)
	[ "$_p" = - ] || [ "$_p" = "$SRV_P" ] || srv param pdata "$_p" >/dev/null
	[ "$_v" = - ] || [ "$_v" = "$SRV_V" ] || srv param remote_invalidate "$_v" >/dev/null
	[ "$_s" = - ] || [ "$_s" = "$SRV_S" ] || srv param short_replies "$_s" >/dev/null
	[ "$_t" = - ] || [ "$_t" = "$SRV_T" ] ||
		srv sysctl "sunrpc.svc_rdma.max_req_size=$(thresh_field "$_t" 3)" >/dev/null
	SRV_P=$_p SRV_V=$_v SRV_S=$_s SRV_T=$_t
}

client_apply() {
	_p=$(cfg_field "$1" 2) _v=$(cfg_field "$1" 3) _t=$(cfg_field "$1" 5)
	[ "$_p" = - ] || set_param pdata "$_p"
	[ "$_v" = - ] || set_param remote_invalidate "$_v"
	if [ "$_t" != - ]; then
		thresh_field "$_t" 1 >/proc/sys/sunrpc/rdma_max_inline_read
		thresh_field "$_t" 2 >/proc/sys/sunrpc/rdma_max_inline_write
	fi
}

# thresh_field THRESH N: field N of "read/write/max_req_size", or
# THRESH itself when it is one number
thresh_field() {
	case $1 in
	*/*) echo "$1" | cut -d/ -f"$2" ;;
	*) echo "$1" ;;
	esac
}

# Memory one connection pins on each side: the KiB in use
# (mem_used_kib: caches dropped, slabs counted by the objects in use),
# mounted after the workloads, against the same side with no connection
# at all. The server's reading without a connection is taken in the
# background 6 s after the umount began (the drain of a detach waits up
# to 1 s), and read through the next mount; the client's after its own
# 8 s. The difference holds NFSv4's own state for the mount too, the
# same for every configuration: compare configurations, not the figure.
server_mem_later() { srv mem_later 6 >/dev/null; }
server_mem_base() { srv mem_base; }
# mem_report CFG REP C_BASE S_BASE: the KiB each side holds now over its
# reading without a connection
mem_report() {
	_cm=$(mem_used_kib) _sm=$(srv mem)
	_cd=- _sd=-
	[ -n "$3" ] && [ -n "$_cm" ] && _cd=$((_cm - $3))
	[ -n "$4" ] && [ -n "$_sm" ] && _sd=$((_sm - $4))
	echo "RPCRDMA-BENCH-MEM: cfg=$1 rep=$2 client_kib=$_cd server_kib=$_sd"
}

for _s in $SMALL_SIZES; do head -c "$_s" /dev/urandom >"/tmp/bsrc_$_s"; done
[ -n "$FIO" ] && [ "$FIO_SECS" -gt 0 ] || FIO_SECS=0
status bench-setup INFO "configs: $BENCH_CONFIGS; repeats $REPEATS; meta $META_N files; small $SMALL_M x ($SMALL_SIZES); fio ${FIO:-absent} ${FIO_SECS}s"

# the first configuration's server settings, through a setup mount
# shellcheck disable=SC2086
set -- $BENCH_CONFIGS
mount_nfs 4.2 >/dev/null || { finish; exit 1; }
server_apply "$1"
server_mem_later
umount_nfs
sleep 8
FIRST=1
rep=1
while [ $rep -le "$REPEATS" ]; do
	# shellcheck disable=SC2086
	set -- $BENCH_CONFIGS
	while [ $# -gt 0 ]; do
		cfg=$1
		shift
		# the configuration after this one (wrapping to the next repeat)
		if [ $# -gt 0 ]; then next=$1; else next=$(echo "$BENCH_CONFIGS" | cut -d' ' -f1); fi
		name=$(cfg_field "$cfg" 1)
		step "bench rep $rep/$REPEATS config $name"
		client_apply "$cfg"
		c_base=$(mem_used_kib)
		if ! mount_nfs 4.2 >/dev/null; then
			status "bench-$name-$rep" FAIL "mount failed"
			continue
		fi
		s_base=$(server_mem_base)
		if [ -n "$FIRST" ]; then
			show_conns
			FIRST=
		fi
		echo "RPCRDMA-BENCH-CONN: cfg=$name $(conns | grep "peer=$VM_SERVER_IP:" | tail -n 1)"
		if [ "$FIO_SECS" -gt 0 ]; then
			dd if=/dev/zero of="$MNT/bench_fio" bs=1M count=8 2>/dev/null
			sync
		fi
		# the control channel's own share of the server counters
		S_LAST=$(scount)
		measure "$name" "$rep" idle wl_idle
		measure "$name" "$rep" meta wl_meta
		measure "$name" "$rep" small wl_small
		if [ "$FIO_SECS" -gt 0 ]; then
			measure "$name" "$rep" fio-randread wl_fio randread 8 6
			measure "$name" "$rep" fio-randwrite wl_fio randwrite 49 47
		fi
		rm -rf "$MNT/bench_small" "$MNT/bench_fio"
		mem_report "$name" "$rep" "$c_base" "$s_base"
		server_apply "$next"
		server_mem_later
		umount_nfs
		sleep 8
	done
	rep=$((rep + 1))
done
echo "RPCRDMA-BENCH-DONE"
finish
