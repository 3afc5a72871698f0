#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make kernels`: every Debian kernel release the suites of
# scripts/kernels.tab carry today (not only the newest of each series:
# a point release stays in its suite while -security has a newer one),
# which one each short name stands for (*), and how this host builds it
# (natively, or in a build root of the kernel's family).

. "$(dirname "$0")/lib.sh"

papt true # the archive's lists, or why they cannot be read
fmt='%-19s %-26s %-20s %-11s %-19s %-10s %-16s %s\n'
printf "$fmt" name release suite status "make check VMs" "VM QEMU" "build here" cached
while read -r name _ fam _ check status qemu _; do
	newest=$(kver_resolve "$name" 2>/dev/null)
	hfam=$(host_family)
	while read -r _ rel suite _; do
		how=native
		[ "$fam" = "$hfam" ] || [ -e "/lib/modules/$rel/build/Makefile" ] ||
			how="$fam root"
		have=""
		[ -s "$BUILD/$rel/rpcrdma.ko" ] && have+="module "
		[ -e "$RPCRDMA_CM_CACHE/kernels/$rel/.complete" ] && have+="image "
		[ "$rel" = "$newest" ] && rel="$rel *"
		printf "$fmt" "$name" "$rel" "$suite" "$status" "$check" "$qemu" "$how" "${have:--}"
	done < <(kver_releases "$name")
done < <(ktab)
echo "* = what the short name builds (make KVER=<name>); any release above builds with make KVER=<release>"
echo "host: Debian $(host_family); cache: $RPCRDMA_CM_CACHE"
