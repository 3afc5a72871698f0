#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 14 with LD_REPRO=addr-change (client guest): rdma_cm's
# ADDR_CHANGE event while xprtrdma is still connecting, which 6.1's
# xprtrdma answers with a put of the endpoint that no get balances
# (Documentation/investigations/addr-change-kref.md). On demand:
#   1. move the client's address to an active-backup bond, eth0 its
#      active slave and a dummy device its backup, fail_over_mac=active
#      (the bond takes its active slave's MAC, as IPoIB bonds and many
#      RoCE bonds are set up), and its RDMA device to the bond;
#   2. drop RoCEv2 (UDP 4791) on eth0's egress (clsact, u32) and mount
#      NFSv4.2 in the background: the connect's REQ never leaves, so
#      xprtrdma waits for the connection with the endpoint's
#      connect-time reference taken and no ESTABLISHED one;
#   3. make the dummy the active slave: the bond's MAC changes,
#      NETDEV_BONDING_FAILOVER reaches rdma_cm, which queues ADDR_CHANGE
#      to every id bound to the bond whose source MAC differs;
#   4. make eth0 active again, remove the filter, let the mount finish
#      (AC_MOUNT_MAX, 150 s) and write and read back AC_FILES (4)
#      files of 1 MiB exact;
#   5. fail over again with the connection established, then back, and
#      write and read back again; after the unmount no cm_id may be left
#      (AC_CMID_MAX, 90 s).
# Up to 7.1 xprtrdma's ADDR_CHANGE case sets the status and jumps to the
# DISCONNECTED case's put; before ESTABLISHED that put takes the
# connect-time reference, so the failed connect's teardown frees the
# endpoint in its drain and puts it once more: refcount_t underflow, a
# use-after-free, and a cm_id never destroyed. Step 5 finds the leak in
# mainline's fix (ib_cm's unsent DREQ, above step 5's code). The host
# (14-link-drops.sh, ld_addr_change) gives the verdict from this log.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
FILES=${AC_FILES:-4}
EV=$TRACING/events
B=/sys/class/net/bond0/bonding

[ -x /usr/local/bin/tc ] ||
	{ status tc FAIL "no /usr/local/bin/tc in the guest (vmtest adds it with LD_REPRO=addr-change)"; finish; exit 1; }
# bonding and dummy make no bond0 and dummy0 of their own with these
if ! { modprobe bonding max_bonds=0 && modprobe dummy numdummies=0 &&
	modprobe -a sch_ingress cls_u32 act_gact; }; then
	status mods FAIL "no bonding, dummy, sch_ingress, cls_u32 or act_gact in this kernel (vmtest adds them with LD_REPRO=addr-change)"
	finish
	exit 1
fi
[ "$VM_RDMA" = rxe ] || { status rdma FAIL "LD_REPRO=addr-change needs rxe (RoCE)"; finish; exit 1; }

# ---- 1. the bond --------------------------------------------------------
# each step named, so that a failure says which
bond_up() {
	for _c in "rdma link delete rxe0" "ip addr flush dev eth0" \
		"ip link add bond0 type bond mode active-backup miimon 100 fail_over_mac active" \
		"ip link add dummy0 type dummy" \
		"ip link set eth0 down" "ip link set eth0 master bond0" \
		"ip link set dummy0 down" "ip link set dummy0 master bond0" \
		"ip link set bond0 up" "ip addr add $VM_CLIENT_IP/24 dev bond0" \
		"rdma link add rxe0 type rxe netdev bond0"; do
		# shellcheck disable=SC2086
		$_c || { echo "$_c"; return 1; }
	done
}
if ! failed=$(bond_up); then
	status bond FAIL "could not move $VM_CLIENT_IP and rxe0 to an active-backup bond of eth0 and dummy0: '$failed' failed"
	finish
	exit 1
fi
j=0
while [ $j -lt 50 ] && [ "$(cat $B/active_slave)" != eth0 ]; do
	usleep 100000
	j=$((j + 1))
