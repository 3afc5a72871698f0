#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make soak's reproducer of a call nfsd never answers because a recall was
# lost (SOAK_REPRO=dirdeleg in scripts/vm/soak.sh; Documentation/soak.md).
# Two mounts of the server's root, NFSv4.2 on /mnt (A) and NFSv4.1 on
# /mnt41 (B): two NFSv4 clients to nfsd. Over SOAK_REPRO_PROTO (rdma; or
# tcp, where no RDMA is involved). Per try (SOAK_REPRO_TRIES, 1):
#  1. B takes a delegation (SOAK_REPRO_OBJ): dir, the default, looks at
#     its root, which gets it a directory delegation from a client and a
#     server that do them (7.x, nfsv4.directory_delegations); file writes
#     a file of its own and reads it back;
#  2. both transports are made to disconnect (sunrpc's sysfs), as a fault
#     does; B stays idle, so its backchannel stays down a while;
#  3. A creates a file in the root (dir) or appends to B's file (file):
#     nfsd must recall B's delegation first, and answers NFS4ERR_DELAY
#     until it is returned or revoked (one lease, 90 s).
# A's call is given SOAK_REPRO_GAP (200) s; if it has not finished, the
# server expires client B (/proc/fs/nfsd/clients/N/ctl), the
# administrator's way out, and the call is given 30 s more. Printed: the
# delegations before, the call's time, the waiting tasks, the server's
# delegation state and callback events. SOAK_REPRO_DIRDELEG=0 turns the
# client's directory delegations off for an A/B. The verdict lines are
# INFO.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
TRIES=${SOAK_REPRO_TRIES:-1}
HOLD=${SOAK_REPRO_GAP:-200}
PROTO=${SOAK_REPRO_PROTO:-rdma}
OBJ=${SOAK_REPRO_OBJ:-dir}
M41=/mnt41
PARAM=/sys/module/nfsv4/parameters/directory_delegations

# mnt VERS DIR: mount the server's root over PROTO
mnt() {
	if [ "$PROTO" = rdma ]; then _o="vers=$1,proto=rdma,port=20049"; else _o="vers=$1,proto=tcp"; fi
	step "mount $VM_SERVER_IP:/ $2 -o $_o"
	mount.nfs "$VM_SERVER_IP:/" "$2" -o "$_o" ||
		{ status "repro-mount-v$1" FAIL "mount -o $_o failed"; finish; exit 1; }
}

# take N: client B takes a delegation: on its root (dir: ACCESS, then a
# GETATTR that asks for one), or on a file it writes and reads back (file:
# nfsd hands out a write or a read delegation with the OPENs)
take() {
	echo 2 >/proc/sys/vm/drop_caches
	if [ "$OBJ" = file ]; then
		echo "B's $1" >"$M41/deleg-$1"
		echo 3 >/proc/sys/vm/drop_caches
		cat "$M41/deleg-$1" >/dev/null
	else
		ls -la "$M41" >/dev/null && stat "$M41" >/dev/null && sleep 1 && stat "$M41" >/dev/null
	fi
}

# conflict N: client A's call that nfsd can answer only once B's
# delegation is returned or revoked
conflict() {
	if [ "$OBJ" = file ]; then
		echo "A's $1" >>"$MNT/deleg-$1"
	else
		: >"$MNT/created-$1"
	fi
}
if [ "$OBJ" = file ]; then CALL="append to B's file"; else CALL="create in the root"; fi

wait_server || { finish; exit 1; }
[ "$(sctl ping)" = pong ] ||
	{ status soak-ctl FAIL "no answer on the server's control channel (TCP port $CTL_PORT)"; finish; exit 1; }
# the parameter appears with nfsv4.ko, which the first mount would load
modprobe -q nfsv4
if [ -e "$PARAM" ]; then
	[ -n "${SOAK_REPRO_DIRDELEG:-}" ] && echo "$SOAK_REPRO_DIRDELEG" >"$PARAM"
	DD=$(cat "$PARAM")
else
	DD="(no such parameter: this client never asks)"
fi
status repro-dirdeleg-setup INFO "proto=$PROTO, delegation on a $OBJ, nfsv4.directory_delegations=$DD, $TRIES try(s), ${HOLD}s each"
sctl cbtrace | sed 's/^/RPCRDMA-DIAG: server: /'
mkdir -p "$M41"
mnt 4.2 "$MNT"
mnt 4.1 "$M41"
n=0
while [ $n -lt "$TRIES" ]; do
	n=$((n + 1))
	take "$n"
	sctl delegs | sed "s/^/RPCRDMA-DIAG: try $n before: server deleg: /"
	reconnect || break
	sleep 2
	rm -f /tmp/create.ok
	t0=$(up)
	(conflict "$n" && : >/tmp/create.ok) &
	if w=$(wait_file /tmp/create.ok "$HOLD"); then
		status "repro-dirdeleg-$n" INFO "A's $CALL finished after $(echo "$t0 $(up)" | awk '{ printf "%.1f", $2 - $1 }')s"
		sctl trace 300 | grep -a ' nfsd_' | sed "s/^/RPCRDMA-TRACE: try $n server /"
		continue
	fi
	status "repro-dirdeleg-$n" INFO "A's $CALL still waiting after ${w}s"
	nfs_waiters | sed "s/^/RPCRDMA-DIAG: try $n client nfs task: /"
	grep -a 'xprt:' /proc/self/mountstats | sed "s/^/RPCRDMA-DIAG: try $n client mountstats: /"
	sctl delegs | sed "s/^/RPCRDMA-DIAG: try $n stuck: server deleg: /"
	sctl trace 300 | grep -a ' nfsd_' | sed "s/^/RPCRDMA-TRACE: try $n server /"
	sctl expire 1 | sed "s/^/RPCRDMA-DIAG: try $n server: /"
	if w=$(wait_file /tmp/create.ok 30); then
		status "repro-dirdeleg-$n-expired" INFO "client B expired: A's $CALL finished ${w}s later"
	else
		status "repro-dirdeleg-$n-expired" INFO "client B expired: A's $CALL still waits ${w}s later"
		break
	fi
done
sctl delegs | sed 's/^/RPCRDMA-DIAG: end: server deleg: /'
umount "$M41"
umount_nfs
finish
