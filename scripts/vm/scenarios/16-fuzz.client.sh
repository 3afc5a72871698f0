#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 16 (client guest): rpcrdma-cm-probe --fuzz at volume (issue 53
# item 2), with the probe in both guests, over rxe (or siw: VM_RDMA=siw,
# where the field is MPA's 252 octets, exact, instead of the REQ's 56
# and the REP's 196, zero-padded).
#
# 1. the real NFS mount (port 20049) and a checksum-verified copy loop
#    (2 MiB files, each read back with O_DIRECT) across everything below;
# 2. the probe, active: --fuzz FUZZ_SERVER_N --seed FUZZ_SEED against the
#    server's nfsd, a small corpus first (--corpus); every accept must
#    carry the server's own message, with the Send Size the probe's two
#    control connections predict for the input's Receive Size (exit 0,
#    mismatches=0);
# 3. the server's rpcrdma_cm_negotiate events, streamed from its
#    trace_pipe into the export meanwhile, paired with the probe's lines
#    by client port and in order: each connection the server accepted
#    must have negotiated exactly what the probe's oracle says for its
#    input (peer_pdata, peer_send, peer_recv, peer_r, send, recv,
#    reminv), and none may be missing;
# 4. the probe listening on the server (port 20051), --fuzz
#    FUZZ_CLIENT_N: this client mounts it again and again (each mount
#    killed once it negotiated); its own rpcrdma_cm_negotiate events,
#    in order, must match the listener's lines for the connections it
#    completed;
# 5. the copy loop stops; every copy is compared (sha256) with the
#    server's view; the server lists only the NFS connection again.
# The rig fails the pair on any BUG/WARNING/KASAN report in either log;
# finish() adds kmemleak's verdict on a debug kernel.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
P=/usr/local/bin/rpcrdma-cm-probe
NEG=rpcrdma_cm_negotiate
EV=$TRACING/events/rpcrdma_cm/$NEG/enable
LPORT=20051
SN=${FUZZ_SERVER_N:-2000}
CN=${FUZZ_CLIENT_N:-100}
SEED=${FUZZ_SEED:-8797}

[ -x $P ] || { status probe FAIL "no $P in the guest"; finish; exit 1; }
modprobe rdma_ucm || status probe FAIL "modprobe rdma_ucm failed"
mount_nfs 4.2 || { finish; exit 1; }
srv run /sbin/modprobe rdma_ucm >/dev/null
# only the negotiate events go into the server's trace_pipe: its Send
# events would flood it during the copy loop
srv run echo 0 \>$TRACING/events/rpcrdma/svcrdma_post_send/enable >/dev/null
srv run echo 1 \>$EV >/dev/null
show_conns
srv_base=$(srv run grep -c role= $CONNS)

# ---- 1. the copy loop ----------------------------------------------------
# FUZZ_COPY_GAP: seconds between two copies (1); a volume run on a
# debug kernel leaves the probe more of the guests with a longer gap
copy_loop_start fuzz "${FUZZ_COPY_GAP:-1}"

