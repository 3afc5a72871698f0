#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 1 (client guest): defaults on both sides (client sysctls
# rdma_max_inline_write 4096, rdma_max_inline_read 8192; server
# max_req_size 4096, server_send_size 8192; rxe supports remote
# invalidation). The client advertises Send Size 4096, Receive Size
# 8192; the server Receive Size 4096 and, to a client that Receives
# 8192, Send Size 8192: client-to-server 4096, server-to-client 8192.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
trace_on xprtrdma_inline_thresh
R="peer_pdata=present peer_r=1 reminv=1"
CL="role=client $R peer_send=8192 peer_recv=4096 send=4096 recv=8192"
SV="role=server $R peer_send=4096 peer_recv=8192 send=8192 recv=4096"
phase v41 4.1 "$CL" "$SV" yes 4096/8192
phase v42 4.2 "$CL" "$SV" yes 4096/8192
# this module loaded, and its server conformed
status_tool status-ok 0 ok
finish
