#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 14 with LD_REPRO=addr-reapply (client guest): the client's
# IP address removed and added again under an established NFS/RDMA
# connection, as a network manager that reapplies an interface's
# configuration does, then the unmount. The RoCE GID code deletes the
# address's GIDs and adds them again, as on a bond failover, so ib_cm
# cannot build the DREQ of the unmount's disconnect (the connection's
# address vector refers to the deleted entry) and, unfixed, never says
# so: xprtrdma waits for a DISCONNECTED that never comes
# (Documentation/investigations/addr-change-kref.md).
#   1. mount NFSv4.2 over RDMA, write and read back AR_FILES (4) files
#      of 1 MiB exact;
#   2. ip addr del, then ip addr add of the client's address on eth0;
#   3. the files again, over the same connection;
#   4. unmount; no cm_id may be left (AR_CMID_MAX, 90 s).
# The host (14-link-drops.sh, ld_addr_reapply) gives the verdict.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
FILES=${AR_FILES:-4}
EV=$TRACING/events

[ "$VM_RDMA" = rxe ] || { status rdma FAIL "LD_REPRO=addr-reapply needs rxe (RoCE)"; finish; exit 1; }
# what becomes of the DREQ: rdma_cm's and ib_cm's events, and what
# ib_send_cm_dreq() and rdma_create_ah() return (kretprobes)
for p in ib_send_cm_dreq rdma_create_ah; do
	echo "r:ar_$p $p ret=\$retval:s32" >>"$TRACING/kprobe_events" 2>/dev/null
done
for e in rdma_cma/cm_event_handler rdma_cma/cm_disconnect rdma_cma/cm_sent_dreq \
	rdma_cma/cm_id_destroy ib_cma/icm_send_dreq ib_cma/icm_send_drep_err \
	ib_cma/icm_mad_send_err kprobes/ar_ib_send_cm_dreq kprobes/ar_rdma_create_ah; do
	[ -e "$EV/$e/enable" ] && echo 1 >"$EV/$e/enable"
done
echo 1 >"$TRACING/tracing_on"
cat "$TRACING/trace_pipe" >/tmp/ar.trace &
tpid=$!

mount_nfs 4.2 || { kill $tpid 2>/dev/null; finish; exit 1; }
mib_check writes "before the address is reapplied" ar "$FILES"
c0=$(mstat connect_count)

# ---- 2. the address removed and added again --------------------------------
r0=$(grep -c . /tmp/ar.trace)
step "ip addr del $VM_CLIENT_IP/24 dev eth0; ip addr add $VM_CLIENT_IP/24 dev eth0"
ip addr del "$VM_CLIENT_IP/24" dev eth0 && ip addr add "$VM_CLIENT_IP/24" dev eth0 ||
	{ status reapply FAIL "ip addr del/add of $VM_CLIENT_IP on eth0 failed"; kill $tpid 2>/dev/null; finish; exit 1; }
sleep 3
step "rxe0's GID table after it: $(grep -lv '^0000:0000:0000:0000:0000:0000:0000:0000$' /sys/class/infiniband/rxe0/ports/1/gids/* 2>/dev/null | wc -l) entries in use"
mib_check writes-after "after the address was reapplied" ar "$FILES"
status reconnects INFO "connect_count $c0 before the reapply, $(mstat connect_count) after"

# what the reapply did to the connection: rdma_cm's events, its DREQ
n0=$(grep -c . /tmp/ar.trace)
sed -n "$((r0 + 1)),${n0}p" /tmp/ar.trace |
	grep -aE 'cm_event_handler|cm_disconnect|cm_sent_d|cm_id_destroy|icm_|ar_' |
	head -n 16 | cut -c1-260 | sed 's/^/RPCRDMA-STEP: reapply: /'
# a run that refused no DREQ did not take the bug's path, whatever else
if sed -n "$((r0 + 1)),${n0}p" /tmp/ar.trace | grep -aq 'ar_ib_send_cm_dreq:.* ret=-'; then
	status reach INFO "the reapply closed the connection and ib_send_cm_dreq() failed"
else
	status reach FAIL "no DREQ was refused during the reapply: the reproducer did not reach the bug"
fi

# ---- 4. the unmount --------------------------------------------------------
umount_nfs
j=0
while [ $j -lt "${AR_CMID_MAX:-90}" ] && [ -n "$(rdma resource show cm_id 2>/dev/null)" ]; do
	sleep 1
	j=$((j + 1))
done
ids=$(rdma resource show cm_id 2>/dev/null)
if [ -z "$ids" ]; then
	status cm-ids PASS "no cm_id left $j s after the unmount"
else
	status cm-ids FAIL "cm_id(s) left ${AR_CMID_MAX:-90} s after the unmount: $(echo "$ids" | tr '\n' ' ' | cut -c1-300)"
fi
# how the connections ended: their DREQs (sent, or refused by
# rdma_create_ah() and ib_send_cm_dreq()), DISCONNECTED or nothing
tail -n +"$((n0 + 1))" /tmp/ar.trace |
	grep -aE 'cm_disconnect|cm_sent_d|cm_id_destroy|icm_|ar_|DISCONNECTED' |
	head -n 16 | cut -c1-260 | sed 's/^/RPCRDMA-STEP: unmount: /'
kill $tpid 2>/dev/null
finish
