#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 4 (client guest). Loaded with rpcrdma.pdata=0 by the host.
# A side with pdata=0 sends no private data and ignores the peer's; the
# other side falls back to 1024/1024 and R clear (RFC 8797 5.1).
# Parameters apply to the next connection, so each case changes them
# and mounts again (server side through "srv param"). With private data
# on both sides the defaults give client-to-server 4096 and
# server-to-client 8192 (the client Receives 8192, the server's
# server_send_size is 8192).
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
trace_on xprtrdma_inline_thresh
# The absent reason is the module's own word; only its presence is fixed.
abs() { echo "peer_send=1024 peer_recv=1024 peer_r=0 send=1024 recv=1024 reminv=0"; }
# absent_both CASE: both sides report peer_pdata=absent:<reason>.
absent_both() {
	_d="client: $(kv "$CLIENT_CONN" peer_pdata), server: $(kv "$SERVER_CONN" peer_pdata)"
	case "$CLIENT_CONN|$SERVER_CONN" in
	*peer_pdata=absent:*\|*peer_pdata=absent:*) status "$1-absent" PASS "$_d" ;;
	*) status "$1-absent" FAIL "$_d (want absent:<reason> on both)" ;;
	esac
}

phase client-pdata0 4.2 "role=client $(abs)" "role=server $(abs)" no 1024/1024
absent_both client-pdata0
set_param pdata 1

mount_nfs 4.2 && srv param pdata 0 && umount_nfs
phase server-pdata0 4.2 "role=client $(abs)" "role=server $(abs)" no 1024/1024
absent_both server-pdata0

mount_nfs 4.2 && srv param pdata 1 && umount_nfs
set_param remote_invalidate 0
phase client-noreminv 4.2 \
	"role=client peer_pdata=present peer_send=8192 peer_recv=4096 peer_r=1 send=4096 recv=8192 reminv=0" \
	"role=server peer_pdata=present peer_send=4096 peer_recv=8192 peer_r=0 send=8192 recv=4096 reminv=0" \
	no 4096/8192
set_param remote_invalidate 1

mount_nfs 4.2 && srv param remote_invalidate 0 && umount_nfs
phase server-noreminv 4.2 \
	"role=client peer_pdata=present peer_send=8192 peer_recv=4096 peer_r=0 send=4096 recv=8192 reminv=0" \
	"role=server peer_pdata=present peer_send=4096 peer_recv=8192 peer_r=1 send=8192 recv=4096 reminv=0" \
	no 4096/8192
finish
