# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers of scripts/deb.sh (make deb) and scripts/debtest.sh (make
# debtest): fresh Debian roots made from cached mmdebstrap tarballs, and
# commands run inside them. Source it after lib.sh, with REL (the
# release), ARCHIVES (where the root's downloaded packages are kept) and
# ROOTS (where roots and mmdebstrap's work directories go) set.
#
# deb.sh and debtest.sh hold their locks on fds 5 and 6, which commands in a root
# do not inherit (a daemon one starts would hold it after the run).
# Every command runs in a mount namespace of its own (unshare), in which
# /proc, /dev and the package cache are mounted into the root: nothing is
# left mounted on the host when the command ends, however it ends. So
# does mmdebstrap, whose work directory is under ROOTS. Roots, work
# directories and unfinished files are named in DEB_CLEANUP, which the
# EXIT trap (deb_cleanup) removes with rm_tree, and a run killed before
# its trap ran leaves them to the next run's deb_roots_reap.

# deb_unshare_check: stop with the way out when unshare cannot make the
# mounts of a new namespace private, which deb_chroot and deb_tarball
# need so that a root's /proc and /dev never show on the host. It cannot
# in a chroot into a plain directory ("cannot change root filesystem
# propagation": / is not a mount point there); make hosttest binds each
# root onto itself for this reason.
deb_unshare_check() {
	[ -z "${DEB_UNSHARE_OK:-}" ] || return 0
	# mmdebstrap --mode=root mounts too
	need_pkgs mount
	unshare --mount --propagation private -- true 2>/dev/null ||
		die "unshare --mount --propagation private fails here: make deb and make debtest need root with CAP_SYS_ADMIN, and a / that is a mount point (in a chroot into a plain directory DIR, run mount --bind DIR DIR before chroot, as make hosttest does)"
	DEB_UNSHARE_OK=1
}

# deb_version: the version of debian/changelog's first entry.
deb_version() {
	local v
	v=$(changelog_version)
	[ -n "$v" ] || { echo "error: debian/changelog does not start with 'rpcrdma-cm (<version>) ...'" >&2; return 1; }
	echo "$v"
}

