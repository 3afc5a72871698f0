#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make soak's minimal reproducer of the link-drop hang (SOAK_REPRO=qp1 in
# scripts/vm/soak.sh; Documentation/soak.md): no load, one NFSv4.2 mount.
# The server takes eth0 down, stops nfsd (closing its RDMA connection
# sends a CM DREQ on the port's GSI QP while the link is down; with rxe
# as of 6.1 that send fails at once), brings eth0 back and starts nfsd.
# Observed with rxe: from then on the server's rxe counts no received
# packet (rcvd_pkts frozen while the client's REQs go out), its CM never
# answers and the mount never recovers; "rdma resource show qp" still
# reports the GSI QP as RTS. The counters of both sides are printed every
# 30 s, the GSI QPs' state before and after.
# The verdict line is INFO (the hang is the documented rxe bug, not this
# module): "repro-recovered INFO no" reproduces it.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
WAIT=${SOAK_RECOVER_MAX:-300}
gsi() { grep -E 'lqpn 1 .*type GSI|type GSI' | sed 's/  */ /g'; }

if [ "${SOAK_TRACE:-0}" = 1 ]; then
	echo 8192 >"$TRACING/buffer_size_kb"
	echo 1 >"$TRACING/events/rdma_cma/enable"
	for e in xprtrdma_connect xprtrdma_disconnect xprtrdma_op_connect; do
		echo 1 >"$TRACING/events/rpcrdma/$e/enable"
	done
	echo 1 >"$TRACING/tracing_on"
fi
wait_server || { finish; exit 1; }
[ "$(sctl ping)" = pong ] ||
	{ status soak-ctl FAIL "no answer on the server's control channel (TCP port $CTL_PORT)"; finish; exit 1; }
mount_nfs 4.2 || { finish; exit 1; }
status repro-rxe INFO "rdma_rxe: ${RXE_MODULE:-stock} (VM_RXE)"
echo before >"$MNT/repro" && sync
status repro-gsi-before INFO "server: $(sctl links | gsi); client: $(rdma resource show qp | gsi)"
t0=$(cut -d' ' -f1 /proc/uptime)
sctl qp1 >/dev/null
sleep 12
status repro-gsi-after INFO "server: $(sctl links | gsi); client: $(rdma resource show qp | gsi)"
sctl links | grep -E 'send_err|rcvd_pkts|sent_pkts' | sed 's/^/RPCRDMA-DIAG: server counters: /'
step "waiting up to ${WAIT}s for the mount (an RPC times out after 60 s, then the client reconnects)"
(echo after >"$MNT/repro" && sync && : >/tmp/repro.ok) &
# every 30 s: what each side's rxe sent and received (is anything of the
# client's reconnection reaching the server?)
cnt() { grep -oE '(sent_pkts|rcvd_pkts) [0-9]+' | paste -sd' ' -; }
# the server's UDP counters (Udp: header line, then values)
udp() { sctl links | grep '^Udp:' | awk 'NR == 1 { for (i = 2; i <= NF; i++) h[i] = $i } NR == 2 { printf "udp %s=%s %s=%s %s=%s", h[2], $2, h[3], $3, h[4], $4 }'; }
i=0
while [ $i -lt "$WAIT" ] && [ ! -e /tmp/repro.ok ]; do
	sleep 1
	i=$((i + 1))
	[ $((i % 30)) = 0 ] &&
		echo "RPCRDMA-DIAG: +${i}s client $(rdma statistic show | cnt); server $(sctl links | cnt) $(udp)"
done
if [ -e /tmp/repro.ok ]; then
	status repro-recovered INFO "yes, $(awk -v a="$t0" '{ printf "%.0f", $1 - a }' /proc/uptime)s after the server's link went down"
	umount_nfs
else
	status repro-recovered INFO "no: no answer for ${WAIT}s; server GSI QP now: $(sctl links | gsi)"
	dmesg | tail -n 8 | sed 's/^/RPCRDMA-DIAG: client dmesg: /'
	sctl links | sed 's/^/RPCRDMA-DIAG: server link: /'
	sctl dmesg 12 | sed 's/^/RPCRDMA-DIAG: server dmesg: /'
	{ rdma resource show qp; rdma statistic show; } 2>&1 | sed 's/^/RPCRDMA-DIAG: client link: /'
	if [ "${SOAK_TRACE:-0}" = 1 ]; then
		grep -av '^#' "$TRACING/trace" | grep -E ' (cm_|xprtrdma_|xprt_)' | tail -n 80 | sed 's/^/RPCRDMA-TRACE: client /'
		sctl trace 400 | grep -E ' (cm_|svcrdma_|svc_xprt)' | tail -n 80 | sed 's/^/RPCRDMA-TRACE: server /'
	fi
fi
# what the server's GSI QP went through (server.sh qp1_watch)
sctl qp1diag | sed 's/^/RPCRDMA-DIAG: server qp1: /'
finish
