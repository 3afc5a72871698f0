#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 15 (client guest). FIXES=both: the module under test on both
# sides; stock-client: Debian's module here, the module under test on
# the server; stock-server: the other way round. Nothing here reads
# debugfs: what the server advertised is asserted on the wire (expect,
# checked by wirecheck.py), the thresholds by xprtrdma_inline_thresh,
# Send With Invalidate by the server's svcrdma_post_send events, and
# the server's bound on its Sends by the probe's READs without chunks.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
trace_on xprtrdma_inline_thresh
case $FIXES in
both)
	# the server advertises R (rxe can post Send With Invalidate) and
	# uses it: both sides set R. The fixes leave the sizes at 4096
	# (MODULE=fixes); the drop-in module (MODULE=detect: its
	# client_recv_size parameter tells it, the fixes-only module has no
	# parameters) and the features series' (MODULE=features, patches
	# 10 and 11) have their client Receive 8192 and their server offer
	# that client a Send Size of 8192 (server_send_size,
	# SVC_RDMA_CM_SEND_SIZE), the probe's connections below 4096 (they
	# Receive 2048 or 1024) max_req_size, 4096: the wire's Send Size
	# differs per connection, and the NFS mount's shows in the
	# threshold, 8192
	case $MODULE in
	features) recv8k=yes ;;
	fixes) recv8k= ;;
	detect)
		recv8k=
		[ -e /sys/module/rpcrdma/parameters/client_recv_size ] && recv8k=yes
		;;
	*) status fixes FAIL "MODULE=$MODULE unknown" ;;
	esac
	if [ -n "$recv8k" ]; then
		expect rep_r=1 rep_recv=4096
		phase fixes-v42 4.2 - - yes 4096/8192
	else
		expect rep_r=1 rep_send=4096 rep_recv=4096
		phase fixes-v42 4.2 - - yes 4096/4096
	fi
	# The client's Receive Size bounds the server's Sends: a READ of D
	# octets without chunks takes a 96 + D octet Reply; one that does not
	# fit comes back as a 20-octet ERR_CHUNK and the connection stays.
	P=/usr/local/bin/rpcrdma-cm-probe
	if [ -x $P ] && modprobe rdma_ucm; then
		# shellcheck source=scripts/vm/guest/probe-cases.sh
		. /vm/probe-cases.sh
		SCASE_TAG=fixes
		F=r_65536
		rcase read-2048 "--recv-size 2048 --read $F:1952 --read $F:1953 --read $F:1000" \
			"rdma_msg/2048:nfs=0:data=1952 rdma_error/20:ERR_CHUNK rdma_msg/1096:nfs=0:data=1000"
		# no RFC 8797 message: 1024 (RFC 8797 Section 5.1)
		rcase read-none "--no-pdata --read $F:928 --read $F:929" \
			"rdma_msg/1024:nfs=0:data=928 rdma_error/20:ERR_CHUNK"
		# the Receive Size, not the Send Size, bounds the server's Sends
		rcase read-send-big "--send-size 65536 --recv-size 1024 --read $F:929" \
			"rdma_error/20:ERR_CHUNK"
	else
		status fixes-probe FAIL "no $P or no rdma_ucm in the guest"
	fi
	;;
stock-client)
	# Debian's client sets R; the fixed server now sets it too
	expect rep_r=1
	phase fixes-stock-client 4.2 - - yes 4096/4096
	;;
stock-server)
	# Debian's server still advertises R clear (what the fix changes)
	expect rep_r=0
	phase fixes-stock-server 4.2 - - - 4096/4096
	;;
*) status fixes FAIL "FIXES=$FIXES unknown" ;;
esac
finish
