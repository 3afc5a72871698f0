# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 15: the fixes sent upstream, alone. make patches-check runs it
# with RPCRDMA_KO=build/patches/fixes/<release>/rpcrdma.ko, a module
# with those fixes and nothing else: no debugfs, no parameters, so every
# check reads the wire (wirecheck.py), the client's tracepoints and
# mountstats, and the probe's view. The drop-in module passes it too.
# make patches-check also runs it with the features series' module
# (build/patches/features/rpcrdma.ko), as SC15_MODULE=features: like the
# drop-in module, and unlike the fixes-only one (SC15_MODULE=fixes), its
# client Receives 8192 and its server offers such a client 8192. Unset,
# the client tells the drop-in module by its parameters.
SC_DESC="the fixes alone: REP R=1, Send With Invalidate only when both set R, no Send above the client's Receive Size, stock both ways"
sc_run() {
	# shellcheck source=scripts/vm/scenarios/probe-lib.bash
	. "$SCDIR/probe-lib.bash"
	sc_probe_guests || { SC_FAILED=1; SC_DETAIL="the probe could not be built or put in the guests"; return; }
	sc_pair fixes-both ours "" ours "" "$SCDIR/15-fixes.client.sh" C:FIXES=both \
		C:MODULE="${SC15_MODULE:-detect}"
	sc_pair fixes-stock-client ours "" stock "" "$SCDIR/15-fixes.client.sh" C:FIXES=stock-client
	sc_pair fixes-stock-server stock "" ours "" "$SCDIR/15-fixes.client.sh" C:FIXES=stock-server
}
