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
#                      rpcrdma parameters, for the next connections; the
#                      answer names them and server_send_size (left as it is)
#   counter NAME       a counter: unaccepted, unposted, accept_failed,
#                      drained, drain_timeouts, drain_shortened
#                      (this module's debugfs), siw_cq_full (siw_cq_watch),
#                      hung (tasks the hung-task detector reported),
#                      qp_events (SOAK_TRACE=1: svcrdma's QP events by kind)
#   conns              the debugfs connection lines
#   conns-age          the same, each with age=S: seconds since its
#                      rpcrdma_cm_negotiate event ("-" when none is kept)
#   negotiated         the rpcrdma_cm_negotiate events recorded so far
#   dmesg [N]          the last N kernel messages
#   cld-stop           nfsdcld stopped: later grace periods run their
#                      whole length (SOAK_REPRO=eintr)
#   siwtrace [N]       the last N events of siw_cq_watch's kprobes
#   blocked            the tasks in uninterruptible sleep (SysRq w)
#   trace              the fault tracepoints' buffer (rpcrdma, rdma_cma)
#   links              the RDMA link's and eth0's state, QPs, rxe counters
#   qp1                eth0 down, nfsd stopped (its connections' DREQs go
#                      out while the link is down), eth0 up, nfsd started;
#                      rxe's debug output and the MAD layer's events are
#                      recorded from then on (qp1_watch)
#   qp1diag            what qp1_watch recorded, and the CM's counters

# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
NEG=$TRACING/instances/soak

# rdma_dev: the soft-RDMA link name this guest created at boot
rdma_dev() { if [ "$VM_RDMA" = siw ]; then echo siw0; else echo rxe0; fi; }

# qp1_watch: what the link-drop hang investigation reads about the GSI QP
# (Documentation/soak.md): rxe's debug messages (its QP state changes),
# the MAD layer's send and receive completions (a failed DREQ's status;
# whether any MAD arrives afterwards), and with SOAK_QP1_OFFS (the
# offsets of struct rxe_qp's ibqp.qp_num, ibqp.qp_type, attr.qp_state,
# valid, req.state, comp.state and resp.state in this build of rdma_rxe,
# comma-separated, from its BTF) a return probe on rxe_pool_get_index
# that shows QP1's states each time a packet for it is looked up.
QP1=$TRACING/instances/qp1
qp1_watch() {
	echo 'module rdma_rxe +p' >/proc/dynamic_debug/control 2>/dev/null
	mkdir -p "$QP1"
	for e in ib_mad_send_done_handler ib_mad_recv_done_handler; do
		echo 1 >"$QP1/events/ib_mad/$e/enable" 2>/dev/null
	done
	if [ -n "${SOAK_QP1_OFFS:-}" ]; then
		_ifs=$IFS
		IFS=,
		# shellcheck disable=SC2086 # split the offsets on commas
		set -- $SOAK_QP1_OFFS
		IFS=$_ifs
		echo "r:qp1 rdma_rxe:rxe_pool_get_index qpn=+$1(\$retval):u32 type=+$2(\$retval):u32 qps=+$3(\$retval):u32 valid=+$4(\$retval):u32 req=+$5(\$retval):u32 comp=+$6(\$retval):u32 resp=+$7(\$retval):u32" \
			>>"$TRACING/kprobe_events" &&
			echo 'qpn == 1 && type == 1' >"$QP1/events/kprobes/qp1/filter" &&
			echo 1 >"$QP1/events/kprobes/qp1/enable"
	fi
	echo 1 >"$QP1/tracing_on"
}

# conns_age: the connection lines, each with age=S, the seconds since
# the connection's rpcrdma_cm_negotiate event in the soak's instance:
# "now" in the same trace clock is a marker written to that instance
conns_age() {
	echo soak-now >"$NEG/trace_marker" 2>/dev/null
	{
		grep -a -e ' rpcrdma_cm_negotiate: role=server ' -e ' tracing_mark_write: soak-now' "$NEG/trace"
		echo --
		conns
	} | awk '
	function ts(   i) {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) return $i + 0
		return -1
	}
	$0 == "--" { body = 1; next }
	!body && / tracing_mark_write: soak-now/ { now = ts(); next }
	!body { for (i = 1; i <= NF; i++) if ($i ~ /^peer=/) t[$i] = ts(); next }
	{
		a = "-"
		for (i = 1; i <= NF; i++)
			if ($i ~ /^peer=/ && ($i in t) && now > 0 && t[$i] >= 0)
				a = sprintf("%.0f", now - t[$i])
		print $0 " age=" a
	}'
}

