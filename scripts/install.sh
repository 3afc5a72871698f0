#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install.sh install|uninstall
#
# install: copy build/$KVER/rpcrdma.ko to /lib/modules/$KVER/updates/
# (depmod ranks updates/ above the stock kernel/ tree, so `modprobe
# rpcrdma` picks it) and run depmod. uninstall: remove exactly that
# file and run depmod again, which brings the stock module back.
# A loaded rpcrdma keeps running until it is unloaded (rmmod rpcrdma).
#
# Environment: KVER (default: see scripts/kver.sh), DESTDIR (a staging
# root; depmod then runs with -b DESTDIR when DESTDIR/lib/modules/$KVER
# holds a modules tree, and is skipped otherwise).

. "$(dirname "$0")/lib.sh"

[ -n "$KVER" ] || KVER=$(kver_default)
[ -n "$KVER" ] || die "no KVER given and no kernel headers found"
ROOT=${DESTDIR:-}
DIR=$ROOT/lib/modules/$KVER/updates
DEST=$DIR/rpcrdma.ko
KO=$BUILD/$KVER/rpcrdma.ko

run_depmod() {
	if [ -z "$ROOT" ]; then
		depmod -a "$KVER" || die "depmod -a $KVER failed"
	elif [ -e "$ROOT/lib/modules/$KVER/modules.order" ]; then
		depmod -b "$ROOT" -a "$KVER" || die "depmod -b $ROOT -a $KVER failed"
	else
		msg "DESTDIR has no modules tree: depmod skipped"
	fi
}

need_root() {
	[ -n "$ROOT" ] || [ "$(id -u)" -eq 0 ] ||
		die "$1 writes to /lib/modules/$KVER: run as root (sudo make $1)"
}

case ${1:-} in
install)
	[ -s "$KO" ] || die "$KO is missing; run: make module KVER=$KVER"
	need_root install
	mkdir -p "$DIR" || die "cannot create $DIR"
	install -m 0644 "$KO" "$DEST.tmp" && mv "$DEST.tmp" "$DEST" ||
		die "cannot write $DEST"
	run_depmod
	msg "installed $DEST ($(modinfo -F version "$DEST" 2>/dev/null))"
	if [ -z "$ROOT" ]; then
		got=$(modinfo -k "$KVER" -F filename rpcrdma 2>/dev/null)
		[ "$got" = "$DEST" ] ||
			warn "modprobe -S $KVER rpcrdma resolves to '$got', not $DEST"
	fi
	if [ -z "$ROOT" ] && [ -e /sys/module/rpcrdma ] && [ "$KVER" = "$(uname -r)" ]; then
		msg "rpcrdma is loaded: unmount NFS/RDMA, stop nfsd and rmmod rpcrdma to switch"
	fi
	;;
uninstall)
	need_root uninstall
	if [ -e "$DEST" ]; then
		rm -f "$DEST" || die "cannot remove $DEST"
		run_depmod
		msg "removed $DEST"
	else
		msg "$DEST is not installed; nothing to do"
	fi
	;;
*)
	die "usage: $0 install|uninstall"
	;;
esac
