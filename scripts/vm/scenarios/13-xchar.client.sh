#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 13 (client guest): rpcrdma-cm-probe --v2 --json here against
# rpcrdma-cm-probe --v2 --json --listen on the server guest (ports
# 20061-20064; the NFS mount only carries the srv control files). One
# listener serves the first two connections one after the other, without
# a restart; the others need listeners with options of their own:
#   lower: the client asks the listener to lower to 2048 (granted at
#          once); Calls of 3000 and 6000 go by Position-Zero chunk, the
#          6000 Reply by Reply chunk;
#   raise: the client raises its own to 16384 (UPDPROP once its 4096
#          receives are used up) and asks the listener for 8192 (answered
#          once the listener's are); Calls of 10000 and 12000;
#   asked: the listener asks the client for 16384 and raises its own to
#          8192; the client's Calls use up both sides' old receives;
#   refused-by-listener: the listener lacks the extension (--no-props)
#          and answers the client's CONNPROP with RDMA2_ERR_INVAL_OPTION;
#          the client drops its request and raise and makes its Calls on
#          the defaults (4096: the 5000 Call by Position-Zero chunk);
#   refused-by-client: the client lacks it; the listener's CONNPROP and
#          REQPROP (16384), sent after the client's first Call, are both
#          refused, its raise to 8192 is abandoned, the Calls go on.
# A side told INVAL_OPTION must send no property message after it.
# Each side's closing objects (result, sent, received, nulls, final) must
# be exactly the ones below: the state machines are deterministic, so
# are the Calls the client adds while a raise waits for old receives.
# Every Send both probes reported goes to the console as an
# RPCRDMA-V2SENT line; the host replays the capture
# (scripts/vm/wirecheck-v2.py) and must find each of them on the wire.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
P=/usr/local/bin/rpcrdma-cm-probe

[ -x $P ] || { status probe FAIL "no $P in the guest"; finish; exit 1; }
modprobe rdma_ucm || status probe FAIL "modprobe rdma_ucm failed"
mount_nfs 4.2 || { finish; exit 1; }
srv run /sbin/modprobe rdma_ucm >/dev/null
CONN=0

# listener PORT COUNT "ARGS": start one on the server guest
listener() {
	# shellcheck disable=SC2086
	srv run $P --v2 --json --listen "$1" --count "$2" --wait 60 $3 \>/tmp/v2l.$1 2\>\&1 \& >/dev/null
	_k=0
	until srv run cat /tmp/v2l.$1 | grep -q '"event":"listening"'; do
		_k=$((_k + 1))
		[ $_k -lt 50 ] || break
		usleep 200000
	done
}

# closing FILE NUM: the closing objects of the NUM-th connection in FILE
# (a client's file has one), without their "role"
closing() {
	awk -v n="$2" '/"event":"connected"/ { c++ } c == n' "$1" |
		grep -E '^\{"event":"(result|sent|received|nulls|final)"' |
		sed 's/"role":"[a-z]*",//'
}

