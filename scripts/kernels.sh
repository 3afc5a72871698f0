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
	local name suites family re rest base rel
	rel=$(kver_base "$1")
	while read -r name suites family re rest; do
		if [ "$1" = "$name" ] || [[ $rel =~ $re ]]; then
			echo "$name $suites $family $re $rest"
			return
		fi
	done < <(ktab)
	base=$RPCRDMA_CM_CACHE/kernels/$1/base
	[ -s "$base" ] && [ "$(cat "$base")" != "$1" ] && ktab_line "$(cat "$base")"
}

# kver_base REL: the default-flavour (-amd64) release of which REL is
# the -rt or -cloud flavour (6.12.118+deb13-rt-amd64: 6.12.118+deb13-amd64),
# else REL. Debian builds every flavour of a release from one source
# package at one version, so a flavour takes its release's table line,
# package version and linux-source.
kver_base() {
	case $1 in
	*-rt-amd64) echo "${1%-rt-amd64}-amd64" ;;
	*-cloud-amd64) echo "${1%-cloud-amd64}-amd64" ;;
	*) echo "$1" ;;
	esac
}

# kver_flavour REL: rt, cloud, or nothing for the default flavour.
kver_flavour() {
	case $1 in
	*-rt-amd64) echo rt ;;
	*-cloud-amd64) echo cloud ;;
	esac
}

# ktab_field WHAT N: column N (1 name, 2 suites, 3 family, 4 release,
# 5 check, 6 status, 7 qemu) of WHAT's line.
ktab_field() { ktab_line "$1" | awk -v n="$2" '{print $n}'; }

# host_family: the Debian release this host runs (bookworm, trixie, sid),
# "old" for an older Debian, "unknown" for anything that is not Debian.
# RPCRDMA_CM_OS_RELEASE names another os-release file (make errtest).
host_family() {
	local id c f=${RPCRDMA_CM_OS_RELEASE:-/etc/os-release}
	# shellcheck source=/dev/null
	id=$(. "$f" 2>/dev/null && echo "${ID:-}")
	# shellcheck source=/dev/null
	c=$(. "$f" 2>/dev/null && echo "${VERSION_CODENAME:-}")
	[ "$id" = debian ] || { echo unknown; return; }
	case $c in
	bookworm | trixie) echo "$c" ;;
	buster | bullseye | stretch | jessie) echo old ;;
	*) echo sid ;; # testing and unstable name the next release
	esac
}

# host_check: stop, saying why, on a host whose apt cannot install what
# the scripts need: not Debian, or a Debian older than 12.
host_check() {
	local pretty
	# shellcheck source=/dev/null
	pretty=$(. "${RPCRDMA_CM_OS_RELEASE:-/etc/os-release}" 2>/dev/null && echo "${PRETTY_NAME:-}")
	case $(host_family) in
	bookworm | trixie | sid) return 0 ;;
	old) die "this host runs ${pretty:-an old Debian}; rpcrdma-cm installs what it needs with the apt of Debian 12 (bookworm) or 13 (trixie): upgrade, or run it in a Debian 12 or 13 VM or chroot (make hosttest shows how)" ;;
	*) die "this host runs ${pretty:-a system that is not Debian}; rpcrdma-cm installs what it needs with Debian's apt and builds Debian's kernels: run it on Debian 12 (bookworm) or 13 (trixie), in a VM or a chroot (mmdebstrap) if need be" ;;
	esac
}

# offline: true when RPCRDMA_CM_OFFLINE=1 (a DKMS build): no apt-get, no
# network, only what is installed.
offline() { [ "${RPCRDMA_CM_OFFLINE:-0}" = 1 ]; }

# need_space DIR MIB WHAT: stop before WHAT when DIR's filesystem has less
# than MIB MiB free, naming the way out.
need_space() {
	local avail
	mkdir -p "$1" 2>/dev/null
	avail=$(df -Pk "$1" 2>/dev/null | awk 'NR == 2 {print int($4 / 1024)}')
	[ -z "$avail" ] || [ "$avail" -ge "$2" ] ||
		die "$3 needs about $2 MiB free in $1, there are $avail MiB: free some space (make distclean drops the cache), or set RPCRDMA_CM_CACHE=<a directory on a larger filesystem>"
}

