#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make rxe: build soft-RoCE (rdma_rxe.ko) out of tree for $KVER, with the
# fixes of scripts/coccinelle/rxe/ (RXE_UPSTREAM=1: without them).
#
#   rxe.sh            build build/$KVER/rxe/rdma_rxe.ko
#   rxe.sh fixes-id   print what a build would apply now ("upstream" or a
#                     hash of the rules): the VM rig compares it with the
#                     fixes-id kept beside the module to tell a stale one
#
# Debian builds rdma_rxe itself (CONFIG_RDMA_RXE=m); this one replaces it
# in the VM rig (VM_RXE=fixed, scripts/vm/lib.sh), from updates/, under
# the same name. The driver's sources are copied at build time from the
# target kernel's own source tree (drivers/infiniband/sw/rxe); none of it
# is committed here. A rule may fit one kernel series only ("// When:"
# in its header); each "// Fix:" name must be made by exactly one rule
# on every kernel, or be in that kernel's rxe already ("// Upstream:
# FILE ERE" in a rule's header), so a series none of a fix's variants
# fits stops the build instead of yielding a module without that fix.
# Output:
# build/$KVER/rxe/rdma_rxe.ko (with the copied sources and generated
# Kbuild beside it), published only when the build succeeds and every
# symbol it needs is exported by the target kernel
# (scripts/oot-driver.sh, shared with make siw).
# Documentation/investigations/rxe-gsi-qp-link-drop.md and
# rxe-local-op-retry.md, rxe-tx-dtor-uaf.md and rxe-drain-irqs-off.md say what
# the fixes are for.

set -e -o pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

RULES=$TOP/scripts/coccinelle/rxe

# rxe_fixes_id: what make rxe applies to rxe: "upstream" with
# RXE_UPSTREAM=1, else a hash of scripts/coccinelle/rxe/*.cocci. Kept
# beside rdma_rxe.ko, so the VM rig can tell one built with other fixes.
rxe_fixes_id() {
	if [ "${RXE_UPSTREAM:-0}" = 1 ]; then
		echo upstream
	else
		cat "$RULES"/*.cocci 2>/dev/null | sha256sum | cut -c1-12
	fi
}

case ${1:-} in
fixes-id) rxe_fixes_id; exit 0 ;;
upstream) RXE_UPSTREAM=1 ;; # RXE_UPSTREAM=1 inside a build root (oot_enter)
'') ;;
*) die "usage: rxe.sh [fixes-id] (got '$1')" ;;
esac

OOT_NAME=rxe
OOT_MODULE=rdma_rxe
OOT_KCONFIG=RDMA_RXE
OOT_UPSTREAM=${RXE_UPSTREAM:-0}
OOT_WARN_FATAL=1
# shellcheck source=scripts/oot-driver.sh
. "$TOP/scripts/oot-driver.sh"
oot_enter rxe.c

# 1. The kernel must provide what rxe's Kconfig entry depends on or
#    selects; rxe itself is a module in Debian's kernels, which this one
#    replaces.
oot_check_kdeps
case $(kconfig RDMA_RXE) in
m) msg "  $KVER builds rdma_rxe as a module too: this one replaces it from updates/" ;;
y) warn "kernel $KVER has rxe built in (CONFIG_RDMA_RXE=y): a module cannot replace it; building anyway" ;;
*) warn "kernel $KVER does not build rxe (CONFIG_RDMA_RXE unset); building anyway" ;;
esac

# 2. Copy the sources into a fresh work directory and generate a Kbuild
#    file from upstream's Makefile.
oot_stage
oot_kbuild "obj-m += rdma_rxe.o"

# 2b. Fix what the soak found in rxe itself (scripts/coccinelle/rxe/:
#     each rule's header says what and why); RXE_UPSTREAM=1 builds the
#     driver exactly as the kernel's source has it, to reproduce.
if [ "${RXE_UPSTREAM:-0}" = 1 ]; then
	msg "RXE_UPSTREAM=1: building rxe unmodified"
else
	# every fix made by exactly one rule (the variant of this series), or
	# already in this kernel's rxe (a rule's "// Upstream: FILE ERE");
	# what the rules changed, as a patch against this kernel's rxe:
	# checkpatch --strict must find nothing, as for the linux-rdma
	# series make patches writes from the newest source
	oot_fixes "$RULES" "RDMA/rxe: the fixes of make rxe"
	msg "  (RXE_UPSTREAM=1 leaves them out)"
fi

rxe_fixes_id >"$WORK/fixes-id"

# 3. Build against the installed headers; 4. check that it loads into
#    $KVER; 5. publish it.
oot_build
oot_check_module
oot_publish
msg "done: ${KO#"$TOP"/} (fixes: $(cat "$DEST/fixes-id"))"
msg "load: modprobe -r rdma_rxe; modprobe -a ib_core ip6_udp_tunnel udp_tunnel && insmod ${KO#"$TOP"/}"
msg "or in the VM rig: VM_RXE=fixed (see Documentation/investigations/rxe-gsi-qp-link-drop.md)"
