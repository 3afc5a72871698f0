#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian build roots: a minimal Debian userland of one family (trixie,
# sid) in which a kernel of that family is built when the host cannot
# install its headers (trixie's linux-kbuild needs glibc >= 2.38, Debian
# 12 has 2.36). The kernel's own compiler, headers and source, and
# Coccinelle, are installed inside, from Debian's archive.
#
#   buildroot.sh create FAMILY       create it (once; cached)
#   buildroot.sh run FAMILY CMD...   run CMD inside, as root, with this
#                                    tree, build/ and the source cache
#                                    mounted at their own paths
#   buildroot.sh path FAMILY         print where it lives
#   buildroot.sh remove FAMILY       delete it
#
# Roots live in $RPCRDMA_CM_CACHE/roots/<family> (outside the clone: CI
# and later runs reuse them). A root is created under <family>.new and
# renamed only when complete, so a failed or interrupted creation is
# redone from scratch next time, never used half-made.

. "$(dirname "$0")/lib.sh"
set -o pipefail

ROOTS=$RPCRDMA_CM_CACHE/roots
# What every build needs; headers and linux-source of a given release are
# installed on demand by the build itself (ensure_headers, ensure_ksrc).
ROOT_PKGS=make,gcc,libc6-dev,coccinelle,python3,perl,xz-utils,kmod,bc,bison,flex,libelf-dev,libssl-dev,cpio,sparse,shellcheck
# Free space a new root needs (KiB): ~1.3 GiB of packages, ~1.5 GiB per
# kernel's headers and source tarball installed later.
ROOT_SPACE_KB=$((4 * 1024 * 1024))

root_path() { echo "$ROOTS/$1"; }

# sources FAMILY: the apt sources of a root of FAMILY.
sources() {
	case $1 in
	sid) echo "deb $MIRROR sid main" ;;
	*)
		echo "deb $MIRROR $1 main"
		echo "deb $MIRROR $1-updates main"
		echo "deb $SECURITY_MIRROR $1-security main"
		echo "deb $MIRROR $1-backports main"
		;;
	esac
}

create() {
	local fam=$1 dir new t0 avail
	dir=$(root_path "$fam")
	[ -e "$dir/.complete" ] && return 0
	case $fam in
	bookworm | trixie | sid) ;;
	*) die "no build root for a '$fam' family (scripts/kernels.tab names bookworm, trixie, sid)" ;;
	esac
	[ "$(id -u)" -eq 0 ] || die "creating a build root needs root (chroot, package installation): sudo make KVER=$KVER"
	mkdir -p "$ROOTS" || die "cannot create $ROOTS; set RPCRDMA_CM_CACHE=<a writable directory>"
	exec 7>"$ROOTS/$fam.lock"
	flock 7 || die "cannot lock $ROOTS/$fam.lock"
	[ -e "$dir/.complete" ] && return 0

	avail=$(df -Pk "$ROOTS" | awk 'NR == 2 {print $4}')
	[ "${avail:-0}" -ge $ROOT_SPACE_KB ] ||
		die "a $fam build root needs about $((ROOT_SPACE_KB / 1024 / 1024)) GiB free in $ROOTS, there are $((avail / 1024)) MiB: free some space, or set RPCRDMA_CM_CACHE=<a directory on a larger filesystem>"
	# Fails early, with the archive's name, when Debian cannot be reached.
	papt true
	need_pkgs mmdebstrap

	new=$dir.new
	[ -e "$new" ] && msg "removing an unfinished $fam build root ($new)"
	rm_tree "$new" "$dir"
	# sid's Release files are valid for a week only; a mirror that lags
	# behind (seen here: 18 days) would stop the build. Signatures are
	# still checked.
	local validity=()
	[ "$fam" = sid ] && validity=(--aptopt='Acquire::Check-Valid-Until "false"')
	t0=$SECONDS
	msg "creating a Debian $fam build root in $dir (once; about 3 minutes, ~1.3 GiB)"
	# shellcheck disable=SC2046 # one argument per sources line
	if ! no_fds mmdebstrap --mode=root --variant=apt --include="$ROOT_PKGS" \
		--aptopt='APT::Install-Recommends "false"' \
		--aptopt='Acquire::Languages "none"' "${validity[@]}" \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		"$fam" "$new" "${SRCS[@]}" 2>&1 | progress; then
		rm_tree "$new"
		die "creating the $fam build root failed (output above: is $MIRROR reachable, is there space in $ROOTS?); nothing was kept, the next build starts over"
	fi
	# Backports are what the table asks for when it names them (7.x for
	# trixie): let their dependencies come from there too.
	if [ "$fam" != sid ]; then
		printf 'Package: *\nPin: release a=%s-backports\nPin-Priority: 500\n' "$fam" \
			>"$new/etc/apt/preferences.d/rpcrdma-cm-backports"
	fi
	touch "$new/.complete"
	mv "$new" "$dir" || die "cannot rename $new to $dir"
	msg "$fam build root ready in $((SECONDS - t0)) s ($(du -sh "$dir" | cut -f1))"
}

# progress: mmdebstrap's lines, prefixed, at most one per step kind.
progress() {
	local line
	while IFS= read -r line; do
		case $line in
		I:* | E:* | W:*) printf '    %s\n' "$line" >&2 ;;
		esac
	done
	return 0
}

# inside ROOT CMD...: (in a private mount namespace) bind what a build
# needs into ROOT and run CMD there; the mounts vanish with the namespace.
inside() {
	local r=$1 d
	shift
	mount -t proc proc "$r/proc" || die "cannot mount /proc in $r"
	mount --rbind /dev "$r/dev" || die "cannot bind /dev into $r"
	for d in "$TOP" "$BUILD" "$RPCRDMA_CM_CACHE/src"; do
		mkdir -p "$d" "$r$d"
		mount --bind "$d" "$r$d" || die "cannot bind $d into $r"
	done
	exec chroot "$r" /usr/bin/env -i \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}" \
		TOP="$TOP" BUILD="$BUILD" RPCRDMA_CM_CACHE="$RPCRDMA_CM_CACHE" \
		RPCRDMA_CM_ROOT="$(basename "$r")" KVER="$KVER" KSRC="${KSRC:-}" \
		JOBS="${JOBS:-}" FORCE="${FORCE:-}" KBUILD_ARGS="${KBUILD_ARGS:-}" \
		RPCRDMA_CM_VERSION="${RPCRDMA_CM_VERSION:-}" MAKEFLAGS="${MAKEFLAGS:-}" \
		KUNIT_MODULE_FORCE="${KUNIT_MODULE_FORCE:-}" LINT_SHELL="${LINT_SHELL:-}" \
		"$@"
}

run() {
	local fam=$1 r
	shift
	create "$fam"
	r=$(root_path "$fam")
	cp -L /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
	# mount is Priority: required, not Essential: a bare root or
	# container image may lack it
	need_pkgs mount
	exec unshare --mount --propagation private -- "$0" _inside "$r" "$@"
}

cmd=${1:-}
fam=${2:-}
[ -n "$fam" ] || die "usage: buildroot.sh create|run|path|remove FAMILY [CMD...]"
shift 2
mapfile -t SRCS < <(sources "$fam")
case $cmd in
create) create "$fam" ;;
run) run "$fam" "$@" ;;
_inside) inside "$fam" "$@" ;;
path) root_path "$fam" ;;
remove) rm_tree "$(root_path "$fam")" "$(root_path "$fam").new" && msg "removed the $fam build root" ;;
*) die "usage: buildroot.sh create|run|path|remove FAMILY [CMD...]" ;;
esac
