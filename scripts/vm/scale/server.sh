#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make scale, server guest (busybox sh; /vm/run.sh of the server VM, see
# scripts/vm/scale.sh). Everything guest/server.sh does (the export,
# nfsd over RDMA on every link), and, once nfsd is ready, the run
# itself (scale_main): this guest is the one that sees every client's
# connections, its own memory, and where the faults are made, so it
# drives the clients (scale/client.sh) over their control channels.
#
# Links: client K (0..SCALE_CLIENTS-1) is 10.99.K.2 on a point-to-point
# link of its own, the server 10.99.K.1 there (eth0 and rxe0 for K=0,
# the NICs of VM_EXTRA_NICS for the others). One link per client rather
# than one shared segment: QEMU's socket netdev joins two ends, and a
# link of its own per client is what a server with a port per client
# has; each fault below then hits every client's link at once.
#
# Per nconnect value N of SCALE_NCONNECT (a "step"):
#   1. every client unmounted and no connection left; the server's
#      memory (meminfo and slabinfo, caches dropped): baseline
#   2. every client mounts NFSv4.2 over RDMA with nconnect=N
#   3. every connection on both sides, negotiated as configured: the
#      server lists exactly N per client, each with the values RFC 8797
#      gives for that client's and the server's sizes, and the client
#      lists the same N (a stock client: sunrpc's N transports)
#   4. the memory again: the delta over the connections is the server's
#      memory per connection
#   5. fio with crc32c verify on every client at once; during it, each
#      fault of SCALE_FAULTS on every link: nfsd restarted ("nfsd"),
#      every link down for SCALE_LINK_SECS s ("link"), every RDMA device
#      deleted for SCALE_RDMA_SECS s and added again ("rdma"). After
#      each: every mount answers (a synchronous write and O_DIRECT read),
#      then step 3's check again, and for nfsd and rdma, which close
#      every connection, N new negotiations per client on the server.
#      A link down may leave connections up (RC retries outlast it): its
#      new negotiations are reported, not required.
#   6. fio stops; every pass on every client exited 0 with 0 verify errors
# Lines for the host (besides guest/lib.sh's):
#   RPCRDMA-SCALE-CONN: <N> <when> c<K> <profile> server|client <line>
#   RPCRDMA-SCALE-FAULT: n=N kind=KIND recovered_s=S renegotiated=X/Y
#   RPCRDMA-SCALE-STEP: n=N key=value ...   (one per step: the table row)
#   RPCRDMA-SCALE-MAX: conns=C              (the most connections held)

# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
SCALE_CTL_PORT=${SCALE_CTL_PORT:-2052}
S=/tmp/scale
NEG=$TRACING/instances/scale
NCLIENTS=${SCALE_CLIENTS:-1}
RECOVER_MAX=${SCALE_RECOVER_MAX:-300}
mkdir -p "$S"

# progress: a step line the host prints as the run's progress
progress() { step "scale: $*"; }
client_ip() { echo "10.99.$1.2"; }
clients() { seq 0 $((NCLIENTS - 1)); }
profile() { echo "$SCALE_PROFILES" | tr ' ' '\n' | sed -n "$(($1 + 1))p"; }
min() { if [ "$1" -lt "$2" ]; then echo "$1"; else echo "$2"; fi; }

# cctl K REQUEST: one request to client K's control channel; its answer
cctl() {
	_ck=$1
	shift
	echo "$*" | timeout 20 nc -w 5 "$(client_ip "$_ck")" "$SCALE_CTL_PORT" 2>/dev/null
}

# ask K REQUEST: REQUEST to client K until it answers (60 s at most: a
# link just up again may take a few TCP retransmissions to carry it)
ask() {
	_ak=$1 _at=0
	shift
	while :; do
		_ans=$(cctl "$_ak" "$@")
		[ -n "$_ans" ] || [ $_at -ge 60 ] && break
		sleep 3
		_at=$((_at + 3))
	done
	echo "$_ans"
}

# all REQUEST: REQUEST to every client; the clients that did not take it
all() {
	_bad=
	for _k in $(clients); do
		case $(ask "$_k" "$@") in
		started* | ok*) ;;
		*) _bad="$_bad c$_k" ;;
		esac
	done
	echo "${_bad# }"
}

