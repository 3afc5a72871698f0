#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 3 (client guest). The server runs with max_req_size=8192 (its
# Receive Size, and its Send Size: max(max_req_size, min(server_send_size
# 8192, the client's Receive Size)) is 8192 with a client that Receives
# 8192 or 2048 alike). Client-to-server = min(client send, server recv),
# server-to-client = min(server send, client recv) (RFC 8797 4.2).
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
trace_on xprtrdma_inline_thresh
sysctl -w sunrpc.rdma_max_inline_read=8192 sunrpc.rdma_max_inline_write=16384 >/dev/null ||
	status sysctl FAIL "cannot set the client's inline sysctls"
phase r8192 4.2 \
	"role=client peer_pdata=present peer_send=8192 peer_recv=8192 peer_r=1 send=8192 recv=8192 reminv=1" \
	"role=server peer_pdata=present peer_send=16384 peer_recv=8192 peer_r=1 send=8192 recv=8192 reminv=1" \
	yes 8192/8192
sysctl -w sunrpc.rdma_max_inline_read=2048 >/dev/null ||
	status sysctl FAIL "cannot set sunrpc.rdma_max_inline_read=2048"
phase r2048 4.2 \
	"role=client peer_pdata=present peer_send=8192 peer_recv=8192 peer_r=1 send=8192 recv=2048 reminv=1" \
	"role=server peer_pdata=present peer_send=16384 peer_recv=2048 peer_r=1 send=2048 recv=8192 reminv=1" \
	yes 8192/2048
finish
