#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make install-test`: make install's module signing and its Secure Boot
# stop, on made-up hosts (RPCRDMA_CM_HOST_ROOT) into a staging root
# (DESTDIR), in a few seconds. The module is a minimal ELF object with a
# .modinfo (as make status-test makes them); the key a throwaway one;
# sign-file the one of the host's installed headers (linux-kbuild). Each
# case checks the installed file's signer and hash (modinfo -F signer,
# sig_hashalgo), or that a refusal installed nothing and said what to do.

. "$(dirname "$0")/lib.sh"
set -o pipefail

command -v modinfo >/dev/null || need_pkgs kmod
command -v objcopy >/dev/null || need_pkgs binutils
command -v gcc >/dev/null || need_pkgs gcc
command -v openssl >/dev/null || need_pkgs openssl
# sign_file: the newest installed linux-kbuild's sign-file, or nothing
sign_file() { ls /usr/lib/linux-kbuild-*/scripts/sign-file 2>/dev/null | sort -V | tail -n 1; }
SF=$(sign_file)
# A bare host has no kernel headers: the default kernel's, as every build
# command installs them (ensure_headers), bring its linux-kbuild, whose
# sign-file is the one make install uses
[ -x "$SF" ] || { ensure_headers && SF=$(sign_file); }
[ -x "$SF" ] || die "install-test needs the kernel's scripts/sign-file: apt-get install linux-headers-amd64 (its linux-kbuild package has it)"