done
step "bond0: active $(cat $B/active_slave), fail_over_mac $(cat $B/fail_over_mac), mac $(cat /sys/class/net/bond0/address); eth0 $(cat /sys/class/net/eth0/address), dummy0 $(cat /sys/class/net/dummy0/address)"
[ "$(cat $B/active_slave)" = eth0 ] ||
	{ status bond FAIL "eth0 did not become bond0's active slave"; finish; exit 1; }

for e in rdma_cma/cm_event_handler rdma_cma/cm_send_req rpcrdma/xprtrdma_connect; do
	echo 1 >"$EV/$e/enable" ||
		{ status trace FAIL "no trace event $e in this kernel"; finish; exit 1; }
done
# what becomes of the DREQs (shown when a cm_id outlives the mount):
# rdma_cm's and ib_cm's events, and what ib_send_cm_dreq(),
# ib_send_cm_drep() and rdma_create_ah() return (kretprobes)
for p in ib_send_cm_dreq ib_send_cm_drep rdma_create_ah; do
	echo "r:ac_$p $p ret=\$retval:s32" >>"$TRACING/kprobe_events" 2>/dev/null
done
for e in rdma_cma/cm_disconnect rdma_cma/cm_sent_dreq rdma_cma/cm_sent_drep \
	rdma_cma/cm_id_destroy ib_cma/icm_send_dreq ib_cma/icm_dreq_skipped \
	ib_cma/icm_send_drep ib_cma/icm_send_drep_err ib_cma/icm_mad_send_err \
	kprobes/ac_ib_send_cm_dreq kprobes/ac_ib_send_cm_drep kprobes/ac_rdma_create_ah; do
	[ -e "$EV/$e/enable" ] && echo 1 >"$EV/$e/enable"
done
echo 1 >"$TRACING/tracing_on"
cat "$TRACING/trace_pipe" >/tmp/ac.trace &
tpid=$!

# ---- 2. a connect that waits ---------------------------------------------
wait_server || { finish; exit 1; }
if ! { tc qdisc add dev eth0 clsact &&
	tc filter add dev eth0 egress protocol ip prio 1 u32 \
		match ip protocol 17 0xff match ip dport 4791 0xffff action drop; }; then
	status filter FAIL "tc could not add the RoCEv2 filter on eth0"
	finish
	exit 1
fi
# in the background, mount.nfs itself: its result comes from wait
step "mount $VM_SERVER_IP:/ $MNT -o vers=4.2,proto=rdma,port=20049, in the background"
mount.nfs "$VM_SERVER_IP:/" "$MNT" -o vers=4.2,proto=rdma,port=20049 &
mpid=$!
j=0
while [ $j -lt 300 ] && ! grep -aq 'cm_send_req' /tmp/ac.trace; do
	usleep 100000
	j=$((j + 1))
done
if ! grep -aq 'cm_send_req' /tmp/ac.trace; then
	status inject FAIL "the mount sent no connect REQ within 30 s"
	tc qdisc del dev eth0 clsact
	finish
	exit 1
fi
sleep 1
grep -aq 'ESTABLISHED' /tmp/ac.trace &&
	{ status inject FAIL "the connection was established despite the filter"; finish; exit 1; }

# ---- 3. the failover ------------------------------------------------------
echo dummy0 >$B/active_slave
j=0
while [ $j -lt 100 ] && ! grep -aq 'ADDR_CHANGE' /tmp/ac.trace; do
	usleep 100000
	j=$((j + 1))
done
n=$(grep -ac 'ADDR_CHANGE' /tmp/ac.trace)
step "bond0 after the failover: active $(cat $B/active_slave), mac $(cat /sys/class/net/bond0/address)"
# the teardown of the failed connect runs in xprtiod's connect worker
sleep 3
if [ "$n" -gt 0 ]; then
	status inject INFO "rdma_cm reported ADDR_CHANGE $n time(s) on the connecting cm_id, $((j / 10)) s after the failover"
else
	status inject FAIL "rdma_cm reported no ADDR_CHANGE within 10 s of the failover: the reproducer did not reach the bug"
fi
grep -aE 'cm_send_req|ADDR_CHANGE|xprtrdma_connect' /tmp/ac.trace | head -n 6 | cut -c1-300 | sed 's/^/RPCRDMA-STEP: /'
# a kernel that has just put a freed endpoint proves nothing more
if dmesg | grep -q 'refcount_t: underflow'; then
	status endpoint FAIL "the endpoint's reference underflowed after the event (the kernel's warning above); stopping here"
	kill $tpid 2>/dev/null
	finish
	exit 1
