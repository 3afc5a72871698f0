#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Symbolize a kernel oops from a guest console log with Debian's -dbg
# package of the same release: function+offset become file:line, inlined
# frames included, through the kernel's own scripts/decode_stacktrace.sh.
#
#   scripts/vm/symbolize.sh LOG [KVER]     (KVER: release or short name)
#
# linux-image-<release>-dbg is about 1 GiB; only vmlinux and the debug
# files of the modules the oops names are extracted, into
# $RPCRDMA_CM_CACHE/dbg/<release>/ (kept for later oopses).

. "$(dirname "$0")/../lib.sh"
set -o pipefail

LOG=${1:-}
[ -r "$LOG" ] || die "usage: scripts/vm/symbolize.sh <guest console log> [KVER]"
[ -n "${2:-}" ] && { KVER=$2; kver_normalize; }
[ -n "$KVER" ] || die "which kernel? pass KVER (the log's release)"
DBG=$RPCRDMA_CM_CACHE/dbg/$KVER
PKG=linux-image-$KVER-dbg

# the oops text, with the console's CR and any status-line noise removed
oops=$(mktemp)
tr -d '\r' <"$LOG" | grep -aE '^\[ *[0-9]+\.[0-9]+\] ' >"$oops"
grep -qE 'RIP:|Call Trace' "$oops" || die "$LOG has no oops (no RIP: or Call Trace line)"

# modules named in the trace: "func+0x1/0x2 [module]"
mods=$(grep -oE '\[[a-z0-9_]+\]$' "$oops" | tr -d '[]' | sort -u)

mkdir -p "$DBG"
if [ ! -e "$DBG/.deb-ok" ]; then
	msg "downloading $PKG (about 1 GiB, once)"
	(cd "$DBG" && papt apt-get -q download "$PKG") >"$DBG/download.log" 2>&1 ||
		die "cannot download $PKG (see $DBG/download.log)"
	touch "$DBG/.deb-ok"
fi
deb=$(ls "$DBG"/"$PKG"_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || die "no $PKG .deb in $DBG; remove $DBG and retry"

# extract PATTERN...: the matching members of the -dbg package.
extract() {
	dpkg-deb --fsys-tarfile "$deb" | tar -C "$DBG" -x --wildcards "$@" 2>/dev/null
}
if [ ! -e "$DBG/vmlinux" ]; then
	msg "extracting vmlinux from $PKG"
	extract "./usr/lib/debug/boot/vmlinux-$KVER" "./usr/lib/debug/lib/modules/$KVER/vmlinux" ||
		extract "*/vmlinux*" || die "no vmlinux in $deb"
	ln -sf "$(find "$DBG/usr" -name "vmlinux*" -type f | head -1)" "$DBG/vmlinux"
fi
for m in $mods; do
	find "$DBG/usr" -name "$m.ko*" 2>/dev/null | grep -q . && continue
	msg "extracting the debug file of $m"
	extract "*/${m}.ko" "*/${m//_/-}.ko" "*/${m}.ko.debug" || warn "no debug file for $m in $PKG"
done
moddir=$(find "$DBG/usr" -type d -path "*/lib/modules/$KVER" 2>/dev/null | head -1)

# The decoder comes from the kernel's own source of the same series (in
# the cache once the module was built for it); only the script is used.
xy=$(echo "$KVER" | grep -oE '^[0-9]+\.[0-9]+')
src=$(ls -d "$RPCRDMA_CM_CACHE/src/linux-source-$xy."* 2>/dev/null | sort -V | tail -1)
[ -x "$src/scripts/decode_stacktrace.sh" ] ||
	die "no scripts/decode_stacktrace.sh: build the module for $KVER once (make KVER=$KVER) so its source is in the cache"
need_pkgs binutils
"$src/scripts/decode_stacktrace.sh" "$DBG/vmlinux" "" "${moddir:-}" <"$oops"
rm -f "$oops"
