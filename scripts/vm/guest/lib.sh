#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest-side helpers for the NFS/RDMA test VMs (busybox sh). Sourced by
# /init, server.sh and every client scenario script.
#
# Output protocol (read by the host from the serial console):
#   RPCRDMA-STATUS: <check> PASS|FAIL|INFO <detail>
#   RPCRDMA-STEP: <what the guest is doing>   (progress only)
#   RPCRDMA-CONN: <side> <line of /sys/kernel/debug/rpcrdma_cm/connections>
#   RPCRDMA-SRV: <the server's answer to a srv request>
# The client's last line is "RPCRDMA-STATUS: client-done ...".

# shellcheck source=/dev/null
. /vm/env
KVER=$(uname -r)
# Up to 6.1, svc_rdma_sendto() waits for its Send to complete: an nfsd
# thread that replied to a peer that takes nothing stays there, and
# nfsd's shutdown waits for that thread, not for a detach's drain.
# The one place the guest scripts tell the kernels apart by that.
sendto_waits() { case $KVER in [1-5].* | 6.[01].*) return 0 ;; esac; return 1; }
MNT=/mnt
CONNS=/sys/kernel/debug/rpcrdma_cm/connections
TRACING=/sys/kernel/tracing
SIZES="1 1023 1024 1025 4095 4096 4097 65536 1048577"
FAILS=0

# Debian's busybox-static runs its own applets before anything on PATH
# (FEATURE_PREFER_APPLETS): call the real tools by path.
modprobe() { /sbin/modprobe "$@"; }
depmod() { /sbin/depmod "$@"; }
modinfo() { /sbin/modinfo "$@"; }
ip() { /usr/sbin/ip "$@"; }
# iproute2's tc, which vmtest copies in for LD_REPRO=tx-stall; busybox's
# has no plug qdisc
tc() { /usr/local/bin/tc "$@"; }

status() { # status CHECK PASS|FAIL|INFO DETAIL...
	[ "$2" = FAIL ] && FAILS=$((FAILS + 1))
	echo "RPCRDMA-STATUS: $*"
}
step() { echo "RPCRDMA-STEP: [$(cut -d' ' -f1 /proc/uptime)] $*"; }
# expect K=V...: what the wire must show, checked by the host
# (wirecheck.py): rep_r, rep_send, rep_recv: the R bit and sizes of the
# server's private data on every connection of the pair (its RFC 8797
# effective values: R clear and 1024 when it sent none)
expect() { echo "RPCRDMA-EXPECT: $*"; }
# check CHECK DETAIL COMMAND...: status PASS if COMMAND succeeds.
check() {
	_c=$1 _d=$2
	shift 2
	if "$@"; then status "$_c" PASS "$_d"; else status "$_c" FAIL "$_d"; fi
}

# vm_boot: network, RDMA device, modules (called by /init).
vm_boot() {
	step "boot $VM_ROLE kernel $KVER rdma=$VM_RDMA module=$RPCRDMA_MODULE params='$RPCRDMA_PARAMS'"
	if [ -e "/lib/modules/$KVER/updates/rpcrdma.ko" ] ||
	   [ -e "/lib/modules/$KVER/updates/rdma_rxe.ko" ] ||
	   [ -e "/lib/modules/$KVER/updates/ib_core.ko" ] ||
	   [ -e "/lib/modules/$KVER/extra/siw.ko" ]; then
		depmod -a || status modules FAIL "depmod failed"
	fi
	{ modprobe virtio_pci && modprobe virtio_net; } || status boot FAIL "virtio_net did not load"
	if [ "$VM_ROLE" = server ]; then ip=$VM_SERVER_IP; else ip=$VM_CLIENT_IP; fi
	ip link set lo up
	{ ip link set eth0 up && ip addr add "$ip/24" dev eth0; } ||
		status boot FAIL "eth0 did not come up"
	# CRC modules: separate up to 6.12, built in from 7.x (-q: absent is fine)
	modprobe -q crc32_generic
	case $VM_RDMA in
	siw) modprobe -q crc32c_generic; modprobe siw && rdma link add siw0 type siw netdev eth0 ;;
	*) modprobe rdma_rxe && rdma link add rxe0 type rxe netdev eth0 ;;
	esac || status boot FAIL "cannot create the $VM_RDMA device on eth0"
	extra_nics
	# make rxe's rdma_rxe (VM_RXE=fixed): the one loaded must be the
	# host's (updates/, build ID), not Debian's
	if [ "$VM_RDMA" = rxe ] && [ "${RXE_MODULE:-stock}" != stock ]; then
		check_updates_module "rxe-$VM_ROLE" rdma_rxe "$RXE_MODULE" "$RXE_BUILDID"
	fi
	# make ibcore's ib_core and ib_cm (VM_IBCORE=fixed): loaded from
	# updates/, with the build IDs the host sent
	if [ "${IBCORE_MODULE:-stock}" != stock ]; then
		check_updates_module "ibcore-$VM_ROLE" ib_core "$IBCORE_MODULE" "$IBCORE_BUILDID"
	fi
	modprobe rdma_cm
	# ib_cm comes with rdma_cm
	if [ "${IBCORE_MODULE:-stock}" != stock ]; then
		check_updates_module "ibcm-$VM_ROLE" ib_cm "$IBCORE_MODULE" "$IBCM_BUILDID"
	fi
	# shellcheck disable=SC2086
	modprobe rpcrdma $RPCRDMA_PARAMS || status modules FAIL "modprobe rpcrdma $RPCRDMA_PARAMS failed"
	# the loaded module must be the one the host meant (build ID)
	where=$(modinfo -n rpcrdma 2>/dev/null)
	loaded=$(od -An -tx1 -v /sys/module/rpcrdma/notes/.note.gnu.build-id 2>/dev/null | tr -d ' \n')
	case $RPCRDMA_MODULE in
	ours) [ "${where#*/updates/}" != "$where" ] ;;
	*) [ "${where#*/kernel/}" != "$where" ] ;;
	esac && [ -n "$RPCRDMA_BUILDID" ] && [ "${loaded%"$RPCRDMA_BUILDID"}" != "$loaded" ]
	check "module-$VM_ROLE" "$RPCRDMA_MODULE ${where#/lib/modules/"$KVER"/} build-id=$RPCRDMA_BUILDID" [ $? -eq 0 ]
	for p in /sys/module/rpcrdma/parameters/*; do
		[ -e "$p" ] && step "param ${p##*/}=$(cat "$p")"
	done
}

