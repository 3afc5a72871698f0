#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 8 (client guest): twice CHURN_CYCLES (500) connect/disconnect
# cycles of tools/rpcrdma-cm-probe with random private data (--repeat
# --random-seed 5, then 6) against the server's nfsd, over rxe.
# CHURN_SERVER=stock: the server runs Debian's module (no debugfs): the
# same figures, reported only, to tell the kernel's own slab behaviour
# under RDMA-CM churn from this module's.
#
# Memory bound. Before the baseline, a warm-up of 20 cycles lets one-time
# allocations happen. Figures are taken on the server after "echo 3 >
# drop_caches" and a 2 s settle, with only the NFS mount's connection
# open: /proc/meminfo Slab and SUnreclaim, the kmalloc slabs' footprint
# (num_objs x objsize) and the caches whose active objects grew most.
# Each server connection allocates far more than 4 KiB of unreclaimable
# slab (the svcxprt_rdma, its Receive contexts and their kmalloc'ed
# buffers, Send contexts, the rpcrdma_cm entry), so a per-connection
# leak would grow SUnreclaim by at least 500 x 4 KiB = 2000 KiB per
# round; the bound is 2048 KiB per round of 500. Two rounds: the first
# may still grow the slabs once (partially used slab pages kept by SLUB
# after a burst: the footprint grows while active objects barely do),
# a leak grows both rounds alike. The debugfs entries must return
# exactly to the baseline (1: the mount) after each round.
# Afterwards the server still serves NFS: remount, data_check.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
P=/usr/local/bin/rpcrdma-cm-probe
SRVCONNS=/sys/kernel/debug/rpcrdma_cm/connections
N=${CHURN_CYCLES:-500}
BOUND_KB=2048

[ -x $P ] || { status probe FAIL "no $P in the guest"; finish; exit 1; }
modprobe rdma_ucm || status probe FAIL "modprobe rdma_ucm failed"
mount_nfs 4.2 || { finish; exit 1; }

# smem TAG: the server's figures after dropping caches; sets SLAB SUNR CONNS
smem() {
	# (no glob characters may travel in a srv request: awk runs here)
	srv run sync\; echo 3 \>/proc/sys/vm/drop_caches\; sleep 2\; grep -E \'^\(Slab\|SUnreclaim\|SReclaimable\):\' /proc/meminfo\; echo conns \$\(grep -c role= $SRVCONNS\)\; grep -E \'^kmalloc\' /proc/slabinfo >"/tmp/mem.$1"
	_kb=$(grep ^kmalloc "/tmp/mem.$1" | awk '{ b += $3 * $4 } END { print b }')
	echo "kmalloc_bytes $_kb" >>"/tmp/mem.$1"
	SLAB=$(awk '$1 == "Slab:" {print $2}' "/tmp/mem.$1")
	SUNR=$(awk '$1 == "SUnreclaim:" {print $2}' "/tmp/mem.$1")
	KMB=$(awk '$1 == "kmalloc_bytes" {print $2}' "/tmp/mem.$1")
	CONNS_N=$(awk '$1 == "conns" {print $2}' "/tmp/mem.$1")
	status "mem-$1" INFO "server Slab ${SLAB} kB, SUnreclaim ${SUNR} kB, kmalloc slabs ${KMB} B (num_objs x objsize), debugfs lines ${CONNS_N}"
}

