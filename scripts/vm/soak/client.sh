#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make soak, client guest (busybox sh; /vm/run.sh of the client VM, see
# scripts/vm/soak.sh and Documentation/soak.md). The server runs
# scripts/vm/soak/server.sh (guest/server.sh plus a TCP control channel
# on port 2051 that works while NFS does not).
#
# Mounts NFSv4.2 on /mnt and NFSv4.1 on /mnt41 (hard), starts the load
# (fio with crc32c verify, stress-ng metadata stressors, dbench), then
# injects the faults of SOAK_PLAN one after another: after each, it
# waits until both mounts answer again (the recovery time), checks that
# every debugfs line on both sides shows what the current parameters
# call for, and reads back the checker's known-content files. Each
# round of SOAK_PLAN (rounds separated by "/") is a permutation of the
# fault kinds; no new round starts once SOAK_SECONDS have passed.
#
# Lines for the host (besides guest/lib.sh's):
#   RPCRDMA-SOAK-T: <uptime> <rpc calls> <bytes read+written>      (every 2 s)
#   RPCRDMA-SOAK-FAULT: <n> <kind> <start> <end> <recovered> <secs> <detail>
#   RPCRDMA-SOAK-NEG: <n> <kind> <cfg> <side> <debugfs line>
#   RPCRDMA-SOAK-OPS: <tool> <iteration> ops=<n> rc=<rc> verify=<n> errors=<n> <detail>
#   RPCRDMA-SOAK-REPLAY: <start> <end> <call>: <error>   (see lcall)
#   RPCRDMA-SOAK-SUM: <key>=<value> ...

# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
M42=/mnt
M41=/mnt41
S=/tmp/soak
GAP=${SOAK_GAP:-4}
RECOVER_MAX=${SOAK_RECOVER_MAX:-180}
SECS=${SOAK_SECONDS:-150}
NEG=$TRACING/instances/soak
mkdir -p "$S" "$M41"

# now: uptime in whole seconds
now() { _u=$(up); echo "${_u%.*}"; }

# ---- parameter configurations ------------------------------------------
# name:client read:client write:client pdata:client reminv:server max_req:
#   server pdata:server reminv:server short_replies
CFGS=${SOAK_CFGS:-"c0:4096:4096:1:1:4096:1:1:1 c1:16384:16384:1:1:8192:1:1:1 c2:8192:16384:1:0:16384:1:1:0 c3:4096:4096:0:1:4096:1:1:1 c4:2048:8192:1:1:8192:1:0:1 c5:16384:16384:1:1:16384:0:1:1"}
CFG_I=0
min() { if [ "$1" -lt "$2" ]; then echo "$1"; else echo "$2"; fi; }

# cfg_load I: set CFG and its fields (C_R C_W C_P C_I S_M S_P S_I S_S)
cfg_load() {
	CFG=$(echo "$CFGS" | tr ' ' '\n' | sed -n "$(($1 + 1))p")
	IFS=: read -r CFG_NAME C_R C_W C_P C_I S_M S_P S_I S_S <<EOF
$CFG
EOF
}
cfg_count() { echo "$CFGS" | wc -w; }

# cfg_apply: this side's and the server's settings for new connections
cfg_apply() {
	[ "$RPCRDMA_MODULE" = ours ] || return 0
	if ! sysctl -w "sunrpc.rdma_max_inline_read=$C_R" "sunrpc.rdma_max_inline_write=$C_W" >/dev/null; then
		status "cfg-$CFG_NAME-client" FAIL "cannot set the client's inline sysctls to $C_R/$C_W"
		return 1
	fi
	set_param pdata "$C_P"
	set_param remote_invalidate "$C_I"
	_r=$(sctl set "$S_M" "$S_P" "$S_I" "$S_S")
	# the server's server_send_size (not set here: its default, 8192)
	S_SS=$(kv "$_r" server_send_size)
	case $_r in
	ok*server_send_size=[0-9]*) step "config $CFG_NAME: client read/write $C_R/$C_W pdata=$C_P reminv=$C_I; server $_r" ;;
	*)
		[ -n "$_r" ] || ctl_lost "set $S_M $S_P $S_I $S_S"
		status "cfg-$CFG_NAME-server" FAIL "server did not apply $CFG: ${_r:-no answer}"
		return 1 ;;
	esac
}

# ctl_lost REQUEST: the server's control channel (TCP, not NFS) gave no
# answer to REQUEST: what the client sees of the path to the server at
# that moment (the server's heartbeat lines say whether it still ran)
ctl_lost() {
	{
		path_state
		netstat -tn 2>/dev/null || cat /proc/net/tcp
		dmesg | tail -n 20
	} 2>&1 | sed "s/^/RPCRDMA-DIAG: ctl '$1' unanswered: /"
}

# path_state: this side of the path to the server: the RDMA link, its
# QPs and counters, eth0's counters and neighbour entry, and a ping
path_state() {
	rdma link show
	rdma resource show qp
	rdma statistic show
	ip -s link show eth0
	ip neigh show dev eth0
	ping -c 3 -W 2 "$VM_SERVER_IP"
}

# cfg_expect: the exact debugfs values each side must show under CFG
# (RFC 8797: client-to-server = min(client send, server recv),
# server-to-client = min(server send, client recv); without private
# data from either side, 1024/1024 and no remote invalidation). The
# server's Receive Size is its max_req_size, its Send Size offer_send
# of the client's Receive Size (server_send_size, S_SS): 8192 for
# a client that Receives 8192 or more from a server whose
# max_req_size is smaller.
cfg_expect() {
	if [ "$C_P" = 0 ] || [ "$S_P" = 0 ]; then
		EXP_C="peer_send=1024 peer_recv=1024 peer_r=0 send=1024 recv=1024 reminv=0"
		EXP_S=$EXP_C
		EXP_ABSENT=1
		return
	fi
	EXP_ABSENT=0
	_ri=0
	[ "$C_I" = 1 ] && [ "$S_I" = 1 ] && _ri=1
	_ss=$(offer_send "$S_M" "$S_SS" "$C_R")
	EXP_C="peer_pdata=present peer_send=$_ss peer_recv=$S_M peer_r=$S_I send=$(min "$C_W" "$S_M") recv=$(min "$C_R" "$_ss") reminv=$_ri"
	EXP_S="peer_pdata=present peer_send=$C_W peer_recv=$C_R peer_r=$C_I send=$(min "$_ss" "$C_R") recv=$(min "$S_M" "$C_W") reminv=$_ri"
}

