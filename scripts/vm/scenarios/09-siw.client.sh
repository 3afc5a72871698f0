#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 9 (client guest), over siw (iWARP: the private data travels in
# the MPA Request/Reply frames; siw hides its 4-octet MPAv2 header, so the
# ULP receives exactly the octets the peer sent, no padding).
#
# siw sets IB_DEVICE_MEM_MGT_EXTENSIONS (siw_query_device) and implements
# Send With Invalidate, so this module sets R on both sides: reminv=1,
# and the server must send some Sends With Invalidate.
#
# SIW_PART=ours: this module both sides: NFSv4.2 data, client-to-server
#   4096, server-to-client 8192 (the client's Receive Size and the
#   server's server_send_size), reminv;
#   then the probe against the server with short/exact/offset/long
#   private data, exact expected values (lengths matter on iWARP).
# SIW_PART=stock-client: Debian's stock client against this server.
# shellcheck disable=SC2086 # ABS below is three arguments on purpose
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
P=/usr/local/bin/rpcrdma-cm-probe
SRVCONNS=/sys/kernel/debug/rpcrdma_cm/connections
SRVTRACE=/sys/kernel/tracing/trace
NEG=rpcrdma_cm_negotiate
# the server's advertisement as the probe must decode it: 8 octets
# exactly; scase puts in the Send Size it offered that probe (@SEND@)
SRV_ADV='8 "status":"present","offset":0,"version":1,"remote_inv":true,"send_size":@SEND@,"recv_size":4096}'
trace_on xprtrdma_inline_thresh
check rdma-siw "RDMA link: $(rdma link show 2>/dev/null | head -n 1)" sh -c 'rdma link show | grep -q siw'

case $SIW_PART in
stock-client)
	phase siw-stock-client 4.2 - \
		"role=server peer_pdata=present peer_send=4096 peer_recv=4096 peer_r=1 send=4096 recv=4096 reminv=1" \
		yes 4096/4096
	finish
	exit 0
	;;
esac

echo 1 >$TRACING/events/rpcrdma_cm/$NEG/enable || status trace FAIL "no rpcrdma_cm:$NEG"
phase siw-ours 4.2 \
	"role=client peer_pdata=present peer_send=8192 peer_recv=4096 peer_r=1 send=4096 recv=8192 reminv=1" \
	"role=server peer_pdata=present peer_send=4096 peer_recv=8192 peer_r=1 send=8192 recv=4096 reminv=1" \
	yes 4096/8192
_ev=$(trace_lines $NEG | grep "role=client" | tail -n 1)
echo "RPCRDMA-TRACE: client $_ev"
expect_kv siw-ours-client-event "$_ev" "peer_pdata=present peer_send=8192 peer_recv=4096 peer_r=1 local_send=4096 local_recv=8192 local_r=1 send=4096 recv=8192 reminv=1"

# ---- the probe over siw ------------------------------------------------------
[ -x $P ] || { status probe FAIL "no $P in the guest"; finish; exit 1; }
modprobe rdma_ucm || status probe FAIL "modprobe rdma_ucm failed"
mount_nfs 4.2 || { finish; exit 1; }
srv run /sbin/modprobe rdma_ucm >/dev/null
srv run echo 1 \>$TRACING/events/rpcrdma_cm/$NEG/enable >/dev/null
show_conns
NFSPEER=$(kv "$SERVER_CONN" peer)

# shellcheck source=scripts/vm/guest/probe-cases.sh
. /vm/probe-cases.sh
SCASE_TAG=siw
SCASE_WANT=$SRV_ADV
# ABS is three arguments on purpose
# shellcheck disable=SC2086
ABS="1024 1024 0"
ID=f6ab0e18
scase none "--no-pdata" "$(exp absent:no_data $ABS)"
scase len-3 "--pdata f6ab0e" "$(exp absent:no_ident $ABS)"
scase len-4 "--pdata $ID" "$(exp absent:truncated $ABS)"
scase len-5 "--pdata ${ID}01" "$(exp absent:truncated $ABS)"
scase len-7 "--pdata ${ID}010103" "$(exp absent:truncated $ABS)"
scase len-8 "--pdata ${ID}01010102" "$(exp present 2048 3072 1)"
scase len-8-at-2 "--pdata 5a5a${ID}0101" "$(exp absent:truncated $ABS)"
scase offset-3 "--pdata 000000${ID}01000303" "$(exp present 4096 4096 0)"
scase len-16 "--pdata ${ID}010102015a5a5a5a5a5a5a5a" "$(exp present 3072 2048 1)"
scase len-56 "--pdata $(head -c 48 /dev/zero | od -An -v -tx1 | tr -d ' \n')${ID}010100ff" "$(exp present 1024 262144 1)"
scase default "" "$(exp present 4096 4096 1)"
# a Version Two client over iWARP: ERR_VERS 1..1, and the server still
# answers over the NFS mount (a full data_check here took 40 s of a
# 240-s budget under load)
v2case siw-v2-err-vers
check siw-after-v2 "the server answers srv over NFS after the Version Two client" \
	[ "$(srv run echo alive)" = alive ]
umount_nfs
finish
