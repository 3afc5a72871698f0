#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers for the rpcrdma-cm scripts: messages, package
# installation on demand, and locating the target kernel's headers and
# source. Source it; do not run it.

# The tree this file lives in, whatever TOP the environment holds (DKMS
# runs a copy of the tree from a make that exported the original's TOP).
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}

msg() { printf '==> %s\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# need_pkgs PKG... : apt-get install the Debian packages that are missing.
need_pkgs() {
	local missing=() p hint
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	offline && die "missing packages: ${missing[*]} (RPCRDMA_CM_OFFLINE=1 installs nothing): apt-get install ${missing[*]}"
	host_check
	[ "$(id -u)" -eq 0 ] ||
		die "missing packages: ${missing[*]}; run as root or: sudo apt-get install ${missing[*]}"
	msg "installing ${missing[*]} (apt-get; log in ${BUILD#"$TOP"/}/apt.log)"
	need_space /var/cache/apt 1024 "installing ${missing[*]}"
	# Two make targets may install at once (a soak beside a check): wait
	# for the other's dpkg lock instead of failing on it. No Recommends:
	# on a bare trixie host they made make demo install a desktop's worth
	# of libraries (GTK, Mesa, GStreamer, LLVM) for qemu-system-x86; what
	# the scripts use is named.
	local lock=(-o DPkg::Lock::Timeout=600 -o APT::Install-Recommends=false)
	# A fresh root or cloud image ships without package lists: read
	# them first rather than fail once and retry. (Images that keep them
	# compressed hold *_Packages.lz4 or .gz.)
	if ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
		msg "the host's package lists are empty; reading them (apt-get update)"
		apt-get "${lock[@]}" update -q >"$BUILD/apt.log" 2>&1 ||
			die "apt-get update failed: $(net_hint "$BUILD/apt.log")"
	fi
	if ! DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -q \
		"${missing[@]}" >"$BUILD/apt.log" 2>&1; then
		msg "apt-get install failed; reading the host's package lists again"
		apt-get "${lock[@]}" update -q >>"$BUILD/apt.log" 2>&1 || true
		if ! DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -q \
			"${missing[@]}" >>"$BUILD/apt.log" 2>&1; then
			hint=$(net_hint "$BUILD/apt.log")
			tail -n 5 "$BUILD/apt.log" >&2
			die "apt-get install ${missing[*]} failed: $hint"
		fi
	fi
}
# no_fds CMD...: CMD with no file descriptor above 2 open. mmdebstrap's
# hooks are /bin/sh lines that write to a descriptor it opens
# (`cat >&N`), and dash, Debian's /bin/sh, reads only one digit there.
# The descriptors our locks hold (bash numbers {var} ones from 10 up)
# pushed N to 12 on a bare trixie host: "Bad fd number", and mmdebstrap
# stopped.
no_fds() {
	(
		local f n
		for f in /proc/$BASHPID/fd/*; do
			n=${f##*/}
			[ "$n" -gt 2 ] 2>/dev/null && eval "exec $n>&-"
		done
		exec "$@"
	)
}
# changelog_version: the version of debian/changelog's first entry, or
# nothing.
changelog_version() {
	sed -n '1s/^rpcrdma-cm (\([^)]*\)).*/\1/p' "$TOP/debian/changelog" 2>/dev/null
}

# tree_dirty: true when the clone has uncommitted changes to anything but
# *.md and *.png (check-full writes its ledger into Documentation/ while
# it runs: that is no change to what is tested).
tree_dirty() {
	! git -C "$TOP" diff --quiet HEAD -- . ':!*.md' ':!*.png' 2>/dev/null
}

# tree_version: the version a build from this tree carries, in modinfo
# and in the probe's --version: debian/changelog's upstream version (as
# the packages have it), plus "+g<commit>" in a git clone and ".dirty"
# when it has uncommitted changes, so a tree build never claims to be a
# release (tree_dirty). Empty when there is no changelog.
tree_version() {
	local v c
	v=$(changelog_version)
	v=${v#*:}
	v=${v%-*}
	[ -n "$v" ] || return 0
	if [ -e "$TOP/.git" ] && c=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null); then
		v+="+g$c"
		tree_dirty && v+=.dirty
	fi
	echo "$v"
}

mkdir -p "$BUILD"
# shellcheck source=scripts/kernels.sh
. "$TOP/scripts/kernels.sh"

