# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 7: hostile and malformed RFC 8797 private data (issue 5).
SC_DESC="probe vs our server (32 crafted + 200 random, 5 Receive Size/ERR_CHUNK, 1 unread Reply flushed at detach, 3 silent peers share one drain wait at nfsd stop, 6.12+), hostile replies vs our client (9), NFS copy across"
sc_run() {
	# shellcheck source=scripts/vm/scenarios/probe-lib.bash
	. "$SCDIR/probe-lib.bash"
	sc_probe_guests || { SC_FAILED=1; SC_DETAIL="the probe could not be built or put in the guests"; return; }
	# alone: 200-260 s; two VM pairs on 2 cores: up to 470 s (2026-11-28)
	local VM_TIMEOUT=${VM_TIMEOUT_07:-600}
	sc_pair adversarial ours "" ours "" "$SCDIR/07-adversarial.client.sh"
}