# wait_all NAME SECS: until every client's "result NAME" is no longer
# pending (SECS at most); returns 1 unless every one is ok. The last
# answers in $S/res.<K>.
wait_all() {
	_t=0
	while :; do
		_pend=0
		for _k in $(clients); do
			cctl "$_k" result "$1" >"$S/res.$_k"
			case $(cat "$S/res.$_k") in ok* | fail*) ;; *) _pend=1 ;; esac
		done
		[ $_pend = 0 ] || [ $_t -ge "$2" ] && break
		sleep 3
		_t=$((_t + 3))
	done
	for _k in $(clients); do
		case $(cat "$S/res.$_k") in ok*) ;; *) return 1 ;; esac
	done
}

# want K N: the connections client K makes with nconnect=N: N, or 1 on
# a kernel whose NFSv4 client ignores nconnect over RDMA (its info says
# nconnect_rdma=no: 6.1's nfs4_set_client passes nconnect for TCP only;
# 6.12's for RDMA too)
want() {
	if grep -q 'nconnect_rdma=no' "$S/info.$1"; then echo 1; else echo "$2"; fi
}

# neg_count K: the negotiations this server traced with client K so far
neg_count() {
	_nc=$(grep -ac " rpcrdma_cm_negotiate: role=server peer=$(client_ip "$1"):" "$NEG/trace")
	echo "${_nc:-0}"
}

# scale_expect K: client K's expected debugfs values on each side, EXP_C
# and EXP_S, and EXP_ABSENT (1: no private data from the client). RFC 8797:
# client-to-server = min(client send, server recv), server-to-client =
# min(server send, client recv); this server advertises R, its
# max_req_size as Receive Size and, as Send Size, offer_send of the
# client's Receive Size (its server_send_size, read here: 8192 unless
# the module was loaded otherwise); without the client's data, 1024
# both ways and no remote invalidation. The client's sizes are what it
# reported (info): the defaults are read, not assumed.
scale_expect() {
	_i=$(cat "$S/info.$1")
	_r=$(kv "$_i" read) _w=$(kv "$_i" write)
	if [ "$(kv "$_i" pdata)" = 0 ]; then
		EXP_C="peer_send=1024 peer_recv=1024 peer_r=0 send=1024 recv=1024 reminv=0"
		EXP_S=$EXP_C
		EXP_ABSENT=1
		return
	fi
	EXP_ABSENT=0
	_ss=$(offer_send "$MAXREQ" "$SRVSEND" "$_r")
	EXP_C="peer_pdata=present peer_send=$_ss peer_recv=$MAXREQ peer_r=1 send=$(min "$_w" "$MAXREQ") recv=$(min "$_r" "$_ss") reminv=1"
	EXP_S="peer_pdata=present peer_send=$_w peer_recv=$_r peer_r=1 send=$(min "$_ss" "$_r") recv=$(min "$MAXREQ" "$_w") reminv=1"
}

# matching FILE EXPECT: how many lines of FILE have every k=v of EXPECT
# as a word, and private data absent exactly when EXP_ABSENT says so.
# One awk per file: a sed per field (a thousand forks a round over 80
# connections) took minutes a round in a server guest loaded by nfsd.
matching() {
	awk -v want="$2" -v absent="$EXP_ABSENT" '
		BEGIN { n = split(want, w, " ") }
		{
			for (i = 1; i <= n; i++)
				if (index(" " $0 " ", " " w[i] " ") == 0)
					next
			if ((index($0, "peer_pdata=absent:") > 0) != (absent == 1))
				next
			m++
		}
		END { print m + 0 }' "$1"
}

