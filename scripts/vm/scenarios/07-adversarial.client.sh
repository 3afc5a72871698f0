#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 7 (client guest): hostile and malformed RFC 8797 private data
# (issue 5), with tools/rpcrdma-cm-probe in both guests, over rxe.
#
# RoCE facts that fix the expected values: the passive side of an IB/RoCE
# CM connection receives the REQ private data zero-padded to 56 octets,
# the active side the REP private data zero-padded to 196. So a message
# cut short at the end of what the probe sends is completed with zeros
# (f6ab0e18 01 -> Version 1, R clear, sizes 0/0 = 1024/1024: present),
# and "truncated" can only be seen when the identifier sits in the last
# 4..7 octets of the padded field. iWARP (scenario 9) delivers exact
# lengths. The server advertises R (rxe has IB_DEVICE_MEM_MGT_EXTENSIONS),
# Receive Size 4096 (max_req_size) and Send Size min(8192, the
# client's Receive Size) but at least 4096 (server_send_size 8192:
# srv_send in probe-cases.sh); this client R, Send Size 4096 and
# Receive Size 8192 (rdma_max_inline_write/read).
#
# 1. the real NFS mount (port 20049) and a checksum-verified copy loop
#    that runs across everything below;
# 2. the probe, active, against the server's nfsd: one case per kind of
#    private data; each checks the probe's exit status, what it saw the
#    server advertise (JSON), and the server's debugfs line and
#    rpcrdma_cm:rpcrdma_cm_negotiate event for that connection;
# 2b. --read: NFSv4.0 READs without chunks into one Receive of the
#    advertised size; exact Reply sizes, ERR_CHUNK when a Reply would
#    not fit, the connection kept; the server's inline_too_large events;
# 2b'. --v2, a Version Two client: RDMA_ERROR/ERR_VERS 1..1;
# 2c. --read with no Receive posted, then a disconnect: the server's
#    detach flushes the Reply it could not deliver (drain_timeouts);
# 3. the probe listening on the server (ports 20051...) with hostile
#    reply private data; this client mounts it (soft, in the background,
#    killed once connected); its debugfs line, rpcrdma_cm_negotiate
#    (role=client) and xprtrdma_inline_thresh are checked;
# 4. 200 random buffers (--repeat 200 --random-seed 8797);
# 5. the copy loop stops; every copy is compared (sha256) with the
#    server's view; the server lists only the NFS connection again;
# 6. three probe connections leave Replies undelivered and stay silent,
#    then nfsd restarts: every detach times out, all but the first on a
#    wait shared with it (drain_timeouts, drain_shortened); not on 6.1,
#    whose nfsd threads wait for those Replies themselves (sendto_waits).
# shellcheck disable=SC2086 # ABS below is three arguments on purpose
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
P=/usr/local/bin/rpcrdma-cm-probe
SRVCONNS=/sys/kernel/debug/rpcrdma_cm/connections
SRVTRACE=/sys/kernel/tracing/trace
NEG=rpcrdma_cm_negotiate
# the server's own advertisement as the probe must decode it (196 octets
# on RoCE); scase puts in the Send Size it offered that probe (@SEND@)
SRV_ADV='"status":"present","offset":0,"version":1,"remote_inv":true,"send_size":@SEND@,"recv_size":4096}'

[ -x $P ] || { status probe FAIL "no $P in the guest"; finish; exit 1; }
modprobe rdma_ucm || status probe FAIL "modprobe rdma_ucm failed"
trace_on xprtrdma_inline_thresh
echo 1 >$TRACING/events/rpcrdma_cm/$NEG/enable || status trace FAIL "no rpcrdma_cm:$NEG"

mount_nfs 4.2 || { finish; exit 1; }
srv run /sbin/modprobe rdma_ucm >/dev/null
srv run echo 1 \>$TRACING/events/rpcrdma_cm/$NEG/enable >/dev/null
# the copy loop would flood the server's trace buffer with Send events
srv run echo 0 \>$TRACING/events/rpcrdma/svcrdma_post_send/enable >/dev/null
show_conns
NFSPEER=$(kv "$SERVER_CONN" peer)
check nfs-conn "server's line for the NFS mount: peer=$NFSPEER" [ -n "$NFSPEER" ]
srv_base=$(srv run grep -c role= $SRVCONNS)

# ---- 1. the copy loop ----------------------------------------------------
# three names in turn (the export is a 200 MB tmpfs)
copy_loop_start storm