# net_hint LOG: one line on why apt or mmdebstrap failed, from its log.
net_hint() {
	if grep -qiE 'Temporary failure resolving|Could not resolve|Failed to fetch|Unable to connect|Network is unreachable|Connection timed out|Connection refused' "$1" 2>/dev/null; then
		echo "Debian's archive cannot be reached: check the network or proxy (http_proxy), or set RPCRDMA_CM_MIRROR=<a Debian mirror>"
	elif grep -qiE 'not enough free space|No space left on device' "$1" 2>/dev/null; then
		echo "the disk is full: free some space and run it again"
	else
		echo "see $1"
	fi
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
	offline && die "RPCRDMA_CM_OFFLINE=1: looking up Debian's archive is not allowed here (give KVER as a release whose headers and linux-source are installed)"
	d=$(papt_dir)
	mkdir -p "$RPCRDMA_CM_CACHE" || die "cannot create $RPCRDMA_CM_CACHE; set RPCRDMA_CM_CACHE=<a writable directory>"
	exec {lk}>>"$d.lock" || die "cannot open $d.lock"
	flock -x "$lk"
	[ -e "$d/apt.conf" ] && [ "$d/apt.conf" -nt "$KTAB" ] || papt_setup
	if [ -z "$(find "$d/lists/.updated" -mmin -360 2>/dev/null)" ] ||
	   [ ! -e "$d/releases" ] || [ ! -e "$d/sources" ]; then
		msg "reading Debian's package lists ($(ktab | awk '{print $2}' | tr ',\n' '  ' | xargs))"
		need_space "$d" 300 "reading Debian's package lists"
		APT_CONFIG=$d/apt.conf apt-get -q update >"$d/update.log" 2>&1 ||
			die "cannot read Debian's archive at $MIRROR (apt-get update failed): $(net_hint "$d/update.log")"
		# apt-get update exits 0 when some suites failed: such lists
		# would hide releases, so fail and read them again next time
		! grep -qE '^(E:|Err:)' "$d/update.log" ||
			die "cannot read all of Debian's archive at $MIRROR: $(net_hint "$d/update.log")"
		kver_releases_raw >"$d/releases.new" && mv "$d/releases.new" "$d/releases" ||
			die "cannot list the kernel releases in $d/lists"
		ksrc_list_raw >"$d/sources.new" && mv "$d/sources.new" "$d/sources" ||
			die "cannot list the kernel sources in $d/lists"
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

# kver_resolve NAME: the newest release the suites of NAME's table line
# carry (the one their linux-image-amd64 depends on).
kver_resolve() {
	local rel
	[ -n "$(ktab | awk -v n="$1" '$1 == n')" ] || return 1
	rel=$(kver_releases "$1" | tail -n 1 | awk '{print $2}')
	[ -n "$rel" ] || die "no linux-image in $(ktab_field "$1" 2 | tr ',' ' ') (Debian's archive at $MIRROR)"
	echo "$rel"
}

# papt_lists_awk PROG: the awk program PROG, its variable s set to the
# suite, over each suite's amd64 package list of the private apt; the
# lines it prints, sorted, each once.
papt_lists_awk() {
	local f suite
	for f in "$(papt_dir)"/lists/*_main_binary-amd64_Packages*; do
		[ -e "$f" ] || continue
		suite=$(basename "$f" | sed -n 's/.*_dists_\([^_]*\)_main_binary-amd64_Packages.*/\1/p')
		/usr/lib/apt/apt-helper cat-file "$f" | awk -v s="$suite" "$1"
	done | sort -u
}

# kver_releases_raw: "release suite version" for every Debian amd64
# kernel image (linux-image-<release>, not the -unsigned or -dbg ones) in
# each suite of the private apt, read from its package lists. Called by
# papt, under its exclusive lock, whenever it has read the lists again;
# kver_releases reads the file it writes.
kver_releases_raw() {
	papt_lists_awk '
		/^Package: linux-image-[0-9].*-amd64$/ {p = substr($2, 13)}
		/^Version: / && p != "" {print p, s, $2; p = ""}
		/^$/ {p = ""}'
}

# ksrc_list_raw: "package version suite" for every linux-source-<x.y> of
# each suite, as kver_releases_raw lists the images (written beside them
# by papt, read by ksrc_suites).
ksrc_list_raw() {
	papt_lists_awk '
		/^Package: linux-source-[0-9]+\.[0-9]+$/ {p = $2}
		/^Version: / && p != "" {print p, $2, s; p = ""}
		/^$/ {p = ""}'
}

# ksrc_suites VERSION: the suites that carry linux-source-<x.y> of that
# exact package version (6.16.12-1~bpo13+1), one per line.
ksrc_suites() {
	local up=${1%%-*}
	papt true
	awk -v p="linux-source-${up%.*}" -v v="$1" '$1 == p && $2 == v {print $3}' "$(papt_dir)/sources"
}

# ksrc_offered SUITE...: the linux-source packages those suites carry,
# for messages: "linux-source-7.2 7.2.6-1~bpo13+1 to 7.2.12-1~bpo13+1,
# linux-source-7.3 7.3.4-1~bpo13+1".
ksrc_offered() {
	papt true
	awk -v s=" $* " 'index(s, " " $3 " ") {print $1, $2}' "$(papt_dir)/sources" |
		sort -u | sort -k1,1V -k2,2V | awk '
		$1 != p {if (p != "") out(); p = $1; lo = $2}
		{hi = $2}
		function out() {printf "%s%s %s%s", sep, p, lo, (lo == hi ? "" : " to " hi); sep = ", "}
		END {if (p != "") out(); else printf "no linux-source at all"; print ""}'
}

# ksrc_buildable REL VERSION: true when this project can build REL
# (package VERSION): its linux-source is already unpacked in the cache,
# or a suite of the table carries it.
ksrc_buildable() {
	[ -e "$RPCRDMA_CM_CACHE/src/linux-source-${2%%-*}/.extracted" ] ||
		[ -n "$(ksrc_suites "$2")" ]
}

# ksrc_check: stop at once, with the ways out, when $KVER is a Debian
# release whose exact linux-source no suite of the table carries any
# more. Debian keeps a suite's older images and headers but only the
# linux-source of its newest builds: trixie-backports kept 6.16.12,
# 6.18.15 and 7.0.13 beside linux-source-7.2 and -7.3 alone, and the
# download failed only after the headers were installed. KSRC given, a
# source unpacked in the cache, or a DKMS build (installed source only)
# pass.
ksrc_check() {
	local ver up name fl meta rel='' st='' r s v way
	[ -z "${KSRC:-}" ] && ! offline || return 0
	ver=$(kver_pkg_version)
	[ -n "$ver" ] || return 0
	ksrc_buildable "$KVER" "$ver" && return 0
	up=${ver%%-*}
	name=$(ktab_field "$KVER" 1)
	fl=$(kver_flavour "$KVER")
	meta=linux-image-${fl:+$fl-}amd64
	while read -r _ r s v; do
		ksrc_buildable "$r" "$v" && rel=$r st=$s
	done < <(kver_releases "$name")
	if [ -n "$rel" ]; then
		[ -z "$fl" ] || rel=${rel%-amd64}-$fl-amd64
		case $st in *-backports) st="-t $st " ;; *) st= ;; esac
		way="boot the newest release of $name that builds, $rel (apt-get install $st$meta, reboot), then: make KVER=$rel"
	else
		way="wait for Debian's next build of $name: no release of it has its source in the archive today"
	fi
	die "$KVER cannot be built: Debian's archive no longer carries its source, linux-source-${up%.*} $ver
