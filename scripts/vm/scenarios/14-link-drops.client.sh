#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 14 (client guest): fio writes a file with crc32c verify headers
# and reads it back, pass after pass, on an NFSv4.2 mount while
#   1. the client's eth0 goes down for 4 s;
#   2. the server's eth0 goes down for 4 s;
#   3. the client forces its transport to reconnect, the server's link
#      goes down 2 s later for 5 s and the client's 3 s later for 5 s:
#      both drops overlap the reconnect and each other.
# After each, the mount must answer (a synchronous O_DIRECT write) within
# LD_RECOVER_MAX s of the last link coming back. After the last, fio
# finishes two more passes; every pass must exit 0 with no verify error.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
RMAX=${LD_RECOVER_MAX:-180}
DIR=$MNT/ld

command -v fio >/dev/null ||
	{ status fio FAIL "no fio in the guest (vmtest installs it on the host for this scenario)"; finish; exit 1; }
mount_nfs 4.2 || { finish; exit 1; }
mkdir -p "$DIR" || { status mkdir FAIL "cannot create $DIR"; finish; exit 1; }
status rxe INFO "rdma_rxe: ${RXE_MODULE:-stock} (VM_RXE), transport $VM_RDMA"

# fio_loop: passes until /tmp/ld.stop, then /tmp/ld.ended; "<pass> <exit
# status>" per pass in /tmp/ld.passes, fio's report and messages in
# /tmp/ld.<pass>.txt (a verify failure is a message on stderr, "crc32c:
# verify failed at ...", and err=84, EILSEQ, in the report)
fio_loop() {
	_p=0
	while [ ! -e /tmp/ld.stop ]; do
		_p=$((_p + 1))
		fio --name="ld$_p" --directory="$DIR" --filename=ld.dat --size=16m \
			--bs=128k --rw=write --ioengine=psync --direct=1 \
			--verify=crc32c --do_verify=1 --verify_fatal=1 \
			>"/tmp/ld.$_p.txt" 2>&1
		echo "$_p $?" >>/tmp/ld.passes
	done
	: >/tmp/ld.ended
}
passes() { _n=$(grep -c . /tmp/ld.passes 2>/dev/null); echo "${_n:-0}"; }
: >/tmp/ld.passes
fio_loop &
FIO=$!

# answered TAG T0: wait until a synchronous write to the mount and an
# O_DIRECT read of it return (busybox dd: oflag=direct, conv=fsync);
# PASS with the seconds since T0 (uptime: the last link came back), FAIL
# after RMAX s. Returns 1 on FAIL: a mount that does not answer makes
# the later steps meaningless.
answered() {
	rm -f "/tmp/ld.ok.$1"
	(dd if=/dev/zero of="$DIR/probe.$1" bs=4k count=1 oflag=direct conv=fsync 2>/dev/null &&
		dd if="$DIR/probe.$1" of=/dev/null bs=4k iflag=direct 2>/dev/null &&
		: >"/tmp/ld.ok.$1") &
	_w=0
	while [ ! -e "/tmp/ld.ok.$1" ] && [ $_w -lt "$RMAX" ]; do
		sleep 1
		_w=$((_w + 1))
	done
	if [ -e "/tmp/ld.ok.$1" ]; then
		status "recover-$1" PASS "$(awk -v a="$2" '{ printf "%.1f", $1 - a }' /proc/uptime) s after the link came back"
		return 0
	fi
	status "recover-$1" FAIL "no answer ${RMAX} s after the link came back"
	echo "RPCRDMA-DIAG: client GSI QP: $(rdma resource show qp | grep 'type GSI')"
	rdma statistic show 2>&1 | sed 's/^/RPCRDMA-DIAG: client rxe: /'
	dmesg | tail -n 12 | sed 's/^/RPCRDMA-DIAG: client dmesg: /'
	return 1
}

# wait_passes N: until fio has finished N passes (a pass takes a few
# seconds when the mount answers)
wait_passes() {
	_w=0
	while [ "$(passes)" -lt "$1" ] && [ $_w -lt "$RMAX" ]; do
		sleep 1
		_w=$((_w + 1))
	done
}

