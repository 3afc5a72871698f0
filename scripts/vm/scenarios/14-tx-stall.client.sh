#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 14 with LD_REPRO=tx-stall (client guest): rxe's transmit
# destructor after a QP destroy that gave up waiting for its packets
# (Documentation/investigations/rxe-tx-dtor-uaf.md). On demand only:
#   1. mount, write, and ask the server to restart nfsd TXS_RESTART s later;
#   2. plug the client's eth0 egress (tc's plug qdisc holds every packet
#      until released; ingress still works), then write: rxe's packets
#      queue in the qdisc, each holding a reference on the QP;
#   3. the server's restart sends its DREQ, the client's transport closes
#      and destroys its QP; rxe's __rxe_cleanup() waits 50 s for the
#      queued packets, WARNs and frees the QP anyway;
#   4. with the packets still queued, "ip link set eth0 down": qdisc_reset()
#      frees them and runs their destructor. Without make rxe's fixes
#      tx-dtor-detach and tx-dtor-check it reaches the freed QP (6.1: a
#      NULL dereference in rxe_skb_tx_dtor; 6.12, 7.3: a write to freed
#      memory, which KASAN reports); with them the link goes down cleanly.
# The host (14-link-drops.sh) judges the log: the WARNING of step 3 is
# expected, any other kernel trouble is the bug.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
WAIT=${TXS_WAIT:-150}

[ -x /usr/local/bin/tc ] ||
	{ status tc FAIL "no /usr/local/bin/tc in the guest (vmtest adds it with LD_REPRO=tx-stall)"; finish; exit 1; }
modprobe sch_plug ||
	{ status sch-plug FAIL "no sch_plug module in the guest (vmtest adds it with LD_REPRO=tx-stall)"; finish; exit 1; }
mount_nfs 4.2 || { finish; exit 1; }
status rxe INFO "rdma_rxe: ${RXE_MODULE:-stock} (VM_RXE), transport $VM_RDMA"
dd if=/dev/zero of="$MNT/txs.0" bs=64k count=16 oflag=direct conv=fsync 2>/dev/null
check write-before "a 1 MiB write before the plug" [ $? -eq 0 ]

srv restart_in "${TXS_RESTART:-8}" >/dev/null ||
	{ status srv-restart FAIL "the server did not take the request"; finish; exit 1; }
tc qdisc add dev eth0 root plug limit 32000000 ||
	{ status plug FAIL "tc qdisc add dev eth0 root plug failed"; finish; exit 1; }
step "eth0 egress plugged; server restarts nfsd in ${TXS_RESTART:-8} s"
# this write never completes: its Sends stay in the plug
dd if=/dev/zero of="$MNT/txs.1" bs=64k count=64 oflag=direct 2>/dev/null &
t0=$(up)

# step 3: rxe gave up on the QP (the WARNING; 6.12 and later also log
# "cleanup failed, err = -110")
_w=0
while ! dmesg | grep -q '__rxe_cleanup' && [ $_w -lt "$WAIT" ]; do
	sleep 1
	_w=$((_w + 1))
done
backlog=$(tc -s qdisc show dev eth0 | sed -n 's/^ *backlog \([^ ]*\) \([0-9]*\)p.*/\1 in \2 packets/p' | head -n 1)
if ! dmesg | grep -q '__rxe_cleanup'; then
	status qp-destroy FAIL "no QP destroy timed out within $WAIT s of the plug (backlog ${backlog:-unknown}): the reproducer did not reach the bug"
	dmesg | tail -n 20 | sed 's/^/RPCRDMA-DIAG: client dmesg: /'
	tc qdisc del dev eth0 root 2>/dev/null
	finish
	exit 1
fi
status qp-destroy INFO "$(awk -v a="$t0" '{ printf "%.1f", $1 - a }' /proc/uptime) s after the plug, __rxe_cleanup gave up on a QP; still queued: ${backlog:-unknown}"

# step 4: free the queued packets of the freed QP
step "eth0 down with the plug holding ${backlog:-?}"
ip link set eth0 down
sleep 3
# a fault in a destructor killed ip under the RTNL lock: no ip or tc
# would return now, so say so and end (the host reads the trace)
if dmesg | grep -qE 'BUG:|Oops|general protection'; then
	status link-down FAIL "a fault when the queued packets were freed (the trace is in the log)"
	finish
	exit 1
fi
status link-down INFO "eth0 went down; the queued packets were freed"
# with poisoned kmalloc caches (slub_debug, set by the host): a write to
# the freed QP shows as "Poison overwritten" when the caches are checked
if grep -q 'slub_debug=' /proc/cmdline; then
	for _v in /sys/kernel/slab/kmalloc-*/validate; do
		echo 1 >"$_v" 2>/dev/null
	done
	status slab-validate INFO "kmalloc caches validated (slub_debug in the command line)"
fi
ip link set eth0 up
tc qdisc del dev eth0 root 2>/dev/null
# the mount's transport was torn down under it: detach it, so nothing
# after this (finish on a debug kernel mounts again) waits on it
umount -l "$MNT" 2>/dev/null
finish
