#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make soak, server guest (busybox sh; /vm/run.sh of the server VM, see
# scripts/vm/soak.sh). Everything guest/server.sh does, plus a control
# channel that does not depend on NFS: a TCP listener on port CTL_PORT
# (busybox nc) that runs this script again as "run.sh ctl" for each
# connection. The client sends one line, "<command> <args>", and reads
# the answer until the server closes. The soak's own faults (this side's
# link down, device removal, nfsd restart) must be injected while NFS
# may be dead, which the NFS-borne srv channel of server.sh cannot do.
#
# Commands:
#   linkdown SECS      eth0 down for SECS seconds (in the background)
#   rdmadel SECS       delete the RDMA link, re-add it after SECS seconds
#   nfsd-restart       rpc.nfsd 0, then nfsd up again (in the background)
#   set MAXREQ PDATA REMINV SHORT  sunrpc.svc_rdma.max_req_size and the
#                      rpcrdma parameters, for the next connections
#   conns              the debugfs connection lines
#   negotiated         the rpcrdma_cm_negotiate events recorded so far
#   dmesg [N]          the last N kernel messages
#   blocked            the tasks in uninterruptible sleep (SysRq w)
#   trace              the fault tracepoints' buffer (rpcrdma, rdma_cma)
#   links              the RDMA link's and eth0's state, QPs, rxe counters
#   qp1                eth0 down, nfsd stopped (its connections' DREQs go
#                      out while the link is down), eth0 up, nfsd started

# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
CTL_PORT=2051
NEG=$TRACING/instances/soak

# rdma_dev: the soft-RDMA link name this guest created at boot
rdma_dev() { if [ "$VM_RDMA" = siw ]; then echo siw0; else echo rxe0; fi; }

ctl() {
	read -r _cmd _a _b _c _d
	case $_cmd in
	linkdown)
		echo "RPCRDMA-STEP: [$(cut -d' ' -f1 /proc/uptime)] fault: server eth0 down for $_a s" >/dev/console
		(ip link set eth0 down; sleep "$_a"; ip link set eth0 up
		 echo "RPCRDMA-STEP: [$(cut -d' ' -f1 /proc/uptime)] fault: server eth0 up" >/dev/console) \
			</dev/null >/dev/null 2>&1 &
		echo ok ;;
	rdmadel)
		echo "RPCRDMA-STEP: [$(cut -d' ' -f1 /proc/uptime)] fault: server $(rdma_dev) deleted for $_a s" >/dev/console
		(rdma link delete "$(rdma_dev)"; sleep "$_a"
		 rdma link add "$(rdma_dev)" type "$VM_RDMA" netdev eth0 ||
			echo "RPCRDMA-STATUS: server-rdma-readd FAIL rdma link add $(rdma_dev) failed" >/dev/console
		 echo "RPCRDMA-STEP: [$(cut -d' ' -f1 /proc/uptime)] fault: server $(rdma_dev) re-added" >/dev/console) \
			</dev/null >/dev/null 2>&1 &
		echo ok ;;
	nfsd-restart)
		echo "RPCRDMA-STEP: [$(cut -d' ' -f1 /proc/uptime)] fault: nfsd restart" >/dev/console
		(rpc.nfsd 0; sleep 1
		 rpc.nfsd -N 3 --no-udp "${SERVER_THREADS:-4}"
		 grep -q rdma /proc/fs/nfsd/portlist || echo "rdma 20049" >/proc/fs/nfsd/portlist ||
			echo "RPCRDMA-STATUS: server-nfsd-restart FAIL cannot listen on rdma 20049 again" >/dev/console
		 echo "RPCRDMA-STEP: [$(cut -d' ' -f1 /proc/uptime)] fault: nfsd up ($(tr '\n' ' ' </proc/fs/nfsd/portlist))" >/dev/console) \
			</dev/null >/dev/null 2>&1 &
		echo ok ;;
	set)
		sysctl -w "sunrpc.svc_rdma.max_req_size=$_a" >/dev/null &&
			echo "$_b" >/sys/module/rpcrdma/parameters/pdata &&
			echo "$_c" >/sys/module/rpcrdma/parameters/remote_invalidate &&
			echo "$_d" >/sys/module/rpcrdma/parameters/short_replies &&
			echo "ok max_req_size=$(sysctl -n sunrpc.svc_rdma.max_req_size) pdata=$(cat /sys/module/rpcrdma/parameters/pdata) remote_invalidate=$(cat /sys/module/rpcrdma/parameters/remote_invalidate) short_replies=$(cat /sys/module/rpcrdma/parameters/short_replies)" ;;
	ping) echo pong ;;
	conns) conns ;;
	negotiated) grep -a ' rpcrdma_cm_negotiate: ' "$NEG/trace" ;;
	dmesg) dmesg | tail -n "${_a:-60}" ;;
	blocked)
		echo w >/proc/sysrq-trigger
		sleep 1
		dmesg | sed -n '/sysrq: Show Blocked State/,$p' | tail -n 300 ;;
	trace) grep -av '^#' "$TRACING/trace" | grep -v svcrdma_post_send | tail -n "${_a:-400}" ;;
	links)
		rdma link show; ip -s link show eth0; rdma resource show qp; rdma statistic show
		# datagrams for rxe's UDP port 4791 that found no socket count as NoPorts
		grep '^Udp:' /proc/net/snmp ;;
	qp1)
		# the minimal reproducer (soak/qp1-repro.sh): a CM message
		# (the DREQ of nfsd's closing connections) sent while eth0 is down
		echo "RPCRDMA-STEP: [$(cut -d' ' -f1 /proc/uptime)] repro: eth0 down, rpc.nfsd 0, eth0 up, nfsd up" >/dev/console
		(ip link set eth0 down; sleep 1; rpc.nfsd 0; sleep 3; ip link set eth0 up; sleep 1
		 rpc.nfsd -N 3 --no-udp "${SERVER_THREADS:-4}"
		 grep -q rdma /proc/fs/nfsd/portlist || echo "rdma 20049" >/proc/fs/nfsd/portlist
		 echo "RPCRDMA-STEP: [$(cut -d' ' -f1 /proc/uptime)] repro: nfsd up again" >/dev/console) \
			</dev/null >/dev/null 2>&1 &
		echo ok ;;
	*) echo "unknown command '$_cmd'" ;;
	esac
}

if [ "$1" = ctl ]; then
	ctl
	exit 0
fi

# Connections negotiated, in a trace instance of their own (server.sh
# clears and fills the main buffer): one event per connection.
mkdir -p "$NEG"
if [ "$RPCRDMA_MODULE" = ours ]; then
	echo 1 >"$NEG/events/rpcrdma_cm/rpcrdma_cm_negotiate/enable" ||
		status soak-trace FAIL "no tracepoint rpcrdma_cm:rpcrdma_cm_negotiate (is the module under test loaded?)"
fi
echo 1 >"$NEG/tracing_on"
# What the hang investigation reads (Documentation/soak.md): the
# connection manager and the transport's connect/disconnect events.
if [ "${SOAK_TRACE:-0}" = 1 ]; then
	trace_faults
	# a task stuck for 30 s prints its stack on the console
	echo 30 >/proc/sys/kernel/hung_task_timeout_secs
fi
nc -ll -p "$CTL_PORT" -e /bin/sh /vm/run.sh ctl &
# shellcheck source=scripts/vm/guest/server.sh
. /vm/server.sh