# done_steps N: stop fio after its current pass and judge the passes
# (at least N, all exit 0, no verify error). A pass that does not end
# within RMAX s means the mount stopped answering again: judged as a
# hang, not waited for (wait would keep the run until the host's
# timeout).
done_steps() {
	: >/tmp/ld.stop
	_w=0
	while [ ! -e /tmp/ld.ended ] && [ $_w -lt "$RMAX" ]; do
		sleep 1
		_w=$((_w + 1))
	done
	[ -e /tmp/ld.ended ] ||
		abort "fio's pass $(($(passes) + 1)) did not end within ${RMAX} s of the last recovery"
	wait "$FIO"
	n=$(passes)
	bad=$(awk '$2 != 0' /tmp/ld.passes | grep -c .)
	verr=$(cat /tmp/ld.*.txt 2>/dev/null | grep -ciE 'verify failed|bad (magic|header)|err= *84[ (]')
	[ "$n" -ge "$1" ] && [ "$bad" = 0 ]
	check fio-passes "$n passes, $bad failed (want >= $1, 0 failed)" [ $? -eq 0 ]
	check fio-verify "$verr verify error lines in fio's output (want 0)" [ "$verr" = 0 ]
	[ "$bad" = 0 ] || for p in $(awk '$2 != 0 { print $1 }' /tmp/ld.passes | head -n 2); do
		sed "s/^/RPCRDMA-DIAG: fio pass $p: /" "/tmp/ld.$p.txt" | head -n 20
	done
}

# abort [WHY]: the mount is hung (WHY, default: it did not recover after
# a drop); fio cannot be stopped, only reported. Ends the script with the
# client's last line, so the host stops the pair at once.
abort() {
	status fio-verify FAIL "not judged: ${1:-the mount did not recover} (fio passes so far: $(passes))"
	sed 's/^/RPCRDMA-DIAG: fio pass, exit status: /' /tmp/ld.passes
	finish
	exit 1
}

wait_passes 1
step "fio pass 1 done; client eth0 down for 4 s"
ip link set eth0 down
sleep 4
ip link set eth0 up
answered c-link "$(up)" || abort
wait_passes $(($(passes) + 1))

step "server eth0 down for 4 s"
srv linkdown 4 0 >/dev/null || { status srv-linkdown FAIL "the server did not take the request"; abort; }
sleep 5
answered s-link "$(awk '{ print $1 - 1 }' /proc/uptime)" || abort
wait_passes $(($(passes) + 1))

step "forced reconnect; server eth0 down at +2 s for 5 s, client eth0 at +3 s for 5 s"
srv linkdown 5 2 >/dev/null || { status srv-linkdown FAIL "the server did not take the request"; abort; }
# the dstaddr store may sleep until the next disconnect (sunrpc's missed
# wakeup, Documentation/soak.md): in the background, the drops wake it
reconnect &
sleep 3
ip link set eth0 down
sleep 5
ip link set eth0 up
answered overlap "$(up)" || abort

n=$(passes)
wait_passes $((n + 2))
done_steps $((n + 2))
data_check after-drops
umount_nfs
# Under lockdep (make debugtest): did a CM handler free a transport's CQs
# under its handler_mutex (xprtrdma's last endpoint reference dropped in
# the handler)? The CQs' poll work is in this module's class, so the
# dependency shows as "handler_mutex -> rpcrdma cq->work"
# (Documentation/investigations/lockdep-cq-work-cm-handler.md).
if [ -r /proc/lockdep ]; then
	status lockdep-cq INFO "$(awk '/^[0-9a-f]+ / { c = $0 }
		/-> .*cq->work/ && c ~ /handler_mutex/ { sub(/.*\] /, ""); n[$0]++ }
		END { for (k in n) s = s (s ? ", " : "") "handler_mutex -> " k
		      print s ? s : "no handler_mutex -> cq->work dependency" }' /proc/lockdep)"
fi
finish