# neg_check N WHEN RENEG: wait (SCALE_NEG_WAIT s at most) until, for
# every client, the server lists exactly N connections with it and the
# client N with the server, every line as scale_expect() says, and (RENEG=1)
# the server traced N new negotiations with it since neg_mark. A status
# line per client and side; the lines as RPCRDMA-SCALE-CONN. Adds to
# NEG_S_OK/NEG_S_ALL/NEG_C_OK/NEG_C_ALL (lines) and RENEG_OK/RENEG_ALL.
# "N connections" is want()'s count throughout.
neg_mark() { for _k in $(clients); do neg_count "$_k" >"$S/neg0.$_k"; done; }
neg_check() {
	_n=$1 _when=$2 _rn=$3 _t0=$(up)
	while :; do
		_all=1
		for _k in $(clients); do
			conns | grep " peer=$(client_ip "$_k"):" >"$S/sc.$_k"
			cctl "$_k" conns >"$S/cc.$_k.all"
			grep 'role=' "$S/cc.$_k.all" >"$S/cc.$_k"
			scale_expect "$_k"
			_nw=$(want "$_k" "$_n")
			_ok=1
			[ "$(grep -c . "$S/sc.$_k")" = "$_nw" ] && [ "$(matching "$S/sc.$_k" "$EXP_S")" = "$_nw" ] || _ok=0
			if grep -q 'module=ours' "$S/info.$_k"; then
				[ "$(grep -c . "$S/cc.$_k")" = "$_nw" ] && [ "$(matching "$S/cc.$_k" "$EXP_C")" = "$_nw" ] || _ok=0
			else
				[ "$(kv "$(grep xprts= "$S/cc.$_k.all")" connected)" = "$_nw" ] || _ok=0
			fi
			if [ "$_rn" = 1 ]; then
				[ $(($(neg_count "$_k") - $(cat "$S/neg0.$_k"))) -ge "$_nw" ] || _ok=0
			fi
			[ $_ok = 1 ] || _all=0
		done
		# by the clock, not by rounds: a round grows with the connections
		# and the load
		[ $_all = 1 ] && break
		awk -v a="$_t0" -v b="$(up)" -v w="${SCALE_NEG_WAIT:-120}" 'BEGIN { exit !(b - a >= w) }' && break
		sleep 3
	done
	for _k in $(clients); do
		scale_expect "$_k"
		_nw=$(want "$_k" "$_n")
		_prof=$(profile "$_k")
		sed "s/^/RPCRDMA-SCALE-CONN: $_n $_when c$_k $_prof server /" "$S/sc.$_k"
		sed "s/^/RPCRDMA-SCALE-CONN: $_n $_when c$_k $_prof client /" "$S/cc.$_k"
		_ns=$(grep -c . "$S/sc.$_k") _ms=$(matching "$S/sc.$_k" "$EXP_S")
		NEG_S_OK=$((NEG_S_OK + $(min "$_ms" "$_nw")))
		NEG_S_ALL=$((NEG_S_ALL + _nw))
		_ok=0
		[ "$_ns" = "$_nw" ] && [ "$_ms" = "$_nw" ] && _ok=1
		check "n$_n-$_when-c$_k-server" "$_prof: $_ns connection(s), $_ms with $EXP_S (want $_nw)$([ $_ok = 1 ] || echo " | got: $(paste -sd'|' "$S/sc.$_k")")" [ $_ok = 1 ]
		_x=$(grep xprts= "$S/cc.$_k.all")
		if grep -q 'module=ours' "$S/info.$_k"; then
			_nc=$(grep -c . "$S/cc.$_k") _mc=$(matching "$S/cc.$_k" "$EXP_C")
			NEG_C_OK=$((NEG_C_OK + $(min "$_mc" "$_nw")))
			NEG_C_ALL=$((NEG_C_ALL + _nw))
			_ok=0
			[ "$_nc" = "$_nw" ] && [ "$_mc" = "$_nw" ] && _ok=1
			check "n$_n-$_when-c$_k-client" "$_prof: $_nc connection(s), $_mc with $EXP_C (want $_nw; $_x)$([ $_ok = 1 ] || echo " | got: $(paste -sd'|' "$S/cc.$_k")")" [ $_ok = 1 ]
		else
			# Debian's module has no debugfs: sunrpc's transports
			_ok=0
			[ "$(kv "$_x" connected)" = "$_nw" ] && _ok=1
			check "n$_n-$_when-c$_k-client" "$_prof: ${_x:-no answer} (want $_nw connected)" [ $_ok = 1 ]
		fi
		[ "$_rn" = - ] && continue
		_d=$(($(neg_count "$_k") - $(cat "$S/neg0.$_k")))
		RENEG_OK=$((RENEG_OK + $(min "$_d" "$_nw")))
		RENEG_ALL=$((RENEG_ALL + _nw))
		if [ "$_rn" = 1 ]; then
			check "n$_n-$_when-c$_k-renegotiated" "$_prof: $_d new negotiation(s) on the server (want $_nw or more)" [ "$_d" -ge "$_nw" ]
		else
			status "n$_n-$_when-c$_k-renegotiated" INFO "$_prof: $_d new negotiation(s) on the server (a link down need not close a connection)"
		fi
	done
}