# extra_nics: the NICs beyond eth0 that VM_EXTRA_NICS names ("MAC=IP
# ...", the host's vm_start NETARGs after the first; make scale's server
# has one per client link), each found by its MAC (the kernel's names
# follow probe order, which nothing promises), brought up with IP/24 and
# given an RDMA device of its own, rxe<N> or siw<N>, N from 1 in order.
extra_nics() {
	_n=0
	for _e in ${VM_EXTRA_NICS:-}; do
		_n=$((_n + 1))
		_if=
		for _a in /sys/class/net/*/address; do
			[ "$(cat "$_a")" = "${_e%%=*}" ] && _if=$(basename "$(dirname "$_a")")
		done
		if [ -z "$_if" ]; then
			status boot FAIL "no NIC with MAC ${_e%%=*} (VM_EXTRA_NICS)"
			continue
		fi
		{ ip link set "$_if" up && ip addr add "${_e#*=}/24" dev "$_if" &&
			rdma link add "${VM_RDMA}$_n" type "$VM_RDMA" netdev "$_if"; } ||
			status boot FAIL "cannot bring up $_if (${_e%%=*}) as ${_e#*=} with ${VM_RDMA}$_n"
	done
}

# trace_on EVENT...: enable rpcrdma tracepoints (after the module loaded).
trace_on() {
	for e in "$@"; do
		echo 1 >"$TRACING/events/rpcrdma/$e/enable" ||
			status trace FAIL "no tracepoint rpcrdma:$e"
	done
	echo 1 >"$TRACING/tracing_on"
}
trace_clear() { : >"$TRACING/trace"; }
# trace_lines EVENT: the recorded lines of one event.
trace_lines() { grep -a " $1: " "$TRACING/trace"; }

# offer_send MAXREQ WANTED PEER_RECV: the Send Size this module's server
# advertises to a client that sent private data with Receive Size
# PEER_RECV, given its sunrpc.svc_rdma.max_req_size MAXREQ and its
# server_send_size WANTED (svc_rdma_cm_send_size() of
# svc_rdma_cm_offer_send()): min(WANTED, PEER_RECV, 65536) rounded down
# to a multiple of 1024, never below MAXREQ. A client that sent none
# gets MAXREQ.
offer_send() {
	_os=$2
	[ "$3" -lt "$_os" ] && _os=$3
	[ "$_os" -gt 65536 ] && _os=65536
	_os=$((_os / 1024 * 1024))
	[ "$_os" -lt "$1" ] && _os=$1
	echo "$_os"
}

# conns: this side's debugfs connection lines (empty if none).
conns() { [ -r "$CONNS" ] && grep -a 'role=' "$CONNS"; }

# kv LINE KEY: the value of KEY in a "k=v k=v" line.
kv() { echo " $1" | sed -n "s/.* $2=\([^ ]*\).*/\1/p"; }

# expect_kv CHECK LINE "k=v k=v ...": PASS when LINE has every k=v.
expect_kv() {
	_bad=""
	for _p in $3; do
		_v=$(kv "$2" "${_p%%=*}")
		[ "$_v" = "${_p#*=}" ] || _bad="$_bad ${_p%%=*}=${_v:-<none>}(want ${_p#*=})"
	done
	if [ -z "$2" ]; then
		status "$1" FAIL "no connection line (want $3)"
	elif [ -z "$_bad" ]; then
		status "$1" PASS "$3"
	else
		status "$1" FAIL "${_bad# } | $2"
	fi
}

# drop_caches: make the next reads go over the wire.
drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# mem_used_kib: the KiB in use here, caches dropped: MemTotal less
# MemFree, with the pages of slabinfo's caches replaced by their objects
# in use (active objects x object size). A buffer of 8 KiB or less comes
# from a kmalloc cache, whose emptied pages SLUB may keep after a
# connection frees them: MemFree alone would not see the next connection
# take them again. A larger one comes from the page allocator
# (meminfo's Slab counts it, slabinfo does not), so only slabinfo's own
# pages are taken out, never meminfo's Slab.
mem_used_kib() {
	drop_caches
	awk 'FILENAME == "/proc/meminfo" { m[$1] = $2; next }
		FNR > 2 { a += $2 * $4; p += $15 * $6 * 4 }
		END { printf "%d\n", m["MemTotal:"] - m["MemFree:"] - p + a / 1024 }' \
		/proc/meminfo /proc/slabinfo
}

# ns_call CHECK CMD...: run a namespace call (link, symlink, rename,
# unlink, mkdir, rmdir). Returns 0 when it succeeded; when it failed,
# NS_MSG is its error and the return is 1 if CHECK (evaluated now) finds
# the state the call was to make, 2 if not. A call NFSv4.1 executed twice
# across an nfsd restart fails on its own first effect (make soak's
# links checks, SOAK_REPRO=replay; Documentation/soak.md). CHECK looks
# at the server's state, not the client's: the dentries are dropped
# first, since a failed call leaves negative ones for names the first
# execution created.
ns_call() {
	_nc_chk=$1
	shift
	# shellcheck disable=SC2034 # read by the callers
	NS_MSG=$("$@" 2>&1) && return 0
	echo 2 >/proc/sys/vm/drop_caches
	eval "$_nc_chk" && return 1
	return 2
}

# ---- the soak's control channel (scripts/vm/soak/) ---------------------

# CTL_PORT: where the soak's server.sh takes requests from the client
CTL_PORT=2051
# sctl COMMAND ARGS: one request on the soak server's control channel
sctl() { echo "$*" | timeout 20 nc -w 5 "$VM_SERVER_IP" "$CTL_PORT"; }
# up: the guest's uptime in seconds, to the hundredth
up() { cut -d' ' -f1 /proc/uptime; }

# nfsd_restarts TRIES GAP: the server's nfsd restarted every GAP s, TRIES
# times; GAP s later, /tmp/stop tells the reproducers' loops to end
nfsd_restarts() {
	_nr=0
	while [ $_nr -lt "$1" ]; do
		_nr=$((_nr + 1))
		sleep "$2"
		step "nfsd restart $_nr"
		sctl nfsd-restart >/dev/null
	done
	sleep "$2"
	: >/tmp/stop
}

# sum3 FILE...: the sums of the three counts on the FILEs' lines (what
# each of a reproducer's loops left)
sum3() { awk '{ a += $1; b += $2; c += $3 } END { print a + 0, b + 0, c + 0 }' "$@"; }

# wait_file FILE SECS: wait up to SECS s for FILE (a marker a background
# call leaves when it returns); prints the seconds waited, returns 0 if
# FILE is there
wait_file() {
	_wf=0
	while [ ! -e "$1" ] && [ $_wf -lt "$2" ]; do
		sleep 1
		_wf=$((_wf + 1))
	done
	echo $_wf
	[ -e "$1" ]
}

# nfs_waiters: every task whose kernel stack is in NFS or sunrpc, with
# its state and stack on one line (SysRq w shows only D tasks; a task
# retrying NFS4ERR_DELAY sleeps interruptibly and holds its locks)
nfs_waiters() {
	for _p in /proc/[0-9]*; do
		_st=$(cat "$_p/stack" 2>/dev/null) || continue
		case $_st in *nfs* | *rpc_* | *__rpc*) ;; *) continue ;; esac
		echo "${_p#/proc/} $(cat "$_p/comm") $(sed -n 's/^State:[[:space:]]*//p' "$_p/status"): $(echo "$_st" | sed 's/^\[<[0-9a-f]*>\] //; s/+0x[0-9a-f/x]*//' | paste -sd' ' -)"
	done 2>/dev/null | head -n 40
}