# line_ok LINE "k=v ...": every k=v in LINE
line_ok() {
	for _p in $2; do
		[ "$(kv "$1" "${_p%%=*}")" = "${_p#*=}" ] || return 1
	done
	case $1 in *peer_pdata=absent:*) [ "$EXP_ABSENT" = 1 ] || return 1 ;; *) [ "$EXP_ABSENT" = 0 ] || return 1 ;; esac
}

# cm_ids: this client's RDMA CM IDs towards the server's port 20049, one
# "PORT STATE" line each (rdma resource show cm_id: the client's own view
# of its connections' source ports; STATE CONNECT while connected)
cm_ids() {
	rdma resource show cm_id 2>/dev/null | cm_id_ports "$VM_SERVER_IP:20049"
}

# cm_id_ports ADDR:PORT: of "rdma resource show cm_id" lines on stdin, the
# CM IDs connected to ADDR:PORT, "PORT STATE" (the local port) a line
cm_id_ports() {
	awk -v d="$1" '
	# "src-addr A:P", also when the tool puts a blank after the colon
	function addr(i,   a) { a = $(i + 1); if (a ~ /:$/) a = a $(i + 2); return a }
	{
		p = ""; st = ""; m = 0
		for (i = 1; i < NF; i++) {
			if ($i == "state") st = $(i + 1)
			if ($i == "src-addr") { p = addr(i); sub(/.*:/, "", p) }
			if ($i == "dst-addr" && addr(i) == d) m = 1
		}
		if (m && p != "") print p, st
	}'
}

# neg_pair [AGES]: pair the server's connection lines ($S/sc) with this
# client's CM IDs ($S/cid) by the client's port, which both give. Sets
# PAIR_BAD to what does not pair (empty: every server line's port is a
# connected CM ID here, and every connected CM ID has a server line): a
# server line whose port the client no longer has is a stale server
# connection, named with its port and, from AGES (the server's
# conns-age lines), its age. PAIR_SKIP is set when the client lists no
# CM ID at all (an rdma tool without cm_id): nothing is paired then.
neg_pair() {
	PAIR_BAD='' PAIR_SKIP=''
	if [ ! -s "$S/cid" ]; then
		PAIR_SKIP=1
		return 0
	fi
	[ -n "${1:-}" ] || { : >"$S/sca"; set -- "$S/sca"; }
	PAIR_BAD=$(awk -v ages="$1" -v cid="$S/cid" '
	function port(s) { sub(/.*:/, "", s); return s }
	FILENAME == ages {
		a = "-"; p = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^peer=/) p = port($i)
			if ($i ~ /^age=/) a = substr($i, 5)
		}
		if (p != "") age[p] = a
		next
	}
	FILENAME == cid { st[$1] = $2; next }
	{
		for (i = 1; i <= NF; i++) if ($i ~ /^peer=/) p = port($i)
		seen[p] = 1
		a = (p in age) ? ", age " age[p] " s" : ""
		if (!(p in st))
			printf "stale server connection: client port %s%s, which the client no longer has; ", p, a
		else if (st[p] != "CONNECT")
			printf "server connection from client port %s%s: the client CM ID is %s; ", p, a, st[p]
	}
	END {
		for (p in st)
			if (st[p] == "CONNECT" && !(p in seen))
				printf "client connection from port %s: the server lists none; ", p
	}' "$1" "$S/cid" "$S/sc")
	PAIR_BAD=${PAIR_BAD%; }
}

# neg_check N KIND: (this module only) wait (up to 60 s) until both sides list exactly one
# connection per mount, every one with the values CFG calls for, and the
# server's connections pair one to one with the client's by the client's
# port (a server connection whose client port the client no longer has
# is named, with its age: equal counts do not hide it); one status line
# per side and one for the pairing, the lines as RPCRDMA-SOAK-NEG.
neg_check() {
	[ "$RPCRDMA_MODULE" = ours ] || return 0
	_w=0
	cfg_expect
	while :; do
		conns | grep "peer=$VM_SERVER_IP:" >"$S/cc"
		sctl conns | grep "peer=$VM_CLIENT_IP:" >"$S/sc"
		cm_ids >"$S/cid"
		_okc=1 _oks=1
		[ "$(grep -c . "$S/cc")" = 2 ] || _okc=0
		[ "$(grep -c . "$S/sc")" = 2 ] || _oks=0
		while read -r _l; do line_ok "$_l" "$EXP_C" || _okc=0; done <"$S/cc"
		while read -r _l; do line_ok "$_l" "$EXP_S" || _oks=0; done <"$S/sc"
		neg_pair
		[ $_okc = 1 ] && [ $_oks = 1 ] && [ -z "$PAIR_BAD" ] && break
		[ $_w -ge 60 ] && break
		sleep 2
		_w=$((_w + 2))
	done
	if [ -n "$PAIR_BAD" ]; then
		# name the stale lines with their age (the server's view)
		sctl conns-age | grep "peer=$VM_CLIENT_IP:" >"$S/sca.age"
		neg_pair "$S/sca.age"
	fi
	if [ "$_oks" != 1 ] || [ -n "$PAIR_BAD" ]; then
		neg_trace_server "$1"
	fi
	sed "s/^/RPCRDMA-SOAK-NEG: $1 $2 $CFG_NAME client /" "$S/cc"
	sed "s/^/RPCRDMA-SOAK-NEG: $1 $2 $CFG_NAME server /" "$S/sc"
	check "neg-$1-client" "after $2, $CFG_NAME: 2 connections with $EXP_C$([ "$_okc" = 1 ] || echo " | got: $(paste -sd'|' "$S/cc")")" [ "$_okc" = 1 ]
	check "neg-$1-server" "after $2, $CFG_NAME: 2 connections with $EXP_S$([ "$_oks" = 1 ] || echo " | got: $(paste -sd'|' "$S/sc")")" [ "$_oks" = 1 ]
	if [ -n "$PAIR_SKIP" ]; then
		status "neg-$1-pairs" INFO "after $2: not paired (the client lists no RDMA CM ID: rdma resource show cm_id)"
	else
		check "neg-$1-pairs" "after $2: the server's connections and the client's pair by client port ($(awk '{ printf "%s%s %s", (n++ ? ", " : ""), $1, $2 }' "$S/cid"))${PAIR_BAD:+ | $PAIR_BAD}" [ -z "$PAIR_BAD" ]
	fi
}