# mem_snap NAME: the server's memory with its caches dropped (the page
# cache would otherwise move with the load): /proc/meminfo in KiB, and
# each slab cache's bytes in use (active objects x object size) and KiB of pages
mem_snap() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 2
	awk '{ sub(/:$/, "", $1); print $1, $2 }' /proc/meminfo >"$S/mem.$1"
	awk 'NR > 2 { print $1, $2 * $4, $15 * $6 * 4 }' /proc/slabinfo >"$S/slab.$1"
}
# mem_field NAME FIELD: a meminfo field (KiB) of snapshot NAME
mem_field() { awk -v f="$2" '$1 == f { print $2 }' "$S/mem.$1"; }
# mem_used NAME: the KiB in use in snapshot NAME, slabinfo's caches
# counted by their objects in use, not their pages (guest/lib.sh's
# mem_used_kib says why)
mem_used() {
	awk 'FILENAME == ARGV[1] { m[$1] = $2; next } { a += $2; p += $3 }
		END { printf "%d\n", m["MemTotal"] - m["MemFree"] - p + a / 1024 }' \
		"$S/mem.$1" "$S/slab.$1"
}
# slab_top A B: the three slab caches that grew most from A to B (KiB)
slab_top() {
	awk 'FILENAME == ARGV[1] { a[$1] = $2; next }
		{ d = int(($2 - a[$1]) / 1024); if (d > 0) print d, $1 }' "$S/slab.$1" "$S/slab.$2" |
		sort -rn | head -n 3 | awk '{ printf "%s%s:+%d", (NR > 1 ? "," : ""), $2, $1 }'
}

# wait_no_conns SECS: until this server lists no connection
wait_no_conns() {
	_t=0
	while [ -n "$(conns)" ] && [ $_t -lt "$1" ]; do
		sleep 2
		_t=$((_t + 2))
	done
	[ -z "$(conns)" ]
}

# rdma_links: "<device> <netdev>" for each RDMA link of this guest
rdma_links() {
	rdma link show | awk '{ d = $2; sub(/\/.*/, "", d); for (i = 1; i < NF; i++) if ($i == "netdev") print d, $(i + 1) }'
}

# fault N KIND I: one fault on every link, then the recovery and the
# connections checked
fault() {
	_n=$1 _kind=$2 _fi=$3
	neg_mark
	case $_kind in
	nfsd)
		progress "nconnect=$_n fault $_fi: nfsd restart"
		_t0=$(up)
		stop_nfsd
		step "nfsd stopped in $(echo "$_t0 $(up)" | awk '{ printf "%.1f", $2 - $1 }') s"
		start_nfsd || status "n$_n-nfsd-$_fi-start" FAIL "nfsd did not start again"
		;;
	link)
		progress "nconnect=$_n fault $_fi: every link down for ${SCALE_LINK_SECS:-4} s"
		rdma_links >"$S/links"
		while read -r _d _if; do ip link set "$_if" down; done <"$S/links"
		sleep "${SCALE_LINK_SECS:-4}"
		while read -r _d _if; do ip link set "$_if" up; done <"$S/links"
		;;
	rdma)
		progress "nconnect=$_n fault $_fi: every RDMA device deleted for ${SCALE_RDMA_SECS:-3} s"
		rdma_links >"$S/links"
		while read -r _d _if; do rdma link delete "$_d"; done <"$S/links"
		sleep "${SCALE_RDMA_SECS:-3}"
		while read -r _d _if; do
			rdma link add "$_d" type "$VM_RDMA" netdev "$_if" ||
				status "n$_n-rdma-$_fi-readd" FAIL "rdma link add $_d on $_if failed"
		done <"$S/links"
		;;
	esac
	_t1=$(up)
	progress "nconnect=$_n fault $_fi ($_kind) over: waiting for every mount to answer"
	_bad=$(all probe "$_n-$_fi")
	_rec=-
	if wait_all "probe-$_n-$_fi" "$RECOVER_MAX" && [ -z "$_bad" ]; then
		_rec=$(echo "$_t1 $(up)" | awk '{ printf "%.1f", $2 - $1 }')
		status "n$_n-$_kind-$_fi-recovered" PASS "every mount answered $_rec s after the fault ended"
		RECOVERED=$((RECOVERED + 1))
	else
		status "n$_n-$_kind-$_fi-recovered" FAIL "not every mount answered within $RECOVER_MAX s:$(for _k in $(clients); do printf ' c%s %s;' "$_k" "$(cat "$S/res.$_k")"; done)"
	fi
	FAULTS_RUN=$((FAULTS_RUN + 1))
	_r0=$RENEG_OK _a0=$RENEG_ALL
	_rn=1
	[ "$_kind" = link ] && _rn=0
	neg_check "$_n" "$_kind-$_fi" $_rn
	echo "RPCRDMA-SCALE-FAULT: n=$_n kind=$_kind recovered_s=$_rec renegotiated=$((RENEG_OK - _r0))/$((RENEG_ALL - _a0))"
	[ "$_rec" = - ] || REC_MAX=$(awk -v a="$_rec" -v b="${REC_MAX:-0}" 'BEGIN { print (a > b) ? a : b }')
}