($(kver_suites | xargs) has only $(ksrc_offered "$(kver_suites | xargs)")). Either
  - $way; or
  - give KSRC=<a source tree of $up>: Debian's linux-source-${up%.*}_${ver}_all.deb from snapshot.debian.org (dpkg-deb -x, then untar usr/src/linux-source-${up%.*}.tar.xz), or kernel.org's linux-$up"
}

# kver_releases [NAME]: "name release suite version", one line per
# release that a suite of a table line carries today (of NAME's line
# only, when given): every build the archive still has, not only the
# newest of each series (trixie's point release while trixie-security
# has a newer one, for one). Sorted by name and version.
kver_releases() {
	local rel suite ver i names=() suites=() res=()
	local name s r rest
	papt true
	while read -r name s _ r rest; do
		names+=("$name")
		suites+=(",$s,")
		res+=("$r")
	done < <(ktab)
	while read -r rel suite ver; do
		for i in "${!names[@]}"; do
			[[ $rel =~ ${res[$i]} ]] || continue
			[ -z "${1:-}" ] || [ "${names[$i]}" = "$1" ] || break
			case ${suites[$i]} in *",$suite,"*) echo "${names[$i]} $rel $suite $ver" ;; esac
			break
		done
	done <"$(papt_dir)/releases" | sort -k1,1 -k4,4V -u
}

