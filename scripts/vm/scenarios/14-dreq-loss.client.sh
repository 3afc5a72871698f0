#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 14 with LD_REPRO=dreq-loss (client guest): how long the server
# keeps a connection whose client sent its DREQ while the client's own
# link was down (Documentation/investigations/stale-server-connection.md).
# On demand only:
#   1. mount (NFS version LD_DREQ_VERS, default 4.2) and write; the
#      server's connection registry lists the mount's one connection,
#      and with it the client's port P (the client's own cm_id says the
#      same: rdma resource show cm_id);
#   2. the server starts watching its registry for P (srv stale_watch);
#   3. the client's eth0 goes down, then the client forces its transport
#      to disconnect (sunrpc sysfs): xprtrdma's rdma_disconnect() sends
#      the DREQ on the GSI QP while the link is down;
#   4. LD_DREQ_DOWN (5) s later the link comes back; the mount reconnects
#      from a new port;
#   5. the client waits until the server no longer lists P, or until
#      LD_DREQ_WAIT (900) s after the DREQ, and reports the seconds from
#      the DREQ until the server's transport for P was gone (the
#      server's clock, less the client's time from the watch request to
#      the DREQ: about a second of error).
# stale-gone is PASS when the transport went within LD_DREQ_BOUND (120)
# s (a DREQ retried by the CM reaches the server within its retry
# budget, about 80-100 s), FAIL ("REPRODUCED") when it outlived that.
# The client's CM counters, its rdma_cma and ib_cm events and the
# server's events for P say whether the DREQ was retried and what
# finally closed the server's transport.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
VERS=${LD_DREQ_VERS:-4.2}
DOWN=${LD_DREQ_DOWN:-5}
WAIT=${LD_DREQ_WAIT:-900}
BOUND=${LD_DREQ_BOUND:-120}
RMAX=${LD_RECOVER_MAX:-180}

# secs A [B]: B (default: now) minus A, uptimes, to a tenth of a second
secs() { awk -v a="$1" -v b="${2:-}" '{ if (b == "") b = $1; printf "%.1f", b - a }' /proc/uptime; }
# cm_ports: the client's RDMA CM IDs connected to the server's port 20049,
# one client port a line
cm_ports() {
	rdma resource show cm_id 2>/dev/null | awk -v d="$VM_SERVER_IP:20049" '
	# "src-addr A:P", also when the tool puts a blank after the colon
	function addr(i,   a) { a = $(i + 1); if (a ~ /:$/) a = a $(i + 2); return a }
	{
		p = ""; m = 0
		for (i = 1; i < NF; i++) {
			if ($i == "src-addr") { p = addr(i); sub(/.*:/, "", p) }
			if ($i == "dst-addr" && addr(i) == d) m = 1
		}
		if (m && p != "") print p
	}'
}
# cm_dreq: this side's CM DREQ counters, "sent/retries" (the CM counts a
# DREQ when its MAD completes, successfully or not)
cm_dreq() {
	cm_count dreq
}
# cm_count MSG: the port's CM counters for messages of type MSG (dreq,
# req), as sent/retried
cm_count() {
	for _d in /sys/class/infiniband/*/ports/1; do
		echo "$(cat "$_d/cm_tx_msgs/$1" 2>/dev/null || echo -)/$(cat "$_d/cm_tx_retries/$1" 2>/dev/null || echo -)"
		return
	done
	echo -/-
}
# probe TAG: a synchronous 4 KiB write and an O_DIRECT read of the mount
# within RMAX s (in the background: a hung mount is reported, not
# waited for)
probe() {
	rm -f "/tmp/dl.ok.$1"
	(dd if=/dev/zero of="$MNT/dl.$1" bs=4k count=1 oflag=direct conv=fsync 2>/dev/null &&
		dd if="$MNT/dl.$1" of=/dev/null bs=4k iflag=direct 2>/dev/null &&
		: >"/tmp/dl.ok.$1") &
	_w=0
	while [ ! -e "/tmp/dl.ok.$1" ] && [ $_w -lt "$RMAX" ]; do
		sleep 1
		_w=$((_w + 1))
	done
	[ -e "/tmp/dl.ok.$1" ]
}

mount_nfs "$VERS" || { finish; exit 1; }
status rxe INFO "rdma_rxe: ${RXE_MODULE:-stock} (VM_RXE), transport $VM_RDMA"
probe before || { status probe-before FAIL "the new mount did not answer within $RMAX s"; finish; exit 1; }

# 1. the mount's connection, from both sides
srv conns | grep "peer=$VM_CLIENT_IP:" >/tmp/dl.sconns
if [ "$(grep -c . /tmp/dl.sconns)" != 1 ]; then
	status dreq-port FAIL "the server lists $(grep -c . /tmp/dl.sconns) connections from this client, want 1: $(paste -sd'|' /tmp/dl.sconns)"
	finish
	exit 1
fi
P=$(sed -n 's/.* peer=[0-9.]*:\([0-9]*\) .*/\1/p' /tmp/dl.sconns)
cm_ports >/tmp/dl.cports
if [ ! -s /tmp/dl.cports ]; then
	_own="no cm_id listed (rdma resource show cm_id)"
elif grep -qx "$P" /tmp/dl.cports; then
	_own="the client's cm_id has it too"
else
	_own="the client's cm_ids have $(paste -sd' ' /tmp/dl.cports), not $P"
fi
status dreq-port INFO "the mount's connection: client port $P ($_own)"
D0=$(cm_dreq)
Q0=$(cm_count req)

# the client's CM events (rdma_cma; ib_cm's DREQ, DREP and send errors,
# whatever its trace system is called)
echo 8192 >"$TRACING/buffer_size_kb"
echo 1 >"$TRACING/events/rdma_cma/enable" 2>/dev/null
for _e in "$TRACING"/events/*/icm_send_dreq "$TRACING"/events/*/icm_send_drep \
	"$TRACING"/events/*/icm_mad_send_err "$TRACING"/events/*/icm_dreq_skipped; do
	[ -e "$_e/enable" ] && echo 1 >"$_e/enable"
done
echo 1 >"$TRACING/tracing_on"

# 2. the server watches for P's line to go (a bound of its own, so that
# it stops even if this side does not come back)
TW=$(up)
_r=$(srv stale_watch "$VM_CLIENT_IP:$P" $((WAIT + 10)))
[ "$_r" = watching ] || { status stale-watch FAIL "the server did not start its watch: ${_r:-no answer}"; finish; exit 1; }

# 3. the DREQ while the link is down: the dstaddr store may sleep until
# the next disconnect (sunrpc's missed wakeup), so in the background
step "eth0 down, then a forced disconnect of the mount's transport (port $P): its DREQ goes out while the link is down"
ip link set eth0 down
sleep 1
TD=$(up)
reconnect &
sleep "$DOWN"
ip link set eth0 up
TU=$(up)
step "eth0 up, $(secs "$TD" "$TU") s after the DREQ"

# 4. the mount reconnects (a new connection, a new client port)
if ! probe after; then
	status recover FAIL "no answer $RMAX s after the link came back"
	rdma resource show cm_id 2>&1 | sed 's/^/RPCRDMA-DIAG: client cm_id: /'
	dmesg | tail -n 12 | sed 's/^/RPCRDMA-DIAG: client dmesg: /'
	finish
	exit 1
fi
status recover PASS "$(secs "$TU") s after the link came back; the client's connections now from port(s) $(cm_ports | paste -sd' ' -)"
if cm_ports | grep -qx "$P"; then
	status dreq-loss INFO "the new connection has port $P again, or the old cm_id still exists: the watch below may read the new line as the old"
fi

# 5. until the server no longer lists P (its watch ends by itself too)
OFF=$(secs "$TW" "$TD")
_cg=
while :; do
	_r=$(srv stale_result)
	case $_r in gone* | listed* | no*) break ;; esac
	[ -z "$_cg" ] && ! cm_ports | grep -qx "$P" && _cg=$(secs "$TD")
	awk -v e="$(secs "$TD")" -v m="$WAIT" 'BEGIN { exit !(e >= m + 60) }' && break
	sleep 10
