#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Which Debian kernel, from where, built how: helpers over the table in
# scripts/kernels.tab. Sourced by lib.sh; do not run it.
#
# - A private apt configuration under the cache (never the host's own
#   sources) knows every suite of the table, so any release can be looked
#   up, and its image, headers or source downloaded, on any Debian host.
# - kver_resolve turns a short name (trixie, trixie-backports, ...) into
#   the release that suite carries today.
# - kbuild_enter re-runs the calling script inside a build root of the
#   kernel's Debian family when the host cannot install its headers
#   (trixie's kbuild needs a newer glibc than Debian 12 has).
# - kimage_ensure unpacks Debian's image and modules packages of a release
#   for the VM rig, without installing them.
#
# The cache lives outside the clone so CI and later runs reuse it:
# RPCRDMA_CM_CACHE (default /var/cache/rpcrdma-cm as root, else
# ~/.cache/rpcrdma-cm). RPCRDMA_CM_MIRROR and RPCRDMA_CM_SECURITY_MIRROR
# pick another Debian mirror.

KTAB=$TOP/scripts/kernels.tab
if [ -z "${RPCRDMA_CM_CACHE:-}" ]; then
	if [ "$(id -u)" -eq 0 ]; then
		RPCRDMA_CM_CACHE=/var/cache/rpcrdma-cm
	else
		RPCRDMA_CM_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/rpcrdma-cm
	fi
fi
export RPCRDMA_CM_CACHE
MIRROR=${RPCRDMA_CM_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${RPCRDMA_CM_SECURITY_MIRROR:-http://deb.debian.org/debian-security}

# ktab: the table without comments, one line per kernel line.
ktab() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$KTAB"; }

# ktab_names: the short names, in table order.
ktab_names() { ktab | awk '{print $1}'; }

# ktab_line WHAT: the table line for a short name or a release (first
# line whose pattern matches); empty when none does. A kernel built here
# from a Debian release's source (make debug-kernel) names that release
# in $RPCRDMA_CM_CACHE/kernels/<its release>/base and takes its line:
# same build family, same QEMU.
ktab_line() {
	local name suites family re rest base
	while read -r name suites family re rest; do
		if [ "$1" = "$name" ] || [[ $1 =~ $re ]]; then
			echo "$name $suites $family $re $rest"
			return
		fi
	done < <(ktab)
	base=$RPCRDMA_CM_CACHE/kernels/$1/base
	[ -s "$base" ] && [ "$(cat "$base")" != "$1" ] && ktab_line "$(cat "$base")"
}

# ktab_field WHAT N: column N (1 name, 2 suites, 3 family, 4 release,
# 5 check, 6 status, 7 qemu) of WHAT's line.
ktab_field() { ktab_line "$1" | awk -v n="$2" '{print $n}'; }

# host_family: the Debian release this host runs (bookworm, trixie, sid).
host_family() {
	local c
	c=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	case $c in
	bookworm | trixie) echo "$c" ;;
	"") echo unknown ;;
	*) echo sid ;; # testing and unstable name the next release
	esac
}

# papt_dir: the private apt state.
papt_dir() { echo "$RPCRDMA_CM_CACHE/apt"; }

# papt_setup: write the private apt configuration (every suite of the
# table, plus the security suites) once.
# sid's Release file is valid for a week and the mirror seen here lags
# by more; trixie's apt (inside a build root) then rejects it and every
# release lookup comes back empty. Signatures are still checked.
papt_setup() {
	local d suite kr=/usr/share/keyrings/debian-archive-keyring.gpg
	d=$(papt_dir)
	[ -e "$kr" ] || need_pkgs debian-archive-keyring
	mkdir -p "$d/lists/partial" "$d/archives/partial" "$d/etc/parts" || die "cannot create $d"
	{
		for suite in $(ktab | awk '{print $2}' | tr ',' ' ' | tr ' ' '\n' | sort -u); do
			case $suite in
			*-security) echo "deb [signed-by=$kr] $SECURITY_MIRROR $suite main" ;;
			*) echo "deb [signed-by=$kr] $MIRROR $suite main" ;;
			esac
		done
	} >"$d/etc/sources.list.new"
	cat >"$d/apt.conf.new" <<-EOF
		Dir::State "$d";
		Dir::State::Lists "$d/lists";
		Dir::State::status "$d/status";
		Dir::Cache "$d";
		Dir::Cache::archives "$d/archives";
		Dir::Etc::SourceList "$d/etc/sources.list";
		Dir::Etc::SourceParts "$d/etc/parts";
		Dir::Etc::Preferences "$d/etc/preferences";
		Dir::Etc::PreferencesParts "$d/etc/parts";
		APT::Architecture "amd64";
		APT::Architectures { "amd64"; };
		Acquire::Languages "none";
		APT::Sandbox::User "root";
		Acquire::Check-Valid-Until "false";
	EOF
	touch "$d/status" "$d/etc/preferences"
	mv "$d/etc/sources.list.new" "$d/etc/sources.list"
	mv "$d/apt.conf.new" "$d/apt.conf"
}