# churn TAG SEED: N cycles; the exit status and summary must be clean
churn() {
	step "churn $1: $N cycles, seed $2"
	_t0=$(date +%s)
	$P --repeat "$N" --random-seed "$2" "$VM_SERVER_IP" >/tmp/c.out 2>&1
	_rc=$?
	_sum=$(grep -a "established" /tmp/c.out | tail -n 1)
	check "churn-$1-exit" "exit $_rc after $(($(date +%s) - _t0))s: $_sum" [ $_rc -eq 0 ]
	case $_sum in
	*"$N established, 0 rejected, 0 refused, 0 timeouts, 0 errors, 0 unclean"*) status "churn-$1-summary" PASS "$N cycles established and cleanly disconnected" ;;
	*) status "churn-$1-summary" FAIL "$(tail -n 3 /tmp/c.out)" ;;
	esac
	# the server frees a transport asynchronously after the disconnect
	[ "$STOCK" = 1 ] && { sleep 3; return; }
	_w=0
	while [ $_w -lt 20 ]; do
		[ "$(srv run grep -c role= $SRVCONNS)" = "$c0" ] && break
		sleep 1
		_w=$((_w + 1))
	done
}
# growth FROM TO: the kmalloc caches whose active objects grew most
# between two smem calls (active_objs x objsize)
growth() {
	{ grep ^kmalloc "/tmp/mem.$1" | sed 's/^/A /'; grep ^kmalloc "/tmp/mem.$2" | sed 's/^/B /'; } |
		awk '$1 == "A" { a[$2] = $3 * $5 } $1 == "B" { d = $3 * $5 - a[$2]; if (d != 0) print d, $2 }' | sort -rn | head -n 4 |
		awk '{ printf "%s %+d KiB; ", $2, $1 / 1024 }'
}
STOCK=0
[ "$CHURN_SERVER" = stock ] && STOCK=1
WHO="this module's server"
[ $STOCK = 1 ] && WHO="the stock server (comparison)"

step "warm-up: 20 cycles"
$P --repeat 20 --random-seed 4 "$VM_SERVER_IP" >/tmp/w.out 2>&1 ||
	status churn-warmup FAIL "$(tail -n 2 /tmp/w.out)"
sleep 2
smem before
s0=$SUNR k0=$KMB c0=$CONNS_N l0=$SLAB
[ $STOCK = 1 ] || check conns-before "server debugfs lines before: $c0 (the NFS mount's)" [ "$c0" = 1 ]

churn A 5
smem afterA
sA=$SUNR kA=$KMB
[ $STOCK = 1 ] || check conns-afterA "server debugfs lines: $c0 before, $CONNS_N after $N cycles" [ "$CONNS_N" = "$c0" ]
churn B 6
smem afterB
[ $STOCK = 1 ] || check conns-afterB "server debugfs lines: $c0 before, $CONNS_N after 2x$N cycles" [ "$CONNS_N" = "$c0" ]
dA=$((sA - s0)) dB=$((SUNR - sA))
status mem-delta INFO "$WHO: SUnreclaim ${s0} -> ${sA} -> ${SUNR} kB (${dA} kB, then ${dB} kB per $N cycles), Slab ${l0} -> ${SLAB} kB, kmalloc slabs ${k0} -> ${kA} -> ${KMB} B"
status mem-caches-A INFO "$WHO, round A, active kmalloc objects: $(growth before afterA)"
status mem-caches-B INFO "$WHO, round B, active kmalloc objects: $(growth afterA afterB)"
if [ $STOCK = 1 ]; then
	status mem-bound INFO "stock server: SUnreclaim growth ${dA} kB, then ${dB} kB per $N cycles"
else
	ok=0
	[ "$dA" -lt "$BOUND_KB" ] && [ "$dB" -lt "$BOUND_KB" ] && ok=1
	check mem-bound "SUnreclaim growth ${dA} kB, then ${dB} kB per $N cycles (bound ${BOUND_KB} kB each: < 4 KiB per cycle)" [ $ok = 1 ]
fi

umount_nfs
trace_clear
mount_nfs 4.2 || { finish; exit 1; }
if [ $STOCK = 0 ]; then
	show_conns
	# this client Receives 8192: the server's Send Size is 8192
	expect_kv after-churn-server "$SERVER_CONN" "role=server peer_pdata=present send=8192 recv=4096 reminv=1"
fi
data_check after-churn
umount_nfs
finish
