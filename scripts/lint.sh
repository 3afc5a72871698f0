#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make lint`: the project's own code held to the kernel's rules, with
# the target kernel's own tools. Every check runs; any finding fails.
#   1. scripts/checkpatch.pl --strict --no-tree -f on every C file and
#      header of the project (module, KUnit suite, probe, fuzzer);
#   2. scripts/kernel-doc -none -Werror on the kernel files, and a
#      kernel-doc comment on every non-static function they define;
#   3. the module built with W=1 and sparse (C=1) in build/lint/: any
#      warning, from our files or from the rewired upstream ones, fails;
#   4. shellcheck -S warning on the shell scripts (host and guest).
# Environment: KVER, KSRC (see scripts/lib.sh); LINT_SHELL=0 skips 4,
# which does not depend on the kernel: make check and make matrix run it
# with the first kernel only (about a minute each time on 2 cores).

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

[ -n "$KVER" ] || KVER=$(kver_default)
kbuild_enter "$@"
ensure_headers
ensure_ksrc
need_pkgs sparse shellcheck

KERNEL_FILES=(include/linux/sunrpc/*.h include/trace/events/*.h
	net/sunrpc/xprtrdma/*.c kunit/*.c)
C_FILES=("${KERNEL_FILES[@]}" tools/*.c tools/*.h tools/fuzz/*.c scripts/vm/*.c)
mapfile -t SH_FILES < <(git ls-files '*.sh' .ci/run scripts/vm/guest 2>/dev/null ||
	find scripts .ci tools -name '*.sh' -o -path '*/guest/*' -type f)
failed=0

fail() {
	printf 'lint: FAIL %s\n' "$*" >&2
	failed=$((failed + 1))
}

ok() {
	msg "lint: $*"
}

check_checkpatch() {
	if "$KSRC_DIR/scripts/checkpatch.pl" --strict --no-tree --quiet \
		--show-types -f "${C_FILES[@]}"; then
		ok "checkpatch --strict: ${#C_FILES[@]} files clean"
	else
		fail "checkpatch --strict (above); fix the code, do not silence the check"
	fi
}

# Names of the functions a file defines with external linkage: a line
# at column 0 with a return type, a name and "(", not static and not a
# declaration (a macro call such as module_param_named( has no type).
exported_functions() {
	awk '/^[a-z_][a-z0-9_ *]*[ *][a-z0-9_]+\(/ && !/^static/ && !/;[ \t]*$/ {
		sub(/^[a-z_][a-z0-9_ *]*[ *]/, "")
		match($0, /[a-z0-9_]+\(/)
		print substr($0, RSTART, RLENGTH - 1)
	}' "$1"
}

check_kernel_doc() {
	local f fn docs undocumented=0

	if ! "$KSRC_DIR/scripts/kernel-doc" -none -Werror "${KERNEL_FILES[@]}"; then
		fail "kernel-doc -Werror (above)"
		return
	fi
	for f in net/sunrpc/xprtrdma/*.c; do
		docs=$("$KSRC_DIR/scripts/kernel-doc" -v -none "$f" 2>&1)
		for fn in $(exported_functions "$f"); do
			grep -q "doc for function $fn\$" <<<"$docs" && continue
			fail "$f: $fn() has external linkage but no kernel-doc comment"
			undocumented=$((undocumented + 1))
		done
	done
	[ $undocumented -ne 0 ] || ok "kernel-doc: clean, every non-static function documented"
}

check_w1_sparse() {
	local log=$BUILD/lint/$KVER/build.log

	msg "lint: building the module with W=1 C=1 in build/lint/ (about a minute)"
	# MAKEFLAGS cleared: `make -s lint` (as make check runs it) would pass
	# -s down to Kbuild, which then prints no CHECK line to count.
	if ! MAKEFLAGS='' BUILD=$BUILD/lint KSRC=$KSRC_DIR KBUILD_ARGS="W=1 C=1" \
		"$TOP/scripts/build-module.sh" 2>/dev/null; then
		fail "W=1 C=1 build failed; log: ${log#"$TOP"/}"
	elif grep -qE 'warning:|error:' "$log"; then
		grep -E 'warning:|error:' "$log" >&2
		fail "W=1 C=1 build has warnings (above; log: ${log#"$TOP"/})"
	elif ! grep -q '^  CHECK ' "$log" &&
		grep -q 'C=1 specified, but .* not available or not up to date' "$log"; then
		# 7.x headers use __typeof_unqual__, which sparse 0.6.4 (Debian
		# 12 and 13) does not know: the kernel's own checker-valid.sh
		# turns C=1 off. Said, not hidden; W=1 still counts.
		ok "W=1: no warning; sparse: not run for $KVER: its kbuild rejects $(sparse --version 2>&1 | head -1) as too old for this kernel"
	elif ! grep -q '^  CHECK ' "$log"; then
		fail "W=1 C=1 build ran no sparse CHECK step; log: ${log#"$TOP"/}"
	else
		ok "W=1 and sparse: $(grep -c '^  CHECK ' "$log") files checked, no warning"
	fi
}

check_shell() {
	if [ "${LINT_SHELL:-1}" = 0 ]; then
		ok "shellcheck: not run again for $KVER (LINT_SHELL=0; the scripts do not depend on the kernel)"
		return
	fi
	# One shellcheck per few scripts, on every CPU: each -x run parses
	# lib.sh again, and one process for all took about 60 s on 2 cores.
	if printf '%s\0' "${SH_FILES[@]}" |
		xargs -0 -n 8 -P "$(nproc)" shellcheck -x -S warning; then
		ok "shellcheck: ${#SH_FILES[@]} scripts clean"
	else
		fail "shellcheck -S warning (above)"
	fi
}

check_checkpatch
check_kernel_doc
check_w1_sparse
check_shell
[ $failed -eq 0 ] || die "lint: $failed check(s) failed"
msg "lint: all checks passed"
