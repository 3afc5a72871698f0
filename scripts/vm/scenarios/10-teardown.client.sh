#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 10 (client guest). Two readers re-read an 8 MiB file with
# O_DIRECT in 1 MiB blocks, so the server is nearly always sending READ
# replies, each a Send chained behind the RDMA Writes of a Write chunk.
# TEARDOWN_CYCLES (8) times the server restarts nfsd: stopping it closes
# every transport (rdma_disconnect() flushes the Sends still in flight,
# then svc_rdma_free()). On 6.12, releasing a Send context is work on
# svcrdma_wq that queues the release of its Write chunk's contexts as a
# second work item, which svc_rdma_free()'s single flush_workqueue() did
# not wait for: kmemleak then found the contexts lost with the transport
# (scripts/coccinelle/server_free_flush.cocci). The server's link stays
# up: over rxe a link drop during a reconnect can hang the mount for good,
# with Debian's modules too (Documentation/soak.md).
# Checks: every read returns the file's content, the mount reconnected
# once per cycle at least, and (debug kernels) kmemleak on both sides:
# the server scans 20 s after each restart (srv restart_scan), so its
# verdict is on record even if a later cycle does not come back.
# The count of flushed Sends is reported, to show the path was taken,
# and with this module the connection requests refused because they
# reached a listener as nfsd shut down (<debugfs>/rpcrdma_cm/unaccepted,
# scripts/coccinelle/server_refuse_unaccepted.cocci): Debian's module
# leaves them pending, and the client waits on MRAs for minutes.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
N=${TEARDOWN_CYCLES:-8}
FLUSH=svcrdma_wc_send_flush

mount_nfs 4.2 || { finish; exit 1; }
srv run echo 1 \>$TRACING/events/rpcrdma/$FLUSH/enable >/dev/null
step "writing an 8 MiB file"
head -c 8388608 /dev/urandom >/tmp/big
cp /tmp/big "$MNT/big" || status big-write FAIL "cannot write $MNT/big"
WANT=$(sha256sum </tmp/big | cut -d' ' -f1)
c0=$(mstat connect_count)

# reader ID: whole-file O_DIRECT reads until /tmp/stop; a read whose
# content differs is recorded in /tmp/bad
reader() {
	while [ ! -e /tmp/stop ]; do
		_s=$(dd if="$MNT/big" iflag=direct bs=1M 2>/dev/null | sha256sum | cut -d' ' -f1)
		echo "$1" >>/tmp/reads
		[ "$_s" = "$WANT" ] || echo "reader $1: $_s" >>/tmp/bad
	done
}
: >/tmp/reads
: >/tmp/bad
reader 1 &
R1=$!
reader 2 &
R2=$!
# a cycle that does not come back within 240 s: what the client waits
# for (the mount, and with it the control channel, is stuck)
watchdog() {
	while [ ! -e /tmp/stop ]; do
		_c=$(cat /tmp/cycle 2>/dev/null)
		sleep 240
		[ -e /tmp/stop ] || [ "$(cat /tmp/cycle 2>/dev/null)" != "$_c" ] && continue
		status "cycle-$_c-stuck" FAIL "no answer 240 s after nfsd restart $_c; client state follows (RPCRDMA-DIAG)"
		{
			# the debug kernel has no sysrq and no sunrpc debugfs: the
			# blocked tasks' stacks, the transports' counters, the log
			for _p in /proc/[0-9]*; do
				grep -q '^State:.*D' "$_p/status" 2>/dev/null || continue
				echo "task ${_p#/proc/} $(cat "$_p/comm")"
				cat "$_p/stack"
			done
			grep -a 'xprt:' /proc/self/mountstats
			conns
			dmesg -s 4194304 | tail -n 60
		} 2>&1 | sed 's/^/RPCRDMA-DIAG: /'
		return
	done
}
watchdog &
WD=$!
i=0
while [ $i -lt "$N" ]; do
	i=$((i + 1))
	echo "$i" >/tmp/cycle
	sleep 3
	step "cycle $i/$N: nfsd restarted under the readers"
	[ "$(srv restart_scan)" = restarted ] ||
		status "cycle-$i" FAIL "the server did not restart nfsd"
done
touch /tmp/stop
kill "$WD" 2>/dev/null
wait "$R1" "$R2"
c1=$(mstat connect_count)
_f=$(srv trace $FLUSH | grep -c " $FLUSH: ")
status flushed-sends INFO "$_f Send(s) flushed by the teardowns"
_u=$(srv run cat "${CONNS%/*}/unaccepted" 2\>/dev/null)
status unaccepted INFO "${_u:-(no counter: not this module)} connection request(s) refused as their listener closed"
check reads "$(wc -l </tmp/reads) whole-file reads, $(wc -l </tmp/bad) with wrong content" [ ! -s /tmp/bad ]
check reconnected "connect_count $c0 -> $c1 over $N teardowns" [ "$c1" -ge $((c0 + N)) ]
data_check after-teardown
umount_nfs
finish