# pair EVENTS LINES SELECT: compare a peer's rpcrdma_cm_negotiate events
# (EVENTS, trace lines) with the probe's --fuzz lines (LINES) for the
# connections it says the peer completed. SELECT "port" pairs them by
# the client port (the server's events name it in peer=), queued per
# port in order (ports come back after the ephemeral range wraps);
# "order" pairs them in order (the client's events name only the
# listener). A connection counts as completed when the line's result
# is established, or client-disconnected (the client ended it before
# the listener saw it established: its event exists). The local_*
# values are the peer's own limits, which the probe's lines leave out.
# Prints "OK BAD LEFT" (LEFT: events of connections no line claimed)
# and the first mismatches as steps.
pair() {
	awk -v sel="$3" '
		function view(s) {
			sub(/.* peer_pdata=/, "peer_pdata=", s)
			sub(/ hex=.*/, "", s)
			sub(/peer_pdata=absent:/, "peer_pdata=", s)
			gsub(/ local_(send|recv|r)=[0-9]*/, "", s)
			return s
		}
		FNR == NR {
			if ($0 !~ / rpcrdma_cm_negotiate: /) next
			s = $0; sub(/.* peer=[^ ]*:/, "", s); sub(/ .*/, "", s)
			k = sel == "port" ? s : "all"
			q[k, n[k]++] = view($0)
			total++
			next
		}
		/^fuzz-control / {
			s = $0; sub(/.* port=/, "", s); sub(/ .*/, "", s)
			h[s]++
			used++
			next
		}
		/^fuzz input=/ && / result=(established|client-disconnected) / {
			s = $0; sub(/.* port=/, "", s); sub(/ .*/, "", s)
			k = sel == "port" ? s : "all"
			want = view($0)
			c = h[k]++ + 0
			got = (k, c) in q ? q[k, c] : "<no event>"
			used++
			if (got == want) {
				ok++
			} else if (++bad <= 5) {
				i = $2
				printf "RPCRDMA-STEP: pair %s: want %s, event %s\n", i, want, got
			}
		}
		END { print ok + 0, bad + 0, total - used }' "$1" "$2"
}

# ---- 2. the probe against the server -------------------------------------
# a corpus of raw private data, replayed first: a valid message, a
# Version 2 message before a valid one, the identifier byte-swapped, and
# the identifier as the last 4 octets of a 56-octet REQ (truncated)
mkdir -p /tmp/corpus
printf '\366\253\016\030\001\001\003\003' >/tmp/corpus/a-valid
printf '\366\253\016\030\002\001\003\003\366\253\016\030\001\001\001\001' >/tmp/corpus/b-v2-then-v1
printf '\030\016\253\366\001\001\003\003' >/tmp/corpus/c-swapped
{ head -c 52 /dev/zero; printf '\366\253\016\030'; } >/tmp/corpus/d-trunc-at-end
srv run cat $TRACING/trace_pipe \>/export/.fuzz-srv-events \& echo \$! \>/tmp/fuzz-cat.pid >/dev/null
sleep 1
step "probe --fuzz $SN --seed $SEED --corpus /tmp/corpus against $VM_SERVER_IP:20049"
$P --fuzz "$SN" --seed "$SEED" --corpus /tmp/corpus -v "$VM_SERVER_IP" >/tmp/fs.out 2>/tmp/fs.err
rc=$?
sum=$(grep -a '^fuzz-summary ' /tmp/fs.out | tail -n 1)
grep -a '^fuzz-control ' /tmp/fs.out | sed 's/^/RPCRDMA-STEP: /'
grep -a 'verdict=mismatch' /tmp/fs.out | head -n 5 | cut -c1-400 | sed 's/^/RPCRDMA-STEP: /'
_ok=no
case $sum in
*" inputs=$SN "*" mismatches=0 "*) [ $rc -eq 0 ] && _ok=yes ;;
esac
check fuzz-server "probe exit $rc (want 0): $sum $(head -c 200 /tmp/fs.err)" [ $_ok = yes ]

# ---- 3. what the server negotiated, input by input -------------------------
sleep 1
srv run kill \$\(cat /tmp/fuzz-cat.pid\) >/dev/null
srv run echo 0 \>$EV >/dev/null
dd if="$MNT/.fuzz-srv-events" iflag=direct bs=1M 2>/dev/null |
	grep -a " $NEG: role=server peer=$VM_CLIENT_IP:" >/tmp/fs.events
est=$(grep -ac '^fuzz input=.* result=established ' /tmp/fs.out)
# shellcheck disable=SC2046 # three numbers
set -- $(pair /tmp/fs.events /tmp/fs.out port)
check fuzz-server-events "$1 of $est accepted inputs negotiated as the oracle says, $2 differ, $3 events unclaimed ($(grep -c . /tmp/fs.events) events)" \
	[ "${1:-0}:${2:-x}:${3:-x}" = "$est:0:0" ]

