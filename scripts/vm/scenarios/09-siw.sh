# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 9: NFSv4.2 over soft-iWARP (siw), issue 7.
SC_DESC="siw: ours both sides (c->s 4096, s->c 8192, reminv) + probe set with exact lengths; stock client->our server"
sc_run() {
	# shellcheck source=scripts/vm/scenarios/probe-lib.bash
	. "$SCDIR/probe-lib.bash"
	sc_siw_ko || { SC_FAILED=1; SC_DETAIL="siw.ko could not be built (scripts/siw.sh, make siw)"; return; }
	sc_probe_guests || { SC_FAILED=1; SC_DETAIL="the probe could not be built or put in the guests"; return; }
	local VM_RDMA=siw
	# the pcap of the first pair shows the MPA frames (private data)
	VM_PCAP=${VM_PCAP:-1} sc_pair siw-ours ours "" ours "" "$SCDIR/09-siw.client.sh" C:SIW_PART=ours
	sc_pair siw-stock-client ours "" stock "" "$SCDIR/09-siw.client.sh" C:SIW_PART=stock-client
}