# scale_step N: one nconnect value, steps 1 to 6 of the header
scale_step() {
	_n=$1 _f0=$FAILS
	NEG_S_OK=0 NEG_S_ALL=0 NEG_C_OK=0 NEG_C_ALL=0 RENEG_OK=0 RENEG_ALL=0 RECOVERED=0 FAULTS_RUN=0 REC_MAX=
	progress "nconnect=$_n: no connection left, baseline memory"
	wait_no_conns 90 || status "n$_n-idle" FAIL "connections still listed 90 s after every unmount: $(conns | wc -l)"
	mem_snap "base-$_n"
	progress "nconnect=$_n: $NCLIENTS client(s) mounting"
	_bad=$(all mount "$_n")
	if ! wait_all mount 600 || [ -n "$_bad" ]; then
		status "n$_n-mount" FAIL "not every client mounted:$(for _k in $(clients); do printf ' c%s %s;' "$_k" "$(cat "$S/res.$_k")"; done)"
		all umount >/dev/null
		wait_all umount 120
		return 1
	fi
	_want=0
	for _k in $(clients); do _want=$((_want + $(want "$_k" "$_n"))); done
	progress "nconnect=$_n: checking every connection on both sides ($_want in all)"
	neg_check "$_n" mount -
	_conns=$(conns | grep -c .)
	[ "$_conns" -gt "$MAXCONNS" ] && MAXCONNS=$_conns
	mem_snap "load-$_n"
	_used=$(($(mem_used "load-$_n") - $(mem_used "base-$_n")))
	_slab=$(awk 'FILENAME == ARGV[1] { a += $2; next } { b += $2 }
		END { printf "%d\n", (b - a) / 1024 }' "$S/slab.base-$_n" "$S/slab.load-$_n")
	_pc=$(awk -v u="$_used" -v c="$_conns" 'BEGIN { if (c) printf "%.0f", u / c; else print "-" }')
	_ps=$(awk -v u="$_slab" -v c="$_conns" 'BEGIN { if (c) printf "%.0f", u / c; else print "-" }')
	_top=$(slab_top "base-$_n" "load-$_n")
	status "n$_n-memory" INFO "$_conns connections: +$_used KiB in use, +$_slab KiB of it in slab objects: $_pc KiB per connection ($_ps in slabs; grew most: ${_top:-none})"
	progress "nconnect=$_n: $_conns connections, $_pc KiB each on the server; fio on every client, faults: ${SCALE_FAULTS:-none}"
	_bad=$(all fio-start)
	[ -z "$_bad" ] || status "n$_n-fio-start" FAIL "fio did not start on$_bad"
	sleep "${SCALE_WARMUP:-20}"
	_fi=0
	for _kind in ${SCALE_FAULTS:-}; do
		_fi=$((_fi + 1))
		fault "$_n" "$_kind" "$_fi"
		sleep "${SCALE_GAP:-10}"
	done
	progress "nconnect=$_n: stopping fio (the pass under way ends first)"
	all fio-stop >/dev/null
	wait_all fio 900
	_passes=0 _failed=0 _verify=0 _ops=0
	for _k in $(clients); do
		# (an empty number would end this shell: ash's arithmetic)
		_r=$(cat "$S/res.$_k")
		_v=$(kv "$_r" passes) && _passes=$((_passes + ${_v:-0}))
		_v=$(kv "$_r" failed) && _failed=$((_failed + ${_v:-0}))
		_v=$(kv "$_r" verify) && _verify=$((_verify + ${_v:-0}))
		_v=$(kv "$_r" ops) && _ops=$((_ops + ${_v:-0}))
		case $_r in ok*passes=*) ;; *) status "n$_n-fio-c$_k" FAIL "fio did not end: $_r" ;; esac
	done
	check "n$_n-fio" "$NCLIENTS client(s): $_passes passes, $_failed failed, $_verify verify errors, $_ops I/Os" \
		[ "$_failed$_verify" = 00 ]
	progress "nconnect=$_n: unmounting"
	_bad=$(all umount)
	_go=0
	if ! wait_all umount 300 || [ -n "$_bad" ]; then
		status "n$_n-umount" FAIL "not every client unmounted:$(for _k in $(clients); do printf ' c%s %s;' "$_k" "$(cat "$S/res.$_k")"; done)"
		_go=1
	fi
	# a mount that did not come back would hang the next steps too
	[ "$RECOVERED" = "$FAULTS_RUN" ] || _go=1
	_res=PASS
	[ "$FAILS" = "$_f0" ] || _res=FAIL
	echo "RPCRDMA-SCALE-STEP: n=$_n clients=$NCLIENTS nconnect_rdma=$(kv "$(cat "$S/info.0")" nconnect_rdma) conns=$_conns want=$_want neg_server=$NEG_S_OK/$NEG_S_ALL neg_client=$NEG_C_OK/$NEG_C_ALL faults=$FAULTS_RUN recovered=$RECOVERED recover_max_s=${REC_MAX:--} renegotiated=$RENEG_OK/$RENEG_ALL passes=$_passes failed=$_failed verify=$_verify ops=$_ops used_kib=$_used slab_kib=$_slab per_conn_kib=$_pc slab_per_conn_kib=$_ps result=$_res"
	return $_go
}