# neg_trace_server N: (SOAK_TRACE=1, once per run) the server's recorded
# connection events of every peer port it lists: a line that outlived its
# connection shows what the CM delivered for it, and what it did not
neg_trace_server() {
	[ "${SOAK_TRACE:-0}" = 1 ] && [ ! -e "$S/neg-traced" ] || return 0
	: >"$S/neg-traced"
	_pp=$(sed -n 's/.* peer=[0-9.]*:\([0-9]*\) .*/\1/p' "$S/sc" | paste -sd'|' -)
	[ -n "$_pp" ] || return 0
	sctl trace 200000 | grep -aE ":(${_pp})([^0-9]|\$)" | tail -n 80 |
		sed "s/^/RPCRDMA-TRACE: neg-$1 server /"
}

# ---- load ---------------------------------------------------------------

stopping() { [ -e "$S/stop" ]; }

# fio: write-then-verify jobs (crc32c, fatal), random and sequential,
# 512 B .. 1 MiB blocks, O_DIRECT and buffered, files from 3.5 KiB to
# 4 MiB; alternately on the v4.2 and the v4.1 mount.
load_fio() {
	_i=0
	while ! stopping; do
		_i=$((_i + 1))
		if [ $((_i % 2)) = 1 ]; then _d=$M42/fio; else _d=$M41/fio; fi
		mkdir -p "$_d" 2>>"$S/fio.err"
		# cd: fio writes its verify dumps to the current directory
		(cd "$S" && fio --directory="$_d" --ioengine=psync --verify=crc32c --verify_fatal=1 \
			--do_verify=1 --invalidate=1 --verify_dump=1 \
			--output-format=json --output="$S/fio.json" \
			--name=rand-3k5-direct --rw=randwrite --bs=512 --size=3584 --direct=1 \
			--name=rand-4k5-direct --rw=randwrite --bsrange=512-4608 --size=4608 --direct=1 \
			--name=rand-64k-buffered --rw=randwrite --bsrange=512-16k --size=64k --direct=0 \
			--name=rand-256k-direct --rw=randwrite --bsrange=512-64k --size=256k --direct=1 \
			--name=seq-4m-direct --rw=write --bsrange=4k-1m --size=4m --direct=1 \
			--name=seq-2m-buffered --rw=write --bs=1m --size=2m --direct=0 \
			>"$S/fio.out" 2>&1)
		_rc=$?
		_ops=$(grep -o '"total_ios" : [0-9]*' "$S/fio.json" 2>/dev/null | awk '{ s += $3 } END { print s + 0 }')
		_v=$(grep -ciE 'verify|bad magic|crc32c' "$S/fio.out")
		_e=0
		[ $_rc = 0 ] || [ "$_v" -gt 0 ] || _e=1
		echo "RPCRDMA-SOAK-OPS: fio $_i ops=$_ops rc=$_rc verify=$_v errors=$_e ${_d}"
		[ $_rc = 0 ] || sed 's/^/RPCRDMA-SOAK-ERR: fio: /' "$S/fio.out" | head -n 20
		[ "$_v" = 0 ] || fio_explain
	done
}

# zero_pages FILE: which 4 KiB pages of FILE hold only zeros, as ranges
zero_pages() {
	_np=$((($(stat -c %s "$1") + 4095) / 4096))
	_p=0
	while [ $_p -lt $_np ]; do
		[ "$(dd if="$1" bs=4096 skip=$_p count=1 2>/dev/null | tr -d '\000' | wc -c)" = 0 ] && echo $_p
		_p=$((_p + 1))
	done | awk -v n="$_np" '
		function add() { r = r (r == "" ? "" : ",") s (e > s ? "-" e : "") }
		NR > 1 && $1 != e + 1 { add() }
		NR == 1 || $1 != e + 1 { s = $1 }
		{ e = $1 }
		END { if (NR) add(); printf "zero pages [%s] of %d", r, n }'
}

# fio_explain: after a verify failure, tell a lost WRITE from a wrong
# READ: fio's dump of the block it read (verify_dump) against the same
# range read again from the server with O_DIRECT. Zeros on the server
# too: the data never reached the file; the server copy right: the READ
# delivered what the file does not hold.
fio_explain() {
	sed -n 's/.* at file \([^ ]*\) offset \([0-9]*\), length \([0-9]*\).*/\1 \2 \3/p' "$S/fio.out" |
		sort -u | while read -r _f _o _l; do
		dd if="$_f" of="$S/server.blk" bs=64k iflag=direct,skip_bytes,count_bytes \
			skip="$_o" count="$_l" 2>/dev/null
		_m=$(dd if="$S/server.blk" bs=2 count=1 2>/dev/null | od -An -tx1 | tr -d ' ')
		echo "RPCRDMA-SOAK-ERR: fio: at $(up) s, $_f offset $_o: server copy (O_DIRECT) magic $_m (a fio header: caac), $(zero_pages "$S/server.blk")"
		for _x in "$S/${_f##*/}.$_o".*; do
			[ -e "$_x" ] || continue
			echo "RPCRDMA-SOAK-ERR: fio: dump ${_x##*.}: $(zero_pages "$_x"); $(cmp -s "$_x" "$S/server.blk" && echo same as || echo differs from) the server copy"
			rm -f "$_x"
		done
	done
}

