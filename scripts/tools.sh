#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make tools`: build tools/rpcrdma-cm-probe into build/tools, and put
# tools/rpcrdma-cm-status beside it with the version filled in. The codecs
# are not duplicated: net/sunrpc/xprtrdma/rpcrdma_pdata.c (RFC 8797) and,
# for --v2, rpcrdma_xchar.c and rpcrdma_xchar_sm.c (transport properties)
# are compiled as they are, against the userspace stand-ins for their
# kernel headers in tools/fuzz/include. Then scripts/probe-fuzz-test.sh
# holds --fuzz's generator and oracle to exact counts (no RDMA needed).
# Prints the shared libraries the binary needs,
# for whoever copies it into a VM's initramfs.
#
# Variables: CC (default cc), CFLAGS (default -O2 -g), WERROR (default
# -Werror; the package build sets it empty, so that a newer compiler's new
# warning does not stop a build on a user's machine), RPCRDMA_CM_VERSION
# (what --version prints; default: the tree's version, tree_version in
# lib.sh, which the module of a tree build carries too; debian/rules
# passes the $(DEB_VERSION_UPSTREAM) it gives dh_dkms, so in the packages
# the probe and modinfo both say the package's version).

. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2 -g}
WERROR=${WERROR--Werror}
OUT=$BUILD/tools
BIN=$OUT/rpcrdma-cm-probe

[ -e /usr/include/rdma/rdma_cma.h ] && [ -e /usr/include/infiniband/verbs.h ] ||
	need_pkgs librdmacm-dev libibverbs-dev
command -v "$CC" >/dev/null || need_pkgs gcc libc6-dev
mkdir -p "$OUT"

version=${RPCRDMA_CM_VERSION:-}
[ -n "$version" ] || version=$(tree_version)
[ -n "$version" ] || die "tools: no version for the probe: debian/changelog does not start with 'rpcrdma-cm (<version>) ...'"
case $version in
*[!A-Za-z0-9.+~:-]* | '') die "tools: version '$version' is not a Debian version (letters, digits, . + ~ : -)" ;;
esac

msg "tools: building $BIN ($version)"
# shellcheck disable=SC2086 # CFLAGS is a list of flags, WERROR one or none
"$CC" $CFLAGS -Wall -Wextra $WERROR \
	-Itools/fuzz/include -Iinclude -DPROBE_VERSION="\"$version\"" \
	tools/rpcrdma-cm-probe.c tools/rpcrdma-cm-probe-opts.c \
	tools/rpcrdma-cm-probe-cm.c tools/rpcrdma-cm-probe-client.c \
	tools/rpcrdma-cm-probe-listen.c tools/rpcrdma-cm-probe-output.c \
	tools/rpcrdma-cm-probe-read.c tools/rpcrdma-cm-probe-v2.c \
	tools/rpcrdma-cm-probe-v2io.c tools/rpcrdma-cm-probe-fuzz.c \
	tools/rpcrdma-cm-probe-fuzzrun.c tools/rpcrdma-cm-probe-flood.c \
	net/sunrpc/xprtrdma/rpcrdma_pdata.c \
	net/sunrpc/xprtrdma/rpcrdma_xchar.c \
	net/sunrpc/xprtrdma/rpcrdma_xchar_sm.c \
	-lrdmacm -libverbs -o "$BIN.tmp" ||
	die "tools: build of rpcrdma-cm-probe failed"
mv "$BIN.tmp" "$BIN"

# --fuzz's generator and oracle, held to exact counts and a hash without
# any RDMA device (--fuzz-dry-run); a failure fails the build. awk is not
# Essential in Debian: a minimal package build root may lack it.
if command -v awk >/dev/null; then
	CC="$CC" "$TOP/scripts/probe-fuzz-test.sh" "$BIN" ||
		die "tools: rpcrdma-cm-probe --fuzz-dry-run failed its host test (scripts/probe-fuzz-test.sh)"
else
	warn "tools: no awk: the --fuzz host test (scripts/probe-fuzz-test.sh) is skipped"
fi

sed "s/#VERSION#/$version/" tools/rpcrdma-cm-status >"$OUT/rpcrdma-cm-status.tmp" &&
	chmod 755 "$OUT/rpcrdma-cm-status.tmp" &&
	mv "$OUT/rpcrdma-cm-status.tmp" "$OUT/rpcrdma-cm-status" ||
	die "tools: cannot write $OUT/rpcrdma-cm-status"

# The man pages must render without groff warnings
if command -v groff >/dev/null; then
	for page in tools/rpcrdma-cm-probe.8 tools/rpcrdma-cm-status.8; do
		warnings=$(groff -man -ww -z "$page" 2>&1)
		[ -z "$warnings" ] || die "tools: $page: $warnings"
	done
fi

needed=$(readelf -d "$BIN" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | xargs)
echo "tools: built build/tools/rpcrdma-cm-probe and build/tools/rpcrdma-cm-status"
echo "tools: needs shared libraries: $needed"
echo "tools: full closure (ldd):"
ldd "$BIN" | sed 's/^\s*/  /'
echo "tools: at run time libibverbs also dlopen()s its provider, e.g."
echo "  /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so (rxe) or libsiw-rdmav34.so (siw),"
echo "  found through /etc/libibverbs.d/<driver>.driver (package ibverbs-providers)"