# delegs: see ctl's delegs
delegs() {
	grep -a DELEG /proc/locks | sed 's/^/locks: /'
	for _c in /proc/fs/nfsd/clients/*; do
		[ -e "$_c/info" ] || continue
		echo "client ${_c##*/}: $(grep -aE '^(minor version|callback state|status):' "$_c/info" | paste -sd' ' -)"
		grep -a 'type: deleg' "$_c/states" 2>/dev/null | sed "s/^/client ${_c##*/} state: /"
	done
}

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
			echo "ok max_req_size=$(sysctl -n sunrpc.svc_rdma.max_req_size) pdata=$(cat /sys/module/rpcrdma/parameters/pdata) remote_invalidate=$(cat /sys/module/rpcrdma/parameters/remote_invalidate) short_replies=$(cat /sys/module/rpcrdma/parameters/short_replies) server_send_size=$(cat /sys/module/rpcrdma/parameters/server_send_size)" ;;
	ping) echo pong ;;
	# nfsd's client tracking daemon stopped (SOAK_REPRO=eintr): the next
	# nfsd start has no record of its clients, so its grace period runs
	# its whole 10 s instead of ending once every client has reclaimed
	cld-stop) killall nfsdcld 2>/dev/null; echo ok ;;
	conns) conns ;;
	conns-age) conns_age ;;
	negotiated) grep -a ' rpcrdma_cm_negotiate: ' "$NEG/trace" ;;
	# one of this module's counters, <debugfs>/rpcrdma_cm/NAME (unaccepted,
	# unposted, accept_failed, drained, drain_timeouts, drain_shortened:
	# Documentation/rpcrdma-cm.md); "-" with
	# Debian's module
	counter)
		case $_a in
		unaccepted | unposted | accept_failed | drained | drain_timeouts | drain_shortened)
			cat "/sys/kernel/debug/rpcrdma_cm/$_a" 2>/dev/null || echo - ;;
		siw_cq_full) siw_cq_full ;;
		hung) hung_count ;;
		# (SOAK_TRACE=1) QP events svcrdma reported, by kind
		qp_events)
			grep -a ' svcrdma_qp_error: ' "$TRACING/trace" | sed 's/.* event=\([^(]*\) (.*/\1/' |
				sort | uniq -c | awk '{ n = $1; $1 = ""; printf "%s%d%s", (k++ ? ", " : ""), n, $0 } END { if (!k) printf "none" }' ;;
		*) echo "no counter '$_a'" ;;
		esac ;;
	dmesg) dmesg | tail -n "${_a:-60}" ;;
	siwtrace) grep -av '^#' "$SIWCQ/trace" 2>/dev/null | tail -n "${_a:-100}" ;;
	blocked)
		echo w >/proc/sysrq-trigger
		sleep 1
		dmesg | sed -n '/sysrq: Show Blocked State/,$p' | tail -n 300 ;;
	trace) grep -av '^#' "$TRACING/trace" | grep -v svcrdma_post_send | tail -n "${_a:-400}" ;;
	# the delegations nfsd holds leases for (/proc/locks DELEG lines:
	# BREAKING while a recall is outstanding) and each NFSv4 client's
	# callback state and delegations
	delegs) delegs ;;
	# record nfsd's callbacks (SOAK_REPRO=dirdeleg): queued, started,
	# prepared (the recall's revoke timer is armed there), done, destroyed,
	# and the callback channel's state; "trace" prints them
	cbtrace)
		_n=0
		for _e in cb_queue cb_start cb_rpc_prepare cb_rpc_done cb_destroy \
			cb_restart cb_recall cb_recall_done cb_lost cb_new_state \
			cb_probe cb_setup cb_bc_update cb_bc_shutdown cb_shutdown stid_revoke; do
			echo 1 >"$TRACING/events/nfsd/nfsd_$_e/enable" 2>/dev/null && _n=$((_n + 1))
		done
		echo 1 >"$TRACING/tracing_on"
		echo "$_n nfsd callback events on" ;;
	# expire the NFSv4 client of minor version _a (the admin's way out of
	# a recall that never completes)
	expire)
		for _c in /proc/fs/nfsd/clients/*; do
			grep -q "^minor version: $_a\$" "$_c/info" 2>/dev/null || continue
			echo expire >"$_c/ctl" && echo "expired client ${_c##*/}"
		done ;;
	# (SOAK_TRACE=1) per connection the client closed: seconds from its
	# DISCONNECTED event to the transport's detach (which an nfsd thread
	# runs). The RDMA CM traces rdma_disconnect() for InfiniBand and RoCE
	# only; sunrpc's detach event comes for iWARP too, but names the
	# client without its port, so the two are paired per client address
	# in order. A detach that comes first (an nfsd restart, an error this
	# side saw) is followed by its DISCONNECTED; one within 2 s of such a
	# detach is taken as that one and pairs with nothing.
	closegaps)
		grep -a -e ' DISCONNECTED ' -e ' svc_xprt_detach: ' "$TRACING/trace" | awk '
		{
			t = ""; k = ""
			for (i = 1; i <= NF; i++) {
				if (t == "" && $i ~ /^[0-9]+\.[0-9]+:$/) t = $i + 0
				if ($i ~ /^(dst|client)=/) k = substr($i, index($i, "=") + 1)
			}
			sub(/:[0-9]+$/, "", k)
		}
		/XPT_LISTENER/ { next }
		/ cm_event_handler: .* DISCONNECTED / {
			if ((k in own_t) && t - own_t[k] < 2) { delete own_t[k]; next }
			q[k, tail[k]++] = t; next
		}
		/ svc_xprt_detach: / {
			if (head[k] < tail[k]) {
				g = t - q[k, head[k]++]; n++
				if (g > max) max = g
				if (g > 5) { slow++; list = list sprintf(" %.1f", g) }
			} else {
				own++; own_t[k] = t; olist = olist sprintf(" %.1f", t)
			}
		}
		END {
			printf "%d connection(s) closed by the client: longest %.1f s from DISCONNECTED to the detach, %d over 5 s%s", n, max, slow, (slow ? ":" list : "")
			printf "; %d detached before any DISCONNECTED%s\n", own, (own ? ", at" olist " s" : "")
		}' ;;
	links)
		rdma link show; ip -s link show eth0; rdma resource show qp; rdma statistic show
		# datagrams for rxe's UDP port 4791 that found no socket count as NoPorts
		grep '^Udp:' /proc/net/snmp ;;
	qp1)
		# the minimal reproducer (soak/qp1-repro.sh): a CM message
		# (the DREQ of nfsd's closing connections) sent while eth0 is down
		qp1_watch
		echo "RPCRDMA-STEP: [$(cut -d' ' -f1 /proc/uptime)] repro: eth0 down, rpc.nfsd 0, eth0 up, nfsd up" >/dev/console
		(ip link set eth0 down; sleep 1; rpc.nfsd 0; sleep 3; ip link set eth0 up; sleep 1
		 rpc.nfsd -N 3 --no-udp "${SERVER_THREADS:-4}"
		 grep -q rdma /proc/fs/nfsd/portlist || echo "rdma 20049" >/proc/fs/nfsd/portlist
		 echo "RPCRDMA-STEP: [$(cut -d' ' -f1 /proc/uptime)] repro: nfsd up again" >/dev/console) \
			</dev/null >/dev/null 2>&1 &
		echo ok ;;
	qp1diag)
		dmesg | grep -E 'qp#1 |rdma_rxe|rxe0' | tail -n 40
		grep -av '^#' "$QP1/trace" 2>/dev/null | sed 's/^ *//' | tail -n 60
		grep -H . /sys/class/infiniband/*/ports/1/cm_rx_msgs/req \
			/sys/class/infiniband/*/ports/1/cm_tx_msgs/dreq \
			/sys/class/infiniband/*/ports/1/hw_counters/rcvd_pkts 2>/dev/null ;;
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
siw_cq_watch
hung_watch
heartbeat
# What the hang investigation reads (Documentation/soak.md): the
# connection manager and the transport's connect/disconnect events.
if [ "${SOAK_TRACE:-0}" = 1 ]; then
	trace_faults
	# the hung-task detector reports a task stuck for 30 s (hung_watch
	# prints its stack)
	echo 30 >/proc/sys/kernel/hung_task_timeout_secs
fi
# SOAK_REPRO=readwait: a thread blocked 10 s is already reported
[ -z "${SOAK_HUNG_SECS:-}" ] || echo "$SOAK_HUNG_SECS" >/proc/sys/kernel/hung_task_timeout_secs
nc -ll -p "$CTL_PORT" -e /bin/sh /vm/run.sh ctl &
# shellcheck source=scripts/vm/guest/server.sh
. /vm/server.sh
