#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make kernels`: every Debian kernel release the suites of
# scripts/kernels.tab carry today (not only the newest of each series:
# a point release stays in its suite while -security has a newer one),
# which one each short name stands for (*), where its linux-source comes
# from, and how this host builds it (natively, or in a build root of the
# kernel's family). A release whose exact linux-source no suite carries
# any more is marked "no-source": it cannot be built (ksrc_check says
# the way out).

. "$(dirname "$0")/lib.sh"

papt true # the archive's lists, or why they cannot be read
declare -A src
while read -r _ ver suite; do
	[ -n "${src[$ver]:-}" ] || src[$ver]=$suite
done <"$(papt_dir)/sources"
fmt='%-19s %-26s %-18s %-11s %-18s %-10s %-10s %-12s %s\n'
printf "$fmt" name release suite status source "make check VMs" "VM QEMU" "build here" cached
nosrc=()
while read -r name _ fam _ check status qemu _; do
	newest=$(kver_resolve "$name" 2>/dev/null)
	hfam=$(host_family)
	n=0
	while read -r _ rel suite ver; do
		how=native
		[ "$fam" = "$hfam" ] || [ -e "/lib/modules/$rel/build/Makefile" ] ||
			how="$fam root"
		have=""
		[ -s "$BUILD/$rel/rpcrdma.ko" ] && have+="module "
		[ -e "$RPCRDMA_CM_CACHE/kernels/$rel/.complete" ] && have+="image "
		from=${src[$ver]:-}
		[ -n "$from" ] || [ ! -e "$RPCRDMA_CM_CACHE/src/linux-source-${ver%%-*}/.extracted" ] ||
			from=cache
		st=$status
		[ -n "$from" ] || { from=none; st=no-source; n=$((n + 1)); }
		[ "$rel" = "$newest" ] && rel="$rel *"
		printf "$fmt" "$name" "$rel" "$suite" "$st" "$from" "$check" "$qemu" "$how" "${have:--}"
	done < <(kver_releases "$name")
	[ $n -eq 0 ] || nosrc+=("$name: $n releases; its suites carry $(ksrc_offered "$(ktab_field "$name" 2 | tr ',' ' ')")")
done < <(ktab)
echo "* = what the short name builds (make KVER=<name>); any release above whose source is not \"none\" builds with make KVER=<release>"
if [ ${#nosrc[@]} -gt 0 ]; then
	echo "no-source = Debian's archive keeps that release's image and headers but no longer its linux-source: make KVER=<it> stops; boot a release that builds, or give KSRC=<a tree of that version>"
	printf '  %s\n' "${nosrc[@]}"
fi
ex=$(kver_resolve "$(ktab_names | head -n 1)" 2>/dev/null)
echo "flavours: <release>-rt-amd64 builds wherever <release> does (make KVER=${ex%-amd64}-rt-amd64); <release>-cloud-amd64 builds too (NFS/RDMA, mlx4, mlx5 and mana are in it) but has no rdma_rxe or siw, so the VM rig cannot test it"
echo "host: Debian $(host_family); cache: $RPCRDMA_CM_CACHE"