# ---- 4. the probe as a server, against this client ------------------------
srv run $P --listen $LPORT --fuzz "$CN" --seed "$SEED" -v --wait 120 \>/export/.fuzz-listener.out 2\>\&1 \& >/dev/null
sleep 1
echo 1 >"$EV"
echo 1 >"$TRACING/tracing_on"
cat "$TRACING/trace_pipe" >/tmp/fc.trace &
CAT_PID=$!
mkdir -p /mnt2
# one mount per connection: the listener ends each connection it
# completes, and a mount's own reconnect would wait 5 s and more
# (RPCRDMA_INIT_REEST_TO, doubling); a fresh mount connects at once
negs() { grep -ac " $NEG: role=client peer=$VM_SERVER_IP:$LPORT " /tmp/fc.trace; }
_i=0 _t0=$(date +%s)
while [ $_i -lt $((CN + CN / 10 + 5)) ] && [ "$(negs)" -lt "$CN" ]; do
	_b=$(negs)
	mount.nfs "$VM_SERVER_IP:/" /mnt2 -o "vers=4.2,proto=rdma,port=$LPORT,soft,timeo=100,retrans=1,retry=0" >/dev/null 2>&1 &
	_mp=$!
	_j=0
	while [ $_j -lt 50 ] && [ "$(negs)" = "$_b" ]; do
		usleep 100000
		_j=$((_j + 1))
	done
	kill -9 $_mp 2>/dev/null
	wait $_mp 2>/dev/null
	umount -f /mnt2 2>/dev/null
	_i=$((_i + 1))
done
step "client: $(negs) connections negotiated in $_i mounts, $(($(date +%s) - _t0)) s"
# the listener's summary comes once its N-th connection has ended
_j=0
while [ $_j -lt 30 ] && ! dd if="$MNT/.fuzz-listener.out" iflag=direct bs=1M 2>/dev/null | grep -aq '^fuzz-summary '; do
	sleep 1
	_j=$((_j + 1))
done
kill $CAT_PID 2>/dev/null
wait $CAT_PID 2>/dev/null
echo 0 >"$EV"
dd if="$MNT/.fuzz-listener.out" iflag=direct bs=1M 2>/dev/null >/tmp/fc.out
grep -a " $NEG: role=client peer=$VM_SERVER_IP:$LPORT " /tmp/fc.trace >/tmp/fc.events
sum=$(grep -a '^fuzz-summary ' /tmp/fc.out | tail -n 1)
grep -a 'verdict=mismatch' /tmp/fc.out | head -n 5 | cut -c1-400 | sed 's/^/RPCRDMA-STEP: /'
_ok=no
case $sum in
*" inputs=$CN "*" mismatches=0 "*) _ok=yes ;;
esac
check fuzz-client "$sum" [ $_ok = yes ]
est=$(grep -acE '^fuzz input=.* result=(established|client-disconnected) ' /tmp/fc.out)
# shellcheck disable=SC2046 # three numbers
set -- $(pair /tmp/fc.events /tmp/fc.out order)
check fuzz-client-events "$1 of $est completed inputs negotiated by this client as the oracle says, $2 differ, $3 events unclaimed" \
	[ "${1:-0}:${2:-x}:${3:-x}" = "$est:0:0" ]

# ---- 5. the copy loop across both -------------------------------------------
copy_loop_stop fuzz fuzz-copies "the fuzzing"
data_check after-fuzz

sleep 2
srv_after=$(srv run grep -c role= $CONNS)
check srv-conns-baseline "server debugfs lines: $srv_base before, $srv_after after" [ "$srv_after" = "$srv_base" ]
rm -f "$MNT/.fuzz-srv-events" "$MNT/.fuzz-listener.out"
umount_nfs
finish
