#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The NFS server guest: exports a tmpfs at /export (NFSv4 pseudo-root,
# so clients mount server:/) over RDMA port 20049, then serves requests
# from the client's scenario script through /export/.ctl (see srv() in
# lib.sh): the client writes "<seq> <command> <args>" to .ctl/req, the
# server runs srv_<command> and writes "<seq>", the output and
# "END <seq>" to .ctl/ack.
#
# /vm/env may set SERVER_SYSCTLS="key=value ..." (sysctl names, applied
# before nfsd starts) and SERVER_THREADS (default 4). A script that
# sources this one may set SERVER_MAIN to one of its functions: it runs
# once nfsd is ready, instead of the srv loop (which then runs beside it).

# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh

EXPORT=/export
CTL=$EXPORT/.ctl

start_nfsd() {
	rpc.nfsd -N 3 --no-udp "${SERVER_THREADS:-4}" ||
		{ status nfsd FAIL "rpc.nfsd failed"; return 1; }
	grep -q rdma /proc/fs/nfsd/portlist ||
		echo "rdma 20049" >/proc/fs/nfsd/portlist ||
		{ status nfsd FAIL "cannot add 'rdma 20049' to /proc/fs/nfsd/portlist"; return 1; }
}

stop_nfsd() {
	rpc.nfsd 0
}

set_sysctls() {
	for s in "$@"; do
		sysctl -w "$s" >/dev/null || { echo "sysctl $s failed"; return 1; }
	done
}

# Commands the client can run here with "srv <command> <args>".
srv_conns() { conns; }
srv_sums() { (cd "$EXPORT" && sha256sum "$@"); }
srv_sysctl() {
	set_sysctls "$@" || return 1
	for s in "$@"; do sysctl "${s%%=*}"; done
}
srv_trace() { trace_lines "${1:-svcrdma_post_send}"; }
srv_trace_clear() { trace_clear; echo cleared; }
# restart the listener (and all connections) with the current settings;
# the console says how long nfsd took to stop (the detaches' drains)
srv_restart() {
	_st=$(up)
	stop_nfsd
	step "server: nfsd stopped in $(echo "$_st $(up)" | awk '{ printf "%.2f", $2 - $1 }') s" >/dev/console
	start_nfsd && echo restarted
}
srv_dmesg() { dmesg | tail -n "${1:-40}"; }
srv_param() { set_param "$1" "$2" && echo "rpcrdma.$1=$(cat "/sys/module/rpcrdma/parameters/$1")"; }
# run a shell command line here (words re-joined with single blanks; no
# globbing survives the request file: quote nothing, glob nothing)
srv_run() { sh -c "$*"; }
# mem: the KiB in use here (mem_used_kib); mem_later SECS: the same
# SECS from now, in the background, for mem_base to print (make bench
# takes the reading without a connection while the umount goes on)
srv_mem() { mem_used_kib; }
srv_mem_later() {
	rm -f /tmp/mem.later
	(sleep "$1"; mem_used_kib >/tmp/mem.later) >/dev/null 2>&1 &
}
srv_mem_base() { cat /tmp/mem.later 2>/dev/null; }
# restart nfsd and, on a kmemleak kernel, scan 20 s later, once the
# closed transports are freed and their release work has run; the
# verdict goes to the console, so it is there even if the client's mount
# hangs later (scenario 10)
srv_restart_scan() {
	srv_restart
	[ -r "$KMEMLEAK" ] || return 0
	(sleep 20; leak_scan server) >/dev/console 2>&1 &
}
# stop nfsd, listen on rdma without an nfsd thread for $1 s (a request
# is queued there and never accepted), then stop nfsd, which frees the
# listener, and start it as usual; in the background, so that this
# answer reaches the client before nfsd stops (scenario 11)
srv_pending_listener() {
	(
		sleep 3
		stop_nfsd
		echo "rdma 20049" >/proc/fs/nfsd/portlist ||
			status pending-listener FAIL "cannot listen on rdma 20049 without nfsd threads"
		step "server: rdma 20049 listening, no nfsd thread, for $1 s"
		sleep "$1"
		# "start": threads come to the queued requests (scenario 12);
		# default: nfsd stops and frees the listener (scenario 11)
		if [ "${2:-stop}" = start ]; then
			step "server: starting nfsd threads for the queued requests"
		else
			stop_nfsd
			step "server: nfsd stopped; starting it again"
		fi
		start_nfsd
	) >/dev/console 2>&1 &
	echo scheduled
}
# take eth0 down for $1 s, $2 s from now (default 0), in the background,
# so that this answer reaches the client first (scenario 14); the console
# says when the link went and came back
srv_linkdown() {
	(
		sleep "${2:-0}"
		step "server: eth0 down for $1 s"
		ip link set eth0 down
		sleep "$1"
		ip link set eth0 up
		step "server: eth0 up"
	) >/dev/console 2>&1 &
	echo scheduled
}
# restart nfsd $1 s from now, in the background: the answer reaches the
# client first, which may then stop its own egress (scenario 14's
# LD_REPRO=tx-stall: the server's DREQs still reach it, its packets
# stay queued)
srv_restart_in() {
	(
		sleep "${1:-5}"
		srv_restart
	) >/dev/console 2>&1 &
	echo scheduled
}
# stale_watch PEER MAX: from now on, every second, whether the registry
# still lists the connection of PEER (client address:port), until it is
# gone or MAX s have passed (in the background); stale_result says
# "gone S", "listed S" (MAX reached) or "watching S", S the seconds
# since the watch began; stale_trace PORT prints the connection events
# recorded for that client port since (LD_REPRO=dreq-loss)
srv_stale_watch() {
	[ -r "$CONNS" ] || { echo "no $CONNS: not this module"; return 0; }
	trace_faults
	rm -f /tmp/stale.result
	up >/tmp/stale.t0
	(
		_t0=$(cat /tmp/stale.t0)
		while :; do
			_e=$(awk -v a="$_t0" '{ printf "%.1f", $1 - a }' /proc/uptime)
			if ! grep -aq "role=server peer=$1 " "$CONNS"; then
				echo "gone $_e" >/tmp/stale.result
				step "server: the transport of $1 is gone, $_e s after the watch began"
				break
			fi
			if awk -v e="$_e" -v m="$2" 'BEGIN { exit !(e >= m) }'; then
				echo "listed $_e" >/tmp/stale.result
				step "server: the transport of $1 is still listed $_e s after the watch began"
				break
			fi
			sleep 1
		done
	) >/dev/console 2>&1 &
	echo watching
}
srv_stale_result() {
	if [ -e /tmp/stale.result ]; then
		cat /tmp/stale.result
	elif [ -e /tmp/stale.t0 ]; then
		echo "watching $(awk -v a="$(cat /tmp/stale.t0)" '{ printf "%.1f", $1 - a }' /proc/uptime)"
	else
		echo "no watch"
	fi
}
srv_stale_trace() {
	grep -av '^#' "$TRACING/trace" | grep -v svcrdma_post_send |
		grep -aE ":$1([^0-9]|\$)" | tail -n 60
}
# debug kernels: kmemleak verdict and detector line on the console
srv_leakcheck() { { leak_scan server; detectors server; } >/dev/console 2>&1; echo scanned; }

