#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make ibcore: build the RDMA core (ib_core.ko) and its connection
# manager (ib_cm.ko) out of tree for $KVER, with the fixes of
# scripts/coccinelle/ibcore/ (IBCORE_UPSTREAM=1: without them).
#
#   ibcore.sh            build build/$KVER/ibcore/ib_core.ko, ib_cm.ko
#   ibcore.sh fixes-id   print what a build would apply now ("upstream" or
#                        a hash of the rules), as rxe.sh does
#
# Debian builds both itself (CONFIG_INFINIBAND=m); these replace them in
# the VM rig (VM_IBCORE=fixed, scripts/vm/lib.sh), from updates/, under
# the same names. Every other RDMA module of the image (rdma_cm,
# rdma_rxe, siw, rpcrdma) loads on top of them unchanged, so the build
# checks that the symbols each exports carry the CRCs of Debian's own
# (Module.symvers): a mismatch would make the others refuse to load. The
# sources are copied at build time from the target kernel's tree
# (drivers/infiniband/core); none of it is committed here. A module
# that has every fix upstream (7.3's MAD layer) is built as its source
# has it. Output: build/$KVER/ibcore/ib_core.ko and ib_cm.ko, their
# debug information stripped (each VM's initramfs carries them), and
# build/$KVER/ibcore-fixes.patch, what the rules changed (checkpatch
# --strict clean). What the fixes are for:
# Documentation/investigations/stale-server-connection.md (ib_core's MAD
# layer) and addr-change-kref.md (ib_cm's unsent DREQ).

set -e -o pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

RULES=$TOP/scripts/coccinelle/ibcore

# ibcore_fixes_id: "upstream" with IBCORE_UPSTREAM=1, else a hash of the
# rules; kept beside ib_core.ko so the VM rig can tell a stale one.
ibcore_fixes_id() {
	if [ "${IBCORE_UPSTREAM:-0}" = 1 ]; then
		echo upstream
	else
		cat "$RULES"/*.cocci 2>/dev/null | sha256sum | cut -c1-12
	fi
}

# ibcore_check_crcs MODULE: every symbol the new MODULE exports must
# carry the CRC Debian's MODULE has for it ($KVER's Module.symvers), or
# the modules built against Debian's would refuse to load on top of it.
ibcore_check_crcs() {
	local mod=$1 want=$KBUILD_DIR/Module.symvers got=$WORK/Module.symvers diffs
	[ -s "$got" ] || die "the $mod build wrote no $got: cannot compare its exports with $KVER's"
	diffs=$(diff <(awk -v m="$mod" '$3 ~ "(^|/)" m "$" {print $2, $1}' "$want" | sort) \
		<(awk -v m="$mod" '$3 ~ "(^|/)" m "$" {print $2, $1}' "$got" | sort)) ||
		die "$mod's exports differ from $KVER's own (symbol CRC, from $want): rdma_cm and the drivers would not load on top of it:
$(echo "$diffs" | head -10)"
	msg "all $(awk -v m="$mod" '$3 ~ "(^|/)" m "$"' "$got" | wc -l) symbols $mod exports have $KVER's CRCs: Debian's RDMA modules load on top of it"
}

case ${1:-} in
fixes-id) ibcore_fixes_id; exit 0 ;;
upstream) IBCORE_UPSTREAM=1 ;; # IBCORE_UPSTREAM=1 inside a build root (oot_enter)
'') ;;
*) die "usage: ibcore.sh [fixes-id] (got '$1')" ;;
esac

OOT_NAME=ibcore
OOT_MODULE=ib_core
OOT_KCONFIG=INFINIBAND
OOT_DIR=drivers/infiniband/core
OOT_UPSTREAM=${IBCORE_UPSTREAM:-0}
OOT_WARN_FATAL=1
# shellcheck source=scripts/oot-driver.sh
. "$TOP/scripts/oot-driver.sh"
oot_enter mad.c

# 1. Only a kernel that builds ib_core as a module can have it replaced.
case $(kconfig INFINIBAND) in
m) msg "  $KVER builds ib_core as a module: this one replaces it from updates/" ;;
y) die "kernel $KVER has the RDMA core built in (CONFIG_INFINIBAND=y): a module cannot replace it" ;;
*) die "kernel $KVER does not build the RDMA core (CONFIG_INFINIBAND unset): nothing to replace" ;;
esac

# 2. Copy the sources into a fresh work directory and generate a Kbuild
#    file from upstream's Makefile (ib_core's and ib_cm's objects only).
oot_stage
core_objs=("${OOT_OBJS[@]}")
oot_objs ib_cm
cm_objs=("${OOT_OBJS[@]}")
OOT_OBJS=("${core_objs[@]}")
# cm_trace.h names itself for define_trace.h by its path in the kernel
# tree, relative to an include directory (TRACE_INCLUDE_PATH
# ../../drivers/infiniband/core): give its object such a directory
mkdir -p "$WORK/inc/trace" "$WORK/drivers/infiniband/core"
ln -s ../../../cm_trace.h "$WORK/drivers/infiniband/core/cm_trace.h"
oot_kbuild "obj-m += ib_core.o ib_cm.o" "ib_cm-y := ${cm_objs[*]}" \
	"CFLAGS_cm_trace.o += -I\$(src)/inc/trace"

# 2b. The fixes; IBCORE_UPSTREAM=1 builds ib_core as the source has it.
if [ "${IBCORE_UPSTREAM:-0}" = 1 ]; then
	msg "IBCORE_UPSTREAM=1: building ib_core unmodified"
else
	oot_fixes "$RULES" "IB/core: the fixes of make ibcore"
	[ -n "$OOT_FIXES" ] || msg "  no rule applies to $KVER: ib_core is built as its source has it"
fi

ibcore_fixes_id >"$WORK/fixes-id"

# 3. Build against the installed headers; 4. check that it loads into
#    $KVER and that every module built against Debian's ib_core loads on
#    top of it (the same CRC for every exported symbol); 5. publish it.
oot_build
[ -e "$WORK/ib_cm.ko" ] || die "make succeeded but produced no ib_cm.ko; see $LOG"
for m in ib_core ib_cm; do
	oot_check_module "$m"
	ibcore_check_crcs "$m"
	strip --strip-debug "$WORK/$m.ko" || die "strip --strip-debug failed on $WORK/$m.ko"
done
oot_publish
msg "done: ${KO#"$TOP"/} and ib_cm.ko beside it (fixes: $(cat "$DEST/fixes-id"))"
msg "in the VM rig: VM_IBCORE=fixed (see Documentation/investigations/stale-server-connection.md and addr-change-kref.md)"