# kver_known: for messages, every release the archive carries, by line.
kver_known() {
	local n
	for n in $(ktab_names); do
		printf '  %-18s %s\n' "$n" "$(kver_releases "$n" | awk '{printf "%s%s (%s)", sep, $2, $3; sep = ", "}')"
	done
}

# kver_pkg_version: the version of Debian's linux-headers-$KVER, e.g.
# 6.12.117-1; its linux-source-<x.y> of the same
# version holds the matching source. Empty for a kernel Debian does not
# carry.
kver_pkg_version() {
	# image and headers come from one source package: one version, for
	# every flavour
	local base
	base=$(kver_base "$KVER")
	if [ "$base" != "$KVER" ]; then
		papt true
		awk -v r="$KVER" '$1 == r {f = 1} END {exit !f}' "$(papt_dir)/releases" || return 0
	fi
	kver_releases | awk -v r="$base" '$2 == r {print $4}' | sort -V | tail -n 1
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
	[ -n "$(kver_pkg_version)" ] ||
		die "no Debian suite provides linux-headers-$KVER; the releases Debian's archive carries today:
$(kver_known)
use one of those, or a short name (make KVER=trixie builds the newest of trixie's)"
}

# kver_suites: the suites that carry $KVER.
kver_suites() {
	kver_releases | awk -v r="$(kver_base "$KVER")" '$2 == r {print $3}'
}

# host_enable_suite SUITE: let the host's apt install from SUITE (a suite
# of the host's own release: backports, security), announcing it.
host_enable_suite() {
	local f=/etc/apt/sources.list.d/rpcrdma-cm-$1.list m=$MIRROR
	grep -rqsE "^[^#]*[[:space:]]$1([[:space:]]|\$)" /etc/apt/sources.list /etc/apt/sources.list.d/ && return 0
	# A suite of another Debian release must not reach the host's apt
	# (make kunit-module once added trixie-backports to a Debian 12 host):
	# such a kernel builds in its root, entered with kbuild_enter.
	[ "$(kver_family)" = "$(host_family)" ] ||
		die "$KVER builds in the $(kver_family) build root, not on this $(host_family) host; not adding $1 to the host's apt (a script that builds against $KVER must call kbuild_enter first)"
	case $1 in *-security) m=$SECURITY_MIRROR ;; esac
	[ "$(id -u)" -eq 0 ] || die "kernel $KVER comes from $1, which this host's apt does not know; as root: echo 'deb $m $1 main' > $f && apt-get update"
	msg "enabling $1 in the host's apt ($f)"
	echo "deb $m $1 main" >"$f"
	apt-get -q update >"$BUILD/apt.log" 2>&1 || die "apt-get update failed after adding $f: $(net_hint "$BUILD/apt.log")"
}