# ---- client side -------------------------------------------------------

# wait_server: wait (once, up to 120 s) until the server's nfsd is
# ready: server.sh then accepts TCP connections on READY_PORT.
READY_PORT=2050
wait_server() {
	[ -e /tmp/server-up ] && return 0
	step "waiting for the server's nfsd"
	_i=0
	until nc -w 1 "$VM_SERVER_IP" "$READY_PORT" </dev/null >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ $_i -ge 120 ]; then
			status server-up FAIL "the server did not get ready within 120 s"
			return 1
		fi
		sleep 1
	done
	: >/tmp/server-up
}

# check_updates_module CHECK MODULE WHAT BUILDID: the loaded MODULE must
# be the host's build (make rxe's, make ibcore's): from updates/, with
# the BUILDID the host sent, not Debian's own
check_updates_module() {
	_w=$(modinfo -n "$2" 2>/dev/null)
	_l=$(od -An -tx1 -v "/sys/module/$2/notes/.note.gnu.build-id" 2>/dev/null | tr -d ' \n')
	_ok=0
	[ "${_w#*/updates/}" != "$_w" ] && [ -n "$4" ] && [ "${_l%"$4"}" != "$_l" ] && _ok=1
	check "$1" "$3 ${_w#/lib/modules/"$KVER"/} build-id=$4" [ "$_ok" = 1 ]
}