# stress-ng: metadata stressors that NFS supports (not xattr: the
# server exports a tmpfs, which has no user xattrs before 6.6), 10 s per
# iteration, sized so one bogo op stays small over NFS (dir: 64 dirs,
# dentry: 64 names); then hard and symbolic links, which stress-ng's
# link/symlink stressors make 8192 at a time (minutes per op here)
load_stress() {
	_i=0
	mkdir -p "$M42/stress" "$M42/links"
	while ! stopping; do
		_i=$((_i + 1))
		_t0=$(up)
		stress-ng --temp-path "$M42/stress" --timeout 10 --metrics-brief \
			--dir 1 --dir-dirs 64 --dentry 1 --dentries 64 --rename 1 \
			--chmod 1 --file-ioctl 1 >"$S/stress.out" 2>&1
		_rc=$?
		_ops=$(awk '$2 == "metrc:" && $5 ~ /^[0-9]+$/ { s += $5 } END { print s + 0 }' "$S/stress.out")
		_e=0
		[ $_rc = 0 ] || _e=1
		echo "RPCRDMA-SOAK-OPS: stress-ng $_i ops=$_ops rc=$_rc verify=0 errors=$_e $(awk '$2 == "metrc:" && $5 ~ /^[0-9]+$/ { printf "%s=%s ", $4, $5 }' "$S/stress.out")"
		[ $_rc = 0 ] || sed "s/^/RPCRDMA-SOAK-ERR: stress-ng $_i: [$_t0-$(up)] /" "$S/stress.out" | grep -v metrc | head -n 20
		links "$_i"
	done
}

# links I: 20 files, a hard link and a symlink to each, checked through
# both names, removed; ops = calls made, verify = wrong content or target
links() {
	_d=$M42/links _ops=0 _v=0 _e=0 _r=0
	for _k in $(seq 20); do
		echo "links $1 $_k" >"$_d/f$_k" || _e=$((_e + 1))
		# shellcheck disable=SC2016 # the checks are evaluated by ns_call
		lcall "$1" '[ "$(stat -c %i "$_d/h$_k")" = "$(stat -c %i "$_d/f$_k")" ]' \
			ln "$_d/f$_k" "$_d/h$_k"
		# shellcheck disable=SC2016
		lcall "$1" '[ "$(readlink "$_d/s$_k")" = "f$_k" ]' ln -s "f$_k" "$_d/s$_k"
		_ops=$((_ops + 3))
	done
	for _k in $(seq 20); do
		[ "$(cat "$_d/h$_k")" = "links $1 $_k" ] || _v=$((_v + 1))
		[ "$(readlink "$_d/s$_k")" = "f$_k" ] && [ "$(cat "$_d/s$_k")" = "links $1 $_k" ] || _v=$((_v + 1))
		[ "$(stat -c %h "$_d/f$_k")" = 2 ] || _v=$((_v + 1))
		# shellcheck disable=SC2016
		lcall "$1" '[ ! -e "$_d/f$_k" ] && [ ! -e "$_d/h$_k" ] && [ ! -L "$_d/s$_k" ]' \
			rm "$_d/f$_k" "$_d/h$_k" "$_d/s$_k"
		_ops=$((_ops + 7))
	done
	echo "RPCRDMA-SOAK-OPS: links $1 ops=$_ops rc=0 verify=$_v errors=$_e replayed=$_r hard and symbolic links"
}

# lcall ITERATION CHECK CMD...: one of links' namespace calls (ns_call).
# A failed call whose effect is in place may have been executed twice:
# NFSv4.1's reply cache answers a retransmission within a session, but an
# nfsd restart ends the sessions (SOAK_REPRO=replay shows it over TCP
# too). Such a call is listed as RPCRDMA-SOAK-REPLAY with its time and
# counted in replayed=; the host accepts it only when it overlaps an nfsd
# restart, and counts it as an application error otherwise. Any other
# failure is an application error here.
lcall() {
	_i=$1
	shift
	_t=$(up)
	ns_call "$@"
	case $? in
	0) ;;
	1)
		_r=$((_r + 1))
		shift
		echo "RPCRDMA-SOAK-REPLAY: $_t $(up) links $_i: $*: ${NS_MSG##*: }" ;;
	*)
		_e=$((_e + 1))
		shift
		echo "RPCRDMA-SOAK-ERR: links $_i: [$_t-$(up)] $*: $NS_MSG" ;;
	esac
}

# dbench: the NetBench client profile Debian ships (a prefix of it that
# closes every file it opens, see soak.sh), one process, 15 s per
# iteration, on the v4.1 mount
load_dbench() {
	_i=0
	while ! stopping; do
		_i=$((_i + 1))
		_t0=$(up)
		dbench -c /usr/local/share/dbench/client-soak.txt -D "$M41" -t 15 1 >"$S/dbench.out" 2>&1
		_rc=$?
		_ops=$(awk '/^ ---/ { t = 1; next } t && NF == 4 && $2 ~ /^[0-9]+$/ { s += $2 } /^Throughput/ { t = 0 } END { print s + 0 }' "$S/dbench.out")
		# dbench's own SysV semaphore for starting its children (no file
		# system call) now and then fails under this load: reported, not
		# an NFS error
		_sem=$(grep -c 'barrier semaphore' "$S/dbench.out")
		[ "$_sem" = 0 ] || echo "RPCRDMA-SOAK-NOTE: dbench $_i: $(grep -m1 'barrier semaphore' "$S/dbench.out")"
		_e=$(grep -iE 'error|failed' "$S/dbench.out" | grep -vc 'barrier semaphore')
		[ $_rc = 0 ] || [ "$_e" -gt 0 ] || _e=1
		echo "RPCRDMA-SOAK-OPS: dbench $_i ops=$_ops rc=$_rc verify=0 errors=$_e $(grep -a '^Throughput' "$S/dbench.out")"
		[ "$_e" = 0 ] || grep -aiE 'error|failed' "$S/dbench.out" | grep -v 'barrier semaphore' |
			sed "s/^/RPCRDMA-SOAK-ERR: dbench $_i: [$_t0-$(up)] /" | head -n 20
	done
}