# host_headers_reachable: make the host's apt able to install
# linux-headers-$KVER, enabling the suite of the host's release that
# carries it when the host's sources lack it.
host_headers_reachable() {
	local s
	apt-cache policy "linux-headers-$KVER" 2>/dev/null | grep -q 'Candidate: [^(]' && return 0
	for s in $(kver_suites); do
		host_enable_suite "$s"
	done
}

# ksrc_fetch: extract Debian's linux-source-<x.y> of exactly $KVER's
# version into $RPCRDMA_CM_CACHE/src/linux-source-<x.y.z>, downloaded
# with the private apt from the suite that carries it (never installed,
# so several releases of one series coexist). Sets KSRC_FETCHED to the
# directory; returns 1, quietly, for a kernel Debian does not carry.
# Not in a subshell: its die must stop the caller.
ksrc_fetch() {
	local ver up xy dir dl lk=
	KSRC_FETCHED=
	offline && return 1
	ver=$(kver_pkg_version)
	[ -n "$ver" ] || return 1
	up=${ver%%-*}
	xy=${up%.*}
	dir=$RPCRDMA_CM_CACHE/src/linux-source-$up
	if [ ! -e "$dir/.extracted" ]; then
		mkdir -p "$RPCRDMA_CM_CACHE/src" || die "cannot create $RPCRDMA_CM_CACHE/src"
		exec {lk}>"$dir.lock" || die "cannot open $dir.lock"
		flock "$lk"
	fi
	if [ ! -e "$dir/.extracted" ]; then
		need_space "$RPCRDMA_CM_CACHE/src" 2200 "linux-source-$xy $ver"
		need_pkgs xz-utils # a bare host has no xz (tar -J needs it)
		dl=$dir.deb
		rm -rf "$dir.new" "$dl"
		mkdir -p "$dir.new" "$dl" || die "cannot create $dir.new"
		msg "downloading linux-source-$xy $ver ($(kver_suites | xargs); ~150 MB, once)"
		if ! (cd "$dl" && papt apt-get -q download "linux-source-$xy=$ver") >"$dl/log" 2>&1; then
			msg "$(cat "$dl/log")"
			rm -rf "$dir.new" "$dl"
			die "cannot download linux-source-$xy $ver: $(net_hint "$dl/log")"
		fi
		msg "extracting it into $dir (~1 min)"
		if ! dpkg-deb --fsys-tarfile "$dl"/*.deb |
			tar -xOf - "./usr/src/linux-source-$xy.tar.xz" |
			tar -C "$dir.new" --strip-components=1 -xJf -; then
			rm -rf "$dir.new" "$dl"
			die "cannot extract linux-source-$xy $ver into $dir.new (messages above)"
		fi
		rm -rf "$dl"
		[ "$(makefile_version "$dir.new")" = "$up" ] ||
			{ rm -rf "$dir.new"; die "linux-source-$xy $ver holds $(makefile_version "$dir.new"), not $up"; }
		touch "$dir.new/.extracted"
		mv "$dir.new" "$dir" || die "cannot move $dir.new to $dir"
	fi
	[ -z "$lk" ] || exec {lk}>&-
	# shellcheck disable=SC2034 # read by ensure_ksrc (lib.sh)
	KSRC_FETCHED=$dir
}

# kbuild_enter ARGS...: called by a script that builds against $KVER's
# headers. On a host that cannot build $KVER natively, run the script
# again, with ARGS, inside a build root of the kernel's family (created
# on demand); the calling script ends there.
kbuild_enter() {
	[ -n "${RPCRDMA_CM_ROOT:-}" ] && return 0 # already inside one
	ksrc_check
	kver_native && return 0
	local fam script
	fam=$(kver_family)
	script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
	kver_check_exists
	# the root sees the cache's src/: fetch there with this host's lists
	[ -n "${KSRC:-}" ] || ksrc_fetch || true
	msg "$KVER needs a $fam userland to build (host: $(host_family)); building in the $fam build root"
	# git is not in the root: the version is read here.
	[ -n "${RPCRDMA_CM_VERSION:-}" ] || RPCRDMA_CM_VERSION=$(tree_version)
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
