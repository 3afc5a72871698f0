#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make soak's reproducer of a stress-ng EINTR across an nfsd restart
# (SOAK_REPRO=eintr in scripts/vm/soak.sh; Documentation/soak.md, "An
# open interrupted in the grace period"). Two NFSv4.2 hard mounts of the
# same server, one over RDMA and one over TCP, each running two loops of
# the soak's own stress-ng stressors that create files (dentry, rename),
# SOAK_REPRO_RUN (2) s per pass, while the server's nfsd is restarted
# every SOAK_REPRO_GAP (14) s, SOAK_REPRO_TRIES (12) times.
#
# A restarted nfsd is in its grace period (10 s here): it answers a new
# OPEN with NFS4ERR_GRACE, and the client waits and sends it again. That
# wait (nfs4_do_open's retry delay) is interruptible, unlike the RPC's
# own waits, which only a fatal signal ends. stress-ng ends each pass
# with SIGALRM, caught without SA_RESTART: an open waiting out the grace
# period when it comes returns EINTR. Printed per mount: the passes, those
# that failed, those with EINTR, each EINTR line with its time, and the
# client's OPENs that nfsd answered with an error (nfs4:nfs4_open_file).
# The same count over TCP says whether the transport has any part in it.
# The verdict lines are INFO.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
TRIES=${SOAK_REPRO_TRIES:-12}
GAP=${SOAK_REPRO_GAP:-14}
RUN=${SOAK_REPRO_RUN:-2}
TMNT=/mnt-tcp
OPENEV=$TRACING/events/nfs4/nfs4_open_file

# devof DIR: the major:minor of the mount on DIR (the event's dev)
devof() { awk -v m="$1" '$5 == m { print $3 }' /proc/self/mountinfo; }

# passes NAME DIR: stress-ng passes in DIR until /tmp/stop; each failed
# pass's lines are printed with its time, the counts left in a file
passes() {
	_p=0 _f=0 _i=0
	mkdir -p "$2"
	while [ ! -e /tmp/stop ]; do
		_p=$((_p + 1))
		_t=$(up)
		stress-ng --temp-path "$2" --timeout "$RUN" --dentry 1 --rename 1 \
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
mount_nfs 4.2 || { finish; exit 1; }
mkdir -p "$TMNT"
step "mount $VM_SERVER_IP:/ $TMNT -o vers=4.2,proto=tcp"
mount.nfs "$VM_SERVER_IP:/" "$TMNT" -o vers=4.2,proto=tcp ||
	{ status repro-tcp-mount FAIL "mount over TCP failed"; umount_nfs; finish; exit 1; }
# each OPEN nfsd answers with an error, by mount (dev)
if [ -d "$OPENEV" ]; then
	echo 'error != 0' >"$OPENEV/filter" && echo 1 >"$OPENEV/enable" &&
		echo 1 >"$TRACING/tracing_on"
else
	step "no tracepoint nfs4:nfs4_open_file: the OPENs' errors are not listed"
fi
step "rdma mount is dev $(devof "$MNT"), tcp mount is dev $(devof "$TMNT")"

for c in 1 2; do
	passes "rdma$c" "$MNT/eintr-rdma$c" &
	passes "tcp$c" "$TMNT/eintr-tcp$c" &
done
step "nfsd restarted every $GAP s, $TRIES times (grace period 10 s); stress-ng passes of $RUN s"
n=0
while [ $n -lt "$TRIES" ]; do
	n=$((n + 1))
	sleep "$GAP"
	step "nfsd restart $n"
	sctl nfsd-restart >/dev/null
done
sleep "$GAP"
: >/tmp/stop
wait
for m in rdma tcp; do
	p=0 f=0 i=0
	for c in 1 2; do
		read -r a b d <"/tmp/eintr-$m$c.done"
		p=$((p + a)) f=$((f + b)) i=$((i + d))
	done
	status "repro-eintr-$m" INFO "$TRIES nfsd restarts: $p stress-ng passes, $f failed, $i of them with EINTR"
done
if [ -d "$OPENEV" ]; then
	echo 0 >"$OPENEV/enable"
	for m in "$MNT" "$TMNT"; do
		d=$(devof "$m")
		# the event prints dev as major:minor in hex
		hd=$(printf '%02x:%02x' "${d%%:*}" "${d##*:}")
		status "repro-eintr-opens-$m" INFO "OPENs answered with an error: $(grep -a 'nfs4_open_file:' "$TRACING/trace" | grep -ac "fileid=$hd:") ($(grep -a 'nfs4_open_file:' "$TRACING/trace" | grep -a "fileid=$hd:" | grep -o 'error=[^ ]* ([A-Z_]*)' | sort | uniq -c | tr -s ' \n' '  '))"
	done
	grep -a 'nfs4_open_file:' "$TRACING/trace" | head -n 40 | sed 's/^/RPCRDMA-DIAG: open: /'
fi
umount "$TMNT"
umount_nfs
finish
