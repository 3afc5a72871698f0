#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make soak's reproducer of the wedged nfsd threads (SOAK_REPRO=readwait
# in scripts/vm/soak.sh; Documentation/soak.md, "Wedged nfsd threads"):
# one NFSv4.2 mount, O_DIRECT writes large enough to travel
# in Read chunks, and the client's transport forced to reconnect every
# few seconds, as make soak's "params" fault does.
#
# Each such WRITE has an nfsd thread post RDMA Reads and wait for their
# completion. A disconnect must complete those Work Requests (flushed);
# siw leaves a sent Read unflushed when its own Send fails as the client
# goes, until the QP moves to ERROR (make siw fixes that, and this
# module's 6.1 server moves the QP at detach). On 6.1 the wait is
# uninterruptible (wait_for_completion() in svc_rdma_rw.c) and holds a
# reference on the transport, so the thread and the transport stay for
# good: the hung-task detector reports the thread (SOAK_HUNG_SECS, 10 s
# here) and the server keeps listing the transport. After every reconnect
# the script asks the server for that count; the stacks come from the
# server's hung_watch (RPCRDMA-HUNG lines) and SysRq w (RPCRDMA-DIAG).
# The verdict line is INFO: it reports what the modules and siw under
# test do (SOAK_SERVER_KO, SOAK_CLIENT_KO, RPCRDMA_KO, SIW_UPSTREAM).
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
TRIES=${SOAK_REPRO_TRIES:-150}
# sctl_slow: for a command that reads the whole trace buffer first (nc's
# -w ends the request after that many seconds without output)
sctl_slow() { echo "$*" | timeout 120 nc -w 100 "$VM_SERVER_IP" "$CTL_PORT"; }
# hung_now: the server's count of blocked tasks, "?" without an answer
# (a server restarting nfsd behind blocked threads may not answer)
hung_now() {
	_h=$(sctl counter hung)
	case $_h in
	'' | *[!0-9]*) echo '?' ;;
	*) echo "$_h" ;;
	esac
}

wait_server || { finish; exit 1; }
[ "$(sctl ping)" = pong ] ||
	{ status soak-ctl FAIL "no answer on the server's control channel (TCP port $CTL_PORT)"; finish; exit 1; }
mount_nfs 4.2 || { finish; exit 1; }

step "load: 4 writers (64 KiB-1 MiB O_DIRECT, Read chunks) and 2 readers"
mkdir -p "$MNT/rw"
fio --directory="$MNT/rw" --ioengine=psync --direct=1 --time_based --runtime=100000 \
	--size=8m --group_reporting --eta=never --output=/dev/null \
	--name=w --rw=randwrite --bsrange=64k-1m --numjobs=4 \
	--name=r --rw=randread --bs=256k --numjobs=2 &
FIO=$!
sleep 10

# wait_store SECS: 0 once the background dstaddr store has returned
wait_store() {
	_i=0
	while [ ! -e /tmp/store.done ] && [ $_i -lt "$1" ]; do sleep 1; _i=$((_i + 1)); done
	[ -e /tmp/store.done ]
}

# One reconnect every 2-4 s. The store runs in the background: sunrpc's
# sysfs store can sleep under load until something wakes it
# (SOAK_REPRO=sysfs). After 20 s, unless a server task has blocked
# (that is the answer), an nfsd restart wakes it, as make soak does.
n=0 hung=0 stalls=0
while [ $n -lt "$TRIES" ]; do
	n=$((n + 1))
	rm -f /tmp/store.done
	(reconnect >/dev/null; : >/tmp/store.done) &
	if ! wait_store 20; then
		# a store also sleeps when no nfsd thread is free to accept
		# the reconnect: give the detector (10 s) its chance first
		hung=$(hung_now)
		[ "$hung" = 0 ] && { sleep 12; hung=$(hung_now); }
		[ "$hung" != 0 ] && break
		stalls=$((stalls + 1))
		step "reconnect $n: the dstaddr store has slept 20 s; restarting nfsd to wake it"
		sctl nfsd-restart >/dev/null
		wait_store 60 ||
			{ status repro-store INFO "reconnect $n: the dstaddr store still blocked 60 s after an nfsd restart"; break; }
	fi
	sleep $((2 + n % 3))
	hung=$(hung_now)
	[ "$hung" != 0 ] && break
	[ $((n % 10)) = 0 ] && step "$n reconnects, no task blocked on the server"
done
# ask again: the loop also ends on a store that an nfsd restart did not
# wake, and the tasks may have blocked since the last count
hung=$(hung_now)
if [ "$hung" = '?' ]; then
	status repro-nfsd-blocked INFO "unknown: the server did not answer after reconnect $n at $(up) s; its log has the detector's reports (RPCRDMA-HUNG)"
elif [ "$hung" -gt 0 ]; then
	status repro-nfsd-blocked INFO "yes: $hung task(s) blocked on the server, reported by reconnect $n at $(up) s"
	sctl blocked | sed 's/^/RPCRDMA-DIAG: server blocked: /'
	sctl conns | sed 's/^/RPCRDMA-DIAG: server conn: /'
	sctl siwtrace | sed 's/^/RPCRDMA-DIAG: server siw: /'
	[ "${SOAK_TRACE:-0}" = 1 ] && sctl_slow trace 20000 | sed 's/^/RPCRDMA-DIAG: server trace: /'
else
	status repro-nfsd-blocked INFO "no: $n reconnects under load ($stalls dstaddr stores woken by an nfsd restart), no task blocked on the server"
fi
[ "${SOAK_TRACE:-0}" = 1 ] && status repro-close-gaps INFO "server: $(sctl_slow closegaps)"
[ "${SOAK_TRACE:-0}" = 1 ] && status repro-qp-events INFO "server: $(sctl_slow counter qp_events) in $n reconnects"
conns | sed 's/^/RPCRDMA-DIAG: client conn: /'
kill "$FIO" 2>/dev/null
status repro-ran PASS "$n reconnects"
finish
