#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 14 with LD_REPRO=unreachable (client guest): rdma_cm's
# UNREACHABLE event on an established connection, which leaves the
# client's transport unable to get more MRs
# (Documentation/investigations/xprt-write-space-stuck.md). On demand:
#   1. mount NFSv4.2, note connect_count, trace rdma_cm's events and
#      xprtrdma's "no MR" marshal failures;
#   2. with the mount idle, drop the client's ARP requests on eth0's
#      egress (clsact), flush its neighbour entry for the server and
#      ping the server: the new entry fails to resolve, and the
#      neighbour update (NUD_FAILED, no link-layer address) reaches
#      rdma_cm, which queues RDMA_CM_EVENT_UNREACHABLE to every id bound
#      to that address whatever its state; then remove the filter and
#      resolve the server again;
#   3. UR_WRITERS (16) O_DIRECT writes of 1 MiB at once, more Read
#      chunks than the transport has MRs just after a connect: each
#      must finish within UR_IO_MAX (60) s and read back exact.
# xprtrdma takes the event for a failed connect attempt: it sets
# re_connect_status to -ENETUNREACH on the live connection and does
# nothing else. From then on rpcrdma_mrs_refresh() declines to start
# the worker that makes MRs ("no underlying connection"), so the first
# marshal that finds no MR sets XPRT_WRITE_SPACE, which nothing clears:
# every RPC waits on xprt_sending for ever (a hard mount hangs). With the
# fix the client closes the connection on the event and reconnects.
# The host (14-link-drops.sh, ld_unreachable) gives the verdict.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
WRITERS=${UR_WRITERS:-16}
EV=$TRACING/events

[ -x /usr/local/bin/tc ] ||
	{ status tc FAIL "no /usr/local/bin/tc in the guest (vmtest adds it with LD_REPRO=unreachable)"; finish; exit 1; }
modprobe -a sch_ingress cls_u32 act_gact ||
	{ status tc-mods FAIL "no sch_ingress, cls_u32 or act_gact in the guest (vmtest adds them with LD_REPRO=unreachable)"; finish; exit 1; }
mount_nfs 4.2 || { finish; exit 1; }
c0=$(mstat connect_count)
for e in rdma_cma/cm_event_handler rpcrdma/xprtrdma_nomrs_err; do
	echo 1 >"$EV/$e/enable" ||
		{ status trace FAIL "no trace event $e in this kernel"; finish; exit 1; }
done
echo 1 >"$TRACING/tracing_on"
cat "$TRACING/trace_pipe" >/tmp/ur.trace &
tpid=$!
io() { timeout -s KILL "${UR_IO_MAX:-60}" "$@"; }

# ---- 2. a neighbour that fails to resolve, with the mount idle ----------
# The ARP filter stays only until rdma_cm reported the failure: RPCs
# sent meanwhile (the lease's) would find no neighbour, and a QP that
# runs out of retries reconnects, which hides the bug.
unreach() { grep -ac 'UNREACHABLE' /tmp/ur.trace; }
if ! { tc qdisc add dev eth0 clsact &&
	tc filter add dev eth0 egress protocol arp prio 1 u32 match u32 0 0 action drop; }; then
	status filter FAIL "tc could not add the ARP filter on eth0"
	tc qdisc del dev eth0 clsact 2>/dev/null
	finish
	exit 1
fi
# up to three times: an entry the server's own ARP requests refreshed
# meanwhile may stay unresolved without failing
a=0
while [ $a -lt 3 ] && [ "$(unreach)" -eq 0 ]; do
	ip neigh flush to "$VM_SERVER_IP" dev eth0
	ping -c 1 -W 1 "$VM_SERVER_IP" >/dev/null 2>&1
	j=0
	while [ $j -lt 60 ] && [ "$(unreach)" -eq 0 ]; do
		usleep 100000
		j=$((j + 1))
	done
	a=$((a + 1))
	step "neighbour, attempt $a, after $((j / 10)) s more: $(ip neigh show to "$VM_SERVER_IP" dev eth0)"
done
tc qdisc del dev eth0 clsact
j=0
while [ $j -lt 10 ] && ! ping -c 1 -W 1 "$VM_SERVER_IP" >/dev/null 2>&1; do
	j=$((j + 1))
done
step "neighbour once ARP went through again: $(ip neigh show to "$VM_SERVER_IP" dev eth0)"
sleep 2
n=$(unreach)
c1=$(mstat connect_count)
# a client with the fix reconnects here; one without stays connected
if [ "$n" -gt 0 ]; then
	status inject INFO "rdma_cm reported UNREACHABLE $n time(s) on the established connection; connect_count $c0, 2 s later $c1"
else
	status inject FAIL "rdma_cm reported no UNREACHABLE in $a attempts: the reproducer did not reach the bug"
fi
grep -aE 'UNREACHABLE|DISCONNECTED|ESTABLISHED' /tmp/ur.trace | head -n 6 | cut -c1-300 | sed 's/^/RPCRDMA-STEP: /'

# ---- 3. more Read chunks at once than the MRs of a new connection --------
head -c 1048576 /dev/urandom >/tmp/ur.src
sum=$(sha256sum </tmp/ur.src | cut -d' ' -f1)
pids='' i=0
while [ $i -lt "$WRITERS" ]; do
	io dd if=/tmp/ur.src of="$MNT/ur.$i" bs=1M oflag=direct 2>/dev/null &
	pids="$pids $!"
	i=$((i + 1))
done
bad=0
for p in $pids; do
	wait "$p" || bad=$((bad + 1))
done
nomrs=$(grep -ac 'xprtrdma_nomrs_err' /tmp/ur.trace)
if [ $bad -gt 0 ]; then
	# sunrpc's state bits: 1 XPRT_CONNECTED, 11 XPRT_WRITE_SPACE
	xs=
	for x in /sys/kernel/debug/sunrpc/rpc_xprt/*/info; do
		st=$(sed -n 's/^state: *//p' "$x")
		xs="$xs rpc_xprt/$(basename "$(dirname "$x")") state $st"
		[ $((st & 0x802)) -eq $((0x802)) ] && xs="$xs (connected, waiting for write space)"
	done
	status xprt INFO "${xs# }"
	waiting=$(cat /sys/kernel/debug/sunrpc/rpc_clnt/*/tasks 2>/dev/null | grep -c 'q:xprt_sending')
	status writes FAIL "$bad of $WRITERS writes did not finish within ${UR_IO_MAX:-60} s; $waiting task(s) waiting on xprt_sending; $nomrs marshal(s) found no MR"
else
	bad=
	i=0
	while [ $i -lt "$WRITERS" ]; do
		b=$(io dd if="$MNT/ur.$i" iflag=direct bs=1M 2>/dev/null | sha256sum | cut -d' ' -f1)
		[ "$b" = "$sum" ] || bad="$bad ur.$i"
		i=$((i + 1))
	done
	if [ -z "$bad" ]; then
		status writes PASS "$WRITERS writes of 1 MiB finished and read back exact; $nomrs marshal(s) found no MR"
	else
		status writes FAIL "read back differs:$bad"
	fi
fi
[ "$nomrs" -gt 0 ] ||
	status nomrs FAIL "no marshal found the MRs exhausted: the writes did not reach the path the bug stops"
# this module counts the connections it closed on the event
u=/sys/kernel/debug/rpcrdma_cm/unreachable
[ -r $u ] && status closed INFO "rpcrdma_cm/unreachable $(cat $u)"
kill $tpid 2>/dev/null
status reconnects INFO "connect_count $c0 before the neighbour failed, $(mstat connect_count) after"
finish