# ---- 2. the probe against the server -------------------------------------
# shellcheck source=scripts/vm/guest/probe-cases.sh
. /vm/probe-cases.sh
SCASE_TAG=s
SCASE_WANT="196 $SRV_ADV"
zeros() { head -c "$1" /dev/zero | od -An -v -tx1 | tr -d ' \n'; }
# ABS is three arguments on purpose
# shellcheck disable=SC2086
ABS="1024 1024 0"
ID=f6ab0e18

scase valid-v1 "" "$(exp present 4096 4096 1)"
scase none "--no-pdata" "$(exp absent:no_ident $ABS)"
scase garbage "--pdata deadbeef00112233445566778899aabbccddeeff" "$(exp absent:no_ident $ABS)"
scase wrong-ident "--pdata f6ab0e1901010303" "$(exp absent:no_ident $ABS)"
scase swapped-ident "--pdata 180eabf601010303" "$(exp absent:no_ident $ABS)"
scase offset-1 "--pdata 00${ID}01000102" "$(exp present 2048 3072 0)"
scase offset-2 "--pdata 0000${ID}01010001" "$(exp present 1024 2048 1)"
scase offset-3 "--pdata 000000${ID}01010200" "$(exp present 3072 1024 1)"
scase offset-5 "--pdata 5a5a5a5a5a${ID}01000303" "$(exp present 4096 4096 0)"
scase offset-7 "--pdata 00000000000000${ID}0101ffff" "$(exp present 262144 262144 1)"
scase offset-48 "--pdata $(zeros 48)${ID}01010101" "$(exp present 2048 2048 1)"
# truncated prefixes of f6ab0e18 01 01 03 03, zero-padded to 56 by the CM
scase trunc-1 "--pdata f6" "$(exp absent:no_ident $ABS)"
scase trunc-2 "--pdata f6ab" "$(exp absent:no_ident $ABS)"
scase trunc-3 "--pdata f6ab0e" "$(exp absent:no_ident $ABS)"
scase trunc-4 "--pdata f6ab0e18" "$(exp absent:bad_version $ABS)"
scase trunc-5 "--pdata f6ab0e1801" "$(exp present 1024 1024 0)"
scase trunc-6 "--pdata f6ab0e180101" "$(exp present 1024 1024 1)"
scase trunc-7 "--pdata f6ab0e18010103" "$(exp present 4096 1024 1)"
# truncated for real: the identifier in the last 4..7 octets of the 56
scase trunc-end-4 "--pdata $(zeros 52)${ID}" "$(exp absent:truncated $ABS)"
scase trunc-end-5 "--pdata $(zeros 51)${ID}01" "$(exp absent:truncated $ABS)"
scase trunc-end-6 "--pdata $(zeros 50)${ID}0101" "$(exp absent:truncated $ABS)"
scase trunc-end-7 "--pdata $(zeros 49)${ID}010103" "$(exp absent:truncated $ABS)"
scase trunc-end-short "--pdata $(zeros 30)${ID}0101" "$(exp present 1024 1024 1)"
scase version-0 "--pdata ${ID}00010303" "$(exp absent:bad_version $ABS)"
scase version-2 "--pdata ${ID}02010303" "$(exp absent:bad_version $ABS)"
scase version-255 "--pdata ${ID}ff010303" "$(exp absent:bad_version $ABS)"
scase v2-then-v1 "--pdata ${ID}02010303${ID}01010101" "$(exp present 2048 2048 1)"
scase reserved-R "--pdata ${ID}01ff0303" "$(exp present 4096 4096 1)"
scase reserved-noR "--pdata ${ID}01fe0303" "$(exp present 4096 4096 0)"
scase sizes-0-255 "--pdata ${ID}010100ff" "$(exp present 1024 262144 1)"
scase sizes-255-0 "--pdata ${ID}0101ff00" "$(exp present 262144 1024 1)"
scase longest-56 "--pdata ${ID}01010202$(zeros 48 | sed 's/00/5a/g')" "$(exp present 3072 3072 1)"

# ---- 2b. Replies bounded by this client's Receive Size -------------------------
# --read sends an NFSv4.0 READ without chunks and posts one Receive of
# the advertised Receive Size. The Reply to a READ of D octets is 96 + D
# (D a multiple of 4) octets: 1952 fits 2048 exactly, 1953 needs 2052 and
# must come back as ERR_CHUNK (20 octets), the connection still usable.
srv run echo 1 \>$TRACING/events/rpcrdma_cm/rpcrdma_cm_inline_too_large/enable >/dev/null
F=r_65536
rcase read-2048 "--recv-size 2048 --read $F:1952 --read $F:1953 --read $F:1000" \
	"rdma_msg/2048:nfs=0:data=1952 rdma_error/20:ERR_CHUNK rdma_msg/1096:nfs=0:data=1000"
