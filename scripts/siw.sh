#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make siw: build soft-iWARP (siw.ko) out of tree for $KVER, with the
# fixes of scripts/coccinelle/siw/ (SIW_UPSTREAM=1: without them).
#
# Debian's kernels do not set CONFIG_RDMA_SIW, but (6.1) they have
# everything siw's Kconfig entry asks for (INET, INFINIBAND,
# INFINIBAND_VIRT_DMA, LIBCRC32C, CRYPTO, CRYPTO_CRC32C); this is checked. The driver's sources are copied at build time from
# the target kernel's own source tree (drivers/infiniband/sw/siw); none
# of it is committed here. Output: build/$KVER/siw/siw.ko (with the
# copied sources and generated Kbuild beside it), published only
# when the build succeeds and every symbol it needs is exported by the
# target kernel (scripts/oot-driver.sh, shared with make rxe).
# Documentation/siw.md says how to load and use it.

set -e -o pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

case ${1:-} in
upstream) SIW_UPSTREAM=1 ;; # SIW_UPSTREAM=1 inside a build root (oot_enter)
'') ;;
*) die "usage: siw.sh (got '$1')" ;;
esac

OOT_NAME=siw
OOT_MODULE=siw
OOT_KCONFIG=RDMA_SIW
OOT_UPSTREAM=${SIW_UPSTREAM:-0}
# shellcheck source=scripts/oot-driver.sh
. "$TOP/scripts/oot-driver.sh"
oot_enter siw_main.c

# 1. The kernel must provide what siw's own Kconfig entry depends on or
#    selects (read from the source, so another series' list is used for
#    its kernel). Built-in (y) or module (m) are both fine.
oot_check_kdeps
case $(kconfig RDMA_SIW) in
y | m) warn "kernel $KVER already has CONFIG_RDMA_SIW=$(kconfig RDMA_SIW); building anyway" ;;
esac
[ "$(kconfig INFINIBAND_USER_ACCESS)" ] ||
	warn "CONFIG_INFINIBAND_USER_ACCESS is not set: siw will work for kernel users (NFS) but not for libibverbs/rdma-core tools"

# 2. Copy the sources into a fresh work directory (and drop the siw.ko
#    an older layout left in build/$KVER/) and generate a Kbuild file.
#    CONFIG_RDMA_SIW=m is set there (the kernel's own .config does not
#    have it); the object list is taken from upstream's Makefile.
oot_stage "$OUT/siw.ko"
oot_kbuild "# The target kernel's config does not set CONFIG_RDMA_SIW; build it as a module." \
	"CONFIG_RDMA_SIW := m" \
	"obj-\$(CONFIG_RDMA_SIW) += siw.o"

# 2b. Fix what the soak found in siw itself (scripts/coccinelle/siw/:
#     each rule's header says what and why); SIW_UPSTREAM=1 builds the
#     driver exactly as the kernel's source has it, to reproduce.
if [ "${SIW_UPSTREAM:-0}" = 1 ]; then
	msg "SIW_UPSTREAM=1: building siw unmodified"
else
	fixes=$(cocci_apply_dir "$TOP/scripts/coccinelle/siw" "$KSRC_DIR" "$WORK" "$OUT")
	[ "$fixes" = "$(basename -s .cocci "$TOP"/scripts/coccinelle/siw/*.cocci)" ] ||
		die "not every rule of scripts/coccinelle/siw/ found its target in $OOT_SRC (applied: ${fixes:-none})"
	msg "  siw fixes applied: $(echo "$fixes" | tr '\n' ' ')(SIW_UPSTREAM=1 leaves them out)"
fi

siw_fixes_id >"$WORK/fixes-id"

# 3. Build against the installed headers; 4. check that it loads into
#    $KVER; 5. publish it.
oot_build CONFIG_RDMA_SIW=m
oot_check_module
msg "siw also wants the crc32c crypto algorithm at load time (crc32c_generic or crc32c-intel)"
oot_publish
msg "done: ${KO#"$TOP"/}"
msg "load: modprobe -a ib_core libcrc32c crc32c_generic && insmod ${KO#"$TOP"/}"
msg "then: rdma link add siw0 type siw netdev <ifname>   (see Documentation/siw.md)"
