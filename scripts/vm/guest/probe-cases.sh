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
# server advertised against $SCASE_WANT ("<len> <rfc8797 json>").
# Status names start with $SCASE_TAG.
scase() {
	_n=$1 _a=$2 _e=$3
	step "case $_n: $P $_a"
	# shellcheck disable=SC2086
	$P --json --hold 2000 $_a "$VM_SERVER_IP" >/tmp/p.json 2>/tmp/p.err &
	_pp=$!
	# (not _i: srv uses that name)
	_k=0 _line=""
	while [ $_k -lt 10 ]; do
		usleep 300000
		# one round trip: the server's debugfs lines and rpcrdma_cm_negotiate events
		srv run cat $SRVCONNS\; grep -a \"$NEG: role=server\" $SRVTRACE >/tmp/sc
		_line=$(grep "^role=server peer=$VM_CLIENT_IP:" /tmp/sc | grep -v "peer=$NFSPEER " | tail -n 1)
		[ -n "$_line" ] && break
		_k=$((_k + 1))
	done
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
	check "$SCASE_TAG-$_n-probe-view" "probe saw the server advertise: ${_got:-<nothing>}" [ "$_got" = "$SCASE_WANT" ]
	_sent=$(sed -n 's/.*"sent":{"len":\([0-9]*\),.*/\1/p' /tmp/p.json | head -n 1)
	status "$SCASE_TAG-$_n-sent" INFO "the probe sent ${_sent:-?} octets"
}
# exp STATUS PEER_SEND PEER_RECV PEER_R: the server's line (local 4096/4096, R=1)
exp() {
	_s=4096 _r=4096
	[ "$3" -lt "$_s" ] && _s=$3
	[ "$2" -lt "$_r" ] && _r=$2
	echo "peer_pdata=$1 peer_send=$2 peer_recv=$3 peer_r=$4 send=$_s recv=$_r reminv=$4"
}
