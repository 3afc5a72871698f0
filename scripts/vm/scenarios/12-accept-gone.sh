# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 12: nfsd accepts a connection request whose client has gone.
SC_DESC="nfsd threads accept a request whose client gave up while it waited: the failed accept frees the transport (6.1 leaked it)"
sc_run() {
	# shellcheck source=scripts/vm/scenarios/probe-lib.bash
	. "$SCDIR/probe-lib.bash"
	sc_probe_guests || { SC_FAILED=1; SC_DETAIL="the probe could not be built or put in the guests"; return; }
	# rxe whatever VM_RDMA says: over siw the probe's reset reaches the
	# iWARP CM first and no accept runs for that request (tried: 0 failed
	# accepts), so nothing there would test the error path
	local VM_RDMA=rxe
	sc_pair accept-gone ours "" ours "" "$SCDIR/12-accept-gone.client.sh"
}
