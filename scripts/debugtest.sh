#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make debugtest: this module under the kernel's own bug detectors.
#
#  1. the debug kernel of $KVER's source (scripts/debug-kernel.sh: KASAN,
#     lockdep, kmemleak, UBSAN, list/object debugging, KUnit), built once
#     and cached;
#  2. rpcrdma.ko and the codec KUnit module built against its tree, with
#     the same semantic patches as for Debian's kernels;
#  3. KUnit inside that kernel: the codec suites loaded as a module in a
#     guest; their KTAP is parsed with kunit.py and must pass with as many
#     cases as `make kunit` ran (build/kunit/kunit.log) when it has run;
#  4. the VM scenarios DEBUGTEST_SCENARIOS (default 1 2 6 7 8 9: this
#     module on both sides, against the debug kernel's own module, short
#     replies, hostile private data, 500 churn cycles, siw; 10, nfsd
#     restarts under READ load, only when named: its mount does not always
#     come back, Documentation/debugtest.md). Any KASAN,
#     lockdep, UBSAN, BUG, WARNING or Oops in a guest fails its scenario
#     (VM_BAD_RE in vm/lib.sh); every client ends with a kmemleak scan of
#     both guests, failing on a leak with a frame in rpcrdma, sunrpc, the
#     RDMA or NFS modules (leak_scan in vm/guest/lib.sh). Each scenario's
#     report names the detectors its guests ran.
#
#  5. with DEBUGTEST_PLANT=1, the planted bug: the KUnit module again,
#     its codec's identifier search widened by one octet
#     (KUNIT_MODULE_PLANT=overread in scripts/kunit-module.sh); passes
#     only when KASAN reports the slab out-of-bounds read in
#     rpcrdma_pdata_parse(), which no KUnit case notices.
#
# Environment: KVER (whose source; default as make; trixie and
# trixie-backports build their debug kernels and modules with this
# host's compiler, scripts/debug-kernel.sh), DEBUGTEST_SCENARIOS
# (numbers, or "none"),
# DEBUGTEST_KUNIT=0 (skip step 3), DEBUGTEST_PLANT=1 (run step 5),
# VM_* as for vmtest.

. "$(dirname "$0")/lib.sh"
set -o pipefail

[ -n "$KVER" ] || KVER=$(kver_default)
kver_normalize
BASE=$KVER
t0=$SECONDS
declare -a results
failed=0

note() { # note PASS|FAIL TEXT
	results+=("$(printf '%-4s  %s' "$1" "$2")")
	[ "$1" = PASS ] || failed=$((failed + 1))
}

rel=$("$TOP/scripts/debug-kernel.sh" | tail -n 1) && [ -n "$rel" ] ||
	die "no debug kernel for $BASE (see the messages above)"
export KVER=$rel
msg "debugtest: debug kernel $KVER (source of $BASE)"
"$TOP/scripts/build-module.sh" || die "rpcrdma.ko does not build against the debug kernel $KVER"
# In-tree siw of the debug kernel for scenario 9 (no out-of-tree build)
SIW_KO=$(find "$RPCRDMA_CM_CACHE/kernels/$KVER/root/lib/modules/$KVER" -name 'siw.ko*' | head -n 1)
export SIW_KO
# KASAN's shadow and quarantine, kmemleak's objects: more guest memory;
# the detectors slow the guests several times over: longer timeouts.
# allnoconfig leaves KUNIT_DEFAULT_ENABLED off, so this kernel runs no
# test unless asked: the guests ask (kunit.enable=1).
export VM_MEM=${VM_MEM:-1024} VM_APPEND=${VM_APPEND:-log_buf_len=4M kunit.enable=1}
# The probe scenarios hold each connection until the server's debugfs
# line is read over NFS: several seconds under these detectors.
export VM_GUEST_ENV=${VM_GUEST_ENV:-PROBE_HOLD_MS=30000 PROBE_POLLS=60}
# Scenario 7 (the adversarial cases) took 1050 s under the 7.3 debug
# kernel on an idle 2-core host and ran past 1500 s on a shared one.
export VM_TIMEOUT=${VM_TIMEOUT:-900} VM_TIMEOUT_07=${VM_TIMEOUT_07:-2400} \
	VM_TIMEOUT_08=${VM_TIMEOUT_08:-1500} VM_BOOT_TIMEOUT=${VM_BOOT_TIMEOUT:-300}
