#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make debug-kernel: a test kernel with the kernel's own bug detectors
# (KASAN, lockdep, kmemleak, UBSAN, list/object debugging, KUnit), built
# from the same linux-source-<x.y> the module of $KVER is built from.
#
# Configuration: allnoconfig plus the fragments in scripts/debug-kernel/
# (rig.config: what the VM rig needs; detectors.config: the detectors;
# optional.config: detectors some series lack). Nothing is copied from a
# distribution .config, so the kernel stays small enough for two cores.
# Every fragment line must hold in the final .config (optional.config's
# are reported when they do not); a line Kconfig dropped stops the build
# naming it.
#
# Output, cached outside the clone and keyed by source version, compiler
# and fragment hash: $RPCRDMA_CM_CACHE/kernels/<release>/ with
#   build/   the O= tree (modules are built against it: kdir in lib.sh)
#   root/    boot/vmlinuz-<release>, lib/modules/<release>/ (the VM rig
#            boots it like an unpacked Debian image)
#   base     the Debian release whose source it is (its kernels.tab line)
# The release is <x.y.z>-rpcrdma-dbg-<hash>. An interrupted build is
# resumed (make is incremental); the kernel is used only once .complete
# exists.
#
# Environment: KVER (the Debian release or short name whose source is
# used; default: as make; any of scripts/kernels.tab, built with the
# host's compiler), KSRC (a source tree of that release instead of
# Debian's linux-source), JOBS (default: all CPUs).
# DEBUG_KERNEL_CONFIG_ONLY=1: configure and check the fragments only
# (seconds, nothing compiled, the cache untouched): the .config goes to
# build/debug-kernel/<release>/build/ in the clone, and its path is
# printed instead of the release. Run it after editing a fragment or
# before a first build on a new series.
# Prints the release on stdout (the last line), progress on stderr.

. "$(dirname "$0")/lib.sh"
set -o pipefail

FRAGDIR=$TOP/scripts/debug-kernel
FRAGS=("$FRAGDIR/rig.config" "$FRAGDIR/detectors.config")
OPTIONAL=$FRAGDIR/optional.config
JOBS=${JOBS:-$(nproc)}

# archive_ksrc: for a release this host cannot build modules for (trixie's
# on Debian 12): KSRC when given, else its linux-source from Debian's
# archive, at exactly the headers' package version (ksrc_fetch), unpacked
# once into the source cache the build roots share. The kernel itself
# builds with the host's compiler, and so do the modules built against it
# later, so no build root is needed.
archive_ksrc() {
	local want=${KVER%%[+-]*}
	if [ -n "${KSRC:-}" ]; then
		[ -e "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel source tree (no Makefile)"
		KSRC_DIR=$(cd "$KSRC" && pwd)
		# trixie's releases carry the version: 7.3.4+deb13-amd64
		case $want in
		*.*.*) [ "$(makefile_version "$KSRC_DIR")" = "$want" ] ||
			die "KSRC=$KSRC holds linux $(makefile_version "$KSRC_DIR"), not $want ($KVER)" ;;
		esac
		return 0
	fi
	kver_check_exists
	ksrc_fetch || die "cannot fetch the linux-source of $KVER from Debian's archive"
	KSRC_DIR=$KSRC_FETCHED
}

[ -n "$KVER" ] || KVER=$(kver_default)
kver_normalize
if kver_native; then
	ensure_headers
	ensure_ksrc
else
	archive_ksrc
fi
if [ "${DEBUG_KERNEL_CONFIG_ONLY:-0}" = 1 ]; then
	need_pkgs make gcc flex bison
else
	need_pkgs make gcc flex bison bc libelf-dev libssl-dev cpio kmod
fi

# RECIPE: bump when this script changes how the kernel is configured or
# built, so cached kernels of the old recipe are not reused.
RECIPE=1
srcver=$(makefile_version "$KSRC_DIR")
hash=$( {
	echo "$srcver recipe $RECIPE"
	gcc --version | head -1
	cat "${FRAGS[@]}" "$OPTIONAL"
} | sha256sum | cut -c1-8)
REL=$srcver-rpcrdma-dbg-$hash
DIR=$RPCRDMA_CM_CACHE/kernels/$REL
CONFIG_ONLY=${DEBUG_KERNEL_CONFIG_ONLY:-0}
case $CONFIG_ONLY in
0) ;;
1) DIR=$BUILD/debug-kernel/$REL ;;
*) die "DEBUG_KERNEL_CONFIG_ONLY=$CONFIG_ONLY: say 1 (configure and check only) or 0" ;;
esac
OBJ=$DIR/build

if [ "$CONFIG_ONLY" = 0 ] && [ -e "$DIR/.complete" ]; then
	msg "debug kernel $REL is built (${DIR})"
	echo "$REL"
	exit 0
fi

mkdir -p "$DIR" || die "cannot create $DIR; set RPCRDMA_CM_CACHE=<a writable directory>"
if [ "$CONFIG_ONLY" = 0 ]; then
	exec 9>"$DIR.lock"
	flock -n 9 || { msg "another build of $REL is running; waiting for it"; flock 9; }
	if [ -e "$DIR/.complete" ]; then
		echo "$REL"
		exit 0
	fi
	free=$(df -Pk "$DIR" | awk 'NR == 2 {print int($4 / 1048576)}')
	[ "${free:-0}" -ge 6 ] ||
		die "$DIR has ${free:-0} GiB free; the debug kernel's build tree needs about 6 GiB (free space or set RPCRDMA_CM_CACHE=<elsewhere>)"
