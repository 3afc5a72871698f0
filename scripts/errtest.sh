#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make errtest`: the failures a new user meets first, each provoked on
# purpose. Every case must fail (non-zero status), print an error that
# names the problem and the way out (the expected text below), and leave
# nothing half-made behind (no *.new directory, no package lists marked
# current). The cases:
#   unknown release     a release of a known series that no suite carries
#   no source           a release the archive carries, but not its source
#   dkms, source        DKMS without the kernel's linux-source: the fix is
#                       an install command only when apt has that version
#   no xprtrdma         a kernel configured without CONFIG_SUNRPC_XPRT_RDMA
#   unknown series      a release no line of scripts/kernels.tab matches
#   no network          Debian's archive unreachable (a closed local port)
#   no space            a cache on a 64 MiB tmpfs
#   not root            a missing package, as an unprivileged user
#   not Debian          a host whose os-release is Ubuntu's
#   old Debian          a host whose os-release is Debian 11's
# Each runs in a scratch cache and build directory under build/errtest/,
# so the real cache is neither used nor touched; about a minute.

. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

T=$BUILD/errtest
rm -rf "$T"
mkdir -p "$T" || die "cannot create $T"
pass=0
fail=0

# expect NAME REGEX CMD...: CMD must fail and print REGEX (grep -E).
expect() {
	local name=$1 re=$2 rc out
	shift 2
	out=$("$@" </dev/null 2>&1)
	rc=$?
	printf '%s\n' "$out" >"$T/$(echo "$name" | tr ' ' '-').log"
	if [ $rc -eq 0 ]; then
		echo "FAIL  $name: exited 0"
		fail=$((fail + 1))
	elif ! grep -qE -- "$re" <<<"$out"; then
		echo "FAIL  $name: no /$re/ in:"
		sed 's/^/        /' <<<"$out" | tail -n 8
		fail=$((fail + 1))
	else
		echo "PASS  $name: $(grep -E '^error:' <<<"$out" | head -n 1 | cut -c1-150)"
		pass=$((pass + 1))
	fi
}

# clean NAME DIR: nothing half-made under DIR.
clean() {
	local left
	left=$(find "$2" \( -name '*.new' -o -name '.updated' -o -name '*.deb' \) 2>/dev/null | head -n 3)
	if [ -n "$left" ]; then
		echo "FAIL  $1: left behind: $left"
		fail=$((fail + 1))
	else
		echo "PASS  $1: nothing left behind in ${2#"$TOP"/}"
		pass=$((pass + 1))
	fi
}

# The two release cases use the real cache's package lists (read-only
# use: nothing is downloaded for a release the archive lacks).
expect "unknown release" \
	'no Debian suite provides linux-headers-6\.12\.1\+deb13-amd64.*|6\.12\.[0-9]+\+deb13-amd64 \(trixie' \
	make -s module KVER=6.12.1+deb13-amd64
[ ! -e "$BUILD/6.12.1+deb13-amd64/rpcrdma.ko" ] && rm -rf "$BUILD/6.12.1+deb13-amd64"
# A release the archive keeps without its linux-source (trixie-backports
# kept 6.16.12 beside linux-source-7.3 alone): it must stop before
# installing headers or making a build root, with both ways out.
nosrc=$(kver_releases | while read -r _ r _ v; do
	ksrc_buildable "$r" "$v" || { echo "$r"; break; }
done)
if [ -n "$nosrc" ]; then
	expect "no source" "^error: ${nosrc//+/\\+} cannot be built: Debian's archive no longer carries its source, linux-source-" \
		make -s module KVER="$nosrc"
	for way in "  - boot the newest release of .* that builds, .*, then: make KVER=" "  - give KSRC=<a source tree of "; do
		grep -qE -- "^$way" "$T/no-source.log" || { echo "FAIL  no source: no /$way/"; fail=$((fail + 1)); }
	done
	[ ! -e "$BUILD/$nosrc" ] || { echo "FAIL  no source: left $BUILD/$nosrc"; fail=$((fail + 1)); }
else
	echo "INFO  no source: every release the archive carries has its linux-source; not run"
fi
# DKMS (offline) for a kernel whose linux-source is not installed: the
# fix names an install command only when apt's lists hold that version
# (a made-up apt-cache and dpkg-query answer; nothing is installed).
mkdir -p "$T/fakeapt"
printf '#!/bin/sh\n[ -n "$ERRTEST_MADISON" ] && echo " linux-source-6.16 | $ERRTEST_MADISON | http://deb.debian.org/debian trixie-backports/main amd64 Packages"\nexit 0\n' >"$T/fakeapt/apt-cache"
printf '#!/bin/sh\necho 6.16.12-1~bpo13+1\n' >"$T/fakeapt/dpkg-query"
chmod +x "$T/fakeapt/apt-cache" "$T/fakeapt/dpkg-query"
expect "dkms, source gone" "no /usr/src/linux-source-6\.16\.tar\.xz, so no module for 6\.16\.12\+deb13-amd64: apt's lists hold no linux-source-6\.16 6\.16\.12-1~bpo13\+1; boot a kernel whose source Debian ships" \
	env PATH="$T/fakeapt:$PATH" ERRTEST_MADISON=6.16.3-1~bpo13+1 KVER=6.16.12+deb13-amd64 RPCRDMA_CM_OFFLINE=1 \
	bash -c '. scripts/lib.sh && ksrc_offline 6.16.12'
