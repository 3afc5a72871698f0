#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 2 (client guest). INTEROP=stock-client: this guest runs the
# stock module (advertises 4096/4096, R=1), the server ours: its Send
# Size is min(server_send_size 8192, the client's Receive Size 4096),
# 4096 as before.
# INTEROP=stock-server: the server is stock (advertises 4096/4096 but
# R=0, yet posts Send With Invalidate when the client set R, as mainline
# does); this client must record peer_r=0 and reminv=0; its Receive
# Size, 8192, is bounded by the stock server's Send Size: 4096. Then the
# probe shows what the stock server does with a 2048-octet Receive Size.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
trace_on xprtrdma_inline_thresh
case $INTEROP in
stock-client)
	phase stock-client 4.2 - \
		"role=server peer_pdata=present peer_send=4096 peer_recv=4096 peer_r=1 send=4096 recv=4096 reminv=1" \
		yes 4096/4096
	# Debian's module, loaded and on disk, and no rpcrdma-cm package
	status_tool status-stock 2 stock
	;;
stock-server)
	# This client must report the server's Send With Invalidate without
	# R, in debugfs and in its tracepoint.
	echo 1 >"$TRACING/events/rpcrdma_cm/rpcrdma_cm_swi_without_r/enable" ||
		status trace FAIL "no tracepoint rpcrdma_cm:rpcrdma_cm_swi_without_r"
	PHASE_SWI_WITHOUT_R=yes
	phase stock-server 4.2 \
		"role=client peer_pdata=present peer_send=4096 peer_recv=4096 peer_r=0 send=4096 recv=4096 reminv=0" \
		- - 4096/4096
	PHASE_SWI_WITHOUT_R=
	# the connection is gone; the total keeps the violation
	status_tool status-nonconforming 4 nonconforming
	_n=$(trace_lines rpcrdma_cm_swi_without_r | grep -c "peer=$VM_SERVER_IP:")
	check stock-server-swi-trace "$_n rpcrdma_cm_swi_without_r events: $(trace_lines rpcrdma_cm_swi_without_r | tail -n 1 | sed 's/.*rpcrdma_cm_swi_without_r: //')" [ "$_n" -gt 0 ]
	echo 0 >"$TRACING/events/rpcrdma_cm/rpcrdma_cm_swi_without_r/enable"
	# What the stock server does with a client's smaller Receive Size
	# (mainline's server ignores it). Reported, not asserted: it
	# is Debian's module, and scenario 7 asserts this server's answer.
	P=/usr/local/bin/rpcrdma-cm-probe
	if [ -x $P ] && modprobe rdma_ucm; then
		$P --json --recv-size 2048 --read r_65536:1952 --read r_65536:1953 \
			"$VM_SERVER_IP" >/tmp/p.json 2>&1
		status stock-server-receive-size INFO "probe exit $?: $(sed -n 's/.*"reads":/reads:/p' /tmp/p.json)"
		# a Version Two client: Debian's server must answer ERR_VERS
		# 1..1 and go on serving NFS
		# shellcheck source=scripts/vm/guest/probe-cases.sh
		. /vm/probe-cases.sh
		wait_server && v2case stock-server-v2-err-vers
		phase stock-server-after-v2 4.2 - - - 4096/4096
	else
		status stock-server-v2-err-vers FAIL "no $P or no rdma_ucm in the guest"
	fi
	;;
*) status interop FAIL "INTEROP=$INTEROP unknown" ;;
esac
finish
