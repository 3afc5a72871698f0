#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 1 (client guest): defaults on both sides (client sysctls
# 4096/4096, server max_req_size 4096, rxe supports remote invalidation).
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
trace_on xprtrdma_inline_thresh
ALL="peer_pdata=present peer_send=4096 peer_recv=4096 peer_r=1 send=4096 recv=4096 reminv=1"
phase v41 4.1 "role=client $ALL" "role=server $ALL" yes 4096/4096
phase v42 4.2 "role=client $ALL" "role=server $ALL" yes 4096/4096
# this module loaded, and its server conformed
status_tool status-ok 0 ok
finish