expect "dkms, source in apt" "no /usr/src/linux-source-6\.16\.tar\.xz, so no module for 6\.16\.12\+deb13-amd64: apt-get install linux-source-6\.16=6\.16\.12-1~bpo13\+1\$" \
	env PATH="$T/fakeapt:$PATH" ERRTEST_MADISON=6.16.12-1~bpo13+1 KVER=6.16.12+deb13-amd64 RPCRDMA_CM_OFFLINE=1 \
	bash -c '. scripts/lib.sh && ksrc_offline 6.16.12'
# A kernel built without NFS/RDMA (a made-up build tree)
mkdir -p "$T/nordma"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\n' >"$T/nordma/Makefile"
printf 'CONFIG_SUNRPC=m\n# CONFIG_SUNRPC_XPRT_RDMA is not set\n' >"$T/nordma/.config"
expect "no xprtrdma" 'kernel 6\.1\.0-57-amd64 is built without NFS/RDMA \(no CONFIG_SUNRPC_XPRT_RDMA=m in .*/nordma/\.config\): it has no rpcrdma\.ko' \
	env BUILD="$T/nordma-build" KDIR="$T/nordma" KSRC="$T/nordma" make -s module KVER=6.1.0-57-amd64
expect "unknown series" 'KVER=5\.10\.0-30-amd64 is no Debian amd64 kernel release this project knows' \
	make -s module KVER=5.10.0-30-amd64

expect "no network" "Debian's archive cannot be reached: check the network or proxy" \
	env RPCRDMA_CM_CACHE="$T/offnet" RPCRDMA_CM_MIRROR=http://127.0.0.1:9/debian \
	RPCRDMA_CM_SECURITY_MIRROR=http://127.0.0.1:9/debian-security make -s kernels
clean "no network" "$T/offnet"

if [ "$(id -u)" -eq 0 ]; then
	mkdir -p "$T/small"
	need_pkgs mount # not Essential: a bare host may lack it
	if mount -t tmpfs -o size=64m rpcrdma-errtest "$T/small"; then
		expect "no space" 'needs about [0-9]+ MiB free in .*there are [0-9]+ MiB: free some space' \
			env RPCRDMA_CM_CACHE="$T/small/cache" make -s kernels
		clean "no space" "$T/small"
		umount "$T/small"
	else
		echo "FAIL  no space: cannot mount a tmpfs on $T/small"
		fail=$((fail + 1))
	fi
	# The user runs a copy of the scripts in a directory of its own:
	# a clone under /root (as hosttest's, or root's own) is out of
	# its reach, and the case is about apt, not about the tree's modes.
	nr=$(mktemp -d /tmp/rpcrdma-errtest.XXXXXX) || die "cannot create a directory in /tmp"
	cp -r scripts "$nr/" && chmod -R a+rwX "$nr" || die "cannot copy scripts/ into $nr"
	expect "not root" 'missing packages: rpcrdma-cm-errtest-absent; run as root or: sudo apt-get install rpcrdma-cm-errtest-absent' \
		setpriv --reuid=65534 --regid=65534 --clear-groups env -C "$nr" HOME="$nr" BUILD="$nr/build" \
		RPCRDMA_CM_CACHE="$nr/cache" bash -c '. scripts/lib.sh && need_pkgs rpcrdma-cm-errtest-absent'
	rm -rf "$nr"
else
	echo "INFO  no space, not root: need root to mount a tmpfs and to change user; skipped"
fi

printf 'ID=ubuntu\nVERSION_CODENAME=noble\nPRETTY_NAME="Ubuntu 24.04.3 LTS"\n' >"$T/os-ubuntu"
printf 'ID=debian\nVERSION_CODENAME=bullseye\nPRETTY_NAME="Debian GNU/Linux 11 (bullseye)"\n' >"$T/os-bullseye"
expect "not Debian" 'this host runs Ubuntu 24\.04\.3 LTS; .*run it on Debian 12 \(bookworm\) or 13 \(trixie\)' \
	env RPCRDMA_CM_OS_RELEASE="$T/os-ubuntu" KVER= bash -c '. scripts/lib.sh && need_pkgs rpcrdma-cm-errtest-absent'
expect "old Debian" 'this host runs Debian GNU/Linux 11 \(bullseye\); .*upgrade' \
	env RPCRDMA_CM_OS_RELEASE="$T/os-bullseye" KVER= bash -c '. scripts/lib.sh && need_pkgs rpcrdma-cm-errtest-absent'

echo "errtest: $pass passed, $fail failed (outputs in ${T#"$TOP"/})"
[ $fail -eq 0 ]