fi

# ---- 4. back to eth0, then NFS I/O ------------------------------------------
echo eth0 >$B/active_slave
tc qdisc del dev eth0 clsact
j=0
while [ $j -lt "${AC_MOUNT_MAX:-150}" ] && kill -0 $mpid 2>/dev/null; do
	sleep 1
	j=$((j + 1))
done
if kill -0 $mpid 2>/dev/null; then
	kill $mpid 2>/dev/null
	status mount FAIL "the mount did not finish within ${AC_MOUNT_MAX:-150} s of the filter's removal"
	kill $tpid 2>/dev/null
	finish
	exit 1
fi
# mount.nfs gives up on the connect error the event left (-ENODEV is
# reported as "Network is unreachable"): mount again, over eth0
if ! wait $mpid; then
	step "the mount that waited failed (mount.nfs's message above); mounting again"
	if ! mount_nfs 4.2; then
		kill $tpid 2>/dev/null
		finish
		exit 1
	fi
fi
mib_check writes "after the failover during the connect" ac "$FILES"
c1=$(mstat connect_count)
a1=$(grep -ac 'xprtrdma_connect' /tmp/ac.trace)

# ---- 5. the same failover on the established connection ------------------
# Mainline's fix closes it without a put and leaves the put of the
# reference ESTABLISHED took to the DISCONNECTED event. After the
# failover ib_cm cannot build the DREQ (the bond's GIDs were deleted and
# added again), and Debian's ib_cm never reports that: the cm_id stays.
# make ibcore's ib_cm (VM_IBCORE=fixed) reports it as a DREQ error,
# which rdma_cm turns into DISCONNECTED.
n0=$(grep -ac 'ADDR_CHANGE' /tmp/ac.trace)
echo dummy0 >$B/active_slave
j=0
while [ $j -lt 100 ] && [ "$(grep -ac 'ADDR_CHANGE' /tmp/ac.trace)" -le "$n0" ]; do
	usleep 100000
	j=$((j + 1))
done
sleep 3
echo eth0 >$B/active_slave
if [ "$(grep -ac 'ADDR_CHANGE' /tmp/ac.trace)" -gt "$n0" ]; then
	status inject-established INFO "rdma_cm reported ADDR_CHANGE on the established connection, $((j / 10)) s after the failover"
else
	status inject-established FAIL "rdma_cm reported no ADDR_CHANGE on the established connection within 10 s of the failover"
fi
mib_check writes-established "after the failover of the established connection" ac "$FILES"
status reconnects INFO "connect_count $c1 after $a1 connect attempt(s) once mounted, $(mstat connect_count) after the second failover"
umount_nfs
# no cm_id may outlive the mount (one whose last put never came stays)
j=0
while [ $j -lt "${AC_CMID_MAX:-90}" ] && [ -n "$(rdma resource show cm_id 2>/dev/null)" ]; do
	sleep 1
	j=$((j + 1))
done
ids=$(rdma resource show cm_id 2>/dev/null)
if [ -z "$ids" ]; then
	status cm-ids PASS "no cm_id left $j s after the unmount"
else
	status cm-ids FAIL "cm_id(s) left ${AC_CMID_MAX:-90} s after the unmount: $(echo "$ids" | tr '\n' ' ' | cut -c1-300)"
fi
# how the established connection ended, either way: its DREQ (sent, or
# refused by rdma_create_ah() and ib_send_cm_dreq()), then DISCONNECTED
# (make ibcore's ib_cm reports an unsent DREQ) or nothing
awk -v n="$n0" '/ADDR_CHANGE/ { c++ } c > n' /tmp/ac.trace |
	grep -aE 'cm_disconnect|cm_sent_d|cm_id_destroy|icm_|ac_|DISCONNECTED|ADDR_CHANGE' |
	head -n 16 | cut -c1-260 | sed 's/^/RPCRDMA-STEP: /'
kill $tpid 2>/dev/null
finish