# kver_default: the running kernel if its headers are installed, else
# the newest installed linux-headers-*, else (a bare host) the release
# Debian's kernel of the host's own release has today (the table line
# named after the host family), else empty.
kver_default() {
	local k
	if [ -e "/lib/modules/$(uname -r)/build/Makefile" ]; then
		uname -r
		return
	fi
	for k in $(ls -d /lib/modules/*/build 2>/dev/null | sort -V -r); do
		[ -e "$k/Makefile" ] && { basename "$(dirname "$k")"; return; }
	done
	k=$(host_family)
	[ -n "$(ktab | awk -v n="$k" '$1 == n')" ] && ! offline && kver_resolve "$k"
}

# kver_default_name: what the Makefile shows as the default KVER without
# reading the archive: kver_default's release when headers are
# installed, else the host family's short name (resolved by lib.sh when
# a script runs).
kver_default_name() {
	local k
	k=$(host_family)
	if [ -e "/lib/modules/$(uname -r)/build/Makefile" ] ||
	   ls /lib/modules/*/build/Makefile >/dev/null 2>&1; then
		kver_default
	elif [ -n "$(ktab | awk -v n="$k" '$1 == n')" ]; then
		echo "$k"
	fi
}

# kdir: the kernel build tree modules for $KVER are built against: KDIR
# when set, the tree of a kernel built here (make debug-kernel keeps it in
# $RPCRDMA_CM_CACHE/kernels/<release>/build), else the installed headers.
kdir() {
	if [ -n "${KDIR:-}" ]; then
		echo "$KDIR"
	elif [ -e "$RPCRDMA_CM_CACHE/kernels/$KVER/build/Makefile" ]; then
		echo "$RPCRDMA_CM_CACHE/kernels/$KVER/build"
	else
		echo "/lib/modules/$KVER/build"
	fi
}

# ensure_headers: make sure the build tree of $KVER (kdir) exists,
# installing Debian's headers package of exactly that release (from the
# suite of the host's release that carries it).
ensure_headers() {
	[ -n "$KVER" ] || KVER=$(kver_default)
	[ -n "$KVER" ] || { offline || host_check; die "no kernel headers installed and no Debian kernel known for this host: give KVER=<release> (make kernels lists them)"; }
	export KVER
	[ -e "$(kdir)/Makefile" ] && return 0
	if [ ! -e "/lib/modules/$KVER/build/Makefile" ]; then
		offline && die "no headers for $KVER in /lib/modules/$KVER/build: apt-get install linux-headers-$KVER"
		kver_check_exists
		host_headers_reachable
		need_pkgs "linux-headers-$KVER"
	fi
	[ -e "/lib/modules/$KVER/build/Makefile" ] ||
		die "no headers for $KVER in /lib/modules/$KVER/build; install linux-headers-$KVER"
}

# makefile_version DIR: "x.y.z" from a kernel tree's top Makefile.
makefile_version() {
	awk -F' *= *' '$1 == "VERSION" {v=$2} $1 == "PATCHLEVEL" {p=$2}
		$1 == "SUBLEVEL" {s=$2} END {if (v != "") print v "." p "." s}' \
		"$1/Makefile"
}

# headers_src: the directory with the top Makefile and include/ of $KVER's
# headers: the tree itself, the source its O= build tree links (a kernel
# built here), or Debian's -common headers, which the arch directory's
# Makefile only includes (/lib/modules/$KVER/source).
headers_src() {
	local k d
	k=$(kdir)
	for d in "$k" "$k/source" "/lib/modules/$KVER/source"; do
		[ -e "$d/Makefile" ] && [ -n "$(makefile_version "$d")" ] &&
			{ echo "$d"; return 0; }
	done
	return 1
}

# headers_version: x.y.z of the headers for $KVER (empty when unknown).
headers_version() {
	local d
	d=$(headers_src) || return 0
	makefile_version "$d"
}

# ensure_ksrc: set KSRC_DIR to a full source tree matching $KVER: KSRC
# when given; else Debian's linux-source-<x.y> of exactly $KVER's
# version, extracted once into the cache ($RPCRDMA_CM_CACHE/src/
# linux-source-<x.y.z>, shared by clones and build roots: ksrc_fetch);
# else, for a kernel Debian does not carry, the installed linux-source
# tarball. With RPCRDMA_CM_OFFLINE=1 (DKMS) only the installed tarball,
# and only the part the module build reads, into build/<release>/ksrc.
# Refuse a tree whose version differs from the headers'.
ensure_ksrc() {
	local hv sv
	hv=$(headers_version)
	[ -n "$hv" ] || die "cannot read the kernel version of $(kdir)"
	if [ -n "$KSRC" ]; then
		[ -e "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel source tree (no Makefile)"
		KSRC_DIR=$(cd "$KSRC" && pwd)
	elif offline; then
		ksrc_offline "$hv"
	elif [ -e "$RPCRDMA_CM_CACHE/src/linux-source-$hv/.extracted" ]; then
		KSRC_DIR=$RPCRDMA_CM_CACHE/src/linux-source-$hv
	elif ksrc_fetch; then
		KSRC_DIR=$KSRC_FETCHED
	else
		ksrc_installed "$hv"
	fi
	sv=$(makefile_version "$KSRC_DIR")
	[ "$sv" = "$hv" ] ||
		die "kernel source $KSRC_DIR is $sv but the headers of $KVER are $hv: pass KSRC=<a tree of $hv>, or a KVER whose source Debian carries"
	export KSRC_DIR
}

# ksrc_installed HV: the installed /usr/src/linux-source-<x.y>.tar.xz
# (installed when missing), extracted into the cache, for a kernel Debian
# does not carry.
ksrc_installed() {
	local hv=$1 xy=${1%.*} tarball sv
	tarball=/usr/src/linux-source-$xy.tar.xz
	[ -e "$tarball" ] || need_pkgs "linux-source-$xy"
	need_pkgs xz-utils
	[ -e "$tarball" ] ||
		die "no $tarball; install linux-source-$xy or pass KSRC=<tree of $hv>"
	KSRC_DIR=$RPCRDMA_CM_CACHE/src/linux-source-$hv
	[ -e "$KSRC_DIR/.extracted" ] && return 0
	mkdir -p "$RPCRDMA_CM_CACHE/src"
	exec 6>"$KSRC_DIR.lock"
	flock 6 || die "cannot lock $KSRC_DIR.lock"
	if [ ! -e "$KSRC_DIR/.extracted" ]; then
		need_space "$RPCRDMA_CM_CACHE/src" 2000 "extracting $tarball"
		msg "extracting $tarball into $KSRC_DIR (once, ~1 min)"
		rm -rf "$KSRC_DIR" "$KSRC_DIR.new"
		mkdir -p "$KSRC_DIR.new" || die "cannot create $KSRC_DIR.new"
		tar -C "$KSRC_DIR.new" --strip-components=1 -xf "$tarball" ||
			{ rm -rf "$KSRC_DIR.new"; die "cannot extract $tarball into $KSRC_DIR.new"; }
		sv=$(makefile_version "$KSRC_DIR.new")
		if [ "$sv" != "$hv" ]; then
			rm -rf "$KSRC_DIR.new"
			die "$tarball holds $sv but the headers of $KVER are $hv; pass KSRC=<tree of $hv>"
		fi
		touch "$KSRC_DIR.new/.extracted"
		mv "$KSRC_DIR.new" "$KSRC_DIR"
	fi
	exec 6>&-
}

# ksrc_offline HV: RPCRDMA_CM_OFFLINE=1 (a DKMS build): the part of the
# installed linux-source-<x.y> tarball that the module build reads
# (xprtrdma, svc_rdma.h, the top Makefile), extracted into
# build/$KVER/ksrc; nothing is downloaded or installed, nothing written
# to the cache. A tarball of another release stops this kernel's build
# with the command that fixes it; DKMS goes on with the other kernels.
# source_fix XY WANT: how to get linux-source-XY at version WANT (the
# headers' package version), read from apt's lists without network: the
# install command when the archive has that version, otherwise the ways
# out, since Debian drops the source of a release before its images.
source_fix() {
	local xy=$1 want=$2
	if [ -n "$want" ] &&
	   apt-cache madison "linux-source-$xy" 2>/dev/null | awk -F'|' '{gsub(/ /, "", $2); print $2}' |
	   grep -qxF "$want"; then
		echo "apt-get install linux-source-$xy=$want"
	else
		echo "apt's lists hold no linux-source-$xy${want:+ $want}; boot a kernel whose source Debian ships (make kernels lists them), install the prebuilt rpcrdma-cm-modules-$KVER package, or build with KSRC=<tree of $KVER>"
	fi
}

ksrc_offline() {
	local hv=$1 xy=${1%.*} tarball sv want dir
	tarball=/usr/src/linux-source-$xy.tar.xz
	want=$(dpkg-query -W -f='${Version}' "linux-headers-$KVER" 2>/dev/null)
	[ -e "$tarball" ] ||
		die "no $tarball, so no module for $KVER: $(source_fix "$xy" "$want")"
	dir=$BUILD/$KVER/ksrc
	if [ "$(cat "$dir/.extracted" 2>/dev/null)" != "$(stat -c %Y "$tarball")" ]; then
		rm -rf "$dir" "$dir.new"
		mkdir -p "$dir.new" || die "cannot create $dir.new"
		msg "reading net/sunrpc/xprtrdma from $tarball"
		tar -C "$dir.new" --strip-components=1 -xJf "$tarball" --wildcards \
			"linux-source-$xy/Makefile" "linux-source-$xy/net/sunrpc/xprtrdma/*" \
			"linux-source-$xy/include/linux/sunrpc/svc_rdma.h" ||
			{ rm -rf "$dir.new"; die "cannot read $tarball (damaged? apt-get install --reinstall linux-source-$xy)"; }
		stat -c %Y "$tarball" >"$dir.new/.extracted"
		mv "$dir.new" "$dir" || die "cannot create $dir"
	fi
	sv=$(makefile_version "$dir")
	[ "$sv" = "$hv" ] ||
		die "linux-source-$xy is $sv ($(dpkg-query -W -f='${Version}' "linux-source-$xy" 2>/dev/null)) but kernel $KVER is $hv: no module for $KVER (the other kernels keep theirs); install the matching source: $(source_fix "$xy" "$want")"
	KSRC_DIR=$dir
}

# cocci_manifest RULE DIR [MAPFN]: check that the transformed files in DIR
# carry every "// Expect:" line of RULE (a .cocci file) and none of its
# "// Absent:" lines, whitespace-insensitively. A manifest line names a
# file as the rule's Target names it; MAPFN, given the rule's name and
# that file, prints its path under DIR (default: the file as named).
# Shared by the module build and the patch series, so a rule means the
# same in both.
cocci_manifest() {
	local rule=$1 dir=$2 map=${3:-} name line f want
	name=$(basename "$rule" .cocci)
	while IFS= read -r line; do
		f=${line%% *}
		[ -z "$map" ] || f=$("$map" "$name" "$f")
		want=$(printf '%s' "${line#* }" | tr -s ' \t' '  ')
		# grep without -q: an early exit would SIGPIPE tr under pipefail
		tr -s ' \t' '  ' <"$dir/$f" | grep -F -- "$want" >/dev/null ||
			die "rule $name no longer applies to this kernel: $f lacks '$want' after spatch (see ${rule#"$TOP"/})"
	done < <(sed -n 's|^// Expect: *||p' "$rule")
	while IFS= read -r line; do
		f=${line%% *}
		[ -z "$map" ] || f=$("$map" "$name" "$f")
		want=$(printf '%s' "${line#* }" | tr -s ' \t' '  ')
		if tr -s ' \t' '  ' <"$dir/$f" | grep -F -- "$want" >/dev/null; then
			die "rule $name did not fully apply: $f still has '$want' (see ${rule#"$TOP"/})"
		fi
	done < <(sed -n 's|^// Absent: *||p' "$rule")
}

# siw_fixes_id: what make siw applies to siw: "upstream" with
# SIW_UPSTREAM=1, else a hash of scripts/coccinelle/siw/*.cocci. Kept
# beside siw.ko, so the VM rig can tell a siw.ko built with other fixes.
siw_fixes_id() {
	if [ "${SIW_UPSTREAM:-0}" = 1 ]; then
		echo upstream
	else
		cat "$TOP"/scripts/coccinelle/siw/*.cocci 2>/dev/null | sha256sum | cut -c1-12
	fi
}

# cocci_header_match KEY RULE ROOT: true when RULE (a .cocci file) has a
# "// KEY: FILE ERE" line and ROOT/FILE matches ERE.
cocci_header_match() {
	local v
	v=$(sed -n "s|^// $1: *||p" "$2")
	[ -n "$v" ] && grep -qE -- "${v#* }" "$3/${v%% *}" 2>/dev/null
}

# cocci_when RULE ROOT: true when RULE is for the kernel at ROOT: a rule
# that fixes or adapts to one kernel series runs only where that series'
# code is ("// When: FILE ERE" matches, when the rule has that line), and
# a fix that a kernel already has upstream does not run there ("// Upstream:
# FILE ERE" matches).
cocci_when() {
	if grep -q '^// When:' "$1"; then
		cocci_header_match When "$1" "$2" || return 1
	fi
	! cocci_header_match Upstream "$1" "$2"
}

# cocci_apply_dir RULEDIR ROOT DIR LOGDIR [MAPFN]: run the rules of
# RULEDIR. A rule runs when cocci_when finds it for the kernel at ROOT
# (the kernel's source or headers), on its "// Target:" under DIR
# (MAPFN as for cocci_manifest; a target DIR lacks is skipped), and must
# leave its "// Expect:" lines there. Prints the names of the rules that
# ran.
cocci_apply_dir() {
	local rules=$1 root=$2 dir=$3 logs=$4 map=${5:-} rule t log
	for rule in "$rules"/*.cocci; do
		[ -e "$rule" ] || continue
		t=$(sed -n 's|^// Target: *||p' "$rule")
		[ -z "$map" ] || t=$("$map" "$(basename "$rule" .cocci)" "$t")
		[ -e "$dir/$t" ] || continue
		cocci_when "$rule" "$root" || continue
		log=$logs/cocci-${rule##*/}.log
		spatch --very-quiet --in-place --no-show-diff --sp-file "$rule" \
			"$dir/$t" >"$log" 2>&1 ||
			{ cat "$log" >&2; die "rule ${rule##*/}: spatch failed on $t"; }
		cocci_manifest "$rule" "$dir" "$map"
		basename "$rule" .cocci
	done
}

# adapt_apply ROOT DIR LOGDIR [MAPFN]: cocci_apply_dir for the rules of
# scripts/patches/adapt/, which fit our files to an API a newer kernel
# changed (the patch series' tree, a KUnit module for such a kernel).
adapt_apply() {
	cocci_apply_dir "$TOP/scripts/patches/adapt" "$@" >/dev/null
}

# kunit_stage DIR: copy the KUnit suites' sources flat into DIR, each
# only when its content changed so rebuilds stay incremental, and write
# the version header the included glue (rpcrdma_cm.c) needs. Shared by
# make kunit (UML) and make kunit-module, so both build the same cases.
kunit_stage() {
	local dir=$1 f hdr
	mkdir -p "$dir" || die "cannot create $dir"
	# Every suite of kunit/ and the pure-C code they test: the RFC
	# 8797 codec and glue, the server hooks' arithmetic, and the
	# transport-property (xchar) codecs.
	for f in kunit/Kbuild kunit/Kconfig kunit/*.c \
		 net/sunrpc/xprtrdma/rpcrdma_pdata.c \
		 net/sunrpc/xprtrdma/rpcrdma_cm.c \
		 net/sunrpc/xprtrdma/svc_rdma_cm_calc.c \
		 net/sunrpc/xprtrdma/rpcrdma_xchar*.c; do
		[ -e "$TOP/$f" ] || continue
		cmp -s "$TOP/$f" "$dir/${f##*/}" && continue
		rm -f "$dir/${f##*/}"
		cp "$TOP/$f" "$dir/${f##*/}" || die "cannot copy $f into $dir"
	done
	hdr=$(printf '/* generated by scripts/lib.sh kunit_stage */\n#define RPCRDMA_CM_VERSION "kunit"\n')
	[ "$(cat "$dir/rpcrdma_cm_version.h" 2>/dev/null)" = "$hdr" ] ||
		printf '%s\n' "$hdr" >"$dir/rpcrdma_cm_version.h" ||
		die "cannot write $dir/rpcrdma_cm_version.h"
}

