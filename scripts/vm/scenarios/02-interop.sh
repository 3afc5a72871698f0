# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 2: interoperability with Debian's stock rpcrdma.ko.
SC_DESC="stock client->our server, our client->stock server: I/O exact, peer values recorded, the stock server's Send With Invalidate without R reported by our client"
sc_run() {
	# shellcheck source=scripts/vm/scenarios/probe-lib.bash
	. "$SCDIR/probe-lib.bash"
	sc_probe_guests || { SC_FAILED=1; SC_DETAIL="the probe could not be built or put in the guests"; return; }
	sc_pair stock-client ours "" stock "" "$SCDIR/02-interop.client.sh" C:INTEROP=stock-client
	sc_pair stock-server stock "" ours "" "$SCDIR/02-interop.client.sh" C:INTEROP=stock-server
}
