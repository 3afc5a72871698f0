# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 16: hostile peers at volume (issue 53 item 2). rpcrdma-cm-probe
# --fuzz sends FUZZ_SERVER_N generated private data blobs (default 2000)
# to this module's server, then answers FUZZ_CLIENT_N (default 100)
# connections of this module's client with generated accept private
# data, while 2 MiB copies are read back and sha256-checked across both.
# Each connection the peer accepted is compared with what RFC 8797 says
# for its input (the probe's oracle, the module's own codec) through the
# peer's rpcrdma_cm_negotiate events. Not in make check or check-full:
#   VMTEST_ONLY=16 scripts/vm/vmtest.sh                 (or make vmtest)
#   FUZZ_SERVER_N=100000 FUZZ_CLIENT_N=10000 VMTEST_ONLY=16 ...
#   make debugtest KVER=... DEBUGTEST_SCENARIOS=16      (KASAN, kmemleak)
# FUZZ_SEED (default 8797) repeats a run; VM_TIMEOUT_16 overrides the
# client script's budget (600 s plus half a second per server input and
# 5 s per client input). Above 5000 server inputs the wire is not
# recorded (FUZZ_PCAP=1 records it anyway): the copy loop alone makes
# hundreds of MB in scenario 7's four minutes.
SC_DESC="probe --fuzz vs our server and our client, NFS copies sha256-checked across"
sc_run() {
	local sn=${FUZZ_SERVER_N:-2000} cn=${FUZZ_CLIENT_N:-100}
	local seed=${FUZZ_SEED:-8797} n
	for n in "$sn" "$cn" "$seed"; do
		[[ $n =~ ^[1-9][0-9]*$ ]] ||
			die "scenario 16: FUZZ_SERVER_N, FUZZ_CLIENT_N and FUZZ_SEED are positive numbers, not '$n'"
	done
	# shellcheck source=scripts/vm/scenarios/probe-lib.bash
	. "$SCDIR/probe-lib.bash"
	sc_probe_guests || { SC_FAILED=1; SC_DETAIL="the probe could not be built or put in the guests"; return; }
	local VM_TIMEOUT=${VM_TIMEOUT_16:-$((600 + sn / 2 + cn * 5))}
	SC_DESC="probe --fuzz: $sn inputs vs our server, $cn vs our client (seed $seed), NFS copies sha256-checked across"
	if [ "$sn" -gt 5000 ] && [ "${FUZZ_PCAP:-0}" != 1 ]; then
		local VM_PCAP=
		SC_DESC+=" (no wire capture above 5000 inputs)"
	fi
	sc_pair fuzz ours "" ours "" "$SCDIR/16-fuzz.client.sh" \
		FUZZ_SERVER_N="$sn" FUZZ_CLIENT_N="$cn" FUZZ_SEED="$seed"
	# the rates and totals on the result line, PASS or FAIL
	local s c
	s=$(vm_status "$VM_CLOG" fuzz-server | grep -oE 'inputs=[0-9]+|seconds=[0-9.]+|per_second=[0-9.]+|mismatches=[0-9]+' | xargs)
	c=$(vm_status "$VM_CLOG" fuzz-client | grep -oE 'inputs=[0-9]+|seconds=[0-9.]+|per_second=[0-9.]+|mismatches=[0-9]+' | xargs)
	SC_DESC+="; server: ${s:-not reached}; client: ${c:-not reached}"
}