done
_dd=$(cm_dreq)
_cgm=
[ -z "$_cg" ] || _cgm="; the client's cm_id for port $P gone $_cg s after the DREQ"
status dreq-counters INFO "client CM DREQs sent/retried: $D0 before, $_dd after$_cgm; REQs sent/retried: $Q0 before, $(cm_count req) after (a REQ retried: a reconnect sent while the link was still down)"
# the client's side of P: its DREQ, the send error or the retries, and
# the DISCONNECTED status (-110: the DREQ "timed out")
grep -av '^#' "$TRACING/trace" | grep -aE ":$P([^0-9]|\$)|icm_" | tail -n 40 |
	sed 's/^ */RPCRDMA-TRACE: client /'
# the server's side of P: a DISCONNECTED (a DREQ that got through), a
# detach without one (nfsd's ager, or an error on a Send)
srv stale_trace "$P" | sed 's/^ */RPCRDMA-TRACE: server /'
case $_r in
gone*)
	_s=$(awk -v g="${_r#gone }" -v o="$OFF" 'BEGIN { printf "%.1f", g - o }')
	if awk -v s="$_s" -v b="$BOUND" 'BEGIN { exit !(s <= b) }'; then
		status stale-gone PASS "the server's transport for port $P went $_s s after the client's DREQ (link down $DOWN s; within $BOUND s)"
	else
		status stale-gone FAIL "REPRODUCED: the server kept the transport for port $P $_s s after the client's DREQ (link down $DOWN s; bound $BOUND s)"
	fi ;;
listed*)
	_s=$(awk -v g="${_r#listed }" -v o="$OFF" 'BEGIN { printf "%.1f", g - o }')
	status stale-gone FAIL "REPRODUCED: the server still lists port $P $_s s after the client's DREQ (link down $DOWN s; waited at most $WAIT s)" ;;
*)
	status stale-gone FAIL "not measured: the server's watch said '${_r:-nothing}'" ;;
esac
conns | sed 's/^/RPCRDMA-CONN: client /'
srv conns | sed 's/^/RPCRDMA-CONN: server /'
umount_nfs
finish
