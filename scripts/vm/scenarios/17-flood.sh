# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 17: connection floods (issue 53 item 3). rpcrdma-cm-probe
# --flood makes FLOOD_N (default 10000) connect/disconnect cycles from
# the client guest against this module's nfsd, in blocks of 10: 4 with
# the probe's RFC 8797 message, 3 with --fuzz inputs, 1 abandoned at the
# request (its CM ID destroyed 0..100 ms after it), 1 abandoned at the
# reply (destroyed with the server's answer unread, so no RTU), 1 that
# the server refuses (no RDMA Read resources offered), while 2 MiB
# copies are read back and sha256-checked. The server must then hold
# what it held for the mount alone (debugfs lines, rpcrdma PDs and CM
# IDs), its SUnreclaim be back within max(2 MiB, 5 %) of the baseline
# taken before the flood (the reasons in 17-flood.client.sh), and on a
# kmemleak kernel no new leak be reported. Not in make check or
# check-full (kernels.tab lists scenarios explicitly):
#   VMTEST_ONLY=17 scripts/vm/vmtest.sh                 (or make vmtest)
#   FLOOD_N=100000 VMTEST_ONLY=17 ...
#   make debugtest KVER=... DEBUGTEST_SCENARIOS=17      (KASAN, kmemleak)
# FLOOD_SEED (default 8797) repeats a run (the order within each block
# and the hostile inputs); VM_TIMEOUT_17 overrides the client script's
# budget (900 s plus half a second per cycle; not measured yet: scenario
# 16's allowance per connection). FLOOD_SETTLE (default 180) is how
# many seconds the server may take to hold no more than the mount
# after the flood. The wire is not recorded unless FLOOD_PCAP=1: ten
# thousand CM exchanges beside the copy loop make a capture of GBs,
# and scenario 16 checks the wire for such inputs already.
SC_DESC="probe --flood vs our server (good, hostile, abandoned, refused), NFS copies sha256-checked across, memory back to baseline"
sc_run() {
	local n=${FLOOD_N:-10000} seed=${FLOOD_SEED:-8797}
	local settle=${FLOOD_SETTLE:-180} v
	for v in "$n" "$seed" "$settle"; do
		[[ $v =~ ^[1-9][0-9]*$ ]] ||
			die "scenario 17: FLOOD_N, FLOOD_SEED and FLOOD_SETTLE are positive numbers, not '$v'"
	done
	# shellcheck source=scripts/vm/scenarios/probe-lib.bash
	. "$SCDIR/probe-lib.bash"
	sc_probe_guests || { SC_FAILED=1; SC_DETAIL="the probe could not be built or put in the guests"; return; }
	local VM_TIMEOUT=${VM_TIMEOUT_17:-$((900 + n / 2))}
	[ "${FLOOD_PCAP:-0}" = 1 ] || local VM_PCAP=
	SC_DESC="probe --flood: $n cycles vs our server (seed $seed), NFS copies sha256-checked across"
	sc_pair flood ours "" ours "" "$SCDIR/17-flood.client.sh" \
		FLOOD_N="$n" FLOOD_SEED="$seed" FLOOD_SETTLE="$settle"
	# the rates, counts and memory on the result line, PASS or FAIL
	local f m k
	f=$(vm_status "$VM_CLOG" flood | grep -oE ' (cycles|per_second|good|hostile|abandon_req|abandon_rep|refuse|established|rejected|abandoned|failed|unexpected)=[0-9./]+' | xargs)
	m=$(vm_status "$VM_CLOG" flood-memory | grep -oE 'SUnreclaim=[0-9?]+->[0-9?]+ KiB \(\+-?[0-9]+, margin [0-9]+' | sed 's/ (/ /')
	k=$(vm_result "$VM_SLOG" server-kmemleak)
	SC_DESC+="; ${f:-flood not reached}; ${m:-memory not measured}${k:+; server kmemleak $k}"
}