# deb_tree_files: the tree's files as make deb packs them, as paths
# relative to TOP, each ended by a NUL: the tracked ones with their
# uncommitted changes and the new ones git does not ignore; in a tree
# without .git (a release tarball), every file but build/.
deb_tree_files() {
	if [ -e "$TOP/.git" ]; then
		(cd "$TOP" && git ls-files -z --cached --others --exclude-standard | xargs -0 -r sh -c \
			'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh)
	else
		(cd "$TOP" && find . -path ./build -prune -o -type f -printf '%P\0')
	fi
}

# deb_tree_key: those files' names and contents as one short hash, which
# make deb writes into build/deb/<release>/tree-key: make debtest uses
# the packages there only when they were built from the tree as it is.
# The prose and pictures (*.md, *.png) are left out, as in check.sh's
# code_key: no binary package ships them, and make check-full rewrites
# Documentation/*.md between its make deb and make debtest steps.
deb_tree_key() {
	deb_tree_files | grep -zvE '\.(md|png)$' | LC_ALL=C sort -z |
		(cd "$TOP" && xargs -0 -r sha256sum --) | sha256sum | cut -c1-16
}

# deb_of_tree DIR: true when DIR (build/deb/<release>) holds the packages
# make deb built from this very tree.
deb_of_tree() {
	[ -s "$1/tree-key" ] && [ "$(cat "$1/tree-key")" = "${DEB_TREE_KEY:=$(deb_tree_key)}" ]
}

# deb_sources REL [backports]: the root's apt sources: the release, its
# updates and security suites (what an installed Debian system has), and
# with "backports" its backports suite (at apt's default priority for
# backports, so nothing comes from there unless asked for: apt -t).
deb_sources() {
	echo "deb $MIRROR $1 main"
	echo "deb $MIRROR $1-updates main"
	echo "deb $SECURITY_MIRROR $1-security main"
	[ "${2:-}" != backports ] || echo "deb $MIRROR $1-backports main"
}

# deb_tarball TARBALL VARIANT DAYS [backports|-] [PACKAGES]: make the
# root tarball of $REL (mmdebstrap VARIANT, with PACKAGES, a comma-separated
# list) when it is missing or older than DAYS days. Made under another
# name and renamed when complete; one maker at a time.
deb_tarball() {
	local tb=$1 variant=$2 days=$3 extra=${4:-} include=${5:-} t0=$SECONDS lk
	mkdir -p "$(dirname "$tb")" "$ARCHIVES" ||
		die "cannot create $(dirname "$tb"); set RPCRDMA_CM_CACHE=<a writable directory>"
	exec {lk}>"$tb.lock"
	flock "$lk" || die "cannot lock $tb.lock"
	if [ -s "$tb" ] && [ -n "$(find "$tb" -mtime -"$days" 2>/dev/null)" ]; then
		exec {lk}>&-
		return 0
	fi
	msg "making the $REL $variant root tarball $(basename "$tb") (once a week; 2-5 minutes)"
	local srcs tmp=$ROOTS/mmdebstrap.$$ n=${#DEB_CLEANUP[@]}
	mapfile -t srcs < <(deb_sources "$REL" "$extra")
	# ours now that the lock is held: an interrupted run removes them
	DEB_CLEANUP+=("$tb.new" "$tmp")
	rm -f "$tb.new"
	rm_tree "$tmp"
	mkdir -p "$tmp" || die "cannot create $tmp"
	# mmdebstrap --mode=root mounts /proc, /sys and /dev in the root it
	# makes in TMPDIR: in a mount namespace of its own, a killed
	# mmdebstrap leaves no mount on the host, and its directory is
	# reaped as a root is.
	deb_unshare_check
	if ! TMPDIR=$tmp no_fds unshare --mount --propagation private -- \
		mmdebstrap --mode=root --variant="$variant" --format=tar \
		${include:+--include="$include"} \
		--aptopt='Acquire::Languages "none"' \
		--skip=cleanup/apt/lists \
		"$REL" "$tb.new" "${srcs[@]}" 2>&1 | deb_progress "$tb.log"; then
		rm -f "$tb.new"
		rm_tree "$tmp"
		die "mmdebstrap of $REL failed (log: $tb.log): can the host reach $MIRROR?"
	fi
	rm_tree "$tmp"
	mv "$tb.new" "$tb" || die "cannot rename $tb.new"
	DEB_CLEANUP=("${DEB_CLEANUP[@]:0:n}")
	msg "  made $(basename "$tb") in $((SECONDS - t0)) s ($(du -h "$tb" | cut -f1))"
	exec {lk}>&-
}

# deb_progress LOG: keep mmdebstrap's output in LOG, show its step lines.
deb_progress() {
	local line
	: >"$1"
	while IFS= read -r line; do
		printf '%s\n' "$line" >>"$1"
		case $line in
		I:\ running* | I:\ downloading* | I:\ extracting* | I:\ installing* | E:* | W:*)
			printf '    %s\n' "$line" >&2 ;;
		esac
	done
	return 0
}

# deb_root_unpack TARBALL DIR: a fresh root in DIR.
deb_root_unpack() {
	mkdir -p "$2" || die "cannot create $2"
	tar -C "$2" -xf "$1" || die "cannot unpack $1 into $2"
	mkdir -p "$2/build" "$2/var/cache/apt/archives"
	# No package's maintainer script starts a daemon (as in sbuild's
	# roots): nothing is left running in the root when a command ends.
	printf '#!/bin/sh\nexit 101\n' >"$2/usr/sbin/policy-rc.d" &&
		chmod 755 "$2/usr/sbin/policy-rc.d" || die "cannot write $2/usr/sbin/policy-rc.d"
	cp -L /etc/resolv.conf "$2/etc/resolv.conf" 2>/dev/null || true
}

# deb_chroot ROOT LOG [--nonet] [--user NAME] CMD...: run CMD in ROOT,
# output appended to LOG (with LOG "-": CMD's output on stdout). --nonet: in a network namespace without any
# interface but a down loopback (a package build must not reach the
# network); --user: as that user of the root, else as root.
deb_chroot() {
	local root=$1 log=$2 net=() spec=() home=/root
	shift 2
	while :; do
		case ${1:-} in
		--nonet) net=(--net); shift ;;
		--user)
			# the root's own uid:gid of that user
			spec=(--userspec="$(awk -F: -v u="$2" '$1 == u {print $3 ":" $4}' "$root/etc/passwd")")
			home=/home/$2
			[ -d "$root$home" ] || home=/tmp
			shift 2 ;;
		*) break ;;
		esac
	done
	# LOG "-": the command's output is the caller's (its errors dropped)
	local out=$log err=$log
	if [ "$log" = - ]; then
		out=/dev/stdout err=/dev/null
	else
		printf '\n$ %s\n' "$*" >>"$log"
	fi
	need_pkgs mount # not Essential: a bare host may lack it
	deb_unshare_check
	unshare --mount --propagation private "${net[@]}" -- /bin/sh -ec '
		r=$1 a=$2 home=$3
		shift 3
		mount -t proc proc "$r/proc"
		mount --rbind /dev "$r/dev"
		mount --bind "$a" "$r/var/cache/apt/archives"
		exec chroot "$@"
	' sh "$root" "$ARCHIVES" "$home" "${spec[@]}" "$root" /usr/bin/env -i \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME="$home" LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		"$@" >>"$out" 2>>"$err" 5>&- 6>&-
}