rcase read-4096 "--recv-size 4096 --read $F:3000 --read $F:4000 --read $F:4001" \
	"rdma_msg/3096:nfs=0:data=3000 rdma_msg/4096:nfs=0:data=4000 rdma_error/20:ERR_CHUNK"
# a Receive Size of 8192: the server offers its server_send_size, 8192,
# and its send buffers are that long: 8096 fits exactly, 8097 does not
rcase read-8192 "--recv-size 8192 --read $F:8096 --read $F:8097 --read $F:1000" \
	"rdma_msg/8192:nfs=0:data=8096 rdma_error/20:ERR_CHUNK rdma_msg/1096:nfs=0:data=1000"
# no RFC 8797 message: the server must assume 1024 (RFC 8797 Section 5.1)
rcase read-none "--no-pdata --read $F:928 --read $F:929" \
	"rdma_msg/1024:nfs=0:data=928 rdma_error/20:ERR_CHUNK"
# the client's Receive Size, not its Send Size, bounds the server's Sends
rcase read-send-big "--send-size 65536 --recv-size 1024 --read $F:929" \
	"rdma_error/20:ERR_CHUNK"
_tl=$(srv run grep -a rpcrdma_cm_inline_too_large: $SRVTRACE | grep -c "peer=$VM_CLIENT_IP:")
_tx=$(srv run grep -a rpcrdma_cm_inline_too_large: $SRVTRACE | grep "length=2052 send=2048" | head -n 1)
echo "RPCRDMA-TRACE: server $_tx"
_ok=no
[ "$_tl" = 5 ] && [ -n "$_tx" ] && _ok=yes
check read-trace "server rpcrdma_cm_inline_too_large events for the probe: $_tl (want 5, one of length=2052 send=2048)" \
	[ $_ok = yes ]

# ---- 2b'. A Version Two client --------------------------------------------------
# rpcrdma-cm-probe --v2 speaks RPC-over-RDMA Version Two (transport
# properties, Documentation/transport-properties.md): this server speaks
# Version One and must answer ERR_VERS 1..1; the copy loop goes on.
v2case s-v2-err-vers

# ---- 2c. A Reply the client never takes ---------------------------------------
# --no-reply-buffer posts no Receive: the server's Reply to the READ is
# answered with RNR NAKs and retried until the probe disconnects after
# its --hold, which moves the probe's QP to ERROR first. Nothing can
# deliver that Reply any more: the nfsd thread that detaches the
# connection must flush it, not wait out the drain's second
# (<debugfs>/rpcrdma_cm/drain_timeouts unchanged; rxe retries for far
# longer than a second); and the connection's debugfs line must go.
# The server's rxe counts each RNR NAK its Sends receive: that count
# must grow, or the Reply was never posted and the case proves nothing.
DBG=/sys/kernel/debug/rpcrdma_cm
RNR=/sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_rnr_err
_d0=$(srv run cat $DBG/drained)
_t0=$(srv run cat $DBG/drain_timeouts)
_r0=$(srv run cat $RNR)
step "case unread-reply: READ of 1000 octets, no Receive posted, disconnect after 1 s"
$P --json --read $F:1000 --no-reply-buffer --hold 1000 "$VM_SERVER_IP" >/tmp/p.json 2>/tmp/p.err
rc=$?
_i=0
while [ "$(srv run grep -c role= $SRVCONNS)" != "$srv_base" ] && [ $_i -lt 10 ]; do
	sleep 1
	_i=$((_i + 1))
done
_d1=$(srv run cat $DBG/drained)
_t1=$(srv run cat $DBG/drain_timeouts)
_n=$(srv run grep -c role= $SRVCONNS)
_r1=$(srv run cat $RNR)
_ok=no
[ "$rc:$_t1:$_n" = "0:$_t0:$srv_base" ] && [ "${_r1:-0}" -gt "${_r0:-0}" ] 2>/dev/null && _ok=yes
check unread-reply "probe exit $rc (want 0); server RNR NAKs received $_r0 -> $_r1 (want more: its Reply was posted); drained $_d0 -> $_d1, drain_timeouts $_t0 -> $_t1 (want unchanged); debugfs lines $_n after ${_i} s (want $srv_base) $(grep -o '"reply":"[a-z_]*"' /tmp/p.json | head -n 1)" \
	[ $_ok = yes ]

