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
# Signing: when a key exists the installed file is signed with it, by
# the kernel's own scripts/sign-file (Debian's linux-kbuild package,
# through the headers' build tree) with the hash its
# CONFIG_MODULE_SIG_HASH names. The key is SIGN_KEY and SIGN_CERT when
# given, else DKMS's: mok_signing_key and mok_certificate of
# /etc/dkms/framework.conf (and framework.conf.d/*.conf), by default
# /var/lib/dkms/mok.key and mok.pub, as Debian's dkms 3.0 and 3.2 have
# them. When the machine would refuse an unsigned module (Secure Boot
# on, module.sig_enforce, or lockdown) and there is no key, it stops
# before installing anything, saying how to make and enroll one.
#
# Environment: KVER (default: see scripts/kver.sh), DESTDIR (a staging
# root; depmod then runs with -b DESTDIR when DESTDIR/lib/modules/$KVER
# holds a modules tree, and is skipped otherwise; this host's Secure
# Boot state is not checked for it), SIGN_KEY, SIGN_CERT, SIGN_FILE
# (another sign-file), RPCRDMA_CM_HOST_ROOT (read the host's /etc/dkms,
# /var/lib/dkms, /sys and /boot under this directory, and check it even
# with DESTDIR: make install-test fakes hosts with it).

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

HR=${RPCRDMA_CM_HOST_ROOT:-}
EFI_SB=/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c

