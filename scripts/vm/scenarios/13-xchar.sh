# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 13: experimental RPC-over-RDMA Version Two transport
# properties (draft-dnoveck-nfsv4-rpcrdma-xcharext-03, issue 42), not in
# make check's lists: two rpcrdma-cm-probe --v2 over rxe, then over siw.
SC_DESC="Version Two transport properties: two probe --v2 exchange CONNPROP, REQPROP/RESPROP, UPDPROP and NULL Calls inline and by chunk, and carry on when one side lacks the extension (INVAL_OPTION), over rxe and siw; every Send fits the receiver's size in force on the wire, none follows an INVAL_OPTION"
sc_run() {
	# shellcheck source=scripts/vm/scenarios/probe-lib.bash
	. "$SCDIR/probe-lib.bash"
	sc_probe_guests || { SC_FAILED=1; SC_DETAIL="the probe could not be built or put in the guests"; return; }
	# The rig's own wire check (wirecheck.sh) holds Version One
	# connections to RFC 8797's thresholds; these are Version Two, which
	# wirecheck-v2.py checks instead. The NFS mount is the rig's control
	# channel only.
	local VM_WIRECHECK=0
	VM_PCAP=1 sc_pair xchar-rxe ours "" ours "" "$SCDIR/13-xchar.client.sh"
	sc_wire_v2 xchar-rxe
	sc_siw_ko || { SC_FAILED=1; SC_DETAIL+="${SC_DETAIL:+; }siw.ko could not be built (make siw)"; return; }
	local VM_RDMA=siw
	VM_PCAP=1 sc_pair xchar-siw ours "" ours "" "$SCDIR/13-xchar.client.sh"
	sc_wire_v2 xchar-siw
}

# sc_wire_v2 RUN: replay the pair's capture (scripts/vm/wirecheck-v2.py):
# every Send the probes reported (the client guest's RPCRDMA-V2SENT
# lines) must be on the wire, and fit the receiver's size in force; no
# property message may follow an RDMA2_ERR_INVAL_OPTION to its sender.
sc_wire_v2() {
	local dir=$VM_RUNDIR/$SC_NUM-$1 out
	if [ ! -s "$dir/wire.pcap" ]; then
		SC_FAILED=1
		SC_DETAIL+="${SC_DETAIL:+; }$1: no wire.pcap"
		return
	fi
	mkdir -p "$dir/tshark-home"
	grep -aoE 'RPCRDMA-V2SENT: [0-9]+ [a-z]+ [0-9]+ [A-Z0-9_]+ [0-9]+' \
		"$dir/client.log" | cut -d' ' -f2- >"$dir/v2-sent.txt"
	out=$(python3 "$VMDIR/wirecheck-v2.py" --show --home "$dir/tshark-home" \
		--expect "$dir/v2-sent.txt" "$dir/wire.pcap" 2>&1)
	local rc=$?
	printf '%s\n' "$out" >"$dir/wire-v2.txt"
	grep -v '^wire-v2: frame' <<<"$out" | sed 's/^/    /' >&2
	if [ $rc -ne 0 ]; then
		SC_FAILED=1
		SC_DETAIL+="${SC_DETAIL:+; }$1: $(grep -m1 'FAIL' <<<"$out")"
	fi
}