# sampler: RPC calls and payload bytes of both mounts every 2 s
sampler() {
	while ! [ -e "$S/sampler.stop" ]; do
		awk -v t="$(up)" '
			$1 == "bytes:" { b += $6 + $7 }
			$1 == "xprt:" && $2 == "rdma" { r += $8 }
			END { printf "RPCRDMA-SOAK-T: %s %.0f %.0f\n", t, r, b }' /proc/self/mountstats
		sleep 2
	done
}

# ---- checker --------------------------------------------------------------
# Known content, written once per fault with a new generation, read back
# (caches dropped, O_DIRECT) after the next fault and at the end.
CHK_SIZES="1 4095 4097 65536 1048577"
CHK_GEN=0
checker_write() {
	# both mounts show the one export: removing through both made the
	# second rm complain about every file the first had removed
	rm -f "$S"/chk.[0-9]* "$M42"/chk.[0-9]*
	CHK_GEN=$((CHK_GEN + 1))
	for _s in $CHK_SIZES; do
		for _m in $M42 $M41; do
			_f=chk.$CHK_GEN.$_s.${_m##*/}
			head -c "$_s" /dev/urandom >"$S/$_f"
			# buffered, then this file's fsync only
			dd if="$S/$_f" of="$_m/$_f" bs=64k conv=fsync 2>/dev/null ||
				echo "write $_m/$_f" >>"$S/chk.errors"
		done
	done
}
# checker_read WHEN: compare every file of the current generation, read
# with O_DIRECT (from the server, not the page cache)
checker_read() {
	_bad="" _n=0
	for _s in $CHK_SIZES; do
		for _m in $M42 $M41; do
			_f=chk.$CHK_GEN.$_s.${_m##*/}
			_a=$(sha256sum <"$S/$_f" | cut -d' ' -f1)
			if ! _b=$(dd if="$_m/$_f" iflag=direct bs=2M 2>/dev/null | sha256sum | cut -d' ' -f1); then
				echo "read $_m/$_f" >>"$S/chk.errors"
			fi
			[ "$_a" = "$_b" ] || _bad="$_bad ${_m##*/}/$_s"
			_n=$((_n + 1))
		done
	done
	CHK_FILES=$((CHK_FILES + _n))
	if [ -n "$_bad" ]; then
		CHK_BAD=$((CHK_BAD + 1))
		status "checker-$1" FAIL "generation $CHK_GEN: content differs:$_bad"
	fi
}
CHK_FILES=0 CHK_BAD=0

# ---- faults ---------------------------------------------------------------

rdma_dev() { if [ "$VM_RDMA" = siw ]; then echo siw0; else echo rxe0; fi; }

# wait_pid PID SECS: 0 once PID has exited, 1 if it still runs after SECS
wait_pid() {
	_w=0
	while kill -0 "$1" 2>/dev/null && [ $_w -lt $(($2 * 10)) ]; do
		usleep 100000
		_w=$((_w + 1))
	done
	! kill -0 "$1" 2>/dev/null
}

# inject KIND ARG: start a fault; FEND is the uptime it ends (the link
# back up, the device back, nfsd started, the parameters applied)
inject() {
	_t=$(up)
	case $1 in
	c-link)
		step "fault: client eth0 down for $2 s"
		ip link set eth0 down
		sleep "$2"
		ip link set eth0 up
		FDETAIL="client eth0 down ${2}s" ;;
	s-link)
		sctl linkdown "$2" >/dev/null
		sleep "$2"
		FDETAIL="server eth0 down ${2}s" ;;
	c-rdma)
		step "fault: client $(rdma_dev) deleted for $2 s"
		rdma link delete "$(rdma_dev)"
		sleep "$2"
		rdma link add "$(rdma_dev)" type "$VM_RDMA" netdev eth0 ||
			status "fault-$FN-readd" FAIL "rdma link add $(rdma_dev) failed"
		FDETAIL="client $(rdma_dev) deleted ${2}s" ;;
	s-rdma)
		sctl rdmadel "$2" >/dev/null
		sleep "$2"
		FDETAIL="server $(rdma_dev) deleted ${2}s" ;;
	overlap)
		# issue 15's schedule: the client's link drops, the server's
		# while the client is still recovering, the client's again
		step "fault: overlapping drops: client eth0 down 5 s, server 25 s later for 5 s, client 30 s later for 3 s"
		ip link set eth0 down
		sleep 5
		ip link set eth0 up
		sleep 25
		sctl linkdown 5 >/dev/null || step "server control channel did not answer (NFS or TCP still down?)"
		sleep 35
		step "fault: client eth0 down for 3 s"
		ip link set eth0 down
		sleep 3
		ip link set eth0 up
		FDETAIL="client 5s, server 5s at +30s, client 3s at +70s" ;;
	nfsd)
		sctl nfsd-restart >/dev/null
		sleep 2
		FDETAIL="rpc.nfsd 0, then up" ;;
	params)
		CFG_I=$(((CFG_I + 1) % $(cfg_count)))
		cfg_load "$CFG_I"
		cfg_apply
		# Rewriting dstaddr waits for the transport's XPRT_LOCKED bit,
		# and sunrpc wakes that wait only at a close or a connect, not
		# when a sending RPC lets go of the bit: a store that comes
		# while an RPC sends sleeps until the next disconnect (seed 10;
		# SOAK_REPRO=sysfs; Documentation/soak.md). After 10 s the
		# server closes the connections (nfsd restart) to wake it; the
		# fault's detail says so.
		reconnect &
		_rp=$!
		FDETAIL="config $CFG"
		if ! wait_pid "$_rp" 10; then
			step "fault: the dstaddr store has slept 10 s (sunrpc's missed wakeup); restarting nfsd to wake it"
			sctl nfsd-restart >/dev/null
			FDETAIL="config $CFG; dstaddr store woken by an nfsd restart"
			STALLS=$((STALLS + 1))
			if ! wait_pid "$_rp" 60; then
				status "fault-$FN-params" FAIL "writing the transports' dstaddr (sunrpc sysfs) still blocked 60 s after the nfsd restart"
				return 1
			fi
		fi ;;
	*) status "fault-$FN" FAIL "unknown fault kind $1"; return 1 ;;
	esac
	FSTART=$_t
	FEND=$(up)
}

