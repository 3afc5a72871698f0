#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 14 with LD_REPRO=unsent-first (client guest): the first packet
# of an RDMA Read response that the client's rxe could not send
# (Documentation/investigations/rxe-comp-error-success-61.md). On demand:
#   1. mount NFSv4.2 and note the transport's connect_count;
#   2. UF_ROUNDS times: on eth0's egress (clsact), drop RoCEv2 packets
#      (UDP 4791) whose BTH opcode is an RC Read response FIRST, and the
#      RNR NAKs the client answers a failed send with (the server would
#      end its Read on the first one: the client's REQ asks for no RNR
#      retries); write a 4 MiB file with O_DIRECT, UF_BS (1M) a call,
#      which the server pulls with RDMA Reads; once the filter counted a
#      dropped FIRST, remove it, so that the server's retry of that Read
#      goes through;
#   3. compare each file with the server's sha256 and an O_DIRECT read
#      back; give connect_count again at the end.
# A dropped packet is a failed transmit for rxe (RESPST_ERR_RNR): the
# response stays, marked as under way, and resumes with the server's
# retry. Without make rxe's read-reply-unsent rule it resumes with a
# MIDDLE at the first PSN, which the server's completer takes for a
# broken sequence: WARN_ON_ONCE in rxe_completer(), the Read completed
# as a success, the QP in error and a reconnect. With the rule it sends
# the FIRST again. The host (14-link-drops.sh) judges the server's log.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
ROUNDS=${UF_ROUNDS:-10}
# the write size: each call's payload is one Read chunk (UF_BS=16k: a
# single RDMA Read per WRITE, so the Read that fails is the one the
# server waits for)
BS=${UF_BS:-1M}

[ -x /usr/local/bin/tc ] ||
	{ status tc FAIL "no /usr/local/bin/tc in the guest (vmtest adds it with LD_REPRO=unsent-first)"; finish; exit 1; }
modprobe -a sch_ingress cls_u32 act_gact ||
	{ status tc-mods FAIL "no sch_ingress, cls_u32 or act_gact in the guest (vmtest adds them with LD_REPRO=unsent-first)"; finish; exit 1; }
mount_nfs 4.2 || { finish; exit 1; }
status rxe INFO "rdma_rxe: ${RXE_MODULE:-stock} (VM_RXE), transport $VM_RDMA"
c0=$(mstat connect_count)
mkdir -p /tmp/uf
head -c 4194304 /dev/urandom >/tmp/uf/src
sum=$(sha256sum </tmp/uf/src | cut -d' ' -f1)

# dropped: the packets the FIRST filter (prio 1) dropped
dropped() {
	tc -s filter show dev eth0 egress prio 1 | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -n 1
}
io() { timeout -s KILL "${UF_IO_MAX:-120}" "$@"; }

n=0 hit=0 drops=0 bad=
while [ $n -lt "$ROUNDS" ]; do
	f=uf.$n
	# offsets from the IPv4 header: UDP's destination port at 22, the
	# BTH's opcode at 28 (0x0d: Read response FIRST; 0x11: ACKNOWLEDGE),
	# the AETH's syndrome at 40 (0x20..0x3f: RNR NAK)
	if ! { tc qdisc add dev eth0 clsact &&
		tc filter add dev eth0 egress protocol ip prio 1 u32 \
			match ip protocol 17 0xff match u16 4791 0xffff at 22 \
			match u8 0x0d 0xff at 28 action drop &&
		tc filter add dev eth0 egress protocol ip prio 2 u32 \
			match ip protocol 17 0xff match u16 4791 0xffff at 22 \
			match u8 0x11 0xff at 28 match u8 0x20 0xe0 at 40 action drop; }; then
		status filter FAIL "tc could not add the egress filters on eth0"
		tc qdisc del dev eth0 clsact 2>/dev/null
		break
	fi
	io dd if=/tmp/uf/src of="$MNT/$f" bs="$BS" oflag=direct 2>/dev/null &
	dd=$!
	j=0 d=0
	while [ $j -lt 100 ] && [ "${d:-0}" -eq 0 ] && kill -0 $dd 2>/dev/null; do
		usleep 50000
		d=$(dropped)
		j=$((j + 1))
	done
	d=$(dropped)
	tc qdisc del dev eth0 clsact
	[ "${d:-0}" -gt 0 ] && hit=$((hit + 1))
	drops=$((drops + ${d:-0}))
	if wait $dd; then
		s=$(srv sums "$f" | cut -d' ' -f1)
		b=$(io dd if="$MNT/$f" iflag=direct bs=1M 2>/dev/null | sha256sum | cut -d' ' -f1)
		[ "$s" = "$sum" ] || bad="$bad server:$f"
		[ "$b" = "$sum" ] || bad="$bad readback:$f"
	else
		bad="$bad write:$f"
		n=$((n + 1))
		break
	fi
	io rm -f "$MNT/$f"
	n=$((n + 1))
done
if [ $hit -gt 0 ]; then
	status inject INFO "rounds=$n with_a_dropped_first=$hit firsts_dropped=$drops"
else
	status inject FAIL "rounds=$n: no Read response FIRST was dropped: the reproducer did not reach the bug"
fi
if [ -z "$bad" ]; then
	status data-unsent PASS "$n files of 4 MiB, $((2 * n)) sha256 comparisons (the server's, an O_DIRECT read back)"
else
	status data-unsent FAIL "mismatch:$bad"
fi
c1=$(mstat connect_count)
status reconnects INFO "connect_count $c0 before the drops, $c1 after"
finish