# deb_chroot_as USER ROOT LOG [--nonet] CMD...
deb_chroot_as() {
	local user=$1 root=$2 log=$3
	shift 3
	local net=()
	[ "${1:-}" != --nonet ] || { net=(--nonet); shift; }
	deb_chroot "$root" "$log" "${net[@]}" --user "$user" "$@"
}

# deb_apt ROOT LOG ARGS...: apt-get ARGS in ROOT, non-interactive. The
# package cache is the host's directory ARCHIVES, which apt's sandbox
# user could not write: apt runs as root throughout.
deb_apt() {
	local root=$1 log=$2
	shift 2
	deb_chroot "$root" "$log" apt-get -y -q -o APT::Sandbox::User=root \
		-o APT::Keep-Downloaded-Packages=true "$@"
}

# deb_fail LOG MESSAGE: the end of LOG, then die with MESSAGE.
deb_fail() {
	echo "---- last lines of $1:" >&2
	tail -n 25 "$1" >&2
	echo "----" >&2
	die "$2 (log: $1)"
}

# deb_cleanup: remove what DEB_CLEANUP names (roots, work directories,
# unfinished results) with rm_tree; installed as the EXIT trap.
deb_cleanup() {
	local d
	for d in "${DEB_CLEANUP[@]}"; do
		[ -n "$d" ] && rm_tree "$d"
	done
	DEB_CLEANUP=()
	return 0
}

# deb_roots_reap DIR: remove roots and mmdebstrap work directories left
# by runs that were killed (their names end in the pid of a process that
# is gone), and their unfinished results.
deb_roots_reap() {
	local d pid
	for d in "$1"/*.[0-9]* "$BUILD"/deb/.*.new.[0-9]* "$BUILD"/deb/.*.old.[0-9]*; do
		[ -e "$d" ] || continue
		pid=${d##*.}
		kill -0 "$pid" 2>/dev/null && continue
		msg "removing $d, left by a run that ended without cleaning up"
		rm_tree "$d"
	done
}

# deb_lintian_summary FILE: counts of lintian's tags by kind.
deb_lintian_summary() {
	local k n out=
	for k in E W I P X O N; do
		n=$(grep -c "^$k: " "$1")
		[ "$n" -eq 0 ] || out+="${out:+, }$n $k"
	done
	echo "${out:-no tags}"
}
