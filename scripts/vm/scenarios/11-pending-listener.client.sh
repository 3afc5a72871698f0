#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 11 (client guest). The server stops nfsd and listens on
# "rdma 20049" without starting a thread (what rpc.nfsd does between
# writing portlist and writing threads, and what a request meets while
# nfsd shuts down). The probe's connection request is queued on that
# listener and answered with an MRA. Then nfsd stops, freeing the
# listener. svcrdma upstream frees it with the request still queued:
# the request's CM ID is never accepted or rejected, and the client's
# CM waits (each MRA asks for about 68 s, up to 15 times). This module
# destroys such CM IDs as the listener goes, which sends a REJ
# (scripts/coccinelle/server_refuse_unaccepted.cocci).
# Checks (this module): the probe is rejected within HOLD + 10 s, with
# reject status 28 (IB_CM_REJ_CONSUMER_DEFINED) over rxe, -104
# (ECONNRESET, the aborted MPA exchange) over siw; the server counts it
# in <debugfs>/rpcrdma_cm/unaccepted; the mount comes back with its data.
# With PENDING_MODULES=stock the request is left pending instead, the
# bug being still upstream's: over rxe the probe times out (each MRA asks
# for 68 s more), over siw the iWARP CM gives up on its own after about
# 10 s (unreachable, -110). The mount's own reconnect usually meets the
# listener too (the server counted 2 requests).
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
M=${PENDING_MODULES:-ours}
HOLD=8
WAIT=40

mount_nfs 4.2 || { finish; exit 1; }
data_check before
# the server answers before it stops nfsd: after that the control
# channel (this mount) is down until nfsd is back. The mount is not
# used meanwhile, but its own reconnect after the disconnect usually
# meets the listener too (hence unaccepted >= 1, not == 1, below)
[ "$(srv pending_listener $HOLD)" = scheduled ] ||
	status pending-setup FAIL "the server did not schedule the listener"
sleep 6
step "probe: a connection request to the listener without nfsd threads"
t0=$(cut -d. -f1 /proc/uptime)
rpcrdma-cm-probe --json --timeout $((WAIT * 1000)) "$VM_SERVER_IP" >/tmp/p.json 2>/tmp/p.err
rc=$?
dt=$(($(cut -d. -f1 /proc/uptime) - t0))
echo "RPCRDMA-PROBE: pending: $(head -c 1500 /tmp/p.json) $(head -c 200 /tmp/p.err)"
res=$(sed -n 's/.*"result":"\([a-z]*\)".*/\1/p' /tmp/p.json | head -n 1)
rs=$(sed -n 's/.*"reject_status":\(-*[0-9]*\).*/\1/p' /tmp/p.json | head -n 1)
if [ "$VM_RDMA" = siw ]; then
	WANT_RS=-104 STOCK_RES=unreachable STOCK_RC=4
else
	WANT_RS=28 STOCK_RES=timeout STOCK_RC=6
fi
refused() { [ "$res" = rejected ] && [ "$rs" = $WANT_RS ] && [ "$dt" -le $((HOLD + 10)) ]; }
left_pending() { [ "$res" = $STOCK_RES ] && [ $rc = $STOCK_RC ]; }
if [ "$M" = ours ]; then
	check refused "probe: $res, reject status ${rs:--}, exit $rc, after $dt s (the listener is freed about $((HOLD - 3)) s after the request)" refused
else
	check pending "Debian's module: probe $res, exit $rc, after $dt s (the request left pending)" left_pending
	# the mount's own reconnect usually met that listener too and waits
	# on MRAs for minutes: not waited for
	status mount-left INFO "the mount is not waited for (its reconnect may be pending too)"
	finish
	exit
fi
step "waiting for nfsd and the mount to come back"
[ "$(srv run echo back)" = back ] || status server-back FAIL "no answer from the server"
if [ "$M" = ours ]; then
	_u=$(srv run cat "${CONNS%/*}/unaccepted")
	check unaccepted "<debugfs>/rpcrdma_cm/unaccepted on the server: $_u" [ "${_u:-0}" -ge 1 ]
fi
data_check after
umount_nfs
finish