step "case too-long: 57 octets"
$P --json --pdata "$(zeros 57)" "$VM_SERVER_IP" >/tmp/p.json 2>/tmp/p.err
rc=$?
check s-too-long-57 "probe exit $rc (want 1: the CM refuses more than 56 octets) $(head -c 120 /tmp/p.err)" [ $rc -eq 1 ]

# ---- 3. hostile replies to this client ---------------------------------------
mkdir -p /mnt2
CPORT=20050
# ccase NAME "LISTENER PDATA ARGS" "EXPECTED k=v (client line and event)" THRESH
ccase() {
	_n=$1 _a=$2 _e=$3 _t=$4
	CPORT=$((CPORT + 1))
	step "client case $_n: listener on $CPORT: $_a"
	srv run $P --listen $CPORT $_a --count 1 --wait 40 --json \>/tmp/l.$CPORT 2\>\&1 \& >/dev/null
	sleep 1
	trace_clear
	# The listener never answers an RPC: the connection lives until the
	# mount's first RPC times out. timeo=100 (10 s) keeps it up long
	# enough to read its debugfs line even when connecting took several
	# seconds (a KASAN guest: with timeo=10 the RPC had timed out before
	# the connection was established, and the line came and went between
	# two reads). Polls: 4 per second, for PROBE_POLLS seconds at most.
	mount.nfs "$VM_SERVER_IP:/" /mnt2 -o "vers=4.2,proto=rdma,port=$CPORT,soft,timeo=100,retrans=1" >/tmp/m.out 2>&1 &
	_mp=$!
	_i=0 _line=""
	while [ $_i -lt $((${PROBE_POLLS:-10} * 4)) ]; do
		_line=$(conns | grep "role=client peer=$VM_SERVER_IP:$CPORT " | tail -n 1)
		[ -n "$_line" ] && break
		usleep 250000
		_i=$((_i + 1))
	done
	_ev=$(trace_lines $NEG | grep "role=client" | grep "$VM_SERVER_IP:$CPORT " | head -n 1)
	_th=$(trace_lines xprtrdma_inline_thresh | grep -- "-> $VM_SERVER_IP:$CPORT " | head -n 1 |
		sed -n 's#.*neg send/recv=\([0-9]*\)/\([0-9]*\).*#\1/\2#p')
	kill -9 $_mp 2>/dev/null
	wait $_mp 2>/dev/null
	umount -f /mnt2 2>/dev/null
	echo "RPCRDMA-CONN: client $_line"
	echo "RPCRDMA-TRACE: client $_ev"
	expect_kv "c-$_n-debugfs" "$_line" "$_e"
	expect_kv "c-$_n-event" "$_ev" "$(echo "$_e" | sed 's/absent://')"
	check "c-$_n-thresh" "xprtrdma_inline_thresh neg send/recv=${_th:-<none>} (want $_t)" [ "$_th" = "$_t" ]
	# what the listener saw this client send (this project's client at
	# its defaults: Send Size 4096, Receive Size 8192, R)
	_lj=$(srv run cat /tmp/l.$CPORT | grep '"received"' | head -n 1)
	case $_lj in
	*'"rfc8797":{"status":"present","offset":0,"version":1,"remote_inv":true,"send_size":4096,"recv_size":8192}'*)
		status "c-$_n-listener" PASS "the listener decoded this client's 4096/8192 R=1" ;;
	*) status "c-$_n-listener" FAIL "listener output: $(srv run cat /tmp/l.$CPORT | head -c 400)" ;;
	esac
}
# cexp STATUS PEER_SEND PEER_RECV PEER_R: this client's line (local
# Send Size 4096, Receive Size 8192, R=1)
cexp() { pexp 4096 8192 "$@" | sed 's/$/ role=client/'; }
# shellcheck disable=SC2046
cthr() { set -- $(pexp 4096 8192 "$@"); echo "${5#send=}/${6#recv=}"; }

c() { ccase "$1" "$2" "$(cexp $3 $4 $5 $6)" "$(cthr $3 $4 $5 $6)"; }
c none "--no-pdata" absent:no_ident $ABS
c trunc-end "--pdata $(zeros 190)${ID}0101" absent:truncated $ABS
c bad-version "--pdata ${ID}02010303" absent:bad_version $ABS
c offset-5 "--pdata 0000000000${ID}01010102" present 2048 3072 1
c rep-196-end "--pdata $(zeros 188)${ID}01000201" present 3072 2048 0
c sizes-0-255 "--pdata ${ID}010100ff" present 1024 262144 1
c r-clear "--no-r" present 4096 4096 0
c r-set "" present 4096 4096 1
# a listener that offers a Send Size of 16384: this client's Receive
# Size, 8192, bounds what it takes
c send-16k "--send-size 16384" present 16384 4096 1