# mib_check CHECK WHEN TAG N: N O_DIRECT writes of one file of 1 MiB of
# random octets (/tmp/TAG.src, made once) to $MNT/TAG.0 .. TAG.N-1, each
# read back over the wire and compared by sha256
mib_check() {
	[ -e "/tmp/$3.src" ] || head -c 1048576 /dev/urandom >"/tmp/$3.src"
	_sum=$(sha256sum <"/tmp/$3.src" | cut -d' ' -f1)
	_bad=
	_i=0
	while [ $_i -lt "$4" ]; do
		timeout -s KILL 60 dd if="/tmp/$3.src" of="$MNT/$3.$_i" bs=1M oflag=direct 2>/dev/null &&
			_b=$(timeout -s KILL 60 dd if="$MNT/$3.$_i" iflag=direct bs=1M 2>/dev/null | sha256sum | cut -d' ' -f1) &&
			[ "$_b" = "$_sum" ] || _bad="$_bad $3.$_i"
		_i=$((_i + 1))
	done
	if [ -z "$_bad" ]; then
		status "$1" PASS "$4 writes of 1 MiB $2 read back exact"
	else
		status "$1" FAIL "$2, did not write or read back exact:$_bad"
	fi
}

# mount_nfs VERS [EXTRA_OPTS]: mount server:/ on /mnt over RDMA.
mount_nfs() {
	wait_server || return 1
	_o="vers=$1,proto=rdma,port=20049${2:+,$2}"
	step "mount $VM_SERVER_IP:/ $MNT -o $_o"
	_t0=$(date +%s)
	if mount.nfs "$VM_SERVER_IP:/" "$MNT" -o "$_o"; then
		status "mount-v$1" PASS "$_o ($(($(date +%s) - _t0))s)"
	else
		status "mount-v$1" FAIL "mount.nfs -o $_o failed"
		return 1
	fi
}

# mount_proto PROTO VERS DIR: mount server:/ on DIR, NFS version VERS
# over PROTO (rdma or tcp), and say which transport the mount got
mount_proto() {
	wait_server || return 1
	_o="vers=$2,proto=$1"
	[ "$1" = rdma ] && _o="$_o,port=20049"
	mkdir -p "$3"
	step "mount $VM_SERVER_IP:/ $3 -o $_o"
	mount.nfs "$VM_SERVER_IP:/" "$3" -o "$_o" ||
		{ status "mount-$1-v$2" FAIL "mount -o $_o on $3 failed"; return 1; }
	step "$3: $(awk -v m="$3" '$2 == m { print $4 }' /proc/mounts)"
}

umount_nfs() {
	umount "$MNT" || { status umount FAIL "umount $MNT failed"; return 1; }
}

