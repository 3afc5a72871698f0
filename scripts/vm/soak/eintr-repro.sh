#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make soak's reproducer of a stress-ng EINTR across an nfsd restart
# (SOAK_REPRO=eintr in scripts/vm/soak.sh; Documentation/soak.md, "An
# open interrupted in the grace period"). An NFSv4.2 hard mount of the
# server over SOAK_REPRO_PROTO (rdma or tcp; soak.sh runs one pair per
# protocol: two mounts of one server with the same NFS version share one
# NFSv4 client, and so one transport, whatever their proto= says), and an
# idle NFSv4.1 one holding a file open, as in the soak. On the first,
# four loops of the soak's own stress-ng stressors that create files
# (dentry, rename), SOAK_REPRO_RUN (2) s per pass, while the server's nfsd
# is restarted every SOAK_REPRO_GAP (14) s, SOAK_REPRO_TRIES (12) times.
#
# A restarted nfsd is in its grace period (10 s here): it answers a new
# OPEN with NFS4ERR_GRACE, and the client waits and sends it again.
# That wait (nfs4_do_open's retry delay) is interruptible, unlike the
# RPC's own waits, which only a fatal signal ends. stress-ng ends each
# pass with SIGALRM, caught without SA_RESTART: an open waiting out the
# grace period when it comes, or entering that wait with the signal
# pending, returns EINTR. With nfsdcld, nfsd ends the grace period as
# soon as every client it knew has reclaimed (about 2.5 s here), and a
# new OPEN meets it only in a race with the other client's reclaim (the
# soak's seed 4244: 0.2 s); so nfsdcld is stopped first
# (SOAK_REPRO_CLD=1 keeps it) and every grace period runs its 10 s, as
# on a server without client tracking. Printed: the passes, those that
# failed, those with EINTR, each failed pass's lines with its time, and
# the OPENs nfsd answered with an error (nfs4:nfs4_open_file). The
# verdict lines are INFO.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
TRIES=${SOAK_REPRO_TRIES:-12}
GAP=${SOAK_REPRO_GAP:-14}
RUN=${SOAK_REPRO_RUN:-2}
PROTO=${SOAK_REPRO_PROTO:-rdma}
M41=/mnt41
OPENEV=$TRACING/events/nfs4/nfs4_open_file

# passes NAME DIR: stress-ng passes in DIR until /tmp/stop; each failed
# pass's lines are printed with its time, the counts left in a file
passes() {
	_p=0 _f=0 _i=0
	mkdir -p "$2"
	while [ ! -e /tmp/stop ]; do
		_p=$((_p + 1))
		_t=$(up)
		stress-ng --temp-path "$2" --timeout "$RUN" --dentry 1 --dentries 64 --rename 1 \
			>"/tmp/eintr-$1.out" 2>&1 && continue
		_f=$((_f + 1))
		grep -q 'errno=4' "/tmp/eintr-$1.out" && _i=$((_i + 1))
		grep -E 'fail:|error:' "/tmp/eintr-$1.out" | head -n 6 |
			sed "s/^/RPCRDMA-DIAG: eintr-$1: [$_t-$(up)] /"
		# a failed pass can leave its directory behind; the next one
		# starts clean
		rm -rf "${2:?}"/tmp-stress-ng-* 2>/dev/null
	done
	echo "$_p $_f $_i" >"/tmp/eintr-$1.done"
}

wait_server || { finish; exit 1; }
[ "$(sctl ping)" = pong ] ||
	{ status soak-ctl FAIL "no answer on the server's control channel (TCP port $CTL_PORT)"; finish; exit 1; }
mount_proto "$PROTO" 4.2 "$MNT" || { finish; exit 1; }
if [ "${SOAK_REPRO_CLD:-0}" != 1 ]; then
	step "nfsdcld stopped on the server: $(sctl cld-stop)"
fi
# a second NFSv4 client (another minor version) that holds a file open
# and is otherwise idle, as the soak's NFSv4.1 mount often is: nfsd ends
# its grace period early only once every client it knew has reclaimed,
# and an idle one notices the restart late (at its next lease renewal)
mount_proto "$PROTO" 4.1 "$M41" || { umount_nfs; finish; exit 1; }
echo held >"$M41/held"
(exec 3<"$M41/held" && exec sleep 100000) &
HOLDER=$!
# each OPEN nfsd answers with an error
OPENS=0
if echo 'error != 0' >"$OPENEV/filter" && echo 1 >"$OPENEV/enable" &&
	echo 1 >"$TRACING/tracing_on"; then
	OPENS=1
else
	step "cannot enable nfs4:nfs4_open_file: the OPENs' errors are not listed"
fi

for c in 1 2 3 4; do
	passes "$PROTO$c" "$MNT/eintr-$PROTO$c" &
done
step "nfsd restarted every $GAP s, $TRIES times (grace period 10 s); stress-ng passes of $RUN s"
nfsd_restarts "$TRIES" "$GAP"
kill "$HOLDER"
wait
# when nfsd ended each grace period, and what the client's NFS logged
sctl dmesg 600 | grep -a 'NFSD' | tail -n 40 | sed 's/^/RPCRDMA-DIAG: server: /'
dmesg | grep -ai 'nfs' | tail -n 40 | sed 's/^/RPCRDMA-DIAG: client: /'
read -r p f i <<EOF
$(sum3 /tmp/eintr-"$PROTO"[1-4].done)
EOF
status "repro-eintr-$PROTO" INFO "$TRIES nfsd restarts: $p stress-ng passes, $f failed, $i of them with EINTR"
if [ $OPENS = 1 ]; then
	echo 0 >"$OPENEV/enable"
	status "repro-eintr-opens-$PROTO" INFO "OPENs answered with an error: $(grep -ac 'nfs4_open_file:' "$TRACING/trace") ($(grep -a 'nfs4_open_file:' "$TRACING/trace" | grep -o 'error=[^ ]* ([A-Z_]*)' | sort | uniq -c | tr -s ' \n' '  '))"
	grep -a 'nfs4_open_file:' "$TRACING/trace" | head -n 40 | sed 's/^/RPCRDMA-DIAG: open: /'
fi
umount "$M41" || status umount FAIL "umount $M41 failed"
umount_nfs
finish