# ---- 4. random buffers ---------------------------------------------------------
step "200 random buffers (seed 8797)"
t0=$(date +%s)
$P --repeat 200 --random-seed 8797 "$VM_SERVER_IP" >/tmp/r.out 2>&1
rc=$?
sum=$(grep -a "established" /tmp/r.out | tail -n 1)
check s-random-200 "exit $rc, $sum ($(($(date +%s) - t0))s)" [ $rc -eq 0 ]
case $sum in
*"200 established, 0 rejected, 0 refused, 0 timeouts, 0 errors, 0 unclean"*) status s-random-200-summary PASS "$sum" ;;
*) status s-random-200-summary FAIL "$(tail -n 3 /tmp/r.out)" ;;
esac

# ---- 5. the copy loop across the storm ---------------------------------------------
copy_loop_stop storm storm-copies "the storm"
data_check after-storm

sleep 2
srv_after=$(srv run grep -c role= $SRVCONNS)
check srv-conns-baseline "server debugfs lines: $srv_base before, $srv_after after" [ "$srv_after" = "$srv_base" ]
srv dmesg 20 | grep -i "rpcrdma\|svcrdma" | tail -n 5 | sed 's/^/RPCRDMA-STEP: server dmesg: /'

# ---- 6. clients gone silent when nfsd stops -------------------------------------
# SILENT probe connections each leave a Reply the server cannot deliver:
# no Receive posted, and no disconnect (rxe retries the Send for as long
# as the connection lives). Then nfsd restarts, and its shutdown
# detaches them one after another: each finds its Reply still posted.
# The first waits the drain's whole second; the others start within a
# second after it and share its wait, so that N such clients do not
# hold the shutdown N seconds (<debugfs>/rpcrdma_cm/drain_shortened).
if sendto_waits; then
	# 2026-11-28, 6.1.0-56: the three nfsd threads that replied waited
	# in svc_rdma_sendto() until the probes disconnected (120 s), and
	# rpc.nfsd 0 with them (113 s); no detach had anything to drain
	status silent-peers INFO "not run on $KVER: its nfsd threads wait in svc_rdma_sendto() for their Send to complete, so nfsd's shutdown waits for the peers, not for the drain"
else
	SILENT=3
	_t0=$(srv run cat $DBG/drain_timeouts)
	_s0=$(srv run cat $DBG/drain_shortened)
	_r0=$(srv run cat $RNR)
	step "case silent-peers: $SILENT probes each leave a Reply undelivered, then nfsd restarts"
	_pids=""
	_k=0
	while [ $_k -lt $SILENT ]; do
		$P --json --read $F:1000 --no-reply-buffer --hold 120000 "$VM_SERVER_IP" >/tmp/sp.$_k 2>&1 &
		_pids="$_pids $!"
		_k=$((_k + 1))
	done
	# until the connections are up and their Replies draw RNR NAKs
	_i=0
	while [ $_i -lt 30 ]; do
		_n=$(srv run grep -c role= $SRVCONNS)
		_r1=$(srv run cat $RNR)
		[ "$_n" = $((srv_base + SILENT)) ] && [ "${_r1:-0}" -ge $((_r0 + 2 * SILENT)) ] 2>/dev/null && break
		sleep 1
		_i=$((_i + 1))
	done
	step "silent-peers: $_n debugfs lines, RNR NAKs $_r0 -> $_r1 after $_i s; restarting nfsd"
	[ "$(srv restart)" = restarted ] || status silent-peers-restart FAIL "the server did not restart nfsd"
	_t1=$(srv run cat $DBG/drain_timeouts)
	_s1=$(srv run cat $DBG/drain_shortened)
	kill -USR1 $_pids 2>/dev/null
	wait $_pids
	check silent-peers "drain_timeouts $_t0 -> $_t1 (want +$SILENT: each detach found its Reply posted), drain_shortened $_s0 -> $_s1 (want +$((SILENT - 1)): all but the first shared its wait)" \
		[ "$_t1:$_s1" = "$((${_t0:-0} + SILENT)):$((${_s0:-0} + SILENT - 1))" ]
fi
umount_nfs
finish