# reconnect: force the client transport to disconnect and reconnect
# (rewriting the transport's destination address in sunrpc's sysfs makes
# the xprt disconnect; the next RPC connects again).
reconnect() {
	_n=0
	for _x in /sys/kernel/sunrpc/xprt-switches/*/xprt-*; do
		[ -e "$_x/dstaddr" ] || continue
		grep -q rdma "$_x/xprt_info" 2>/dev/null ||
			grep -q "$VM_SERVER_IP" "$_x/dstaddr" || continue
		_a=$(cat "$_x/dstaddr")
		echo "$_a" >"$_x/dstaddr" && _n=$((_n + 1))
	done
	[ $_n -gt 0 ] || { status reconnect FAIL "no sunrpc xprt to $VM_SERVER_IP in sysfs"; return 1; }
	step "forced $_n transport(s) to reconnect"
}

# srv COMMAND ARGS...: run a command on the server (server.sh) through
# files in the export; prints its output. Needs the mount. The sequence
# number lives in a file: srv is often called in a subshell.
srv() {
	SRV_SEQ=$(($(cat /tmp/srv.seq 2>/dev/null || echo 0) + 1))
	echo "$SRV_SEQ" >/tmp/srv.seq
	echo "$SRV_SEQ $*" >"$MNT/.ctl/req"
	_i=0
	while [ $_i -lt 1200 ]; do
		dd if="$MNT/.ctl/ack" iflag=direct bs=1M 2>/dev/null >/tmp/srv.ack
		if [ "$(head -n 1 /tmp/srv.ack)" = "$SRV_SEQ" ] &&
		   [ "$(tail -n 1 /tmp/srv.ack)" = "END $SRV_SEQ" ]; then
			sed '1d;$d' /tmp/srv.ack
			return 0
		fi
		usleep 100000
		_i=$((_i + 1))
	done
	status srv FAIL "no answer from the server to '$*'"
	return 1
}

# show_conns: print both sides' debugfs lines (RPCRDMA-CONN:) and keep
# them in CLIENT_CONN / SERVER_CONN.
show_conns() {
	CLIENT_CONN=$(conns | grep "peer=$VM_SERVER_IP:" | tail -n 1)
	SERVER_CONN=$(server_conn)
	[ -n "$CLIENT_CONN" ] && echo "RPCRDMA-CONN: client $CLIENT_CONN"
	[ -n "$SERVER_CONN" ] && echo "RPCRDMA-CONN: server $SERVER_CONN"
	return 0
}

# client_thresh: "send/recv" from the last rpcrdma:xprtrdma_inline_thresh
# event (upstream's view of the negotiated client thresholds).
client_thresh() {
	trace_lines xprtrdma_inline_thresh | tail -n 1 |
		sed -n 's#.*neg send/recv=\([0-9]*\)/\([0-9]*\).*#\1/\2#p'
}

# swi_count: "<with invalidate> <total>" Sends the server traced since
# the last "srv trace_clear".
swi_count() {
	srv trace svcrdma_post_send >/tmp/swi
	echo "$(grep -vc 'inv_rkey=0x00000000' /tmp/swi) $(grep -c . /tmp/swi)"
}

# mstat NAME: a counter of the client's rdma transport in mountstats
# (connect_count, read_chunks, write_chunks, reply_chunks,
# local_inv_needed).
mstat() {
	awk -v n="$1" '$1 == "xprt:" && $2 == "rdma" {
		i["connect_count"] = 5; i["read_chunks"] = 13
		i["write_chunks"] = 14; i["reply_chunks"] = 15
		i["local_inv_needed"] = 27
		print $(i[n]); exit }' /proc/self/mountstats
}

# server_conn: the server's debugfs line for this client, waiting (up to
# 10 s) until exactly one is listed, so a closing old connection is not
# taken for the new one.
server_conn() {
	_i=0
	while :; do
		srv conns | grep "peer=$VM_CLIENT_IP:" >/tmp/sconn
		[ "$(grep -c . /tmp/sconn)" -le 1 ] || [ $_i -ge 10 ] && break
		sleep 1
		_i=$((_i + 1))
	done
	tail -n 1 /tmp/sconn
}

# data_check TAG: write and read back files of every size in SIZES over
# NFS with caches dropped, compare sha256 with the server's own
# checksums of the same files (writes: w_TAG_<size>; reads: the server's
# r_<size>). One status line data-TAG.
data_check() {
	_tag=$1 _bad="" _n=0
	step "data $_tag: writing and reading back $(echo "$SIZES" | wc -w) files"
	mkdir -p /tmp/data
	_names=""
	for _s in $SIZES; do
		_f=w_${_tag}_$_s
		head -c "$_s" /dev/urandom >"/tmp/data/$_f"
		cp "/tmp/data/$_f" "$MNT/$_f" || _bad="$_bad write:$_s"
		_names="$_names $_f r_$_s"
	done
	drop_caches
	# shellcheck disable=SC2086
	(cd /tmp/data && sha256sum w_${_tag}_*) >/tmp/sum.local
	# shellcheck disable=SC2086
	srv sums $_names >/tmp/sum.server
	for _s in $SIZES; do
		_f=w_${_tag}_$_s
		_l=$(grep " $_f\$" /tmp/sum.local | cut -d' ' -f1)
		_r=$(grep " $_f\$" /tmp/sum.server | cut -d' ' -f1)
		_b=$(dd if="$MNT/$_f" iflag=direct bs=2M 2>/dev/null | sha256sum | cut -d' ' -f1)
		[ -n "$_l" ] && [ "$_l" = "$_r" ] || _bad="$_bad write:$_s"
		[ "$_l" = "$_b" ] || _bad="$_bad readback:$_s"
		_r=$(grep " r_$_s\$" /tmp/sum.server | cut -d' ' -f1)
		_b=$(sha256sum <"$MNT/r_$_s" | cut -d' ' -f1)
		[ -n "$_r" ] && [ "$_r" = "$_b" ] || _bad="$_bad read:$_s"
		_n=$((_n + 3))
	done
	if [ -z "$_bad" ]; then
		status "data-$_tag" PASS "$_n sha256 comparisons with the server, sizes $SIZES"
	else
		status "data-$_tag" FAIL "mismatch:$_bad"
	fi
}

# copy_loop_start TAG [GAP]: in the background, copy one 2 MiB file of
# random octets to $MNT/TAG_0, TAG_1, TAG_2 in turn, GAP seconds apart
# (1) after the first three, each copy read back at once with O_DIRECT
# (over the wire) and sha256-compared, until copy_loop_stop; NFS I/O
# beside whatever a scenario does to the transport (scenarios 7, 16 and
# 17). Beside a fuzz run on the 7.3 debug kernel a copy took about 12 s,
# so with a GAP of 1 the loop kept the client's single vCPU busy most of
# the time.
copy_loop_start() {
	head -c 2097152 /dev/urandom >/tmp/big
	BIGSUM=$(sha256sum </tmp/big | cut -d' ' -f1)
	rm -f /tmp/stop /tmp/copies /tmp/copyerr
	(
		_i=0
		while [ ! -e /tmp/stop ]; do
			_i=$((_i + 1))
			_f=$MNT/$1_$((_i % 3))
			if cp /tmp/big "$_f" &&
			   [ "$(dd if="$_f" iflag=direct bs=1M 2>/dev/null | sha256sum | cut -d' ' -f1)" = "$BIGSUM" ]; then
				echo "$_i" >>/tmp/copies
			else
				echo "$_i" >>/tmp/copyerr
			fi
			# the first three back to back, so that all three files
			# exist however short the run
			if [ "$_i" -lt 3 ]; then sleep 1; else sleep "${2:-1}"; fi
		done
	) &
	COPY_PID=$!
	step "copy loop started (2 MiB files $1_0..2, ${2:-1} s apart, pid $COPY_PID)"
}

# copy_loop_stop TAG CHECK WHAT: stop the loop; CHECK passes when it
# made at least 2 copies across WHAT, every one read back exact, and
# the server's sha256 of the 3 files is the file's
copy_loop_stop() {
	touch /tmp/stop
	wait "$COPY_PID"
	_n=$(grep -c . /tmp/copies 2>/dev/null)
	_e=$(grep -c . /tmp/copyerr 2>/dev/null)
	drop_caches
	_bad=0
	srv sums "$1_0" "$1_1" "$1_2" >/tmp/ssums
	for _i in 0 1 2; do
		[ "$(grep " $1_$_i\$" /tmp/ssums | cut -d' ' -f1)" = "$BIGSUM" ] || _bad=$((_bad + 1))
	done
	_ok=0
	[ "${_n:-0}" -ge 2 ] && [ "${_e:-0}" -eq 0 ] && [ $_bad -eq 0 ] && _ok=1
	check "$2" "${_n:-0} copies of 2 MiB across $3 read back (O_DIRECT) exact, ${_e:-0} failed; $_bad of the 3 final files differ on the server" [ $_ok = 1 ]
}

# phase NAME VERS EXPECT_CLIENT EXPECT_SERVER SWI [THRESH [MOUNT_OPTS]]
#   One mount and its checks: mount NFS VERS over RDMA; compare each
#   side's debugfs line with EXPECT_* ("k=v ..."; "-" skips a side, e.g.
#   one running the stock module); compare the client's
#   xprtrdma_inline_thresh tracepoint with THRESH ("send/recv", "-"
#   skips); move data (data_check); count the server's Sends With
#   Invalidate during the data: SWI "yes" wants some, "no" none, "-"
#   reports only; unmount. Status lines are prefixed with NAME.
phase() {
	_ph=$1 _vers=$2 _ec=$3 _es=$4 _swi=$5 _th=${6:--}
	step "phase $_ph: NFSv$_vers"
	trace_clear
	mount_nfs "$_vers" "${7:-}" || return 1
	show_conns
	[ "$_ec" = - ] || expect_kv "$_ph-client" "$CLIENT_CONN" "$_ec"
	[ "$_es" = - ] || expect_kv "$_ph-server" "$SERVER_CONN" "$_es"
	if [ "$_th" != - ]; then
		_t=$(client_thresh)
		check "$_ph-thresh" "xprtrdma_inline_thresh send/recv=${_t:-<none>} (want $_th)" [ "$_t" = "$_th" ]
	fi
	srv trace_clear >/dev/null
	_li0=$(mstat local_inv_needed)
	data_check "$_ph"
	# shellcheck disable=SC2046
	set -- $(swi_count)
	_d="$1 of $2 server Sends carried an invalidate; client local_inv_needed +$(($(mstat local_inv_needed) - _li0)), read/write/reply chunks $(mstat read_chunks)/$(mstat write_chunks)/$(mstat reply_chunks)"
	case $_swi in
	yes) check "$_ph-swi" "$_d" [ "$1" -gt 0 ] ;;
	no) check "$_ph-swi" "$_d" [ "$1" -eq 0 ] ;;
	*) status "$_ph-swi" INFO "$_d" ;;
	esac
	recv_check "$_ph" "$1"
	umount_nfs
}

# recv_check NAME SWIS: what this client's debugfs line says it saw of
# the server's Sends (recv_inv, swi_without_r, recv_too_long), against
# the SWIS Sends With Invalidate the server traced during the data.
# Every one of those must have been counted; with reminv=1 none is a
# violation, with reminv=0 each is. PHASE_SWI_WITHOUT_R=yes: the server
# must have used it without R (Debian's stock server). A stock client
# has no such counters, nor a module without rpcrdma_cm's debugfs (the
# fixes-only module of scenario 15): nothing to check.
recv_check() {
	[ "$RPCRDMA_MODULE" = ours ] && [ -r "$CONNS" ] || return 0
	_cl=$(conns | grep "peer=$VM_SERVER_IP:" | tail -n 1)
	_ri=$(kv "$_cl" recv_inv)
	if [ -z "$_ri" ]; then
		status "$1-peer-recv" FAIL "no recv_inv in this client's debugfs line: $_cl"
		return
	fi
	_sw=$(kv "$_cl" swi_without_r) _tl=$(kv "$_cl" recv_too_long)
	_re=$(kv "$_cl" reminv)
	_d="client recv_inv=$_ri swi_without_r=$_sw recv_too_long=$_tl reminv=$_re; server traced $2 Sends With Invalidate"
	_ok=1
	[ "$_ri" -ge "$2" ] && [ "$_tl" -eq 0 ] || _ok=0
	if [ "$_re" = 1 ]; then
		[ "$_sw" -eq 0 ] || _ok=0
	else
		[ "$_sw" -eq "$_ri" ] || _ok=0
	fi
	[ "${PHASE_SWI_WITHOUT_R:-}" = yes ] && { [ "$_sw" -gt 0 ] || _ok=0; }
	check "$1-peer-recv" "$_d" [ $_ok = 1 ]
}

# status_tool NAME RC VERDICT: ask rpcrdma-cm-status (make tools) for
# this guest's verdict; PASS when it exits RC and names VERDICT.
status_tool() {
	_st=/usr/local/bin/rpcrdma-cm-status
	if [ ! -x $_st ]; then
		status "$1" FAIL "no $_st in this guest (make tools builds it)"
		return
	fi
	$_st >/tmp/status.txt 2>&1
	_rc=$?
	sed 's/^/RPCRDMA-STEP: status: /' /tmp/status.txt
	_v=$(sed -n '1s/^rpcrdma-cm-status: \([a-z-]*\): .*/\1/p' /tmp/status.txt)
	_ok=0
	[ "$_rc" = "$2" ] && [ "$_v" = "$3" ] && _ok=1
	check "$1" "exit $_rc, $(head -n 1 /tmp/status.txt | cut -c20-) (want $2 $3)" [ $_ok = 1 ]
}

