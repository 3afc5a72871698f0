#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make soak's reproducer of an application error across an nfsd restart
# (SOAK_REPRO=replay in scripts/vm/soak.sh; Documentation/soak.md, "A
# call executed twice across an nfsd restart"): one NFSv4.2 hard mount
# of the server over SOAK_REPRO_PROTO (rdma or tcp; soak.sh runs one pair
# per protocol: two mounts of one server with the same NFS version share
# one NFSv4 client, and so one transport, whatever their proto= says),
# running four loops of calls that are not idempotent (symlink, mkdir,
# rename, unlink, rmdir) beside 1 MiB O_DIRECT writes that keep the
# server busy, while the server's nfsd is restarted every
# SOAK_REPRO_GAP seconds.
#
# NFSv4.1 answers a retransmitted call from the session's reply cache,
# so a call is executed once across reconnects. An nfsd restart ends the
# sessions and drops that cache: a call the server executed just before
# the restart, whose reply never reached the client, is sent again on
# the new session and executed again, which fails (EEXIST, ENOENT) on
# the state the first execution left. Every failed call is listed with
# its time and whether the state is what the call was to make ("done":
# the first execution's effect, so nothing was lost). The same count over
# TCP (a pair of its own) says whether the transport has any part in it.
# The verdict lines are INFO.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
TRIES=${SOAK_REPRO_TRIES:-20}
GAP=${SOAK_REPRO_GAP:-14}
PROTO=${SOAK_REPRO_PROTO:-rdma}

# call CHECK CMD...: one namespace call (ns_call); a failure is printed
# with its error and whether its effect is in place ("done": the first
# execution's, so nothing was lost)
call() {
	_t=$(up)
	_ops=$((_ops + 1))
	ns_call "$@"
	case $? in
	0) return 0 ;;
	1) _done=$((_done + 1)) _st="done" ;;
	*) _st="NOT done" ;;
	esac
	_err=$((_err + 1))
	shift
	echo "RPCRDMA-DIAG: replay-$_name: [$_t-$(up)] $* -> ${NS_MSG##*: } (state: $_st)"
}

# churn NAME DIR: the calls in a loop until /tmp/stop, then the counts
churn() {
	_name=$1 _d=$2 _k=0 _ops=0 _err=0 _done=0
	mkdir -p "$_d"
	while [ ! -e /tmp/stop ]; do
		_k=$((_k + 1))
		# shellcheck disable=SC2016 # CHECKs are evaluated by ns_call
		{
			call '[ "$(readlink "$_d/s$_k")" = t ]' ln -s t "$_d/s$_k"
			call '[ -d "$_d/m$_k" ]' mkdir "$_d/m$_k"
			call '[ -L "$_d/r$_k" ] && [ ! -L "$_d/s$_k" ]' mv "$_d/s$_k" "$_d/r$_k"
			call '[ ! -L "$_d/r$_k" ]' rm "$_d/r$_k"
			call '[ ! -d "$_d/m$_k" ]' rmdir "$_d/m$_k"
		}
	done
	echo "$_ops $_err $_done" >"/tmp/churn-$_name.done"
}

# busy DIR: 1 MiB O_DIRECT writes in a loop until /tmp/stop
busy() {
	while [ ! -e /tmp/stop ]; do
		dd if=/dev/zero of="$1" bs=1M count=8 oflag=direct 2>/dev/null
	done
}

wait_server || { finish; exit 1; }
[ "$(sctl ping)" = pong ] ||
	{ status soak-ctl FAIL "no answer on the server's control channel (TCP port $CTL_PORT)"; finish; exit 1; }
mount_proto "$PROTO" 4.2 "$MNT" || { finish; exit 1; }

for c in 1 2 3 4; do
	churn "$PROTO$c" "$MNT/replay-$PROTO$c" &
done
busy "$MNT/busy" &
step "nfsd restarted every $GAP s, $TRIES times (grace period 10 s)"
nfsd_restarts "$TRIES" "$GAP"
# the loops see /tmp/stop after their current call (the VM's time budget
# covers one that never returns)
wait
read -r ops err done_ <<EOF
$(sum3 /tmp/churn-"$PROTO"[1-4].done)
EOF
# SOAK_TRACE=1 (RDMA): the server's Sends flushed by a disconnect, each
# a reply that may never have left (svcrdma's flush events), with the
# restarts' times to set the failed calls against
if [ "${SOAK_TRACE:-0}" = 1 ] && [ "$PROTO" = rdma ]; then
	sctl trace 100000 >/tmp/strace.txt
	status "repro-replay-flushes" INFO "$(grep -ac 'svcrdma_wc_send_flush' /tmp/strace.txt) Sends flushed, $(grep -ac 'svcrdma_wc_send_err' /tmp/strace.txt) failed, on the server"
	grep -a 'svcrdma_wc_send_flush\|svcrdma_wc_send_err\|nfsd restart' /tmp/strace.txt | head -n 200 | sed 's/^/RPCRDMA-DIAG: server: /'
fi
[ "$PROTO" = rdma ] &&
	status "repro-replay-drained" INFO "server detaches that waited for posted replies: $(sctl counter drained), of which ended with some still posted: $(sctl counter drain_timeouts)"
status "repro-replay-$PROTO" INFO "$TRIES nfsd restarts: $ops calls, $err failed; of those, $done_ left the state the call was to make"
umount_nfs
finish
