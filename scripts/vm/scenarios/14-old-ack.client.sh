#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 14 with LD_REPRO=old-ack (client guest): an old RC ACK that
# reaches the server's completer between two responses of an RDMA Read
# (Documentation/investigations/rxe-comp-error-success-61.md). On demand:
#   1. mount NFSv4.2 and note the transport's connect_count;
#   2. start oldack on eth0: it keeps the client's last ACK to each
#      server QP and, whenever the client starts a multi-packet Read
#      response to that QP (the server pulling a WRITE's payload), sends
#      that ACK again, byte for byte (OA_COUNT replays, OA_SECONDS at most),
#      and counts the replays that left between the Read's FIRST and LAST
#      (inside=): at least one must, or the run did not reach the bug;
#   3. meanwhile write 4 MiB files of random octets with O_DIRECT, 1 MiB
#      a call, so each WRITE's payload is an RDMA Read of many packets;
#   4. compare each file, once written, with the server's sha256 and an
#      O_DIRECT read back; give connect_count again at the end.
# On 6.12 and 7.3 without make rxe's old-ack-in-read rule, the server's
# completer takes the old ACK for the end of the Read, meets the Read's
# next response as a broken sequence and errors the QP with the Read
# completed as a success: WARN_ON_ONCE in rxe_completer() and a
# reconnect. With the rule the ACK is dropped: no warning, no reconnect.
# The host (14-link-drops.sh) judges the server's log.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
COUNT=${OA_COUNT:-200}
SECS=${OA_SECONDS:-120}

[ -x /usr/local/bin/oldack ] ||
	{ status oldack FAIL "no /usr/local/bin/oldack in the guest (vmtest adds it with LD_REPRO=old-ack)"; finish; exit 1; }
mount_nfs 4.2 || { finish; exit 1; }
status rxe INFO "rdma_rxe: ${RXE_MODULE:-stock} (VM_RXE), transport $VM_RDMA"
c0=$(mstat connect_count)
mkdir -p /tmp/oa
head -c 4194304 /dev/urandom >/tmp/oa/src
sum=$(sha256sum </tmp/oa/src | cut -d' ' -f1)

step "oldack eth0: $COUNT replays or $SECS s, 4 MiB O_DIRECT writes beside it"
/usr/local/bin/oldack eth0 "$COUNT" "$SECS" >/tmp/oa/out 2>&1 &
oa=$!
# each file is checked as soon as it is written (the server's sha256 and
# an O_DIRECT read back), then removed: the export is the server's tmpfs.
# A transport that never comes back (Debian's rxe after an errored QP)
# must not hold the run: each call gets OA_IO_MAX (120) s, then SIGKILL,
# which a hard mount's waits take.
n=0
bad=
io() { timeout -s KILL "${OA_IO_MAX:-120}" "$@"; }
while kill -0 "$oa" 2>/dev/null; do
	f=oa.$n
	if io dd if=/tmp/oa/src of="$MNT/$f" bs=1M oflag=direct 2>/dev/null; then
		s=$(srv sums "$f" | cut -d' ' -f1)
		b=$(io dd if="$MNT/$f" iflag=direct bs=1M 2>/dev/null | sha256sum | cut -d' ' -f1)
		[ "$s" = "$sum" ] || bad="$bad server:$f"
		[ "$b" = "$sum" ] || bad="$bad readback:$f"
	else
		bad="$bad write:$f"
		# failed or no answer within OA_IO_MAX s: the next would wait too
		n=$((n + 1))
		break
	fi
	io rm -f "$MNT/$f"
	n=$((n + 1))
done
wait "$oa"
oarc=$?
counts=$(tail -n 1 /tmp/oa/out)
case $oarc in
0) status inject INFO "$counts; $n files written" ;;
1) status inject FAIL "no replay left between a Read's FIRST and LAST ($counts): the reproducer did not reach the bug" ;;
*) status inject FAIL "oldack failed: $counts" ;;
esac
if [ -z "$bad" ]; then
	status data-oldack PASS "$n files of 4 MiB, $((2 * n)) sha256 comparisons (the server's, an O_DIRECT read back)"
else
	status data-oldack FAIL "mismatch:$bad"
fi
c1=$(mstat connect_count)
status reconnects INFO "connect_count $c0 before the replays, $c1 after"
finish