scale_main() {
	# guest/server.sh traces every Send for scenarios that count them;
	# nothing here does, and under TCG each event costs the one vCPU
	echo 0 >"$TRACING/events/rpcrdma/svcrdma_post_send/enable" 2>/dev/null
	# every connection's negotiation, in a trace instance of its own
	mkdir -p "$NEG"
	echo 4096 >"$NEG/buffer_size_kb"
	echo 1 >"$NEG/events/rpcrdma_cm/rpcrdma_cm_negotiate/enable" ||
		status scale-trace FAIL "no tracepoint rpcrdma_cm:rpcrdma_cm_negotiate (is the module under test loaded?)"
	echo 1 >"$NEG/tracing_on"
	hung_watch
	heartbeat
	MAXREQ=$(sysctl -n sunrpc.svc_rdma.max_req_size)
	SRVSEND=$(cat /sys/module/rpcrdma/parameters/server_send_size)
	MAXCONNS=0
	progress "nfsd ready (max_req_size $MAXREQ, server_send_size ${SRVSEND:-?}, $(rdma_links | wc -l) RDMA links); waiting for $NCLIENTS client(s)"
	_t=0
	for _k in $(clients); do
		while :; do
			cctl "$_k" info >"$S/info.$_k"
			grep -q profile= "$S/info.$_k" && break
			if [ $_t -ge "${SCALE_CLIENT_WAIT:-600}" ]; then
				status "client-c$_k" FAIL "client $_k ($(client_ip "$_k")) did not answer within ${SCALE_CLIENT_WAIT:-600} s"
				break
			fi
			sleep 3
			_t=$((_t + 3))
		done
		step "client $_k: $(cat "$S/info.$_k")"
	done
	if [ "$FAILS" = 0 ]; then
		for _n in $SCALE_NCONNECT; do
			scale_step "$_n" && continue
			status scale-stopped FAIL "nconnect=$_n left a mount that did not recover or unmount: no later step"
			break
		done
	fi
	echo "RPCRDMA-SCALE-MAX: conns=$MAXCONNS"
	all "done" >/dev/null
	if [ "$FAILS" = 0 ]; then
		status scale-done PASS "every step passed; at most $MAXCONNS connections"
	else
		status scale-done FAIL "$FAILS check(s) failed"
	fi
}

SERVER_MAIN=scale_main
# shellcheck source=scripts/vm/guest/server.sh
. /vm/server.sh
