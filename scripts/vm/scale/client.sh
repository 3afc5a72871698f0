#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make scale, client guest (busybox sh; /vm/run.sh of each client VM, see
# scripts/vm/scale.sh). The client does nothing on its own: the server
# (scale/server.sh) drives every client of the run in step, over a TCP
# control channel on port SCALE_CTL_PORT of this client's link (busybox
# nc, this script run again as "run.sh ctl" per request). The server is
# the one place that sees every client and its own memory and faults,
# so it decides; the clients mount, load and answer.
#
# SCALE_PROFILE (from the host) is this client's thresholds:
#   pdata0   this module loaded with pdata=0 (the host's modprobe
#            parameters): no private data, 1 KiB both ways (RFC 8797 5.1)
#   default  this module at its defaults (rdma_max_inline_write 4096,
#            rdma_max_inline_read 8192)
#   16k      this module, sunrpc.rdma_max_inline_read/write = 16384
#   4k       this module, both sysctls 4096: the README's way back to
#            stock's 4 KiB
#   stock    Debian's own rpcrdma.ko (the host loads it)
#
# Requests (one line; the answer is short and immediate: anything that
# takes time runs in the background, and "result NAME" tells when it
# ended, so no answer waits on a mount that a fault holds):
#   info               profile=... module=... nconnect_rdma=yes|no
#                      read=R write=W pdata=P
#   mount N            NFSv4.2 over RDMA on /mnt with nconnect=N
#   umount             unmount /mnt
#   fio-start          fio passes with crc32c verify until fio-stop
#   fio-stop           the pass under way is the last
#   probe TAG          a synchronous 4 KiB write and O_DIRECT read on /mnt
#   result NAME        pending, ok or fail ... (NAME: mount, umount, fio,
#                      probe-TAG), then what it found (fio: passes=...)
#   conns              this side's debugfs lines for the server, then
#                      "xprts=N connected=C connect_count=K" (sunrpc's
#                      sysfs and mountstats: what a stock client shows)
#   done               the run is over: this guest powers off

# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
SCALE_CTL_PORT=${SCALE_CTL_PORT:-2052}
S=/tmp/scale
DIR=$MNT/c${SCALE_IDX:-0}
mkdir -p "$S"

# A FAIL printed by a request's background job counts for client-done
# too: those jobs are other processes than the one that prints it.
status() {
	[ "$2" = FAIL ] && echo "$1" >>"$S/fails"
	echo "RPCRDMA-STATUS: $*"
}

# op NAME FUNCTION ARGS...: FUNCTION in the background, its output on the
# console, detached from the request's socket; "result NAME" answers
# pending until it returns, then ok or fail, and what it left in
# $S/ans.NAME
op() {
	_on=$1
	shift
	echo pending >"$S/op.$_on"
	rm -f "$S/ans.$_on"
	(
		if "$@"; then _r=ok; else _r="fail rc=$?"; fi
		echo "$_r" >"$S/op.$_on.new"
		mv "$S/op.$_on.new" "$S/op.$_on"
	) </dev/null >/dev/console 2>&1 &
	echo started
}

# do_mount N: the mount, then 3N synchronous writes: sunrpc connects the
# nconnect transports on their first RPC, taken in turn, so each gets
# some before the server counts them
do_mount() {
	mount_nfs 4.2 "nconnect=$1" || return 1
	mkdir -p "$DIR" || { status "mkdir-c$SCALE_IDX" FAIL "cannot create $DIR"; return 1; }
	_i=0
	while [ $_i -lt $((3 * $1)) ]; do
		dd if=/dev/zero of="$DIR/warm" bs=4k count=1 oflag=direct conv=fsync 2>/dev/null
		_i=$((_i + 1))
	done
	step "mounted with nconnect=$1: $(awk -v m="$MNT" '$2 == m { print $4 }' /proc/mounts)"
}

# fio_loop: write-then-verify passes (crc32c, fatal), three jobs at once
# so that several RPCs are in flight and the nconnect transports (taken
# in turn per RPC) all carry some: sequential 128 KiB writes (Read
# chunks), random 512 B..64 KiB writes (inline and chunked) and 4 KiB
# random writes, all O_DIRECT. Until $S/fio.stop; the tally in
# $S/ans.fio. A verify failure is a message on fio's stderr ("crc32c:
# verify failed at ...", the report goes to fio.json).
fio_loop() {
	rm -f "$S/fio.stop"
	_p=0 _f=0 _v=0 _ops=0
	mkdir -p "$DIR"
	while [ ! -e "$S/fio.stop" ]; do
		_p=$((_p + 1))
		(cd "$S" && fio --directory="$DIR" --ioengine=psync --direct=1 \
			--verify=crc32c --do_verify=1 --verify_fatal=1 \
			--output-format=json --output="$S/fio.json" \
			--name=seq --filename=seq.dat --rw=write --bs=128k --size=4m \
			--name=rand --filename=rand.dat --rw=randwrite --bsrange=512-64k --size=1m \
			--name=small --filename=small.dat --rw=randwrite --bs=4k --size=256k \
			>"$S/fio.out" 2>&1)
		_rc=$?
		_n=$(grep -ciE 'verify|bad magic|crc32c' "$S/fio.out")
		_v=$((_v + _n))
		_ops=$((_ops + $(grep -o '"total_ios" : [0-9]*' "$S/fio.json" 2>/dev/null |
			awk '{ s += $3 } END { print s + 0 }')))
		if [ $_rc != 0 ] || [ "$_n" != 0 ]; then
			_f=$((_f + 1))
			sed "s/^/RPCRDMA-DIAG: fio pass $_p: /" "$S/fio.out" | head -n 20
		fi
		step "fio pass $_p: exit $_rc, $_n verify messages"
	done
	echo "passes=$_p failed=$_f verify=$_v ops=$_ops" >"$S/ans.fio"
	_ok=0
	[ $_f = 0 ] && [ $_v = 0 ] && [ $_p -gt 0 ] && _ok=1
	check "fio-c$SCALE_IDX" "$_p passes, $_f failed, $_v verify errors, $_ops I/Os" [ $_ok = 1 ]
}

