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
# KUNIT_MODULE_PLANT=overread builds, into build/kunit-module/<KVER>-plant/,
# the suites with a bug planted in the staged codec: its identifier search
# widened by one (len - off + 1), so memcmp reads one octet past a buffer
# holding no identifier. Every case still passes; only KASAN sees it
# (make debugtest DEBUGTEST_PLANT=1 checks that it does). The code it
# plants into must be there exactly once, or the build stops.
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
case ${KUNIT_MODULE_PLANT:-} in
'') OUT=$BUILD/kunit-module/$KVER ;;
overread) OUT=$BUILD/kunit-module/$KVER-plant ;;
*) die "KUNIT_MODULE_PLANT=$KUNIT_MODULE_PLANT: say overread (or nothing)" ;;
esac
mkdir -p "$OUT"
kunit_stage "$OUT"
# 7.x passes the test to parameter generators: the series' adaptation
adapt_apply "$(headers_src)" "$OUT" "$OUT" flat

# plant_overread: the identifier search of rpcrdma_pdata_parse() one
# offset too far. kunit_stage copies the file again on every run (it
# differs from the tree's), so this applies to a fresh copy each time.
plant_overread() {
	local f=$OUT/rpcrdma_pdata.c
	local from='len - off >= sizeof(rpcrdma_pdata_ident); off++'
	local to='len - off + 1 >= sizeof(rpcrdma_pdata_ident); off++'
	[ "$(grep -cF "$from" "$f")" = 1 ] ||
		die "cannot plant the over-read: $f has not exactly one '$from' (the codec's search changed: update plant_overread)"
	sed -i "s/len - off >= sizeof(rpcrdma_pdata_ident); off++/len - off + 1 >= sizeof(rpcrdma_pdata_ident); off++/" "$f" ||
		die "cannot edit $f"
	[ "$(grep -cF "$to" "$f")" = 1 ] || die "planting the over-read into $f failed"
	msg "kunit-module: planted a one-octet over-read in the staged rpcrdma_pdata_parse() ($to)"
}
[ "${KUNIT_MODULE_PLANT:-}" != overread ] || plant_overread

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