# The volume scenarios' budgets grow with their counts. Under the 7.3
# debug kernel here a flood cycle took 0.5 to 0.65 s beside the copy
# loop (1.8 a second; 64 on Debian's 6.1), past the half second a cycle that
# 17-flood.sh allows a production kernel: give each input and cycle
# 1.5 s, and each client input 15 s.
export VM_TIMEOUT_16=${VM_TIMEOUT_16:-$((900 + ${FUZZ_SERVER_N:-2000} * 3 / 2 + ${FUZZ_CLIENT_N:-100} * 15))} \
	VM_TIMEOUT_17=${VM_TIMEOUT_17:-$((900 + ${FLOOD_N:-10000} * 3 / 2))}

# kunit_expected: the case count of the last `make kunit` run, if any.
kunit_expected() {
	sed -E 's/\x1b\[[0-9;]*m//g' "$BUILD/kunit/kunit.log" 2>/dev/null |
		grep -oE 'Ran [0-9]+ tests' | tail -n 1 | grep -oE '[0-9]+'
}

# kunit_pair NAME KO: one VM pair whose client loads KO (the codec
# suites); its logs linked as build/debugtest/NAME, the rig's verdict in
# NAME.err when it failed. Returns the pair's status.
kunit_pair() {
	local name=$1 ko=$2
	rm -f "$BUILD/debugtest/$name.err"
	# shellcheck source=scripts/vm/lib.sh
	(
		. "$TOP/scripts/vm/lib.sh"
		VM_PCAP='' vm_prepare
		VM_OVERLAY_FILES="$ko=vm/rpcrdma_pdata_kunit.ko" VM_PCAP='' \
			vm_pair "$name" ours "" ours "" "$TOP/scripts/vm/scenarios/kunit.client.sh"
		rc=$?
		ln -sfn "$VM_RUNDIR/$name" "$BUILD/debugtest/$name"
		[ $rc -eq 0 ] || echo "$VM_RESULT_DETAIL" >"$BUILD/debugtest/$name.err"
		exit $rc
	)
}

# run_kunit: one VM pair whose client loads the codec suites.
run_kunit() {
	local ko ktap parsed ran want
	"$TOP/scripts/kunit-module.sh" || { note FAIL "KUnit module: does not build against $KVER"; return; }
	ko=$BUILD/kunit-module/$KVER/rpcrdma_pdata_kunit.ko
	[ -f "$ko" ] || { note FAIL "KUnit module: $ko was not built"; return; }
	kunit_pair kunit "$ko"
	local rc=$? dir=$BUILD/debugtest/kunit
	ktap=$BUILD/debugtest/kunit.ktap
	grep -a 'RPCRDMA-KTAP: ' "$dir/client.log" | tr -d '\r' | sed 's/^.*RPCRDMA-KTAP: //' >"$ktap.raw"
	# A synthetic top-level header where the module load printed the
	# suites only (6.1); 6.12 and later print their own.
	{
		if ! head -n 1 "$ktap.raw" | grep -q '^KTAP version'; then
			echo "KTAP version 1"
			echo "1..$(grep -cE '^(not )?ok [0-9]+ ' "$ktap.raw")"
		fi
		cat "$ktap.raw"
	} >"$ktap"
	rm -f "$ktap.raw"
	need_pkgs python3
	ensure_ksrc
	parsed=$(python3 "$KSRC_DIR/tools/testing/kunit/kunit.py" parse "$ktap" 2>&1 |
		sed -E 's/\x1b\[[0-9;]*m//g')
	echo "$parsed" >"$BUILD/debugtest/kunit.parsed"
	ran=$(echo "$parsed" | grep -oE 'Ran [0-9]+ tests.*' | tail -n 1)
	want=$(kunit_expected)
	if [ $rc -ne 0 ]; then
		note FAIL "KUnit in the guest: $(cat "$BUILD/debugtest/kunit.err" 2>/dev/null)"
	elif [ -z "$ran" ] || echo "$ran" | grep -qE 'failed:|crashed:|errors:|^Ran 0 tests'; then
		note FAIL "KUnit in the guest: ${ran:-no KTAP parsed} (see ${ktap#"$TOP"/})"
	elif [ -n "$want" ] && ! echo "$ran" | grep -q "^Ran $want tests"; then
		note FAIL "KUnit in the guest: $ran, but make kunit ran $want"
	else
		note PASS "KUnit in the guest: $ran${want:+ (make kunit: $want)}"
	fi
}

