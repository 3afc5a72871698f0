# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 11: a connection request reaches a listener that no nfsd
# thread will accept, then nfsd stops and frees that listener.
SC_DESC="a connection request waits on a listener with no nfsd thread, then nfsd stops: refused at once (REJ), not left to the CM's MRA timeouts"
sc_run() {
	# shellcheck source=scripts/vm/scenarios/probe-lib.bash
	. "$SCDIR/probe-lib.bash"
	sc_probe_guests || { SC_FAILED=1; SC_DETAIL="the probe could not be built or put in the guests"; return; }
	# PENDING_MODULES=stock: the kernel's own rpcrdma.ko on both sides,
	# which leaves the request pending (the check then expects that)
	local m=${PENDING_MODULES:-ours}
	sc_pair "pending-$m" "$m" "" "$m" "" "$SCDIR/11-pending-listener.client.sh" "C:PENDING_MODULES=$m"
}