W=$(mktemp -d "${TMPDIR:-/tmp}/install-test.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$W"' EXIT
K=6.1.0-57-amd64 # any release of the table: the build tree is made up
failed=0 n=0

# the module, as build/$K/rpcrdma.ko under BUILD=$W/build
printf 'int rpcrdma_install_test;\n' | gcc -c -x c - -o "$W/empty.o" || die "gcc cannot build an object"
printf 'version=0.1\0license=GPL\0name=rpcrdma\0vermagic=%s SMP mod_unload modversions \0' "$K" >"$W/modinfo.bin"
mkdir -p "$W/build/$K"
objcopy --add-section .modinfo="$W/modinfo.bin" --set-section-flags .modinfo=alloc,readonly \
	"$W/empty.o" "$W/build/$K/rpcrdma.ko" || die "objcopy failed"

# kdir HASH: a build tree whose .config asks for HASH, with the real sign-file
kdir_with() {
	local d=$W/kdir-$1
	mkdir -p "$d/scripts"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\n' >"$d/Makefile"
	printf 'CONFIG_MODULE_SIG=y\nCONFIG_MODULE_SIG_HASH="%s"\n' "$1" >"$d/.config"
	ln -sf "$SF" "$d/scripts/sign-file"
	echo "$d"
}
# key DIR CN: a throwaway key pair DIR/mok.key, DIR/mok.pub (DER), as
# dkms generate_mok writes them
key() {
	mkdir -p "$1"
	openssl req -new -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=$2/" \
		-keyout "$1/mok.key" -outform DER -out "$1/mok.pub" >/dev/null 2>&1 ||
		die "openssl cannot make a key"
}
# host NAME: a fresh made-up host and staging root
host() {
	H=$W/$1/host D=$W/$1/dest
	mkdir -p "$H/sys/firmware/efi/efivars" "$D"
}
secureboot() { printf '\006\000\000\000\00'"$1" >"$H/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"; }
# run [VAR=VALUE...]: make install's script for $K on that host
run() {
	OUT=$(env BUILD="$W/build" KVER=$K DESTDIR="$D" RPCRDMA_CM_HOST_ROOT="$H" "$@" \
		"$TOP/scripts/install.sh" install 2>&1)
	RC=$?
}
ok() { echo "install-test: PASS $1"; }
bad() {
	echo "install-test: FAIL $1" >&2
	printf '%s\n' "$OUT" | sed 's/^/    /' >&2
	failed=$((failed + 1))
}
# signed NAME SIGNER HASH: it exited 0 and the installed file carries
# that signature; the build's file stays unsigned
signed() {
	local f=$D/lib/modules/$K/updates/rpcrdma.ko got
	n=$((n + 1))
	got="$(modinfo -F signer "$f" 2>/dev/null)|$(modinfo -F sig_hashalgo "$f" 2>/dev/null)|$(modinfo -F signer "$W/build/$K/rpcrdma.ko")"
	if [ "$RC" = 0 ] && [ "$got" = "$2|$3|" ]; then ok "$1: signer '$2', $3"; else
		OUT+=$'\n'"exit $RC, signer|hash|build's signer: '$got' (want '$2|$3|')"
		bad "$1"
	fi
}
# refused NAME TEXT...: it failed, installed nothing, and said every TEXT
refused() {
	local name=$1 t miss=''
	n=$((n + 1))
	shift
	for t in "$@"; do grep -qF -- "$t" <<<"$OUT" || miss+=" '$t'"; done
	if [ "$RC" != 0 ] && [ -z "$miss" ] && [ -z "$(find "$D" -type f)" ]; then
		ok "$name: $(head -n 1 <<<"$OUT" | cut -c1-110)"
	else
		OUT+=$'\n'"exit $RC; missing:$miss; files: $(find "$D" -type f -printf "%p ")"
		bad "$name"
	fi
}

# SIGN_KEY/SIGN_CERT, a kernel that asks for sha512: that hash, that key
host given
key "$W/given" "rpcrdma-cm install-test given"
run KDIR="$(kdir_with sha512)" SIGN_KEY="$W/given/mok.key" SIGN_CERT="$W/given/mok.pub"
signed "SIGN_KEY, CONFIG_MODULE_SIG_HASH=sha512" "rpcrdma-cm install-test given" sha512

# DKMS's default key, Secure Boot on, sha256
host dkms
key "$H/var/lib/dkms" "rpcrdma-cm install-test dkms"
secureboot 1
run KDIR="$(kdir_with sha256)"
signed "DKMS key /var/lib/dkms/mok.key, Secure Boot on" "rpcrdma-cm install-test dkms" sha256

# the key framework.conf.d names, over framework.conf's and the default
host conf
key "$H/var/lib/dkms" "rpcrdma-cm install-test default"
key "$H/srv/other" "rpcrdma-cm install-test conf.d"
mkdir -p "$H/etc/dkms/framework.conf.d"
printf '# mok_signing_key=/nowhere\nmok_signing_key=/nowhere.key\nmok_certificate=/nowhere.pub\n' >"$H/etc/dkms/framework.conf"
printf 'mok_signing_key="/srv/other/mok.key"\nmok_certificate='"'"'/srv/other/mok.pub'"'"'\n' >"$H/etc/dkms/framework.conf.d/site.conf"
run KDIR="$(kdir_with sha384)"
signed "framework.conf.d's mok_signing_key, sha384" "rpcrdma-cm install-test conf.d" sha384

# the installed headers' own configuration, when there are some
real=$(ls -d /lib/modules/*/build/scripts/sign-file 2>/dev/null | sort -V | tail -n 1)
if [ -n "$real" ]; then
	real=${real%/scripts/sign-file}
	want=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$real/.config")
	host real
	key "$H/var/lib/dkms" "rpcrdma-cm install-test real"
	run KDIR="$real"
	signed "$(basename "$(dirname "$real")")'s headers (sign-file, .config)" "rpcrdma-cm install-test real" "$want"
else
	echo "install-test: no installed kernel headers: the real build tree's case not run"
fi

# Secure Boot off, no key: installed, unsigned
host off
secureboot 0
run KDIR="$(kdir_with sha256)"
n=$((n + 1))
if [ "$RC" = 0 ] && [ -s "$D/lib/modules/$K/updates/rpcrdma.ko" ] &&
   [ -z "$(modinfo -F signer "$D/lib/modules/$K/updates/rpcrdma.ko")" ]; then
	ok "Secure Boot off, no key: installed unsigned"
else bad "Secure Boot off, no key"; fi

# the refusals: nothing installed, the way out named
host sb
secureboot 1
run KDIR="$(kdir_with sha256)"
refused "Secure Boot on, no key" "Secure Boot is on" "no key to sign rpcrdma.ko with" \
	"/var/lib/dkms/mok.key and /var/lib/dkms/mok.pub do not exist" "Nothing was installed" \
	"dkms generate_mok" "mokutil --import /var/lib/dkms/mok.pub" "SIGN_KEY="
host enforce
mkdir -p "$H/sys/module/module/parameters"
echo Y >"$H/sys/module/module/parameters/sig_enforce"
run KDIR="$(kdir_with sha256)"
refused "module.sig_enforce, no key" "the kernel enforces module signatures (module.sig_enforce)" "Nothing was installed"
host lockdown
mkdir -p "$H/sys/kernel/security"
echo 'none [integrity] confidentiality' >"$H/sys/kernel/security/lockdown"
run KDIR="$(kdir_with sha256)"
refused "lockdown, no key" "the kernel is locked down (lockdown=integrity)" "Nothing was installed"
# a key that is not the certificate's: sign-file fails, nothing stays
host mismatch
key "$W/k1" k1
key "$W/k2" k2
run KDIR="$(kdir_with sha256)" SIGN_KEY="$W/k1/mok.key" SIGN_CERT="$W/k2/mok.pub"
refused "key of another certificate" "is $W/k1/mok.key the private key of $W/k2/mok.pub?"

[ "$failed" -eq 0 ] || die "install-test: $failed of $n cases failed"
msg "install-test: $n cases passed"