# set_param NAME VALUE: change an rpcrdma module parameter here.
set_param() {
	echo "$2" >"/sys/module/rpcrdma/parameters/$1" ||
		status "param-$1" FAIL "cannot set rpcrdma.$1=$2"
}

# trace_faults: record what a reconnection does (SOAK_TRACE=1): all of
# rdma_cma, and the rpcrdma and sunrpc events of connecting,
# disconnecting, errors, flushes and timeouts (not the per-RPC ones)
trace_faults() {
	echo 8192 >"$TRACING/buffer_size_kb"
	echo 1 >"$TRACING/events/rdma_cma/enable" || status soak-trace FAIL "no rdma_cma tracepoints"
	for _e in "$TRACING"/events/rpcrdma/*/ "$TRACING"/events/sunrpc/*/; do
		case ${_e%/} in
		*connect* | *inject_dsc | *set_cto | *_err | *_flush | *qp_error | *accept* | \
		*xprt_detach | *xprt_free | *xprt_timer | *rpc_timeout_status | \
		*xprt_retransmit)
			echo 1 >"${_e}enable" ;;
		esac
	done
	# SOAK_TRACE_EVENTS: more events, "system/event ..." (per-RPC ones
	# need the larger buffer)
	for _e in ${SOAK_TRACE_EVENTS:-}; do
		echo 1 >"$TRACING/events/$_e/enable" ||
			status soak-trace FAIL "no tracepoint $_e"
	done
	[ -n "${SOAK_TRACE_EVENTS:-}" ] && echo 32768 >"$TRACING/buffer_size_kb"
	echo 1 >"$TRACING/tracing_on"
}

