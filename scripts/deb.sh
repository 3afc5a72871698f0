#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: build the Debian source package rpcrdma-cm and its binary
# packages rpcrdma-cm-dkms, rpcrdma-cm-tools and rpcrdma-cm-wireshark for
# one Debian release,
# and the prebuilt rpcrdma-cm-modules-<kernel ABI> of that release's
# kernel (scripts/deb-modules.sh),
# the way Debian's build daemons do (sbuild): in a fresh root of that
# release made for this build only, with the Build-Depends installed by
# apt inside it, built by an unprivileged user without network, then
# checked with that release's lintian. Nothing of the host's packages
# takes part.
#
#   DEB_RELEASE=bookworm|trixie   (default: the host's release)
#   DEB_MODULES="trixie trixie-backports"   kernel lines of
#                  scripts/kernels.tab whose module packages to build
#                  (default: the release's own; "none": none)
#   DEB_MODULES_ONLY=1   only those: add them to the packages of the
#                  last make deb of this version (after a kernel update)
#
# Steps, each with its log under build/deb/<release>-logs/ (copied to
# build/deb/<release>/logs/ when the build succeeds):
#   1. the root: a copy of a cached mmdebstrap --variant=buildd tarball of
#      the release (main, -updates, -security; created once, refreshed
#      after a week) in build/deb/.roots/;
#   2. the source package: the tree's files (git ls-files, with their
#      uncommitted changes) -> dpkg-source -b -> rpcrdma-cm_<v>.dsc and
#      rpcrdma-cm_<v>.tar.xz;
#   3. the binaries are built from that .dsc, not from the tree:
#      dpkg-source -x, apt-get build-dep, dpkg-buildpackage -us -uc (as the
#      user "builder", in a network namespace of its own);
#   4. lintian, in a root of its own (a cached tarball of the release with
#      lintian installed), on the .changes, saved as lintian.txt; any E: or W: line fails the build (what stays
#      is overridden in debian/*.lintian-overrides with a reason);
#   5. per kernel of DEB_MODULES, the source package
#      rpcrdma-cm-modules-<ABI> built the same way in a fresh root of its
#      own, and checked by the same lintian (scripts/deb-modules.sh).
# The results go to build/deb/<release>/ only when every step passed; a
# failed or interrupted build leaves the previous results as they were
# and removes its root.
#
# Downloaded packages are kept in $RPCRDMA_CM_CACHE/deb/archives/<release>
# (apt checks them against the release's signed indices as always), so a
# second build does not fetch them again.

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
set -o pipefail

REL=${DEB_RELEASE:-$(host_family)}
case $REL in
bookworm | trixie) ;;
*) die "DEB_RELEASE=$REL: the packages are built for bookworm or trixie (DEB_RELEASE=bookworm or DEB_RELEASE=trixie)" ;;
esac
OUT=$BUILD/deb/$REL
ROOTS=$BUILD/deb/.roots
CACHE=$RPCRDMA_CM_CACHE/deb
ARCHIVES=$CACHE/archives/$REL
TARBALL=$CACHE/$REL-buildd.tar
LINTIAN_TARBALL=$CACHE/$REL-lintian.tar
# a base tarball older than this (days) is made again, as sbuild-update
# would refresh a chroot
TARBALL_DAYS=7

# shellcheck source=scripts/deb-lib.sh
. "$TOP/scripts/deb-lib.sh"
# shellcheck source=scripts/deb-modules.sh
. "$TOP/scripts/deb-modules.sh"

[ "$(id -u)" -eq 0 ] ||
	die "make deb makes a Debian root (mmdebstrap, chroot): run it as root (sudo make deb)"
need_pkgs mmdebstrap
deb_unshare_check

VER=$(deb_version) || exit 1
# which tree the packages are built from, before any file is read
DEB_TREE_KEY=$(deb_tree_key)
lines=$(modules_lines) || exit 1
mapfile -t MODULES < <(sed '/^$/d' <<<"$lines")

# export_tree DIR: the tree's files as git sees them (tracked ones with
# their uncommitted changes, and new ones git does not ignore), into DIR; a
# tree without .git (a release tarball) is copied without build/.
export_tree() {
	local dir=$1
	mkdir -p "$dir" || die "cannot create $dir"
	if [ -e "$TOP/.git" ]; then
		(cd "$TOP" && deb_tree_files | tar --null -T - -cf -) | tar -C "$dir" -xf - ||
			die "cannot copy the tree's files into $dir"
	else
		tar -C "$TOP" --exclude=./build -cf - . | tar -C "$dir" -xf - ||
			die "cannot copy the tree into $dir"
	fi
}

