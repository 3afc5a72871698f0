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
step "module build (make module)" make -s module
step "kernel style, W=1 and sparse (make lint)" make -s lint
step "codec fuzz, ${FUZZ_SECONDS:=60} s (make fuzz)" make -s fuzz FUZZ_SECONDS="$FUZZ_SECONDS"
step "probe build (make tools)" make -s tools
step "VM suites (make vmtest)" make -s vmtest

echo
echo "make check summary:"
printf '  %s\n' "${results[@]}"
[ $failed -eq 0 ] || { echo "$failed step(s) failed"; exit 1; }
echo "all steps passed"
