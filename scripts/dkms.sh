#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms.sh install|remove
#
# install: stage the files the module is built from (those the
# rpcrdma-cm-dkms package ships) as /usr/src/rpcrdma-cm-<version>,
# where DKMS expects it, then
# `dkms add` and `dkms install -k $KVER`: DKMS runs the same
# scripts/build-module.sh as `make module` and installs rpcrdma.ko under
# /lib/modules/$KVER/updates/dkms/, rebuilding it for every new kernel
# (AUTOINSTALL). A version already registered is removed first, so the
# staged source is always this tree's.
# remove: `dkms remove --all` and delete the staged source; depmod then
# brings the stock module back.
#
# The version is debian/changelog's, as in the rpcrdma-cm-dkms package:
# the staged dkms.conf gets it in place of #MODULE_VERSION#, as dh_dkms
# does. The DKMS build is offline (dkms.conf): the kernel's headers, its
# linux-source-<x.y>, coccinelle, make and gcc are installed here first.
# DKMS signs the module with
# its own key (/var/lib/dkms/mok.pub); with Secure Boot on, enroll it
# (mokutil --import) or the kernel refuses to load the module.

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# shellcheck source=scripts/deb-lib.sh
. "$TOP/scripts/deb-lib.sh"

NAME=rpcrdma-cm
VER=$(deb_version) || exit 1
SRC=/usr/src/$NAME-$VER
# What the rpcrdma-cm-dkms package ships (debian/rules' DKMS_FILES),
# with the module's rules and dkms.conf
mapfile -t DKMS_FILES < <(sed -e '/^#/d' -e '/^$/d' "$TOP/scripts/module.files")
DKMS_FILES+=(scripts/module.files scripts/build-module.sh scripts/lib.sh
	scripts/kernels.sh scripts/kernels.tab)

[ "$(id -u)" -eq 0 ] || die "DKMS writes to /usr/src and /lib/modules: run as root (sudo make dkms)"
need_pkgs dkms

registered() {
	dkms status "$NAME/$VER" 2>/dev/null | grep -q .
}

remove() {
	if registered; then
		msg "dkms remove $NAME/$VER --all"
		dkms remove "$NAME/$VER" --all >/dev/null ||
			die "dkms remove $NAME/$VER --all failed; see 'dkms status'"
	fi
	rm -rf "$SRC"
}

install() {
	[ -n "$KVER" ] || KVER=$(kver_default)
	[ -n "$KVER" ] || die "no KVER given and no kernel headers found (apt-get install linux-headers-amd64)"
	ensure_headers
	need_pkgs "linux-source-$(headers_version | cut -d. -f1-2)" coccinelle make gcc
	remove
	msg "staging the source in $SRC"
	mkdir -p "$SRC"
	(cd "$TOP" && tar -cf - dkms.conf "${DKMS_FILES[@]}" scripts/coccinelle/*.cocci) |
		tar -C "$SRC" -xf - || die "could not copy the module's files to $SRC"
	sed -i "s/#MODULE_VERSION#/$VER/" "$SRC/dkms.conf" ||
		die "cannot write the version into $SRC/dkms.conf"
	dkms add "$NAME/$VER" >/dev/null || die "dkms add $NAME/$VER failed"
	msg "dkms install $NAME/$VER -k $KVER (builds from the kernel's own sources, about a minute)"
	# BUILD (an output directory the scripts honour) would point the
	# DKMS copy's build at this tree's build/.
	env -u BUILD dkms install "$NAME/$VER" -k "$KVER" ||
		die "dkms install failed; the build log is /var/lib/dkms/$NAME/$VER/build/make.log"
	msg "installed: $(modinfo -k "$KVER" -F filename rpcrdma) (version $(modinfo -k "$KVER" -F version rpcrdma))"
}

case ${1:-} in
install) install ;;
remove) remove && msg "removed; modprobe rpcrdma now loads $(modinfo -k "${KVER:-$(kver_default)}" -F filename rpcrdma)" ;;
*) die "usage: dkms.sh install|remove" ;;
esac