# lintian_root LOGS: a fresh root with the release's lintian, in lroot
lintian_root() {
	deb_tarball "$LINTIAN_TARBALL" apt "$TARBALL_DAYS" - lintian
	lroot=$ROOTS/lintian-$REL.$$
	DEB_CLEANUP+=("$lroot")
	deb_root_unpack "$LINTIAN_TARBALL" "$lroot"
	# trixie's minimal root has no useradd (passwd is not essential there)
	deb_chroot "$lroot" "$1/lintian-run.log" chown -R nobody: /build ||
		die "cannot chown /build in the lintian root; see $1/lintian-run.log"
}

# main_build ROOT NEW LOGS: steps 1 to 4, the results into NEW
main_build() {
	local root=$1 new=$2 logs=$3 src
	msg "[1/5 +$((SECONDS - t0)) s] fresh $REL build root from $(basename "$TARBALL")"
	deb_root_unpack "$TARBALL" "$root"

	msg "[2/5 +$((SECONDS - t0)) s] source package rpcrdma-cm $VER"
	src=$root/build/rpcrdma-cm-$VER
	export_tree "$src.export"
	mv "$src.export" "$src" || die "cannot move the tree into $root/build"
	deb_chroot "$root" "$logs/source.log" useradd -m -u 4242 builder ||
		die "cannot create the user builder in the root; see $logs/source.log"
	deb_chroot "$root" "$logs/source.log" chown -R builder: /build ||
		die "cannot chown /build; see $logs/source.log"
	deb_chroot_as builder "$root" "$logs/source.log" \
		sh -c "cd /build && dpkg-source -b rpcrdma-cm-$VER && rm -rf rpcrdma-cm-$VER &&
			dpkg-source -x rpcrdma-cm_$VER.dsc" ||
		deb_fail "$logs/source.log" "dpkg-source failed (is debian/changelog's version $VER consistent with debian/source/format?)"

	msg "[3/5 +$((SECONDS - t0)) s] Build-Depends (apt-get build-dep)"
	deb_apt "$root" "$logs/build-deps.log" update ||
		deb_fail "$logs/build-deps.log" "apt-get update failed in the $REL root: can the host reach $MIRROR?"
	deb_apt "$root" "$logs/build-deps.log" build-dep "/build/rpcrdma-cm_$VER.dsc" ||
		deb_fail "$logs/build-deps.log" "apt-get build-dep could not install rpcrdma-cm's Build-Depends in $REL"
	msg "[3/5 +$((SECONDS - t0)) s] dpkg-buildpackage -us -uc, as user builder, without network"
	deb_chroot_as builder "$root" "$logs/build.log" --nonet \
		sh -c "cd /build/rpcrdma-cm-$VER && dpkg-buildpackage -us -uc" ||
		deb_fail "$logs/build.log" "dpkg-buildpackage failed"

	msg "[4/5 +$((SECONDS - t0)) s] lintian ($REL's), in a root of its own"
	lintian_root "$logs"
	cp "$root"/build/rpcrdma-cm_"$VER"* "$root"/build/rpcrdma-cm-*_"$VER"_*.deb "$lroot/build/" ||
		die "dpkg-buildpackage did not make the files expected (see $logs/build.log)"
	deb_chroot_as nobody "$lroot" "$logs/lintian-run.log" \
		sh -c "cd /build && lintian --version && lintian --display-info --pedantic --show-overrides rpcrdma-cm_${VER}_amd64.changes >lintian.txt; echo lintian exit \$?"
	cp "$lroot/build/lintian.txt" "$logs/lintian.txt" || die "lintian wrote no output; see $logs/lintian-run.log"
	cp "$logs/lintian.txt" "$new/lintian.txt" || die "cannot copy $logs/lintian.txt"

	cp "$root"/build/rpcrdma-cm_"$VER"{.dsc,.tar.xz,_amd64.buildinfo,_amd64.changes} \
		"$root"/build/rpcrdma-cm-dkms_"$VER"_all.deb "$root"/build/rpcrdma-cm-tools_"$VER"_amd64.deb \
		"$root"/build/rpcrdma-cm-wireshark_"$VER"_amd64.deb \
		"$new"/ || die "dpkg-buildpackage did not make every file expected (see $logs/build.log)"
}

