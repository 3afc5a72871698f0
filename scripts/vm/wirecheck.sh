#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Wire assertions for a VM pair, from the pcap the rig recorded
# (VM_PCAP=1: <logs>/<pair>/wire.pcap):
#
#   scripts/vm/wirecheck.sh PAIRDIR [rxe|siw]
#
# tshark decodes the capture with Wireshark's own infiniband (or
# iwarp_mpa/iwarp_ddp_rdmap) and rpcordma dissectors and with
# tools/wireshark/rpcrdma_cm.lua; scripts/vm/wirecheck.py then checks,
# independently of what the modules say about themselves:
#   - the private data each side sent (CM REQ/REP, MPA request/reply) is
#     what the other side's debugfs line (RPCRDMA-CONN in the console
#     logs) reports;
#   - the server's Replies go as Send With Invalidate exactly when both
#     sides set R (and the Call's chunks name one R_key), never when
#     either clears it; counted both ways;
#   - no Send exceeds the threshold negotiated for its direction
#     (multi-packet Sends reassembled per QP);
#   - Replies to Calls that offered a Reply chunk: RDMA_MSG with the
#     chunk echoed with zero lengths when the server's short_replies is
#     on and the Reply fits, RDMA_NOMSG through the chunk otherwise.
# Prints one "wire: ..." line of counts, and "wire FAIL: ..." lines.
# Exit status: 0 pass, 1 an assertion failed, 2 nothing to check
# (no pcap) or tshark failed.
#
# vm_pair (lib.sh) runs it after each pair that has a pcap, unless
# VM_WIRECHECK=0.

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

dir=${1:?usage: $0 PAIRDIR [rxe|siw]}
rdma=${2:-${VM_RDMA:-rxe}}
pcap=$dir/wire.pcap
home=$BUILD/wireshark/home

if [ ! -s "$pcap" ]; then
	echo "wire: no capture in $pcap (run with VM_PCAP=1)"
	exit 2
fi
need_tshark
mkdir -p "$home"
# tshark runs with an empty HOME: no installed plugin copy, no personal
# preferences. As root, Debian 13's tshark 4.4 runs no Lua script at
# all; the dissector's fields would be missing (wirecheck.py says so).
# Once checked, a RoCE capture keeps only the frames checked (CM and
# Sends: a pair's full capture runs to hundreds of MB) unless
# VM_PCAP_FULL=1; a failed check keeps it whole.
shrink=(--shrink)
[ "${VM_PCAP_FULL:-0}" = 1 ] && shrink=()
python3 "$TOP/scripts/vm/wirecheck.py" --lua "$TOP/tools/wireshark/rpcrdma_cm.lua" \
	--home "$home" --rdma "$rdma" "${shrink[@]}" "$dir"
