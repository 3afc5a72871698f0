# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 1: this module on both sides, NFSv4.1 then NFSv4.2.
SC_DESC="ours<->ours, NFSv4.1+4.2: c->s 4096, s->c 8192, R on both, Send With Invalidate used"
sc_run() {
	# rpcrdma-cm-status in the guests (make tools), for its verdict
	# shellcheck source=scripts/vm/scenarios/probe-lib.bash
	. "$SCDIR/probe-lib.bash"
	sc_probe_guests || warn "no rpcrdma-cm-status in the guests: the status check fails"
	sc_pair ours-both ours "" ours "" "$SCDIR/01-ours-both.client.sh"
}
