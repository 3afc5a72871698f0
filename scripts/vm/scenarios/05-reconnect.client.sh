#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 5 (client guest). The client offers 16384/16384, so the
# server decides the thresholds: client-to-server its max_req_size (its
# Receive Size), server-to-client its Send Size, max(max_req_size,
# min(server_send_size 8192, 16384)): 4096/8192 at the defaults, then
# 8192/8192 and 16384/16384. Raise max_req_size on the server, force a
# reconnect without unmounting, and check the new connection:
#   1. client-side trigger: rewrite the xprt's dstaddr in sunrpc sysfs;
#   2. server-side trigger: restart nfsd (listener and connections).
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
trace_on xprtrdma_inline_thresh
sysctl -w sunrpc.rdma_max_inline_read=16384 sunrpc.rdma_max_inline_write=16384 >/dev/null ||
	status sysctl FAIL "cannot set the client's inline sysctls"

# expect_both PHASE C2S S2C: both debugfs lines show the thresholds
# client-to-server C2S (the server's Receive Size) and server-to-client
# S2C (its Send Size).
expect_both() {
	_w=0
	# the new connection may take a moment to appear on both sides
	while :; do
		show_conns >/dev/null
		[ "$(kv "$CLIENT_CONN" send)" = "$2" ] && [ "$(kv "$CLIENT_CONN" recv)" = "$3" ] &&
			[ "$(kv "$SERVER_CONN" send)" = "$3" ] && [ "$(kv "$SERVER_CONN" recv)" = "$2" ] && break
		[ $_w -ge 20 ] && break
		sleep 1
		_w=$((_w + 1))
	done
	show_conns
	expect_kv "$1-client" "$CLIENT_CONN" "role=client peer_pdata=present peer_send=$3 peer_recv=$2 peer_r=1 send=$2 recv=$3 reminv=1"
	expect_kv "$1-server" "$SERVER_CONN" "role=server peer_pdata=present peer_send=16384 peer_recv=16384 peer_r=1 send=$3 recv=$2 reminv=1"
	_t=$(client_thresh)
	check "$1-thresh" "xprtrdma_inline_thresh send/recv=${_t:-<none>} (want $2/$3)" [ "$_t" = "$2/$3" ]
}

mount_nfs 4.2 || { finish; exit 1; }
expect_both initial 4096 8192
c0=$(mstat connect_count)

srv sysctl sunrpc.svc_rdma.max_req_size=8192 >/dev/null
trace_clear
reconnect
data_check after-sysfs
expect_both sysfs 8192 8192
c1=$(mstat connect_count)
check sysfs-reconnected "connect_count $c0 -> $c1" [ "$c1" -gt "$c0" ]

srv sysctl sunrpc.svc_rdma.max_req_size=16384 >/dev/null
trace_clear
step "restarting the server's nfsd (grace period 10 s)"
srv restart
data_check after-restart
expect_both restart 16384 16384
c2=$(mstat connect_count)
check restart-reconnected "connect_count $c1 -> $c2" [ "$c2" -gt "$c1" ]
umount_nfs
finish