# run_plant: the suites with the planted over-read (kunit-module.sh
# KUNIT_MODULE_PLANT=overread). The pair must fail, and on KASAN's
# slab-out-of-bounds report with rpcrdma_pdata_parse in its trace: any
# other outcome (the pair passes, another report) means the detectors
# would not catch this bug in the real module either.
run_plant() {
	local ko log bug
	KUNIT_MODULE_PLANT=overread "$TOP/scripts/kunit-module.sh" ||
		{ note FAIL "planted over-read: the planted KUnit module does not build against $KVER"; return; }
	ko=$BUILD/kunit-module/$KVER-plant/rpcrdma_pdata_kunit.ko
	[ -f "$ko" ] || { note FAIL "planted over-read: $ko was not built"; return; }
	if kunit_pair kunit-plant "$ko"; then
		note FAIL "planted over-read: not caught (the guest saw no detector report)"
		return
	fi
	log=$BUILD/debugtest/kunit-plant/client.log
	bug=$(tr -d '\r' <"$log" | grep -aoE 'BUG: KASAN: slab-out-of-bounds in [^ ]+' | head -n 1)
	if [ -n "$bug" ] && grep -aqE 'rpcrdma_pdata_parse\+' "$log"; then
		note PASS "planted over-read caught: $bug, $(grep -aoE 'Read of size [0-9]+' "$log" | head -n 1), in rpcrdma_pdata_parse"
	else
		note FAIL "planted over-read: the pair failed, but not on KASAN's report in rpcrdma_pdata_parse: $(cat "$BUILD/debugtest/kunit-plant.err" 2>/dev/null)"
	fi
}

mkdir -p "$BUILD/debugtest"
if [ "${DEBUGTEST_KUNIT:-1}" != 0 ]; then
	msg "debugtest: the codec KUnit suites inside $KVER"
	run_kunit
fi
if [ "${DEBUGTEST_PLANT:-0}" = 1 ]; then
	msg "debugtest: a one-octet over-read planted in the codec, which KASAN must report"
	run_plant
fi
scen=${DEBUGTEST_SCENARIOS:-1 2 6 7 8 9}
out=$BUILD/debugtest/vmtest.out
: >"$out"
if [ "$scen" != none ]; then
	msg "debugtest: scenarios $scen under $KVER"
	VMTEST_ONLY=$scen "$TOP/scripts/vm/vmtest.sh" 2>&1 | tee "$out" >&2
	rc=$?
	summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
	if [ $rc -eq 0 ]; then
		note PASS "scenarios $scen: ${summary:-passed}"
	else
		note FAIL "scenarios $scen: ${summary:-vmtest failed}"
	fi
fi

echo
echo "debugtest ($KVER, source of $BASE), $((SECONDS - t0)) s:"
printf '  %s\n' "${results[@]}"
grep -E '^ +detectors: ' "$out" | sort -u | head -n 4 | sed 's/^ */  /'
[ $failed -eq 0 ] || exit 1
echo "debugtest passed"
