#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 13 (client guest): rpcrdma-cm-probe --v2 here against
# rpcrdma-cm-probe --v2 --listen on the server guest (port 2006x; the
# NFS mount only carries the srv control files). Each case checks both
# probes' exit status, that neither sent a message longer than the
# peer's size in force (violations=0), that every NULL Reply echoed its
# Call, and the Receive Buffer Sizes each side ends with:
#   lower: the client asks the listener to lower to 2048 (granted at
#          once); Calls of 3000 and 6000 go by Position-Zero chunk, the
#          6000 Reply by Reply chunk;
#   raise: the client raises its own to 16384 (UPDPROP once its 4096
#          receives are used up) and asks the listener for 8192 (answered
#          once the listener's are); Calls of 10000 and 12000;
#   asked: the listener asks the client for 16384 and raises its own to
#          8192; the client's Calls use up both sides' old receives.
# The host then replays the capture (scripts/vm/wirecheck-v2.py).
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
P=/usr/local/bin/rpcrdma-cm-probe

[ -x $P ] || { status probe FAIL "no $P in the guest"; finish; exit 1; }
modprobe rdma_ucm || status probe FAIL "modprobe rdma_ucm failed"
mount_nfs 4.2 || { finish; exit 1; }
srv run /sbin/modprobe rdma_ucm >/dev/null

# v2pair NAME PORT "LISTENER ARGS" "CLIENT ARGS" "CLIENT WANT" "LISTENER WANT"
# WANT: "own-rbsiz peer-rbsiz limit" of that side's final line.
v2pair() {
	step "v2 $1: listener --v2 $3 / client --v2 $4"
	# shellcheck disable=SC2086
	srv run $P --v2 --listen "$2" --count 1 --wait 60 $3 \>/tmp/v2l.$2 2\>\&1 \& >/dev/null
	_k=0
	until srv run cat /tmp/v2l.$2 | grep -q '^v2 listening'; do
		_k=$((_k + 1))
		[ $_k -lt 50 ] || break
		usleep 200000
	done
	# shellcheck disable=SC2086
	$P --v2 $4 "$VM_SERVER_IP:$2" >/tmp/v2c.$2 2>&1
	_rc=$?
	_k=0
	while ! srv run cat /tmp/v2l.$2 >/tmp/v2l 2>&1 || ! grep -q '^v2 final' /tmp/v2l; do
		_k=$((_k + 1))
		[ $_k -lt 50 ] || break
		usleep 200000
	done
	echo "RPCRDMA-PROBE: $1 client: $(tr '\n' '|' </tmp/v2c.$2 | head -c 3000)"
	echo "RPCRDMA-PROBE: $1 listener: $(tr '\n' '|' </tmp/v2l | head -c 3000)"
	for _side in client listener; do
		if [ $_side = client ]; then _f=/tmp/v2c.$2 _w=$5; else _f=/tmp/v2l _w=$6; fi
		_res=$(grep '^v2 result=' $_f | tail -n 1)
		_fin=$(grep '^v2 final' $_f | tail -n 1)
		_got="$(kv "$_fin" own-rbsiz) $(kv "$_fin" peer-rbsiz) $(kv "$_fin" limit)"
		check "$1-$_side" "$_res" [ "$(kv "$_res" result):$(kv "$_res" violations)" = "ok:0" ]
		check "$1-$_side-sizes" "own/peer/limit $_got (want $_w)" [ "$_got" = "$_w" ]
	done
	check "$1-client-exit" "client exit $_rc (want 0)" [ "$_rc" -eq 0 ]
	_ok=$(grep -c 'echo=ok' /tmp/v2c.$2)
	_bad=$(grep -c 'echo=bad' /tmp/v2c.$2)
	_pos0=$(grep -c 'call=pos0' /tmp/v2c.$2)
	_rchunk=$(grep -c 'reply=chunk' /tmp/v2c.$2)
	_v=no
	[ "$_ok" -gt 0 ] && [ "$_bad" -eq 0 ] && _v=yes
	check "$1-null" "$_ok NULL Replies echoed, $_bad wrong; $_pos0 Calls by Position-Zero chunk, $_rchunk Replies by Reply chunk" \
		[ $_v = yes ]
	for _m in ROPT_CONNPROP ROPT_REQPROP ROPT_RESPROP ROPT_UPDPROP; do
		status "$1-$_m" INFO "client sent $(grep -c "send=$_m" /tmp/v2c.$2), listener sent $(grep -c "send=$_m" /tmp/v2l)"
	done
}

v2pair lower 20061 "" "--request rbsiz=2048 --null 100,3000,6000" \
	"4096 2048 2048" "2048 4096 4096"
v2pair raise 20062 "" "--update rbsiz=16384 --request rbsiz=8192 --null 10000,12000" \
	"16384 8192 8192" "8192 16384 16384"
v2pair asked 20063 "--request rbsiz=16384 --update rbsiz=8192" \
	"--null 100,5000,7000,100,100,100,100" "16384 8192 8192" "8192 16384 16384"
umount_nfs
finish