# siw_cq_watch: count siw's Completion Queue overflows: siw_cq_event()
# runs when a completion finds its CQ full, and that completion is lost
# (a flush stops there, so the Work Requests behind it never complete).
# A kprobe in a trace instance of its own; nothing without siw.
SIWCQ=$TRACING/instances/siwcq
siw_cq_watch() {
	[ "$VM_RDMA" = siw ] || return 0
	mkdir -p "$SIWCQ"
	if echo 'p:siwcq/siw_cq_full siw:siw_cq_event cq=%di:x64' >>"$TRACING/kprobe_events" &&
		echo 1 >"$SIWCQ/events/siwcq/siw_cq_full/enable"; then
		echo 1 >"$SIWCQ/tracing_on"
	else
		status siw-cq-watch INFO "no kprobe on siw's siw_cq_event (CONFIG_KPROBE_EVENTS?): CQ overflows not counted"
	fi
	# An inbound message that ends in error (a Read Response cut short,
	# for one): siw_rdmap_complete(qp, error) with error != 0. Recorded
	# for SOAK_REPRO=readwait, which asks why a Read never completed.
	{ echo 'p:siwcq/siw_rx_err siw:siw_rdmap_complete err=%si:s32' >>"$TRACING/kprobe_events" &&
		echo 'err != 0' >"$SIWCQ/events/siwcq/siw_rx_err/filter" &&
		echo 1 >"$SIWCQ/events/siwcq/siw_rx_err/enable"; } ||
		status siw-rx-watch INFO "no kprobe on siw's siw_rdmap_complete: inbound errors not recorded"
}
# siw_cq_full: the CQ overflows siw_cq_watch saw ("-" when not watched)
siw_cq_full() {
	if [ -e "$SIWCQ/events/siwcq/siw_cq_full/enable" ]; then
		grep -ac ' siw_cq_full: ' "$SIWCQ/trace"
	else
		echo -
	fi
}