# refused NAME FILE NUM: in the NUM-th connection of FILE, no property
# message (send=ROPT_*) after an INVAL_OPTION that side received
refused() {
	_bad=$(awk -v n="$3" '/"event":"connected"/ { c++ } c == n' "$2" |
		awk '/"peer":"no-properties"/ { told = 1 }
		     told && /^[{]"event":"send","send":"ROPT_/ { print; exit }')
	check "$1" "${_bad:-no property message after INVAL_OPTION}" [ -z "$_bad" ]
}

# v2pair NAME PORT NUM "CLIENT ARGS" CLIENT-WANT LISTENER-WANT: run the
# client against the listener on PORT, whose NUM-th connection it is.
# WANT: "SENDS RECVS | CONNPROP REQPROP RESPROP UPDPROP INVAL-OPTION
# sent | the same received | CALLS POS0 REPLY-CHUNKS ECHO-OK |
# OWN PEER LIMIT".
v2pair() {
	step "v2 $1: client --v2 $4 (connection $3 of the listener on $2)"
	CONN=$((CONN + 1))
	# shellcheck disable=SC2086
	$P --v2 --json $4 "$VM_SERVER_IP:$2" >/tmp/v2c.$1 2>&1
	_rc=$?
	_k=0
	while ! srv run cat /tmp/v2l.$2 >/tmp/v2l 2>&1 ||
		[ "$(grep -c '"event":"final"' /tmp/v2l)" -lt "$3" ]; do
		_k=$((_k + 1))
		[ $_k -lt 50 ] || break
		usleep 200000
	done
	echo "RPCRDMA-PROBE: $1 client: $(tr '\n' '|' </tmp/v2c.$1 | head -c 6000)"
	echo "RPCRDMA-PROBE: $1 listener: $(awk -v n="$3" '/"event":"connected"/ { c++ } c == n' /tmp/v2l | tr '\n' '|' | head -c 6000)"
	check "$1-client-exit" "client exit $_rc (want 0)" [ "$_rc" -eq 0 ]
	closing /tmp/v2c.$1 1 >/tmp/v2c.got
	closing /tmp/v2l "$3" >/tmp/v2l.got
	want "$5" >/tmp/v2c.want
	want "$6" >/tmp/v2l.want
	for _side in client listener; do
		_f=/tmp/v2c
		[ $_side = listener ] && _f=/tmp/v2l
		check "$1-$_side" "$(tr '\n' ' ' <$_f.got)(want $(tr '\n' ' ' <$_f.want))" \
			cmp -s $_f.got $_f.want
	done
	refused "$1-client-refused" /tmp/v2c.$1 1
	refused "$1-listener-refused" /tmp/v2l "$3"
	for _f in /tmp/v2c.$1 /tmp/v2l; do
		[ $_f = /tmp/v2l ] && _n=$3 || _n=1
		awk -v n="$_n" '/"event":"connected"/ { c++ } c == n' $_f |
			sed -n 's/^{"event":"send","send":"\([A-Z0-9_]*\)".*"role":"\([a-z]*\)","xid":\([0-9]*\),"len":\([0-9]*\).*/\2 \3 \1 \4/p' |
			while read -r _r _x _m _l; do
				echo "RPCRDMA-V2SENT: $CONN $_r $_x $_m $_l"
			done
	done
}

# want "SENDS RECVS | ... | OWN PEER LIMIT": the closing objects that
# spell, in the order the probe prints them
want() {
	echo "$1" | {
		IFS='|' read -r _sr _sent _recv _nulls _fin
		set -- $_sr
		echo "{\"event\":\"result\",\"result\":\"ok\",\"sends\":$1,\"recvs\":$2,\"violations\":0}"
		set -- $_sent
		echo "{\"event\":\"sent\",\"connprop\":$1,\"reqprop\":$2,\"resprop\":$3,\"updprop\":$4,\"inval_option\":$5}"
		set -- $_recv
		echo "{\"event\":\"received\",\"connprop\":$1,\"reqprop\":$2,\"resprop\":$3,\"updprop\":$4,\"inval_option\":$5}"
		set -- $_nulls
		echo "{\"event\":\"nulls\",\"calls\":$1,\"pos0\":$2,\"reply_chunks\":$3,\"echo_ok\":$4,\"echo_bad\":0}"
		set -- $_fin
		echo "{\"event\":\"final\",\"ignored\":0,\"own_rbsiz\":$1,\"peer_rbsiz\":$2,\"limit\":$3}"
	}
}

listener 20061 2 ""
v2pair lower 20061 1 "--request rbsiz=2048 --null 100,3000,6000" \
	"6 6 | 1 1 0 0 0 | 1 0 1 0 0 | 4 2 1 4 | 4096 2048 2048" \
	"6 6 | 1 0 1 0 0 | 1 1 0 0 0 | 4 2 1 0 | 2048 4096 4096"
v2pair raise 20061 2 "--update rbsiz=16384 --request rbsiz=8192 --null 10000,12000" \
	"9 8 | 1 1 0 1 0 | 1 0 1 0 0 | 6 2 0 6 | 16384 8192 8192" \
	"8 9 | 1 0 1 0 0 | 1 1 0 1 0 | 6 2 0 0 | 8192 16384 16384"
listener 20062 1 "--request rbsiz=16384 --update rbsiz=8192"
v2pair asked 20062 1 "--null 100,5000,7000,100,100,100,100" \
	"9 10 | 1 0 1 0 0 | 1 1 0 1 0 | 7 2 2 7 | 16384 8192 8192" \
	"10 9 | 1 1 0 1 0 | 1 0 1 0 0 | 7 2 2 0 | 8192 16384 16384"
listener 20063 1 "--no-props"
v2pair refused-by-listener 20063 1 "--request rbsiz=2048 --update rbsiz=8192 --null 100,5000" \
	"3 3 | 1 0 0 0 0 | 0 0 0 0 1 | 2 1 1 2 | 4096 4096 4096" \
	"3 3 | 0 0 0 0 1 | 1 0 0 0 0 | 2 1 1 0 | 4096 4096 4096"
listener 20064 1 "--request rbsiz=16384 --update rbsiz=8192"
v2pair refused-by-client 20064 1 "--no-props --null 100,5000" \
	"4 4 | 0 0 0 0 2 | 1 1 0 0 0 | 2 1 1 2 | 4096 4096 4096" \
	"4 4 | 1 1 0 0 0 | 0 0 0 0 2 | 2 1 1 0 | 4096 4096 4096"
umount_nfs
finish