# recover: wait until both mounts complete a synchronous write and an
# O_DIRECT read; RECOVERED = uptime then, empty when RECOVER_MAX passed
recover() {
	rm -f "$S"/probe.*
	for _m in $M42 $M41; do
		(dd if=/dev/zero of="$_m/.probe" bs=4k count=1 oflag=direct conv=fsync 2>/dev/null &&
			dd if="$_m/.probe" of=/dev/null bs=4k iflag=direct 2>/dev/null &&
			: >"$S/probe.${_m##*/}") &
	done
	_t0=$(now)
	RECOVERED=
	while [ $(($(now) - _t0)) -lt "$RECOVER_MAX" ]; do
		if [ -e "$S/probe.mnt" ] && [ -e "$S/probe.mnt41" ]; then
			RECOVERED=$(up)
			return 0
		fi
		usleep 200000
	done
	return 1
}

# watchdog N KIND: the checks after fault N (debugfs lines, the checker's
# read-back and rewrite) must end within RECOVER_MAX seconds. The mounts
# answered, so a file operation that blocks there is a single RPC or lock
# that never completes (a 7.3 run blocked a mkdir on the export's root
# for good after its first fault): it is reported and diagnosed once,
# rather than leaving the fault loop waiting for the VM's timeout: the
# run ends there, failed (client-done tells the host).
watchdog() {
	(
		_w=0
		while [ $_w -lt "$RECOVER_MAX" ] && [ ! -e "$S/checked.$1" ]; do
			sleep 1
			_w=$((_w + 1))
		done
		[ -e "$S/checked.$1" ] && exit 0
		status "fault-$1-$2-checks" FAIL "the checks after the fault did not end within ${RECOVER_MAX}s although both mounts answered: a file operation is blocked"
		diagnose
		finish
	) &
}

# diagnose: what both sides say when a mount does not come back, or a
# check after a fault blocks (watchdog)
diagnose() {
	step "diagnostics: a fault not recovered from, or a blocked check"
	dmesg | tail -n 40 | sed 's/^/RPCRDMA-DIAG: client dmesg: /'
	conns | sed 's/^/RPCRDMA-DIAG: client conn: /'
	grep -a 'xprt:' /proc/self/mountstats | sed 's/^/RPCRDMA-DIAG: client mountstats: /'
	sctl dmesg 40 | sed 's/^/RPCRDMA-DIAG: server dmesg: /'
	# the tasks in uninterruptible sleep, both sides, with their stacks
	echo w >/proc/sysrq-trigger
	sleep 1
	dmesg | sed -n '/sysrq: Show Blocked State/,$p' | tail -n 300 | sed 's/^/RPCRDMA-DIAG: client blocked: /'
	sctl blocked | sed 's/^/RPCRDMA-DIAG: server blocked: /'
	nfs_waiters | sed 's/^/RPCRDMA-DIAG: client nfs task: /'
	sctl delegs >"$S/delegs"
	sed 's/^/RPCRDMA-DIAG: server deleg: /' "$S/delegs"
	# a lease nfsd is still breaking long after the fault: with the
	# holder's callback channel up again, the signature of a lost recall
	# (dirdeleg_setup)
	grep -q 'DELEG *BREAKING' "$S/delegs" &&
		status soak-deleg-breaking INFO "nfsd is still breaking a delegation: a lost recall? (callback states: $(grep -o 'callback state: [A-Z]*' "$S/delegs" | paste -sd, -))"
	sctl conns | sed 's/^/RPCRDMA-DIAG: server conn: /'
	path_state 2>&1 | sed 's/^/RPCRDMA-DIAG: client link: /'
	sctl links | sed 's/^/RPCRDMA-DIAG: server link: /'
	# the RPCs still outstanding: task id, flags, status, client, xid,
	# timeout, procedure, what they wait for
	cat /sys/kernel/debug/sunrpc/rpc_clnt/*/tasks 2>/dev/null | sed 's/^/RPCRDMA-DIAG: client task: /'
	# each transport's state bits, queue lengths, addresses
	for _x in /sys/kernel/debug/sunrpc/rpc_xprt/*/info; do
		tr '\n' ' ' <"$_x"; echo
	done 2>/dev/null | sed 's/^/RPCRDMA-DIAG: client xprt: /'
	if [ "${SOAK_TRACE:-0}" = 1 ]; then
		# the connection events, without the per-RPC ones SOAK_TRACE_EVENTS
		# adds (trace_stuck prints those of the stuck RPCs)
		_ex=$(for _e in ${SOAK_TRACE_EVENTS:-}; do printf '%s|' "${_e#*/}"; done)
		grep -av '^#' "$TRACING/trace" | grep -avE ": (${_ex%|}): " |
			tail -n 600 | sed 's/^/RPCRDMA-TRACE: client /'
		[ -n "${SOAK_TRACE_EVENTS:-}" ] && trace_stuck
		sctl trace 600 | sed 's/^/RPCRDMA-TRACE: server /'
	fi
}

