#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make kunit-module`: build the codec KUnit suite as a loadable module
# (rpcrdma_pdata_kunit.ko) for a distro kernel that ships KUnit
# (CONFIG_KUNIT=m or y, as Fedora and Ubuntu do). Against headers
# without KUnit there is nothing the module could link to, so the
# target says so and succeeds: `make check` must not fail on Debian.
#
# Environment: KVER (see lib.sh), JOBS (default 2).
# KUNIT_MODULE_FORCE=1 compiles anyway on a kernel without KUnit, with
# modpost's unresolved-symbol errors turned into warnings; the .ko is
# then a compile check only and cannot be loaded.

. "$(dirname "$0")/lib.sh"

JOBS=${JOBS:-2}

[ -n "$KVER" ] || KVER=$(kver_default)
kbuild_enter "$@"
ensure_headers
KDIR=$(kdir)
[ -e "$KDIR/.config" ] || die "$KDIR has no .config; cannot tell whether $KVER has KUnit"

kunit=$(sed -n 's/^CONFIG_KUNIT=//p' "$KDIR/.config")
extra=()
case $kunit in
m | y)
	;;
*)
	if [ "${KUNIT_MODULE_FORCE:-0}" != 1 ]; then
		echo "kunit-module: skipped: $KVER has no CONFIG_KUNIT (use make kunit, which runs the suite on UML)"
		exit 0
	fi
	warn "$KVER has no CONFIG_KUNIT: compile check only, the module will not load"
	extra=(KBUILD_MODPOST_WARN=1)
	;;
esac

# staged flat: a rule's Target is the file's name in the patch series
flat() { basename "$2"; }

need_pkgs make gcc coccinelle
OUT=$BUILD/kunit-module/$KVER
mkdir -p "$OUT"
kunit_stage "$OUT"
# 7.x passes the test to parameter generators: the series' adaptation
adapt_apply "$(headers_src)" "$OUT" "$OUT" flat

msg "kunit-module: building rpcrdma_pdata_kunit.ko against $KDIR (W=1)"
# The codec header is not in the distro headers: -I our include/ after
# the kernel's own directories, so nothing of theirs is shadowed.
make -C "$KDIR" M="$OUT" -j"$JOBS" W=1 \
	CONFIG_RPCRDMA_PDATA_KUNIT_TEST=m KCFLAGS="-I$TOP/include" \
	"${extra[@]}" modules >"$OUT/build.log" 2>&1
rc=$?
if [ $rc -ne 0 ] || grep -q 'warning:' "$OUT/build.log"; then
	grep -E 'warning:|error:' "$OUT/build.log" >&2
	[ $rc -ne 0 ] && die "module build failed; see ${OUT#"$TOP"/}/build.log"
	[ ${#extra[@]} -eq 0 ] &&
		die "module build has warnings; see ${OUT#"$TOP"/}/build.log"
fi
msg "kunit-module: built ${OUT#"$TOP"/}/rpcrdma_pdata_kunit.ko"
[ ${#extra[@]} -eq 0 ] &&
	msg "run it: modprobe kunit; insmod ${OUT#"$TOP"/}/rpcrdma_pdata_kunit.ko; results in dmesg and /sys/kernel/debug/kunit/{rpcrdma_pdata_*,rpcrdma_cm_glue}/results"
exit 0
