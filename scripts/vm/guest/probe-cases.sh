# shellcheck shell=sh disable=SC2086 # probe args and srv words split on purpose
# SPDX-License-Identifier: GPL-2.0
#
# Probe cases against the NFS server guest, shared by the client scripts
# of the adversarial scenarios (rxe and siw). Source after /vm/lib.sh;
# the caller sets P (the probe), SRVCONNS, SRVTRACE, NEG, NFSPEER,
# SCASE_TAG and SCASE_WANT.

# scase NAME "PROBE ARGS" "EXPECTED k=v (server line and event)"
# Runs the probe against the server with ARGS, finds the server's
# debugfs line and rpcrdma_cm_negotiate event for that connection and
# compares them with EXPECTED; checks the probe's view of what the
# server advertised against $SCASE_WANT ("<len> <rfc8797 json>", its
# @SEND@ replaced by srv_send of EXPECTED's peer_pdata and peer_recv).
# Status names start with $SCASE_TAG.
scase() {
	_n=$1 _a=$2 _e=$3
	step "case $_n: $P $_a"
	# the connections the server has before the probe's: an NFS mount
	# that reconnected since NFSPEER was read is among them, and is not
	# taken for the probe's (seen under a debug kernel)
	_base=$(srv run cat $SRVCONNS | sed -n 's/^role=server peer=\([^ ]*\) .*/\1/p' | tr '\n' ' ')
	# held up to PROBE_HOLD_MS (4 s), released (SIGUSR1) once the server's
	# line is seen; a debug kernel (make debugtest) needs longer for both
	# shellcheck disable=SC2086
	$P --json --hold "${PROBE_HOLD_MS:-4000}" $_a "$VM_SERVER_IP" >/tmp/p.json 2>/tmp/p.err &
	_pp=$!
	# (not _i: srv uses that name)
	_k=0 _line=""
	while [ $_k -lt "${PROBE_POLLS:-10}" ]; do
		usleep 300000
		# one round trip: the server's debugfs lines and rpcrdma_cm_negotiate events
		srv run cat $SRVCONNS\; grep -a \"$NEG: role=server\" $SRVTRACE >/tmp/sc
		_line=$(grep "^role=server peer=$VM_CLIENT_IP:" /tmp/sc | grep -v "peer=$NFSPEER " |
			while read -r _l; do
				case " $_base" in *" $(kv "$_l" peer) "*) ;; *) echo "$_l" ;; esac
			done | tail -n 1)
		[ -n "$_line" ] && break
		_k=$((_k + 1))
	done
	kill -USR1 $_pp 2>/dev/null
	wait $_pp
	_rc=$?
	check "$SCASE_TAG-$_n-rc" "probe exit $_rc (want 0) $(head -c 200 /tmp/p.err)" [ $_rc -eq 0 ]
	_peer=$(kv "$_line" peer)
	_ev=$(grep " $NEG: role=server peer=$_peer " /tmp/sc | tail -n 1)
	echo "RPCRDMA-CONN: server $_line"
	echo "RPCRDMA-TRACE: server $_ev"
	expect_kv "$SCASE_TAG-$_n-debugfs" "$_line" "$_e"
	# the event names the reason without "absent:"
	expect_kv "$SCASE_TAG-$_n-event" "$_ev" "$(echo "$_e" | sed 's/absent://')"
	_got=$(sed -n 's/.*"received":{"len":\([0-9]*\),"hex":"[0-9a-f]*","rfc8797":{\([^}]*}\).*/\1 \2/p' /tmp/p.json | head -n 1)
	# the Send Size the server offered depends on the probe's Receive Size
	_want=$(echo "$SCASE_WANT" | sed "s/@SEND@/$(srv_send "$(kv "$_e" peer_pdata)" "$(kv "$_e" peer_recv)")/")
	check "$SCASE_TAG-$_n-probe-view" "probe saw the server advertise: ${_got:-<nothing>} (want $_want)" [ "$_got" = "$_want" ]
	_sent=$(sed -n 's/.*"sent":{"len":\([0-9]*\),.*/\1/p' /tmp/p.json | head -n 1)
	status "$SCASE_TAG-$_n-sent" INFO "the probe sent ${_sent:-?} octets"
}
# pexp LOCAL_SEND LOCAL_RECV STATUS PEER_SEND PEER_RECV PEER_R: a line
# of a side that advertised LOCAL_SEND/LOCAL_RECV and R=1: send =
# min(LOCAL_SEND, PEER_RECV), recv = min(LOCAL_RECV, PEER_SEND)
pexp() {
	_s=$1 _r=$2
	[ "$5" -lt "$_s" ] && _s=$5
	[ "$4" -lt "$_r" ] && _r=$4
	echo "peer_pdata=$3 peer_send=$4 peer_recv=$5 peer_r=$6 send=$_s recv=$_r reminv=$6"
}
# srv_send STATUS PEER_RECV: the Send Size the server advertises to the
# probe at its defaults (max_req_size 4096, server_send_size 8192):
# offer_send of the probe's Receive Size when it sent a valid message,
# else max_req_size
srv_send() {
	case $1 in
	present) offer_send 4096 8192 "$2" ;;
	*) echo 4096 ;;
	esac
}
# exp STATUS PEER_SEND PEER_RECV PEER_R: the server's line (local Receive
# Size 4096, Send Size srv_send, R=1): send = min(8192, PEER_RECV) when
# present, recv = min(4096, PEER_SEND)
exp() { pexp "$(srv_send "$1" "$3")" 4096 "$@"; }