# do_probe TAG: the mount answers (scenario 14's test of a recovery)
do_probe() {
	dd if=/dev/zero of="$DIR/probe.$1" bs=4k count=1 oflag=direct conv=fsync 2>/dev/null &&
		dd if="$DIR/probe.$1" of=/dev/null bs=4k iflag=direct 2>/dev/null
}

# xprts: the sunrpc transports to the server (sysfs, 5.14 and later) and
# how many are connected, and the connects mountstats counted
xprts() {
	_n=0 _c=0
	for _x in /sys/kernel/sunrpc/xprt-switches/*/xprt-*; do
		[ -e "$_x/dstaddr" ] && [ "$(cat "$_x/dstaddr")" = "$VM_SERVER_IP" ] || continue
		_n=$((_n + 1))
		grep -q CONNECTED "$_x/xprt_state" 2>/dev/null && _c=$((_c + 1))
	done
	echo "xprts=$_n connected=$_c connect_count=$(awk '$1 == "xprt:" && $2 == "rdma" { s += $5 } END { print s + 0 }' /proc/self/mountstats)"
}

# pdata_param: the module's bool parameter pdata as 1 or 0 ("-": the
# module is not loaded)
pdata_param() {
	case $(cat /sys/module/rpcrdma/parameters/pdata 2>/dev/null) in
	Y | 1) echo 1 ;;
	N | 0) echo 0 ;;
	*) echo - ;;
	esac
}

# nconnect_rdma: does this kernel's NFSv4 client honour nconnect over
# RDMA? 6.1's nfs4_set_client passes nconnect for TCP only (one
# transport, whatever the mount says); 6.12's for RDMA and TLS too
nconnect_rdma() {
	case $KVER in [1-5].* | 6.[01].*) echo no ;; *) echo yes ;; esac
}

ctl() {
	read -r _cmd _a
	case $_cmd in
	info)
		echo "profile=$SCALE_PROFILE module=$RPCRDMA_MODULE nconnect_rdma=$(nconnect_rdma) read=$(sysctl -n sunrpc.rdma_max_inline_read) write=$(sysctl -n sunrpc.rdma_max_inline_write) pdata=$(pdata_param)" ;;
	mount) op mount do_mount "$_a" ;;
	umount) op umount umount_nfs ;;
	fio-start) op fio fio_loop ;;
	fio-stop) : >"$S/fio.stop"; echo ok ;;
	probe) op "probe-$_a" do_probe "$_a" ;;
	result) echo "$(cat "$S/op.$_a" 2>/dev/null || echo none) $(cat "$S/ans.$_a" 2>/dev/null)" ;;
	conns) conns | grep "peer=$VM_SERVER_IP:"; xprts ;;
	"done") : >"$S/done"; echo ok ;;
	*) echo "unknown request '$_cmd'" ;;
	esac
}

if [ "${1:-}" = ctl ]; then
	ctl
	exit 0
fi

case $SCALE_PROFILE in
16k)
	sysctl -w sunrpc.rdma_max_inline_read=16384 sunrpc.rdma_max_inline_write=16384 >/dev/null ||
		status "profile-c$SCALE_IDX" FAIL "cannot set the inline sysctls to 16384" ;;
4k)
	sysctl -w sunrpc.rdma_max_inline_read=4096 sunrpc.rdma_max_inline_write=4096 >/dev/null ||
		status "profile-c$SCALE_IDX" FAIL "cannot set the inline sysctls to 4096" ;;
pdata0 | default | stock) ;;
*) status "profile-c$SCALE_IDX" FAIL "unknown SCALE_PROFILE '$SCALE_PROFILE'" ;;
esac
# One NFSv4 client each: the client's owner string is "Linux NFSv4.x
# <nodename>" (with the uniquifier, when set), and every guest boots as
# "(none)". The same owner from another address is, to nfsd, that
# client rebooted: it would drop the first client's state.
hostname "rpcrdma-scale-c$SCALE_IDX"
modprobe nfsv4
_id=/sys/fs/nfs/net/nfs_client/identifier
[ -w "$_id" ] && echo "rpcrdma-scale-c$SCALE_IDX-$VM_CLIENT_IP" >"$_id"
step "NFSv4 client name: $(hostname)$([ -r "$_id" ] && echo ", identifier $(cat "$_id")")"
command -v fio >/dev/null || status fio FAIL "no fio in the guest (make scale puts the host's there)"
hung_watch
heartbeat
nc -ll -p "$SCALE_CTL_PORT" -e /bin/sh /vm/run.sh ctl &
step "client $SCALE_IDX ($SCALE_PROFILE) on $VM_CLIENT_IP: waiting for the server's requests on port $SCALE_CTL_PORT"
# the host's own timeout ends a run whose server went away; this one
# only keeps a lost client from running on for ever
_w=0
while [ ! -e "$S/done" ] && [ $_w -lt "${SCALE_CLIENT_MAX:-14400}" ]; do
	sleep 5
	_w=$((_w + 5))
done
[ -e "$S/done" ] || status "client-c$SCALE_IDX" FAIL "the server never said the run was over"
grep -qs "$MNT" /proc/mounts && umount "$MNT"
FAILS=$(grep -c . "$S/fails" 2>/dev/null)
FAILS=${FAILS:-0}
finish