# hung_watch: print the stack of every task the hung-task detector
# reports, as RPCRDMA-HUNG lines. The console (loglevel=5) shows the
# detector's "INFO: task ... blocked" line but not the stack after it,
# which the kernel logs at KERN_INFO; dmesg has both. Polls every 5 s,
# in the background, until the guest powers off.
hung_watch() {
	(
		_seen=0
		while sleep 5; do
			_n=$(hung_count)
			[ "$_n" -gt "$_seen" ] || continue
			dmesg | awk -v skip="$_seen" '
				/ blocked for more than / { n++; p = n > skip; c = 0 }
				p && c++ < 80 { print "RPCRDMA-HUNG: " $0 }
				/<\/TASK>/ { p = 0 }'
			_seen=$_n
		done
	) &
}
# heartbeat: every 10 s a line on the console with the guest's load, its
# tasks in uninterruptible sleep and eth0's packet counters. When one side
# stops answering (a control request that timed out, a mount that never
# came back), the other side's log alone says whether it still ran and
# whether packets still moved in and out of it.
heartbeat() {
	(
		_n=/sys/class/net/eth0/statistics
		while sleep 10; do
			echo "RPCRDMA-HB: $(up) load=$(cut -d' ' -f1 /proc/loadavg) D=$(grep -l '^State:.D' /proc/[0-9]*/status 2>/dev/null | wc -l) eth0 rx=$(cat $_n/rx_packets) tx=$(cat $_n/tx_packets) drop=$(cat $_n/rx_dropped)/$(cat $_n/tx_dropped) $(cat /sys/class/net/eth0/operstate)"
		done
	) &
}
# hung_count: how many blocked tasks the hung-task detector reported
hung_count() { dmesg | grep -c 'blocked for more than'; }

# ---- debug kernels (make debugtest) ------------------------------------

KMEMLEAK=/sys/kernel/debug/kmemleak
# Where a leak counts as ours or our neighbours': a backtrace frame in one
# of these modules (the debug kernel builds them all as modules).
LEAK_MODS='rpcrdma|sunrpc|ib_core|ib_uverbs|rdma_cm|rdma_ucm|iw_cm|rdma_rxe|siw|nfsd|nfs|nfsv4|lockd'

# detectors SIDE: one line naming the bug detectors this kernel runs
# (nothing on a kernel without any, such as Debian's). lockdep shows
# "off" once it has reported something and switched itself off.
detectors() {
	_k=off _l=off _m=off _u=off
	dmesg | grep -q 'KernelAddressSanitizer initialized' && _k=on
	grep -q 'debug_locks: *1' /proc/lockdep_stats 2>/dev/null && _l=on
	[ -r "$KMEMLEAK" ] && _m=on
	[ -d /sys/kernel/debug/kunit ] && _u=on
	[ "$_k$_l$_m$_u" = offoffoffoff ] && return 0
	echo "RPCRDMA-DETECTORS: $1 kasan=$_k lockdep=$_l kmemleak=$_m kunit=$_u"
}

# leak_scan SIDE: on a kmemleak kernel, scan twice (an object must stay
# unreferenced across scans to be reported), then fail for every report
# with a frame in LEAK_MODS; the reports are printed as RPCRDMA-LEAK lines.
leak_scan() {
	[ -r "$KMEMLEAK" ] || return 0
	step "$1: kmemleak scan"
	echo scan >"$KMEMLEAK" && sleep 6 && echo scan >"$KMEMLEAK" ||
		{ status "$1-kmemleak" FAIL "kmemleak scan failed (detector disabled?)"; return 1; }
	awk -v mods="$LEAK_MODS" '
		function flush() { if (rec != "" && hit) { n++; printf "%s", rec } }
		/^unreferenced object/ { flush(); rec = ""; hit = 0 }
		{ rec = rec "RPCRDMA-LEAK: " $0 "\n"; if ($0 ~ "\\[(" mods ")\\]") hit = 1 }
		END { flush(); print n + 0 >"/tmp/leaks.n" }' "$KMEMLEAK"
	_all=$(grep -c '^unreferenced object' "$KMEMLEAK")
	_ours=$(cat /tmp/leaks.n)
	if [ "$_ours" -eq 0 ]; then
		status "$1-kmemleak" PASS "no leak in $(echo "$LEAK_MODS" | tr '|' ' ') ($_all unrelated report(s))"
	else
		status "$1-kmemleak" FAIL "$_ours leak(s) with a frame in our modules or their neighbours (RPCRDMA-LEAK lines)"
	fi
}

# debug_finish: on a debug kernel, the server's and then this guest's
# detector line and kmemleak verdict (the server is asked over a fresh
# mount: scenarios end unmounted).
debug_finish() {
	[ -r "$KMEMLEAK" ] || [ -r /proc/lockdep_stats ] || return 0
	if mount_nfs 4.2 >/dev/null; then
		srv leakcheck >/dev/null
		umount_nfs
	else
		status server-kmemleak FAIL "could not mount the server to ask for its scan"
	fi
	leak_scan client
	detectors client
}

# finish: the client's last line (the host waits for it).
finish() {
	debug_finish
	if [ "$FAILS" -eq 0 ]; then
		status client-done PASS "all checks passed"
	else
		status client-done FAIL "$FAILS check(s) failed"
	fi
}