# dkms_conf VAR DEFAULT: VAR as DKMS reads it (framework.conf, then
# framework.conf.d/*.conf: the last assignment wins), $kernelver
# expanded; DEFAULT when none sets it.
dkms_conf() {
	local f v val=$2
	for f in "$HR/etc/dkms/framework.conf" "$HR"/etc/dkms/framework.conf.d/*.conf; do
		[ -r "$f" ] || continue
		v=$(sed -n -E "s/^[[:space:]]*$1=[\"']?([^\"']*)[\"']?[[:space:]]*\$/\1/p" "$f" | tail -n 1)
		[ -z "$v" ] || val=$v
	done
	v='$kernelver'
	val=${val//\$\{kernelver\}/$KVER}
	echo "${val//$v/$KVER}"
}

# refusals: why the host would refuse an unsigned module, or nothing.
refusals() {
	local why=() b
	if [ -r "$HR$EFI_SB" ]; then
		# 4 bytes of attributes, then the value
		b=$(od -An -tu1 -j4 -N1 "$HR$EFI_SB" | tr -d ' ')
		[ "$b" = 1 ] && why+=("Secure Boot is on (mokutil --sb-state)")
	fi
	[ "$(cat "$HR/sys/module/module/parameters/sig_enforce" 2>/dev/null)" = Y ] &&
		why+=("the kernel enforces module signatures (module.sig_enforce)")
	b=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' "$HR/sys/kernel/security/lockdown" 2>/dev/null)
	[ -n "$b" ] && [ "$b" != none ] && why+=("the kernel is locked down (lockdown=$b)")
	local IFS=';'
	echo "${why[*]}" | sed 's/;/; /g'
}

# sign_module FILE: sign FILE with KEY and CERT as $KVER's kernel asks.
sign_module() {
	local cfg sf hash signer
	for cfg in "$(kdir)/.config" "$HR/boot/config-$KVER"; do
		[ -r "$cfg" ] && break
	done
	[ -r "$cfg" ] ||
		die "cannot read $KVER's configuration to sign rpcrdma.ko (no $(kdir)/.config or /boot/config-$KVER): apt-get install linux-headers-$KVER"
	if ! grep -qx 'CONFIG_MODULE_SIG=y' "$cfg"; then
		msg "kernel $KVER checks no module signatures (CONFIG_MODULE_SIG is not set): not signed"
		return 0
	fi
	hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$cfg")
	[ -n "$hash" ] || die "$cfg names no CONFIG_MODULE_SIG_HASH: cannot tell which hash $KVER wants"
	sf=${SIGN_FILE:-$(kdir)/scripts/sign-file}
	[ -x "$sf" ] || sf=/usr/lib/linux-kbuild-${KVER%.*}/scripts/sign-file
	[ -x "$sf" ] ||
		die "no scripts/sign-file for $KVER in $(kdir) (Debian ships it in the linux-kbuild package the headers depend on): apt-get install linux-headers-$KVER, or give SIGN_FILE="
	"$sf" "$hash" "$KEY" "$CERT" "$1" 2>"$1.err" || {
		sed 's/^/  /' "$1.err" >&2
		die "$sf $hash $KEY $CERT failed (above): is $KEY the private key of $CERT?"
	}
	signer=$(modinfo -F signer "$1" 2>/dev/null)
	[ -n "$signer" ] || die "$sf left no signature on $1"
	msg "signed with '$signer' ($hash, $CERT)"
}

# A key to sign with: SIGN_KEY and SIGN_CERT, else DKMS's.
if [ -n "${SIGN_KEY:-}${SIGN_CERT:-}" ]; then
	[ -n "${SIGN_KEY:-}" ] && [ -n "${SIGN_CERT:-}" ] ||
		die "give both SIGN_KEY=<private key> and SIGN_CERT=<its certificate>, or neither (DKMS's key is used when it exists)"
	KEY=$SIGN_KEY CERT=$SIGN_CERT
	[ -r "$KEY" ] || [[ $KEY == pkcs11:* ]] || die "SIGN_KEY=$KEY cannot be read"
	[ -r "$CERT" ] || die "SIGN_CERT=$CERT cannot be read"
else
	KEY_NAME=$(dkms_conf mok_signing_key /var/lib/dkms/mok.key)
	CERT_NAME=$(dkms_conf mok_certificate /var/lib/dkms/mok.pub)
	KEY=$KEY_NAME CERT=$HR$CERT_NAME
	[[ $KEY == pkcs11:* ]] || KEY=$HR$KEY
	[ -r "$CERT" ] && { [ -r "$KEY" ] || [[ $KEY == pkcs11:* ]]; } || KEY='' CERT=''
fi

need_root() {
	[ -n "$ROOT" ] || [ "$(id -u)" -eq 0 ] ||
		die "$1 writes to /lib/modules/$KVER: run as root (sudo make $1)"
}

case ${1:-} in
install)
	[ -s "$KO" ] || die "$KO is missing; run: make module KVER=$KVER"
	need_root install
	if [ -z "$KEY" ] && { [ -z "$ROOT" ] || [ -n "$HR" ]; }; then
		refuse=$(refusals)
		[ -z "$refuse" ] || die "$refuse, and there is no key to sign rpcrdma.ko with ($KEY_NAME and $CERT_NAME do not exist), so the kernel would refuse to load it. Nothing was installed. Make a key and enroll it, then run make install again:
  dkms generate_mok     # trixie's dkms; on bookworm: openssl req -new -x509 -newkey rsa:2048 -nodes -days 36500 -subj '/CN=DKMS module signing key/' -keyout $KEY_NAME -outform DER -out $CERT_NAME
  mokutil --import $CERT_NAME   # then reboot and confirm the key in MokManager
or give SIGN_KEY=<key> SIGN_CERT=<certificate> of a key this machine already trusts"
	fi
	src=$KO
	if [ -n "$KEY" ]; then
		# signed in a scratch copy (modinfo reads only *.ko names), so
		# neither build/ nor updates/ ever holds a half-signed file
		tmp=$(mktemp -d "${TMPDIR:-/tmp}/rpcrdma-cm-sign.XXXXXX") || die "mktemp failed"
		trap 'rm -rf "$tmp"' EXIT
		src=$tmp/rpcrdma.ko
		cp "$KO" "$src" || die "cannot copy $KO to $tmp"
		sign_module "$src"
		if [ -z "$HR" ] && command -v mokutil >/dev/null && [ -n "$(refusals)" ] &&
		   mokutil --test-key "$CERT" 2>&1 | grep -q 'not enrolled'; then
			warn "$CERT is not enrolled: the kernel refuses rpcrdma.ko until it is (mokutil --import $CERT, reboot, confirm in MokManager)"
		fi
	fi
	mkdir -p "$DIR" || die "cannot create $DIR"
	install -m 0644 "$src" "$DEST.tmp" && mv "$DEST.tmp" "$DEST" ||
		{ rm -f "$DEST.tmp"; die "cannot write $DEST"; }
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
