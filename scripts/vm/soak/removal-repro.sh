#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make soak's reproducer of the slow removal of the client's rxe device
# (SOAK_REPRO=removal in scripts/vm/soak.sh; Documentation/soak.md): one
# NFSv4.2 mount over rxe with a write loop, then SOAK_REPRO_TRIES (2)
# rounds of two removals of rxe0 ("rdma link delete", re-added when it
# returns):
#   alone   rxe0 is the only rxe link, so it holds rxe's UDP socket
#           (port 4791) alone;
#   shared  a second link, rxe_lo on lo, holds the socket too.
# The removal waits until xprtrdma has released the device. xprtrdma
# releases it when its CM connection reports DISCONNECTED: on the server's
# DREP, or when the DREQ's retries time out (status -110). A kernel whose
# "rdma link delete" closes rxe's socket before it unregisters the device
# no longer receives the DREP while it waits, unless another link holds
# the socket. Each removal prints its time, whether port 4791 was open
# 2 s after it began, and the status of each DISCONNECTED event. The
# verdict lines are INFO.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
TRIES=${SOAK_REPRO_TRIES:-2}
WAIT=${SOAK_RECOVER_MAX:-300}
EV=$TRACING/events/rdma_cma/cm_event_handler

# udp4791: "open" while some rxe link holds the UDP socket (4791 = 0x12B7)
udp4791() {
	if grep -q ':12B7 ' /proc/net/udp /proc/net/udp6 2>/dev/null; then
		echo open
	else
		echo closed
	fi
}

# answers: wait until a write to the mount returns (up to WAIT s)
answers() {
	rm -f /tmp/answer.ok
	(echo "$1" >"$MNT/removal.check" && : >/tmp/answer.ok) &
	wait_file /tmp/answer.ok "$WAIT" >/dev/null
}

# removal N MODE: delete rxe0, time it, add it back; print one line
removal() {
	: >"$TRACING/trace"
	_t0=$(up)
	{ rdma link delete rxe0; echo "$? $(up)" >/tmp/removal.end; } &
	_pid=$!
	sleep 2
	_udp=$(udp4791)
	wait $_pid
	read -r _rc _t1 </tmp/removal.end
	rdma link add rxe0 type rxe netdev eth0 ||
		status "removal-$1-readd" FAIL "rdma link add rxe0 failed"
	_disc=$(grep -a ' DISCONNECTED ' "$TRACING/trace" |
		sed -n 's/.* DISCONNECTED (\([-0-9/]*\)).*/\1/p' | sort | uniq -c | paste -sd' ' -)
	_secs=$(echo "$_t0 $_t1" | awk '{ printf "%.1f", $2 - $1 }')
	if answers "$1"; then _ans="answered $(echo "$_t1 $(up)" | awk '{ printf "%.1f", $2 - $1 }')s after the re-add"
	else _ans="no answer ${WAIT}s after the re-add"; fi
	status "removal-$1-$2" INFO "rdma link delete rc=$_rc took ${_secs}s; port 4791 $_udp at +2 s; DISCONNECTED (event/status): ${_disc:-none}; mount $_ans"
}

wait_server || { finish; exit 1; }
mount_nfs 4.2 || { finish; exit 1; }
echo 1 >"$EV/enable" && echo 1 >"$TRACING/tracing_on" ||
	{ status removal-trace FAIL "no tracepoint rdma_cma:cm_event_handler"; finish; exit 1; }
# a write loop: the transport carries traffic when the device goes
while [ ! -e /tmp/stop ]; do
	dd if=/dev/zero of="$MNT/removal.load" bs=64k count=16 conv=fsync 2>/dev/null
	sleep 0.2
done &
load=$!
n=0
while [ $n -lt "$TRIES" ]; do
	n=$((n + 1))
	removal "$n" alone
	rdma link add rxe_lo type rxe netdev lo ||
		{ status removal-shared FAIL "rdma link add rxe_lo type rxe netdev lo failed"; break; }
	removal "$n" shared
	rdma link delete rxe_lo
done
: >/tmp/stop
wait $load
umount_nfs
finish
