#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make kernels`: the kernels of scripts/kernels.tab, the release each
# short name stands for today in Debian's archive, and how this host
# builds it (natively, or in a build root of the kernel's family).

. "$(dirname "$0")/lib.sh"

printf '%-20s %-24s %-11s %-24s %-10s %-28s %s\n' name release status check "VM QEMU" "build on this host" "cached"
for name in $(ktab_names); do
	rel=$(kver_resolve "$name" 2>/dev/null || echo '?')
	how=native
	KVER=$rel kver_native || how="in the $(ktab_field "$name" 3) root"
	have=""
	[ -s "$BUILD/$rel/rpcrdma.ko" ] && have+="module "
	[ -e "$RPCRDMA_CM_CACHE/kernels/$rel/.complete" ] && have+="image "
	printf '%-20s %-24s %-11s %-24s %-10s %-28s %s\n' "$name" "$rel" "$(ktab_field "$name" 6)" \
		"$(ktab_field "$name" 5)" "$(ktab_field "$name" 7)" "$how" "${have:--}"
done
echo "host: Debian $(host_family); cache: $RPCRDMA_CM_CACHE"