# rcase NAME "PROBE ARGS" "WANT ..." (one word per --read, in order)
# Runs the probe's --read Calls against the server and compares what
# each got back: rdma_msg/<octets>:nfs=<status>:data=<octets>,
# rdma_error/<octets>:<ERR_CHUNK|ERR_VERS>, or none (no Reply: the
# Receive or the Send failed, message in the log). Status names start
# with $SCASE_TAG.
rcase() {
	_n=$1 _a=$2 _w=$3
	step "read case $_n: $P $_a"
	# shellcheck disable=SC2086
	$P --json $_a "$VM_SERVER_IP" >/tmp/p.json 2>/tmp/p.err
	_rc=$?
	_got=""
	sed -n 's/.*"reads":\[\(.*\)\]}$/\1/p' /tmp/p.json | sed 's/},{/}|{/g' |
		tr '|' '\n' >/tmp/p.reads
	while read -r _o; do
		_r=$(echo "$_o" | sed -n 's/.*"reply":"\([a-z_]*\)".*/\1/p')
		_e=$(echo "$_o" | sed -n 's/.*"error":"\([A-Za-z_]*\)".*/\1/p')
		_s=$(echo "$_o" | sed -n 's/.*"nfs_status":\([0-9]*\).*/\1/p')
		_d=$(echo "$_o" | sed -n 's/.*"data":\([0-9]*\).*/\1/p')
		_v=$(echo "$_o" | sed -n 's/.*"received":\([0-9]*\).*/\1/p')
		_got="$_got $_r${_v:+/$_v}${_e:+:$_e}${_s:+:nfs=$_s:data=$_d}"
	done </tmp/p.reads
	_got=${_got# }
	echo "RPCRDMA-PROBE: $_n: $(head -c 1500 /tmp/p.json) $(head -c 200 /tmp/p.err)"
	check "$SCASE_TAG-$_n" "probe exit $_rc, replies: ${_got:-<none>} (want $_w)" [ "$_got" = "$_w" ]
}

# v2case NAME: rpcrdma-cm-probe --v2, an experimental RPC-over-RDMA
# Version Two client (ROPT_CONNPROP first, no private data), against the
# server's nfsd. A Version One server must answer RDMA_ERROR/ERR_VERS
# with low = high = 1 (RFC 8166 Section 4.5.1), rdma_xid and rdma_vers
# copied from the failing message (Section 4.5): xid 1, vers 2. The
# probe then exits 7. The caller checks that NFS keeps working.
v2case() {
	step "v2 case $1: $P --v2 --null 100 $VM_SERVER_IP"
	$P --v2 --null 100 "$VM_SERVER_IP" >/tmp/v2.out 2>&1
	_rc=$?
	_e=$(grep -o 'recv=RDMA_ERROR role=client xid=[0-9]* vers=[0-9]* len=[0-9]* err=ERR_VERS low=[0-9]* high=[0-9]*' /tmp/v2.out | head -n 1)
	echo "RPCRDMA-PROBE: $1: $(tr '\n' '|' </tmp/v2.out | head -c 1500)"
	check "$1" "probe --v2 exit $_rc (want 7), the server: ${_e:-no ERR_VERS}" \
		[ "$_rc $_e" = "7 recv=RDMA_ERROR role=client xid=1 vers=2 len=28 err=ERR_VERS low=1 high=1" ]
}