# papt CMD ARGS...: run apt-get / apt-cache with the private
# configuration, its package lists refreshed when older than 6 hours.
#   The lists are shared by every clone and make on the machine: one
#   process at a time sets them up and updates them (an exclusive lock on
#   <cache>/apt.lock), and none reads them meanwhile (a shared lock for
#   CMD). Two makes started together with stale lists once updated them
#   side by side, and one read them mid-update: "no Debian suite provides
#   linux-headers-7.3.4+deb13-amd64", a release its own list had named.
papt() {
	local d lk rc
	d=$(papt_dir)
	mkdir -p "$RPCRDMA_CM_CACHE" || die "cannot create $RPCRDMA_CM_CACHE; set RPCRDMA_CM_CACHE=<a writable directory>"
	exec {lk}>>"$d.lock" || die "cannot open $d.lock"
	flock -x "$lk"
	[ -e "$d/apt.conf" ] && [ "$d/apt.conf" -nt "$KTAB" ] || papt_setup
	if [ -z "$(find "$d/lists/.updated" -mmin -360 2>/dev/null)" ]; then
		msg "reading Debian's package lists ($(ktab | awk '{print $2}' | tr ',\n' '  ' | xargs))"
		APT_CONFIG=$d/apt.conf apt-get -q update >"$d/update.log" 2>&1 ||
			die "cannot read Debian's archive at $MIRROR (apt-get update failed, see $d/update.log): check the network or proxy, or set RPCRDMA_CM_MIRROR=<a Debian mirror>"
		touch "$d/lists/.updated"
	fi
	flock -s "$lk"
	APT_CONFIG=$d/apt.conf "$@"
	rc=$?
	exec {lk}>&-
	return $rc
}

# suite_version PKG SUITE: the version of PKG that SUITE carries.
suite_version() {
	papt apt-cache policy "$1" 2>/dev/null | awk -v s="$2/main" '
		/^ +(\*\*\* )?[^ ]+ [0-9]+$/ {v = $(NF - 1)}
		$3 == s {print v}' | sort -V | tail -1
}

