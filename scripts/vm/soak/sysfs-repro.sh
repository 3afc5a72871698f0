#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make soak's reproducer of the forced-reconnect stall (SOAK_REPRO=sysfs
# in scripts/vm/soak.sh; Documentation/soak.md, "seed 10"): one NFSv4.2
# mount with a steady O_DIRECT write load, then the transport's dstaddr
# rewritten in sunrpc's sysfs, as make soak's "params" fault and
# vmtest's scenario 5 do to force a reconnect.
#
# sunrpc's sysfs store waits for the transport's XPRT_LOCKED bit with
# wait_on_bit_lock(), which sleeps until someone calls wake_up_bit() on
# it. An RPC that finishes sending releases the bit without that call;
# only an autoclose or the end of a connect attempt makes it. So a
# store that finds the bit taken by a sending RPC sleeps until the next
# disconnect or connect, however idle the transport becomes. The script
# shows the three steps: the store blocks under load; it stays blocked
# once the load has stopped and xprt_state no longer says LOCKED; a
# server-side close (nfsd restart) wakes it. The verdict lines are INFO:
# the stall is sunrpc's (sunrpc.ko), with either rpcrdma.ko.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
TRIES=${SOAK_REPRO_TRIES:-40}

# xprt_dir: the sysfs directory of the mount's transport (the only one
# to the server: the control channel is plain TCP outside sunrpc)
xprt_dir() {
	for _x in /sys/kernel/sunrpc/xprt-switches/*/xprt-*; do
		[ -e "$_x/dstaddr" ] && grep -q "$VM_SERVER_IP" "$_x/dstaddr" &&
			{ echo "$_x"; return 0; }
	done
	return 1
}

# writer_state: the blocked store's scheduler state and kernel stack
writer_state() {
	echo "state $(awk '/^State:/ { print $2 }' "/proc/$WPID/status" 2>/dev/null)," \
		"stack $(sed 's/+0x.*//; s/^\[<[0-9a-f]*>\] //' "/proc/$WPID/stack" 2>/dev/null |
			head -n 6 | paste -sd'<' -)"
}

wait_server || { finish; exit 1; }
[ "$(sctl ping)" = pong ] ||
	{ status soak-ctl FAIL "no answer on the server's control channel (TCP port $CTL_PORT)"; finish; exit 1; }
mount_nfs 4.2 || { finish; exit 1; }
X=$(xprt_dir) || { status repro-xprt FAIL "no RDMA transport in sunrpc's sysfs"; finish; exit 1; }
ADDR=$(cat "$X/dstaddr")

step "steady load: 1 MiB O_DIRECT writes in a loop"
(while [ ! -e /tmp/stop ]; do
	dd if=/dev/zero of="$MNT/load" bs=1M count=4 oflag=direct 2>/dev/null
done; : >/tmp/load.done) &
sleep 5
step "rewriting $X/dstaddr ($ADDR) under load, up to $TRIES times"
# A store blocks only when it finds an RPC sending; most find the bit
# free and force a reconnect at once. Try until one blocks.
n=0
while [ $n -lt "$TRIES" ]; do
	n=$((n + 1))
	rm -f /tmp/store.done
	t0=$(cut -d' ' -f1 /proc/uptime)
	(echo "$ADDR" >"$X/dstaddr"; : >/tmp/store.done) &
	WPID=$!
	wait_file /tmp/store.done 10 >/dev/null || break
	sleep 2
done
if [ -e /tmp/store.done ]; then
	status repro-store-under-load INFO "all $TRIES stores returned within 10 s (each forced a reconnect)"
else
	status repro-store-under-load INFO "store $n of up to $TRIES blocked for 10 s ($((n - 1)) before it returned at once); $(writer_state)"
	: >/tmp/stop
	wait_file /tmp/load.done 60 >/dev/null ||
		status repro-load-stopped INFO "the load did not stop within 60 s"
	sleep 15
	if [ -e /tmp/store.done ]; then
		status repro-store-idle INFO "returned once the load stopped"
	else
		status repro-store-idle INFO "still blocked 15 s after the load stopped; xprt_state: $(tr '\n' ' ' <"$X/xprt_state"); $(writer_state)"
		step "asking the server to restart nfsd (closes the connection)"
		t1=$(cut -d' ' -f1 /proc/uptime)
		sctl nfsd-restart >/dev/null
		if wait_file /tmp/store.done 90 >/dev/null; then
			status repro-store-woken INFO "returned $(awk -v a="$t1" '{ printf "%.0f", $1 - a }' /proc/uptime) s after the server closed the connection ($(awk -v a="$t0" '{ printf "%.0f", $1 - a }' /proc/uptime) s in all)"
		else
			status repro-store-woken INFO "still blocked 90 s after the server closed the connection; $(writer_state)"
			kill "$WPID" 2>/dev/null
		fi
	fi
fi
: >/tmp/stop
wait_file /tmp/load.done 60 >/dev/null
umount_nfs
finish
