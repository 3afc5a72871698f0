#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build build/$KVER/rpcrdma.ko: the target kernel's own xprtrdma and
# svcrdma sources, rewired by scripts/coccinelle/*.cocci to call the
# project's RFC 8797 glue, plus the project's files, built out of tree
# against /lib/modules/$KVER/build (or kdir in scripts/lib.sh: a kernel
# built here by make debug-kernel).
#
# Every rule names its targets and the code it must leave behind
# ("// Target:", "// Expect:", "// Absent:" lines in its header). A rule
# that no longer applies stops the build, naming the rule; the module
# is written only when everything succeeded. A rule that fixes one
# kernel series only says where that series differs: "// When: FILE
# ERE" runs it only when the kernel's FILE (in xprtrdma) matches ERE.
#
# Environment: KVER, KSRC (see scripts/lib.sh), KBUILD_ARGS (extra make
# arguments, e.g. "W=1" or "C=1"; `make module W=1 C=1` works too, the
# variables reach Kbuild through MAKEFLAGS), JOBS (default 2), FORCE=1 (rebuild
# even when no input changed), RPCRDMA_CM_VERSION (the version stamped
# into the module instead of the tree's, tree_version in lib.sh).

. "$(dirname "$0")/lib.sh"
set -o pipefail

[ -n "$KVER" ] || KVER=$(kver_default)
kbuild_enter "$@"
ensure_headers
# The module replaces the kernel's own rpcrdma.ko: a kernel without one
# (NFS/RDMA not configured, or built in) has nothing for it to replace.
case $(sed -n 's/^CONFIG_SUNRPC_XPRT_RDMA=//p' "$(kdir)/.config" 2>/dev/null) in
m) ;;
y) die "kernel $KVER has NFS/RDMA built in (CONFIG_SUNRPC_XPRT_RDMA=y in $(kdir)/.config): no module can replace it; use a kernel that builds it as a module (Debian's -amd64, -rt-amd64 and -cloud-amd64 do)" ;;
*) die "kernel $KVER is built without NFS/RDMA (no CONFIG_SUNRPC_XPRT_RDMA=m in $(kdir)/.config): it has no rpcrdma.ko for this module to replace; use a kernel that has it (Debian's -amd64, -rt-amd64 and -cloud-amd64 do; make kernels)" ;;
esac
ensure_ksrc
need_pkgs coccinelle make gcc
case " ${KBUILD_ARGS:-} ${MAKEFLAGS:-} " in *" C="[12]" "*) need_pkgs sparse ;; esac