# trace_stuck: every recorded event of the RPCs still outstanding (the
# tasks file gives their ids in decimal, the events print
# task:<id>@<client> in hex), and the completions of the MRs those events
# name (by mr.id)
trace_stuck() {
	_ids=$(cat /sys/kernel/debug/sunrpc/rpc_clnt/*/tasks 2>/dev/null |
		while read -r _t _f _s _c _rest; do printf 'task:%08x@%08x\n' "$_t" "$_c"; done | sort -u)
	[ -n "$_ids" ] || return 0
	grep -av '^#' "$TRACING/trace" | awk -v ids="$_ids" '
		BEGIN { n = split(ids, a, "\n"); for (i = 1; i <= n; i++) if (a[i] != "") want[a[i]] = 1 }
		{
			hit = 0
			if (match($0, /task:[0-9a-f]+@[0-9a-f]+/) && (substr($0, RSTART, RLENGTH) in want)) {
				hit = 1
				if (match($0, /mr\.id=[0-9]+/)) mrs[substr($0, RSTART + 6, RLENGTH - 6)] = 1
			} else if (match($0, /mr\.id=[0-9]+/) && (substr($0, RSTART + 6, RLENGTH - 6) in mrs)) {
				hit = 1
			}
			if (hit) print
		}' | tail -n 800 | sed 's/^/RPCRDMA-TRACE: stuck /'
}

# trace_slow N FROM: (SOAK_TRACE=1) fault N took longer than SLOW_TRACE
# seconds to recover from: print the client's connection events since
# uptime FROM (a second early) and the server's latest ones, so a report
# shows which step waited (a connect delayed by the reconnect backoff, a
# rejected or unreachable attempt, a retransmit timer). The client's part
# keeps its last SOAK_TRACE_LINES lines (400; 0 keeps them all, for a fault
# whose first events matter, such as a slow device removal)
SLOW_TRACE=${SOAK_SLOW_TRACE:-8}
TRACE_LINES=${SOAK_TRACE_LINES:-400}
trace_slow() {
	grep -av '^#' "$TRACING/trace" | awk -v from="$2" '{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) { if ($i + 0 >= from - 1) print; break }
	}' | if [ "$TRACE_LINES" = 0 ]; then cat; else tail -n "$TRACE_LINES"; fi |
		sed "s/^/RPCRDMA-TRACE: slow-$1 client /"
	sctl trace 300 | sed "s/^/RPCRDMA-TRACE: slow-$1 server /"
}

# dirdeleg_setup: 7.x clients ask for directory delegations, and 7.x nfsd
# grants them. nfsd drops a recall it queues while the holder's callback
# channel is down, without the timer that would revoke the delegation, and
# the client never returns a directory delegation on its own: a create in
# that directory by the other mount then waits for good. The soak's faults
# take both mounts' connections down at once, which opens that window
# (Documentation/soak.md; SOAK_REPRO=dirdeleg shows it over TCP too, so
# it is nfsd's, not the transport's). Off unless SOAK_DIRDELEG=1.
dirdeleg_setup() {
	modprobe -q nfsv4
	_p=/sys/module/nfsv4/parameters/directory_delegations
	[ -e "$_p" ] || return 0
	if [ "${SOAK_DIRDELEG:-0}" = 1 ]; then
		status soak-dirdeleg INFO "directory delegations on (SOAK_DIRDELEG=1): a recall nfsd loses blocks creates in that directory"
	elif echo N >"$_p"; then
		status soak-dirdeleg INFO "directory delegations off: nfsd loses a recall queued while the holder's callback channel is down (SOAK_REPRO=dirdeleg); SOAK_DIRDELEG=1 keeps them"
	else
		status soak-dirdeleg FAIL "cannot set nfsv4.directory_delegations=N"
	fi
}

# ---- main -----------------------------------------------------------------

trace_on xprtrdma_inline_thresh
mkdir -p "$NEG"
if [ "$RPCRDMA_MODULE" = ours ]; then
	echo 1 >"$NEG/events/rpcrdma_cm/rpcrdma_cm_negotiate/enable" ||
		status soak-trace FAIL "no tracepoint rpcrdma_cm:rpcrdma_cm_negotiate (is the module under test loaded?)"
	# which RPCs a disconnect released, and when (rpcrdma_cm_client_unpin_stranded)
	echo 1 >"$NEG/events/rpcrdma_cm/rpcrdma_cm_unpin_stranded/enable" ||
		status soak-trace FAIL "no tracepoint rpcrdma_cm:rpcrdma_cm_unpin_stranded"
fi
echo 1 >"$NEG/tracing_on"
siw_cq_watch
hung_watch
heartbeat
if [ "${SOAK_TRACE:-0}" = 1 ]; then
	trace_faults
	# the hung-task detector reports a task stuck for 30 s (hung_watch
	# prints its stack)
	echo 30 >/proc/sys/kernel/hung_task_timeout_secs
fi
wait_server || { finish; exit 1; }
# the NFS-independent control channel must answer before anything else
[ "$(sctl ping)" = pong ] ||
	{ status soak-ctl FAIL "no answer on the server's control channel (TCP port $CTL_PORT, scripts/vm/soak/server.sh)"; finish; exit 1; }
cfg_load 0
cfg_apply || { finish; exit 1; }
dirdeleg_setup
mount_nfs 4.2 || { finish; exit 1; }
step "mount $VM_SERVER_IP:/ $M41 -o vers=4.1,proto=rdma,port=20049"
mount.nfs "$VM_SERVER_IP:/" "$M41" -o vers=4.1,proto=rdma,port=20049 ||
	{ status mount-v4.1 FAIL "mount.nfs -o vers=4.1,proto=rdma failed"; finish; exit 1; }
status mount-v4.1 PASS "vers=4.1,proto=rdma,port=20049"
neg_check 0 mount
checker_write

T0=$(now)
status soak-start INFO "seed ${SOAK_SEED:-?}, ${SECS}s, plan $SOAK_PLAN"
sampler &
SAMPLER=$!
# SOAK_LOAD: the tools to run (soak.sh checks the names)
P_LOAD=
for _l in ${SOAK_LOAD:-fio stress dbench}; do
	"load_$_l" &
	P_LOAD="$P_LOAD $!"
done
sleep "$GAP"

FN=0
HUNG=0
STALLS=0
ROUND=0
for round in $(echo "$SOAK_PLAN" | tr '/' ' '); do
	if [ $(($(now) - T0)) -ge "$SECS" ] && [ "$ROUND" -ge "${SOAK_MIN_ROUNDS:-1}" ]; then
		step "time is up after $ROUND round(s)"
		break
	fi
	ROUND=$((ROUND + 1))
	for f in $(echo "$round" | tr ',' ' '); do
		FN=$((FN + 1))
		kind=${f%%:*}
		arg=${f#*:}
		step "fault $FN (round $ROUND): $kind $arg"
		if ! inject "$kind" "$arg"; then
			echo "RPCRDMA-SOAK-FAULT: $FN $kind $(up) - - - injection failed"
			diagnose
			HUNG=1
			break 2
		fi
		if recover; then
			_rt=$(awk -v a="$FEND" -v b="$RECOVERED" 'BEGIN { printf "%.1f", b - a }')
			echo "RPCRDMA-SOAK-FAULT: $FN $kind $FSTART $FEND $RECOVERED $_rt $FDETAIL"
			if [ "${SOAK_TRACE:-0}" = 1 ] && awk -v t="$_rt" -v s="$SLOW_TRACE" 'BEGIN { exit !(t > s) }'; then
				trace_slow "$FN" "$FSTART"
			fi
		else
			echo "RPCRDMA-SOAK-FAULT: $FN $kind $FSTART $FEND - - $FDETAIL"
			status "fault-$FN-$kind" FAIL "$FDETAIL: the mounts did not answer within ${RECOVER_MAX}s after the fault ended"
			diagnose
			HUNG=1
			break 2
		fi
		watchdog "$FN" "$kind"
		neg_check "$FN" "$kind"
		checker_read "after-$FN"
		checker_write
		: >"$S/checked.$FN"
		sleep "$GAP"
	done
done
status soak-faults INFO "$FN fault(s) in $ROUND round(s), $(($(now) - T0))s"

if [ $HUNG = 1 ]; then
	# the load is stuck in the hard mounts: report what finished, leave
	# the rest to poweroff
	: >"$S/stop"
	: >"$S/sampler.stop"
	status soak-recovery FAIL "fault $FN ($kind) was not recovered from; load processes left hanging"
else
	step "stopping the load (each tool finishes its iteration)"
	: >"$S/stop"
	# shellcheck disable=SC2086 # one pid per word
	wait $P_LOAD
	: >"$S/sampler.stop"
	wait $SAMPLER
	checker_read final
	status soak-recovery PASS "$FN fault(s), every one recovered from"
fi

# application errors of the checker (writes or reads that failed)
_ce=0
[ -e "$S/chk.errors" ] && _ce=$(grep -c . "$S/chk.errors")
check checker "$CHK_FILES file read-backs, $CHK_BAD generation(s) with differences, $_ce I/O error(s)" \
	[ "$CHK_BAD" = 0 ] && [ "$_ce" = 0 ]
[ "$_ce" = 0 ] || sed 's/^/RPCRDMA-SOAK-ERR: checker: /' "$S/chk.errors"
_cn=$(grep -ac ' rpcrdma_cm_negotiate: role=client ' "$NEG/trace")
_sn=$(sctl negotiated | grep -c ' rpcrdma_cm_negotiate: role=server ')
# RPCs a disconnect had to release because the device never completed
# their LOCAL_INV (rpcrdma_cm_client_unpin_stranded); "-" with Debian's module
_st=$(cat /sys/kernel/debug/rpcrdma_cm/stranded 2>/dev/null || echo -)
grep -a ' rpcrdma_cm_unpin_stranded: ' "$NEG/trace" | sed 's/^ */RPCRDMA-SOAK-STRANDED: /'
_ua=$(sctl counter unaccepted)
_up=$(sctl counter unposted)
_dr=$(sctl counter drained)
_dt=$(sctl counter drain_timeouts)
_ds=$(sctl counter drain_shortened)
_af=$(sctl counter accept_failed)
# when siw lost completions to a full CQ (client uptime)
grep -a ' siw_cq_full: ' "$SIWCQ/trace" 2>/dev/null | sed 's/^ */RPCRDMA-SOAK-CQFULL: /'
# connections closed on rdma_cm's UNREACHABLE while established
# (rpcrdma_cm_client_unreachable); "-" with Debian's module
_ur=$(cat /sys/kernel/debug/rpcrdma_cm/unreachable 2>/dev/null || echo -)
echo "RPCRDMA-SOAK-SUM: stranded=$_st unreachable=$_ur unaccepted=${_ua:--} unposted=${_up:--} accept_failed=${_af:--} drained=${_dr:--} drain_timeouts=${_dt:--} drain_shortened=${_ds:--} siw_cq_full=$(siw_cq_full) server_siw_cq_full=$(sctl counter siw_cq_full) hung=$(hung_count) server_hung=$(sctl counter hung) client_negotiations=$_cn server_negotiations=$_sn connect_count=$(awk '$1 == "xprt:" && $2 == "rdma" { s += $5 } END { print s + 0 }' /proc/self/mountstats) checker_files=$CHK_FILES checker_bad=$CHK_BAD checker_errors=$_ce faults=$FN rounds=$ROUND dstaddr_stalls=$STALLS"
if [ $HUNG = 0 ]; then
	umount "$M41" || status umount FAIL "umount $M41 failed"
	umount_nfs
fi
finish