# modules_only NEW LOGS: DEB_MODULES_ONLY=1: the packages of the last
# make deb of this version into NEW, as they are, and a lintian root
# for the module packages about to be built
modules_only() {
	local f
	ls "$OUT/rpcrdma-cm-tools_${VER}_amd64.deb" "$OUT/rpcrdma-cm-dkms_${VER}_all.deb" >/dev/null 2>&1 ||
		die "DEB_MODULES_ONLY=1 adds module packages to a make deb of $VER, and ${OUT#"$TOP"/}/ has none: run make deb DEB_RELEASE=$REL first"
	for f in "$OUT"/*; do
		[ -f "$f" ] && [ "${f##*/}" != contents.txt ] || continue
		cp "$f" "$1/" || die "cannot copy $f"
	done
	msg "[1-4/5] DEB_MODULES_ONLY=1: rpcrdma-cm's packages as ${OUT#"$TOP"/}/ has them"
	lintian_root "$2"
}

build() {
	local t0=$SECONDS root new logs lroot
	mkdir -p "$BUILD/deb" "$ROOTS" || die "cannot create $BUILD/deb"
	exec 5>"$BUILD/deb/.$REL.lock"
	flock -n 5 || { msg "another make deb for $REL is running; waiting"; flock 5; }
	deb_roots_reap "$ROOTS"

	root=$ROOTS/build-$REL.$$
	new=$BUILD/deb/.$REL.new.$$
	# kept after a failure, replaced by the next run
	logs=$BUILD/deb/$REL-logs
	rm -rf "$logs"
	DEB_CLEANUP=("$root" "$new")
	trap deb_cleanup EXIT
	trap 'exit 130' INT TERM
	mkdir -p "$logs" "$new" || die "cannot create $logs and $new"
	# passwd for useradd: trixie's mmdebstrap leaves it out of the
	# buildd variant (bookworm's put it in)
	deb_tarball "$TARBALL" buildd "$TARBALL_DAYS" - passwd

	if [ "${DEB_MODULES_ONLY:-0}" = 1 ]; then
		modules_only "$new" "$logs"
	else
		main_build "$root" "$new" "$logs"
	fi
	local m
	for m in "${MODULES[@]}"; do
		modules_build "$m" "$new" "$logs" "$lroot"
	done
	# every package's tags, kept with the logs when a check below fails
	cp "$new/lintian.txt" "$logs/lintian.txt" || die "cannot copy $new/lintian.txt"
	(cd "$new" && for d in *.deb; do echo "== dpkg -c $d"; dpkg -c "$d"; echo "== dpkg -I $d"; dpkg -I "$d"; done) \
		>"$new/contents.txt" || die "cannot list the packages' contents"

	if grep -qE '^[EW]: ' "$new/lintian.txt"; then
		grep -E '^[EW]: ' "$new/lintian.txt" >&2
		die "lintian reports errors or warnings (above; all in $logs/lintian.txt): fix them or override them in debian/*.lintian-overrides with a reason"
	fi
	cp -r "$logs" "$new/logs" || die "cannot copy $logs"
	# the tree they were built from, for make debtest; none when
	# DEB_MODULES_ONLY=1 added module packages of this tree to those of
	# another
	if [ "${DEB_MODULES_ONLY:-0}" = 1 ] && [ "$(cat "$new/tree-key" 2>/dev/null)" != "$DEB_TREE_KEY" ]; then
		rm -f "$new/tree-key"
	else
		echo "$DEB_TREE_KEY" >"$new/tree-key" || die "cannot write $new/tree-key"
	fi
	# Two renames: an interruption leaves OUT complete (old or new) or
	# missing (debtest then builds again), never half-removed.
	local old=$BUILD/deb/.$REL.old.$$
	DEB_CLEANUP+=("$old")
	if [ -e "$OUT" ]; then
		mv "$OUT" "$old" || die "cannot move $OUT aside"
	fi
	mv "$new" "$OUT" || die "cannot move $new to $OUT"
	rm_tree "$old"
	msg "lintian: $(deb_lintian_summary "$OUT/lintian.txt")"
	msg "built in $((SECONDS - t0)) s: ${OUT#"$TOP"/}/"
	(cd "$OUT" && ls -l -- *.dsc *.tar.xz *.deb) | sed 's/^/    /' >&2
}

build