OUT=$BUILD/$KVER
SRC=$OUT/src
KO=$OUT/rpcrdma.ko
COCCI_DIR=$TOP/scripts/coccinelle
UPSTREAM=$KSRC_DIR/net/sunrpc/xprtrdma
JOBS=${JOBS:-2}
# The project's files the module is made of (not the other kernel C of
# the tree, such as the transport property codec, which no object uses)
mapfile -t MODULE_FILES < <(sed -e '/^#/d' -e '/^$/d' "$TOP/scripts/module.files")
[ ${#MODULE_FILES[@]} -gt 0 ] || die "scripts/module.files lists no file"

mkdir -p "$OUT"
# Several make targets (vmtest, demo, bench) build the module: one at a
# time, or they would rewrite each other's build/$KVER/src.
exec 9>"$OUT/.build.lock"
flock 9 || die "cannot lock $OUT/.build.lock"

# The project version stamped into modinfo: RPCRDMA_CM_VERSION (dkms
# passes its PACKAGE_VERSION), else the tree's (tree_version), else
# "unknown".
version=${RPCRDMA_CM_VERSION:-}
[ -n "$version" ] || version=$(tree_version)
[ -n "$version" ] || version=unknown

# Nothing to do when no input changed since the last successful build
# (FORCE=1 rebuilds anyway).
inputs_stamp() {
	{
		echo "$KVER $(headers_version) $KSRC_DIR $version ${KBUILD_ARGS:-}"
		# `make module W=1 C=1` reaches Kbuild through MAKEFLAGS
		printf '%s\n' "${MAKEFLAGS:-}" | grep -oE '(^| )[WC]=[^ ]*' || true
		cat "$TOP/scripts/build-module.sh" "$TOP/scripts/lib.sh" \
			"$COCCI_DIR"/*.cocci "$TOP/scripts/module.files"
		printf '%s\0' "${MODULE_FILES[@]/#/$TOP/}" | xargs -0 cat
	} | sha256sum | cut -d' ' -f1
}
stamp=$(inputs_stamp)
if [ -z "${FORCE:-}" ] && [ -s "$KO" ] &&
   [ "$(cat "$OUT/rpcrdma.ko.stamp" 2>/dev/null)" = "$stamp" ]; then
	msg "build/$KVER/rpcrdma.ko is up to date ($version)"
	exit 0
fi

# A failed build must not leave an older module that looks current.
rm -f "$KO" "$KO.tmp" "$OUT/rpcrdma.ko.stamp"

msg "kernel $KVER ($(headers_version)), sources from $KSRC_DIR"
[ -e "$UPSTREAM/Makefile" ] || die "no net/sunrpc/xprtrdma in $KSRC_DIR"
[ -e "$KSRC_DIR/include/linux/sunrpc/svc_rdma.h" ] ||
	die "no include/linux/sunrpc/svc_rdma.h in $KSRC_DIR"

msg "copying upstream xprtrdma sources to build/$KVER/src"
rm -rf "$SRC"
mkdir -p "$SRC/include/linux/sunrpc"
cp "$UPSTREAM"/*.c "$UPSTREAM"/*.h "$SRC"/
cp "$UPSTREAM/Makefile" "$SRC/upstream.mk"
cp "$KSRC_DIR/include/linux/sunrpc/svc_rdma.h" "$SRC/include/linux/sunrpc/"

# transform: run every rule that is for this kernel on $SRC; each
# rule's outcome goes to the terminal and to $OUT/rules.txt.
transform() {
	local rule name targets t
	: >"$OUT/rules.txt"
	for rule in "$COCCI_DIR"/*.cocci; do
		name=$(basename "$rule" .cocci)
		targets=$(sed -n 's|^// Target: *||p' "$rule")
		[ -n "$targets" ] || die "rule $name: no '// Target:' line"
		if ! cocci_when "$rule" "$UPSTREAM"; then
			say_rule "$name: not for this kernel ($(sed -n 's|^// When: *||p' "$rule"))"
			continue
		fi
		for t in $targets; do
			[ -e "$SRC/$t" ] || die "rule $name: target $t is not in $KSRC_DIR's xprtrdma sources"
			if ! spatch --very-quiet --in-place --no-show-diff \
				--sp-file "$rule" "$SRC/$t" >"$OUT/spatch-$name.log" 2>&1; then
				cat "$OUT/spatch-$name.log" >&2
				die "rule $name: spatch failed on $t"
			fi
		done
		cocci_manifest "$rule" "$SRC"
		say_rule "$name: applied"
	done
}
say_rule() { msg "  $*"; echo "$*" >>"$OUT/rules.txt"; }

# The transformed sources depend only on what was just copied, the
# rules, the code that applies them and spatch itself. A clean clone
# (CI), make lint's W=1 build and other trees of the same kernel reuse
# them from the cache (under src/, which build roots see) instead of
# running every rule again; FORCE=1 runs them anyway.
transform_key() {
	{
		spatch --version 2>&1 | head -n 1
		cat "$COCCI_DIR"/*.cocci "$TOP/scripts/build-module.sh" "$TOP/scripts/lib.sh"
		(cd "$SRC" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
	} | sha256sum | cut -c1-16
}
XCACHE=$RPCRDMA_CM_CACHE/src/transformed
xkey=$(transform_key)
nrules=$(ls "$COCCI_DIR"/*.cocci | wc -l)
# offline (DKMS, a package's build) the cache is neither read nor
# written: apt remove must leave nothing behind
offline && XCACHE=
if [ -n "$XCACHE" ] && [ -z "${FORCE:-}" ] && [ -e "$XCACHE/$xkey/.done" ]; then
	msg "applying $nrules semantic patches: their result for these sources is cached (${XCACHE#"$RPCRDMA_CM_CACHE"/}/$xkey)"
	sed 's/^/==>   /' "$XCACHE/$xkey/rules.txt" >&2
	rm -rf "$SRC"
	cp -a "$XCACHE/$xkey/src" "$SRC" || die "cannot copy $XCACHE/$xkey/src to $SRC"
else
	msg "applying $nrules semantic patches (spatch)"
	transform
	# saved whole or not at all: a half-written entry has no .done
	if [ -n "$XCACHE" ] && mkdir -p "$XCACHE" 2>/dev/null && tmp=$(mktemp -d "$XCACHE/.new.XXXXXX"); then
		if cp -a "$SRC" "$tmp/src" && cp "$OUT/rules.txt" "$tmp/" && touch "$tmp/.done" &&
		   mv -T "$tmp" "$XCACHE/$xkey" 2>/dev/null; then
			# keep the 30 newest results
			ls -1dt "$XCACHE"/*/ 2>/dev/null | tail -n +31 | xargs -r rm -rf
		else
			rm -rf "$tmp"
		fi
	fi
fi

msg "adding project files"
# where each listed file goes: headers keep their include/ path, the
# rest lands beside upstream's sources (Kbuild as the directory's Kbuild)
copied=()
for f in "${MODULE_FILES[@]}"; do
	case $f in
	include/*) dst=$f ;;
	Kbuild) dst=Kbuild ;;
	*) dst=${f##*/} ;;
	esac
	mkdir -p "$(dirname "$SRC/$dst")"
	cp "$TOP/$f" "$SRC/$dst" || die "cannot copy $f into build/$KVER/src"
	[ "$dst" = Kbuild ] || copied+=("$dst")
done
printf '/* generated by scripts/build-module.sh */\n#define RPCRDMA_CM_VERSION "%s"\n' \
	"$version" >"$SRC/rpcrdma_cm_version.h"

msg "building rpcrdma.ko (version $version${KBUILD_ARGS:+, $KBUILD_ARGS})"
# shellcheck disable=SC2086
if ! make -C "$(kdir)" M="$SRC" -j"$JOBS" $KBUILD_ARGS \
	modules >"$OUT/build.log" 2>&1; then
	grep -E 'error|Error' "$OUT/build.log" | head -40 >&2
	die "kernel build failed; full log in build/$KVER/build.log"
fi
if grep -q 'warning:' "$OUT/build.log"; then
	warn "compiler warnings (build/$KVER/build.log):"
	grep -A3 'warning:' "$OUT/build.log" >&2
fi
[ -e "$SRC/rpcrdma.ko" ] || die "make succeeded but produced no rpcrdma.ko"
# Every project file copied into the build must be part of the module:
# Kbuild's .cmd files name each object's source and every header it read
# (by absolute path up to 6.12, relative to the module's directory from
# 7.x).
unused=()
for f in "${copied[@]}"; do
	grep -qsF -e "$SRC/$f" -e " $f " -e ":= $f" "$SRC"/.*.o.cmd || unused+=("$f")
done
[ ${#unused[@]} -eq 0 ] ||
	die "project files copied into the build but compiled into no object of rpcrdma.ko: ${unused[*]}"
cp "$SRC/rpcrdma.ko" "$KO.tmp" && mv "$KO.tmp" "$KO" || die "cannot write $KO"
echo "$stamp" >"$OUT/rpcrdma.ko.stamp"
msg "built $KO ($version)"