# kver_resolve NAME: the newest release of linux-image-amd64 across the
# suites of NAME's table line.
kver_resolve() {
	local suites s v best='' rel
	suites=$(ktab | awk -v n="$1" '$1 == n {print $2}')
	[ -n "$suites" ] || return 1
	for s in ${suites//,/ }; do
		v=$(suite_version linux-image-amd64 "$s")
		[ -n "$v" ] || continue
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then
			best=$v
		fi
	done
	[ -n "$best" ] || die "no linux-image-amd64 in ${suites//,/ } (Debian's archive at $MIRROR)"
	rel=$(papt apt-cache show "linux-image-amd64=$best" |
		sed -n 's/^Depends:.*linux-image-\([^ ,]*-amd64\) .*/\1/p' | head -1)
	[ -n "$rel" ] || die "cannot read the release linux-image-amd64 $best depends on"
	echo "$rel"
}

# kver_known: one line per table entry, "name release", for messages.
kver_known() {
	local n
	for n in $(ktab_names); do
		echo "  $n = $(kver_resolve "$n" 2>/dev/null || echo '?')"
	done
}

# kver_normalize: turn a short name in $KVER into its release, and check
# that a release belongs to a line of the table (or has its headers
# installed: a kernel of the user's own is built natively).
kver_normalize() {
	local rel
	[ -n "${KVER:-}" ] || return 0
	if [ -n "$(ktab | awk -v n="$KVER" '$1 == n')" ]; then
		rel=$(kver_resolve "$KVER") || exit 1
		msg "KVER=$KVER is $rel today"
		KVER=$rel
		export KVER
	fi
	[ -n "$(ktab_line "$KVER")" ] || [ -e "$(kdir)/Makefile" ] ||
		die "KVER=$KVER is no Debian amd64 kernel release this project knows (scripts/kernels.tab); use a short name or a release:
$(kver_known)"
}

# kver_family: the Debian family whose userland builds $KVER.
kver_family() { ktab_field "$KVER" 3; }

# kver_native: true when this host builds $KVER itself: its headers are
# installed, or the host is of the kernel's family.
kver_native() {
	[ -e "$(kdir)/Makefile" ] && return 0
	[ "$(kver_family)" = "$(host_family)" ]
}

# kver_check_exists: stop unless Debian's archive has headers for $KVER.
kver_check_exists() {
	[ -n "$(papt apt-cache show "linux-headers-$KVER" 2>/dev/null | head -1)" ] ||
		die "no Debian suite provides linux-headers-$KVER (Debian keeps only the newest build of each series); releases today:
$(kver_known)
use one of those, or its short name (make KVER=trixie)"
}

# host_enable_suite SUITE: let the host's apt install from SUITE (a
# backports suite of the host's own release), announcing it.
host_enable_suite() {
	local f=/etc/apt/sources.list.d/rpcrdma-cm-$1.list
	grep -rqsE "^[^#]*[[:space:]]$1[[:space:]]" /etc/apt/sources.list /etc/apt/sources.list.d/ && return 0
	# A suite of another Debian release must not reach the host's apt
	# (make kunit-module once added trixie-backports to a Debian 12 host):
	# such a kernel builds in its root, entered with kbuild_enter.
	[ "$(kver_family)" = "$(host_family)" ] ||
		die "$KVER builds in the $(kver_family) build root, not on this $(host_family) host; not adding $1 to the host's apt (a script that builds against $KVER must call kbuild_enter first)"
	[ "$(id -u)" -eq 0 ] || die "kernel $KVER comes from $1, which this host's apt does not know; as root: echo 'deb $MIRROR $1 main' > $f && apt-get update"
	msg "enabling $1 in the host's apt ($f)"
	echo "deb $MIRROR $1 main" >"$f"
	apt-get -q update >"$BUILD/apt.log" 2>&1 || die "apt-get update failed after adding $f; see $BUILD/apt.log"
}

# kbuild_enter ARGS...: called by a script that builds against $KVER's
# headers. On a host that cannot build $KVER natively, run the script
# again, with ARGS, inside a build root of the kernel's family (created
# on demand); the calling script ends there.
kbuild_enter() {
	[ -n "${RPCRDMA_CM_ROOT:-}" ] && return 0 # already inside one
	kver_native && return 0
	local fam script
	fam=$(kver_family)
	script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
	kver_check_exists
	msg "$KVER needs a $fam userland to build (host: $(host_family)); building in the $fam build root"
	# git is not in the root: the version is read here.
	[ -n "${RPCRDMA_CM_VERSION:-}" ] || [ ! -e "$TOP/.git" ] ||
		RPCRDMA_CM_VERSION=$(git -C "$TOP" describe --always --dirty --tags 2>/dev/null)
	export RPCRDMA_CM_VERSION
	exec "$TOP/scripts/buildroot.sh" run "$fam" "$script" "$@"
}

# kimage_dir: where $KVER's image and modules are unpacked.
kimage_dir() { echo "$RPCRDMA_CM_CACHE/kernels/$KVER"; }

# kimage_ensure: unpack Debian's image packages of $KVER (linux-image and,
# from 7.x, the linux-binary/-modules/-base packages it depends on) into
# the cache, with a modules.dep, once. Sets KIMAGE (the unpacked root),
# KIMAGE_VMLINUZ and KIMAGE_MODDIR.
kimage_ensure() {
	local dir tmp pkgs p
	dir=$(kimage_dir)
	if [ ! -e "$dir/.complete" ]; then
		mkdir -p "$RPCRDMA_CM_CACHE/kernels"
		exec 8>"$dir.lock"
		flock 8 || die "cannot lock $dir.lock"
	fi
	if [ ! -e "$dir/.complete" ]; then
		case $KVER in
		*-rpcrdma-dbg-*) die "debug kernel $KVER is not built (or its build did not finish); run make debug-kernel" ;;
		esac
		kver_check_exists
		tmp=$dir.new
		rm -rf "$tmp" "$dir"
		mkdir -p "$tmp/debs" || die "cannot create $tmp"
		pkgs=$(papt apt-cache depends "linux-image-$KVER" 2>/dev/null |
			sed -n "s/^ *Depends: \(linux-[a-z]*-$KVER\)\$/\1/p" | sort -u)
		msg "downloading Debian's linux-image-$KVER $pkgs (unpacked into the cache, not installed)"
		(cd "$tmp/debs" && papt apt-get -q download "linux-image-$KVER" $pkgs) >"$tmp/download.log" 2>&1 ||
			{ cat "$tmp/download.log" >&2; rm -rf "$tmp"; die "cannot download linux-image-$KVER"; }
		for p in "$tmp"/debs/*.deb; do
			dpkg-deb -x "$p" "$tmp/root" || { rm -rf "$tmp"; die "cannot unpack $p"; }
		done
		# merged /usr (trixie on): modules under usr/lib/modules
		[ -e "$tmp/root/lib" ] || ln -s usr/lib "$tmp/root/lib"
		depmod -b "$tmp/root" "$KVER" || { rm -rf "$tmp"; die "depmod -b $tmp/root $KVER failed"; }
		rm -rf "$tmp/debs"
		touch "$tmp/.complete"
		mv "$tmp" "$dir" || die "cannot move $tmp to $dir"
		msg "unpacked $KVER into $dir ($(du -sh "$dir" | cut -f1))"
		exec 8>&-
	fi
	KIMAGE=$dir/root
	KIMAGE_MODDIR=$KIMAGE/lib/modules/$KVER
	KIMAGE_VMLINUZ=$KIMAGE/boot/vmlinuz-$KVER
	[ -e "$KIMAGE_VMLINUZ" ] || KIMAGE_VMLINUZ=$KIMAGE_MODDIR/vmlinuz
	[ -e "$KIMAGE_VMLINUZ" ] || die "no vmlinuz in $dir (looked in boot/ and lib/modules/$KVER/); remove $dir and retry"
	export KIMAGE KIMAGE_MODDIR KIMAGE_VMLINUZ
}