# rm_tree DIR...: remove a directory tree that may be (part of) a Debian
# root: first unmount whatever is still mounted below it (an mmdebstrap
# or a chroot killed mid-way leaves /proc, /sys, /dev/pts and /dev/shm
# mounted in it), deepest first, then remove it without crossing into
# another filesystem (a proc, sysfs or tmpfs mount that could not be
# undone is left alone; a bind mount of the same filesystem is not
# recognised, hence the unmounting first).
rm_tree() {
	local d m
	for d in "$@"; do
		[ -e "$d" ] || continue
		d=$(realpath -e "$d") || continue
		awk -v d="$d/" 'index($2 "/", d) == 1 {print $2}' /proc/mounts |
			sort -r | while read -r m; do
				umount -l "$m" 2>/dev/null ||
					warn "cannot unmount $m; leaving it in place"
			done
		rm -rf --one-file-system "$d"
	done
}

# need_tshark: install tshark (and with it text2pcap) without the
# question about non-root capture, which would stop a non-interactive
# apt-get.
need_tshark() {
	command -v tshark >/dev/null && command -v text2pcap >/dev/null &&
		return 0
	if [ "$(id -u)" -eq 0 ]; then
		echo "wireshark-common wireshark-common/install-setuid" \
			"boolean false" | debconf-set-selections
	fi
	need_pkgs tshark
}

# last: it needs kdir, for a kernel of the user's own with headers
kver_normalize
