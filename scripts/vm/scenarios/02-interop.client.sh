#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 2 (client guest). INTEROP=stock-client: this guest runs the
# stock module (advertises 4096/4096, R=1), the server ours.
# INTEROP=stock-server: the server is stock (advertises 4096/4096 but
# R=0, yet posts Send With Invalidate when the client set R, DESIGN.md
# section 2); this client must record peer_r=0 and reminv=0.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
trace_on xprtrdma_inline_thresh
case $INTEROP in
stock-client)
	phase stock-client 4.2 - \
		"role=server peer_pdata=present peer_send=4096 peer_recv=4096 peer_r=1 send=4096 recv=4096 reminv=1" \
		yes 4096/4096
	;;
stock-server)
	phase stock-server 4.2 \
		"role=client peer_pdata=present peer_send=4096 peer_recv=4096 peer_r=0 send=4096 recv=4096 reminv=0" \
		- - 4096/4096
	;;
*) status interop FAIL "INTEROP=$INTEROP unknown" ;;
esac
finish
