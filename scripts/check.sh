#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: everything CI runs. Each step runs even when an earlier
# one failed, so one report shows every problem; the exit status is
# non-zero when any step failed.

. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

declare -a results
failed=0
t_check=$(date +%s)

step() {
	local name=$1 start rc
	shift
	msg "check: $name"
	start=$(date +%s)
	"$@"
	rc=$?
	if [ $rc -eq 0 ]; then
		results+=("PASS  $name ($(($(date +%s) - start)) s)")
	else
		results+=("FAIL  $name (exit $rc, $(($(date +%s) - start)) s)")
		failed=$((failed + 1))
	fi
}

step "codec KUnit suite (make kunit)" make -s kunit
step "codec fuzz, ${FUZZ_SECONDS:=60} s (make fuzz)" make -s fuzz FUZZ_SECONDS="$FUZZ_SECONDS"
step "probe build (make tools)" make -s tools
# One line per kernel of scripts/kernels.tab that names a check scope:
# module build, lint and the VM scenarios of that scope (make matrix).
for name in $(ktab | awk '$5 != "-" {print $1}'); do
	scope=$(ktab_field "$name" 5)
	step "kernel $name: build, lint, vmtest ${scope//,/ } (make matrix MATRIX=$name)" \
		env MATRIX="$name" LINT_SHELL="${lint_shell:-1}" "$TOP/scripts/matrix.sh"
	# the scripts' shellcheck does not depend on the kernel: the first lint runs it
	lint_shell=0
done
# The debug kernel lane, for the default kernel: the codec's KUnit suites
# inside the KASAN/lockdep/kmemleak/UBSAN kernel (as many cases as make
# kunit) and scenario 1 (NFSv4.1 and 4.2 I/O, this module on both sides)
# under the detectors, kmemleak scan of both guests after it. The other
# scenarios of make debugtest take about 5 min each under TCG with KASAN:
# check keeps to the one that exercises both roles' data paths
# (README, "Status and limits").
step "debug kernel: KUnit in the guest, scenario ${DEBUGTEST_CHECK:=1} under KASAN/lockdep/kmemleak (make debugtest)" \
	env DEBUGTEST_SCENARIOS="$DEBUGTEST_CHECK" make -s debugtest
# The short soak (issue 15): fio with crc32c verify, stress-ng, dbench
# and a known-content checker on NFSv4.2 + 4.1 hard mounts across the
# default faults (each RDMA link removed, nfsd restarted, parameters
# changed with a forced reconnect), rxe, this module on both sides: 0
# verify and application errors, every fault recovered, every reconnect
# negotiated as the parameters say, 0 kernel warnings. Link drops are
# not in the default set: rxe hangs on them with Debian's module too
# (Documentation/soak.md).
step "soak, ${SOAK_CHECK_SECONDS:=150} s of faults over rxe (make soak)" \
	env SOAK_SECONDS="$SOAK_CHECK_SECONDS" SOAK_SIW=0 make -s soak
# The kernel patch series, patch by patch: build, checkpatch --strict,
# KUnit after the first and the last. Its VM scenarios (PATCHES_VM=1, the
# default of make patches-check) run the same rules and files as the
# drop-in module the matrix has just tested, so check skips them.
step "patch series: build, checkpatch, KUnit per patch (PATCHES_VM=0 make patches-check)" \
	env PATCHES_VM=0 make -s patches-check
# After the matrix: the test also decodes the pcaps its VM runs recorded.
step "Wireshark dissector: codec vectors and VM pcaps (make wireshark)" make -s wireshark
echo
MATRIX_REPORT=1 "$TOP/scripts/matrix.sh" 2>/dev/null
echo
echo "make check summary ($(($(date +%s) - t_check)) s):"
printf '  %s\n' "${results[@]}"
[ $failed -eq 0 ] || { echo "$failed step(s) failed"; exit 1; }
echo "all steps passed"