fi

# configure: allnoconfig with the fragments as the values it must keep
# (KCONFIG_ALLCONFIG), so Kconfig resolves dependencies and selects.
configure() {
	local all=$OBJ/fragments.config
	mkdir -p "$OBJ"
	{
		cat "${FRAGS[@]}" "$OPTIONAL"
		echo "CONFIG_LOCALVERSION=\"-rpcrdma-dbg-$hash\""
		echo "# CONFIG_LOCALVERSION_AUTO is not set"
	} >"$all"
	make -s -C "$KSRC_DIR" O="$OBJ" ARCH=x86_64 KCONFIG_ALLCONFIG="$all" \
		allnoconfig >"$DIR/config.log" 2>&1 ||
		{ cat "$DIR/config.log" >&2; die "allnoconfig with the fragments failed (log: $DIR/config.log)"; }
	check_fragments
}

# kconfig_defines KEY: some Kconfig file of the source defines KEY.
kconfig_defines() {
	grep -rqsE "^[[:space:]]*(menu)?config[[:space:]]+${1#CONFIG_}[[:space:]]*$" \
		--include='Kconfig*' "$KSRC_DIR"
}

# check_fragments: every line of the fragments is in .config. An option
# no Kconfig of this series defines (7.x dropped PROC_SYSCTL, LIBCRC32C
# and NFS_V4_1: always there; 6.x has no KUNIT_AUTORUN_ENABLED yet) is
# reported, not fatal; one that exists and did not take its value stops
# the build.
check_fragments() {
	local f line key missing=() soft=() gone=()
	for f in "${FRAGS[@]}" "$OPTIONAL"; do
		while read -r line; do
			case $line in CONFIG_*=*) ;; *) continue ;; esac
			key=${line%%=*}
			grep -qxF "$line" "$OBJ/.config" && continue
			if [ "$f" = "$OPTIONAL" ]; then
				soft+=("$key")
			elif ! kconfig_defines "$key"; then
				gone+=("$key")
			else
				missing+=("$line (have: $(grep -E "^$key=|^# $key is not set" "$OBJ/.config" || echo 'not set: a dependency is off'))")
			fi
		done <"$f"
	done
	[ ${#soft[@]} -eq 0 ] || warn "linux $srcver lacks optional ${soft[*]}"
	[ ${#gone[@]} -eq 0 ] || warn "linux $srcver defines no ${gone[*]} (removed or built in, or newer than this series); going on"
	[ ${#missing[@]} -eq 0 ] ||
		die "Kconfig of linux $srcver did not keep these lines of scripts/debug-kernel/: $(printf '\n  %s' "${missing[@]}")
a dependency is missing from the fragments, or the option changed name in this series"
}

# build_ticker PID LOG: a progress line a minute while the build runs.
build_ticker() {
	local pid=$1 start=$SECONDS
	while kill -0 "$pid" 2>/dev/null; do
		sleep 60
		kill -0 "$pid" 2>/dev/null || break
		msg "  ... $(( (SECONDS - start) / 60 )) min, $(find "$OBJ" -name '*.o' | wc -l) objects so far"
	done
}

t0=$SECONDS
if [ "$CONFIG_ONLY" = 1 ]; then
	msg "debug kernel $REL from $KSRC_DIR: configuring only (in $OBJ)"
	configure
	msg "the fragments of scripts/debug-kernel/ hold in $OBJ/.config (what this series lacks is reported above); nothing built"
	echo "$OBJ/.config"
	exit 0
fi
msg "debug kernel $REL from $KSRC_DIR (cached in $DIR)"
configure
msg "building bzImage and modules with $JOBS jobs (the first time: 6 min for 6.1 on 2 idle cores, 14-18 min for 6.12, more while VMs run; log: $DIR/build.log)"
make -C "$KSRC_DIR" O="$OBJ" ARCH=x86_64 -j"$JOBS" bzImage modules >"$DIR/build.log" 2>&1 &
pid=$!
build_ticker "$pid" &
ticker=$!
wait "$pid"
rc=$?
kill "$ticker" 2>/dev/null
wait "$ticker" 2>/dev/null
if [ $rc -ne 0 ]; then
	grep -E 'error|Error' "$DIR/build.log" | head -20 >&2
	die "the debug kernel build failed (log: $DIR/build.log); rerun make debug-kernel to resume"
fi
[ "$(cat "$OBJ/include/config/kernel.release")" = "$REL" ] ||
	die "the tree built release $(cat "$OBJ/include/config/kernel.release"), not $REL"

msg "installing modules into $DIR/root"
rm -rf "$DIR/root"
make -s -C "$KSRC_DIR" O="$OBJ" ARCH=x86_64 INSTALL_MOD_PATH="$DIR/root" \
	INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod modules_install >>"$DIR/build.log" 2>&1 ||
	die "modules_install failed (log: $DIR/build.log)"
mkdir -p "$DIR/root/boot"
cp "$OBJ/arch/x86/boot/bzImage" "$DIR/root/boot/vmlinuz-$REL" || die "no bzImage in $OBJ"
depmod -b "$DIR/root" "$REL" || die "depmod -b $DIR/root $REL failed"
echo "$KVER" >"$DIR/base"
touch "$DIR/.complete"
msg "debug kernel $REL built in $(( (SECONDS - t0) / 60 )) min $(( (SECONDS - t0) % 60 )) s"
echo "$REL"