serve() {
	last=0
	while :; do
		req=$(cat "$CTL/req" 2>/dev/null)
		# shellcheck disable=SC2086
		set -- $req
		if [ $# -ge 2 ] && [ "$1" -gt "$last" ] 2>/dev/null; then
			last=$1
			cmd=$2
			shift 2
			step "srv $last: $cmd $*"
			{
				echo "$last"
				case $cmd in
				conns|sums|sysctl|trace|trace_clear|restart|restart_in|restart_scan|pending_listener|dmesg|param|run|mem|mem_later|mem_base|leakcheck|linkdown|stale_watch|stale_result|stale_trace) "srv_$cmd" "$@" ;;
				*) echo "unknown command $cmd" ;;
				esac
				echo "END $last"
			} >"$CTL/ack.new" 2>&1
			# in place, so the client's open file sees the new content
			cat "$CTL/ack.new" >"$CTL/ack"
			sed 's/^/RPCRDMA-SRV: /' "$CTL/ack.new"
		fi
		usleep 100000
	done
}

step "server: preparing export"
# shellcheck disable=SC2086
[ -n "$SERVER_SYSCTLS" ] && { set_sysctls $SERVER_SYSCTLS || status server-sysctl FAIL "$SERVER_SYSCTLS"; }
mount -t tmpfs -o size=200m tmpfs "$EXPORT"
mkdir -p "$CTL"
echo 0 >"$CTL/ack"
: >"$CTL/req"
chmod -R 777 "$EXPORT"
for s in $SIZES; do
	head -c "$s" /dev/urandom >"$EXPORT/r_$s"
done
echo "$EXPORT *(rw,fsid=0,no_root_squash,insecure,no_subtree_check,sync)" >/etc/exports
mount -t nfsd nfsd /proc/fs/nfsd || status nfsd FAIL "cannot mount the nfsd filesystem"
mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs 2>/dev/null
# NFSv4 client tracking through the nfsdcld daemon, as Debian's
# nfs-kernel-server runs it: kernels without the legacy tracking (Debian's
# 7.x) otherwise cannot end the grace period early and stall first OPENs.
mkdir -p /var/lib/nfs/nfsdcld
nfsdcld || step "nfsdcld did not start; the kernel's legacy client tracking is used if it has one"
echo 10 >/proc/fs/nfsd/nfsv4leasetime
echo 10 >/proc/fs/nfsd/nfsv4gracetime
exportfs -ra || status nfsd FAIL "exportfs failed"
rpc.mountd -N 2 -N 3 -u || status nfsd FAIL "rpc.mountd failed"
trace_on svcrdma_post_send
if start_nfsd; then
	# A fresh boot has no NFSv4 state to reclaim: end the grace period
	# now rather than make every first OPEN wait for it (about 10 s per
	# VM pair). srv_restart keeps the normal grace period.
	# (7.x with nfsdcld and nothing to reclaim has ended it already and
	# answers EBUSY.)
	echo Y >/proc/fs/nfsd/v4_end_grace 2>/dev/null ||
		[ "$(cat /proc/fs/nfsd/v4_end_grace)" = Y ] ||
		step "cannot end the NFSv4 grace period; first OPENs wait for it"
	status server-ready PASS "listening on $VM_SERVER_IP rdma 20049 ($(tr '\n' ' ' </proc/fs/nfsd/portlist))"
	# readiness beacon for the client (wait_server in lib.sh)
	nc -ll -p "$READY_PORT" -e /bin/true &
	# SERVER_MAIN: a function of the script that sourced this one (make
	# scale's coordinator) runs here, with the srv channel behind it
	if [ -n "${SERVER_MAIN:-}" ]; then
		serve &
		"$SERVER_MAIN"
	else
		serve
	fi
else
	status server-ready FAIL "nfsd did not start; see the messages above"
fi
