#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make debtest: install the packages of make deb as an administrator
# would, in a fresh root of each release, and check what they do.
#
#   DEB_RELEASES="bookworm trixie"   (default: both)
#   DEBTEST_SKIP="vm mismatch"       steps not to run (vm, autopkgtest,
#                                    mismatch, second; upgrade with
#                                    DEBTEST_PATH=modules)
#
# Per release (packages from build/deb/<release>/ when make deb built
# them from this tree, its tree-key; made first otherwise, or with
# DEBTEST_BUILD=0, as make check-full sets after its own make deb
# steps, a FAIL "packages" line instead), in a fresh root (a cached mmdebstrap --variant=apt tarball:
# the release, -updates, -security and, not used unless asked for,
# -backports), each step a line of build/deb/debtest-<release>/summary.txt:
#   install    apt-get install ./rpcrdma-cm-dkms_*.deb ./rpcrdma-cm-tools_*.deb
#              linux-headers-amd64 linux-image-amd64 exits 0
#   dkms       dkms status says "installed" for the root's kernel; modinfo
#              finds rpcrdma in updates/dkms with the package's version
#   tools      the probe runs (--help), its --version is the module's
#              (modinfo), the dissector is where tshark reads system Lua
#              plugins
#   vm         that module boots in the VM rig on that kernel: scenario 1
#              (itself on both sides) and 2 (Debian's stock module on the
#              other side), each checking the negotiated values
#   autopkgtest  /usr/lib/dkms/dkms-autopkgtest rpcrdma-cm-dkms passes
#              (the packages served from a local apt repository)
#   mismatch   with linux-source-X.Y downgraded to another version of the
#              release's archive, DKMS refuses that kernel (status 77)
#              naming both versions, and upgrading it back builds again
#              (skipped when the archive has one version only)
#   second     trixie: trixie-backports' linux-image-amd64 and
#              linux-headers-amd64 (7.x) without its source: apt exits 0,
#              no module for 7.x, the 6.12 one stays; installing
#              linux-source-7.x then builds it (the package's trigger)
#   remove     apt-get remove of both packages: dkms knows no rpcrdma-cm,
#              modinfo finds the stock module for every kernel, none of
#              the files the packages installed or DKMS made is left, and
#              no new path names rpcrdma (step_remove)
#
# DEBTEST_PATH=modules: the prebuilt package instead, as a host without
# a compiler gets it: from the signed repository of make repo
# (build/repo/, made again from build/deb/<release>/), in a fresh root
# without gcc (each step a line of build/deb/debtest-modules-<release>/
# summary.txt):
#   install    apt-get install rpcrdma-cm-modules-<ABI> rpcrdma-cm-tools
#              from that repository (its signature checked against the
#              key make repo exported) exits 0; it pulls in that
#              linux-image, and neither gcc nor dkms
#   module     modinfo -k <ABI> finds rpcrdma in updates/rpcrdma-cm with
#              the package's version
#   status     rpcrdma-cm-status names the package as the module's
#              source (exit 5, not-loaded: nothing loads it in a root)
#   conflict   apt-get -s install rpcrdma-cm-dkms would remove the
#              modules package
#   vm         that file boots in the VM rig, as for the DKMS path,
#              in scenario 1 only (client-to-server 4096, server-to-
#              client 8192, R=1 on both sides, and the
#              guests' rpcrdma-cm-status "ok", exit 0): scenario 2, the
#              stock module on the other side, is the DKMS path's, with a
#              module of the same source for the same kernel
#   upgrade    a second build of the same source, version +r1, in a
#              repository made again with the same key: apt-get upgrade
#              installs it, and the module is still found
#   remove     as above, for the modules package and the tools
# DEBTEST_SCENARIOS are the VM step's scenarios (default "1 2", with
# DEBTEST_PATH=modules "1").
# Exit status 0 when every step of every release passed.

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
set -o pipefail
# shellcheck source=scripts/deb-lib.sh
. "$TOP/scripts/deb-lib.sh"

RELEASES=${DEB_RELEASES:-bookworm trixie}
DEBTEST_PATH=${DEBTEST_PATH:-dkms}
case $DEBTEST_PATH in
dkms | modules) ;;
*) die "DEBTEST_PATH=$DEBTEST_PATH: dkms (the default: rpcrdma-cm-dkms) or modules (the prebuilt rpcrdma-cm-modules-<kernel> from make repo's repository)" ;;
esac
# the VM step's scenarios: interop with the stock module (2) once, on
# the DKMS path; the prebuilt file needs to show that it loads and
# negotiates on both sides (1)
if [ "$DEBTEST_PATH" = dkms ]; then
	SCENARIOS=${DEBTEST_SCENARIOS:-1 2}
else
	SCENARIOS=${DEBTEST_SCENARIOS:-1}
fi
ROOTS=$BUILD/deb/.roots
CACHE=$RPCRDMA_CM_CACHE/deb
TARBALL_DAYS=7

[ "$(id -u)" -eq 0 ] ||
	die "make debtest makes Debian roots (mmdebstrap, chroot) and installs packages in them: run it as root"
need_pkgs mmdebstrap dpkg-dev
deb_unshare_check
VER=$(deb_version) || exit 1
DEB_TREE_KEY=$(deb_tree_key)

# usrmerge: a path as merged /usr has it (packages may still list
# /lib/..., the file is in /usr/lib/...).
usrmerge() { sed -E 's@^\./(lib|lib64|bin|sbin)(/|$)@./usr/\1\2@'; }

# snapshot ROOT FILE: every path in ROOT (relative, sorted), without the
# virtual file systems and /tmp (where this test puts the packages and
# the autopkgtest's artifacts).
snapshot() {
	(cd "$1" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run -o -path ./tmp \) -prune -o -print) |
		usrmerge | LC_ALL=C sort -u >"$2"
}

# owned ROOT: every path the packages installed in ROOT own (not those
# under test, whose file lists dpkg keeps after a removal).
owned() {
	local f
	for f in "$1"/var/lib/dpkg/info/*.list; do
		case " ${PKG_NAMES[*]} " in *" $(basename "$f" .list) "*) continue ;; esac
		cat "$f"
	done | sed 's|^|.|' | usrmerge | LC_ALL=C sort -u
}

# result NAME PASS|FAIL|SKIP DETAIL: one line of the release's summary.
result() {
	local line
	line=$(printf '%-4s %-12s %s' "$2" "$1" "$3")
	echo "$line" >>"$SUMMARY"
	printf '    %s\n' "$line" >&2
	[ "$2" != FAIL ] || FAILED=1
}

# in ROOT LOG CMD...: deb_chroot into the release's root.
in_root() { deb_chroot "$ROOT" "$@"; }

# kernel_module K: modinfo's file name of rpcrdma for kernel K in the root.
kernel_module() { in_root - modinfo -k "$1" -F filename rpcrdma; }

# dkms_installed K: true when dkms status says rpcrdma-cm/VER is
# installed for kernel K.
# (A release has regex characters: 6.12.118+deb13-amd64. trixie's dkms
# appends " (Original modules exist)".)
dkms_installed() {
	local line
	while IFS= read -r line; do
		[[ $line == "rpcrdma-cm/$VER, $1, "*": installed"* ]] && return 0
	done < <(in_root - dkms status -m rpcrdma-cm -v "$VER" -k "$1")
	return 1
}

# packages_of_tree WHAT CHECK: true when build/deb/$REL holds make deb's
# packages of this tree, CHECK (a command) saying that WHAT is among
# them. Otherwise they are made (make deb DEB_RELEASE=$REL), or with
# DEBTEST_BUILD=0 a FAIL line says why not and it returns 1.
packages_of_tree() {
	local what=$1 why
	shift
	"$@" && deb_of_tree "$DEBS" && return 0
	if ! "$@"; then
		why="no $what of $VER"
	else
		why="packages of another tree (tree-key $(cat "$DEBS/tree-key" 2>/dev/null || echo none), this one's $DEB_TREE_KEY)"
	fi
	if [ "${DEBTEST_BUILD:-1}" = 0 ]; then
		result packages FAIL "${DEBS#"$TOP"/}: $why; DEBTEST_BUILD=0: not made here (make deb DEB_RELEASE=$REL failed or did not run)"
		return 1
	fi
	msg "[$REL] ${DEBS#"$TOP"/}: $why: making them (make deb DEB_RELEASE=$REL)"
	DEB_RELEASE=$REL "$TOP/scripts/deb.sh" || die "make deb DEB_RELEASE=$REL failed"
	"$@" && deb_of_tree "$DEBS" || die "make deb DEB_RELEASE=$REL made no $what of this tree"
}

# dkms_debs: the DKMS path's two packages are in build/deb/$REL
dkms_debs() {
	ls "$DEBS"/rpcrdma-cm-dkms_"$VER"_all.deb "$DEBS"/rpcrdma-cm-tools_"$VER"_amd64.deb >/dev/null 2>&1
}

# skipped STEP: true (and a SKIP line) when DEBTEST_SKIP names STEP.
skipped() {
	case " ${DEBTEST_SKIP:-} " in
	*" $1 "*) result "$1" SKIP "DEBTEST_SKIP"; return 0 ;;
	esac
	return 1
}

step_install() {
	local t0=$SECONDS
	mkdir -p "$ROOT/tmp/debs"
	cp "$DEBS"/*.deb "$ROOT/tmp/debs/" || die "cannot copy the packages into $ROOT"
	msg "[$REL] apt-get install ./rpcrdma-cm-dkms_$VER*.deb ./rpcrdma-cm-tools_$VER*.deb linux-headers-amd64 linux-image-amd64"
	if deb_apt "$ROOT" "$LOGS/install.log" update &&
	   deb_apt "$ROOT" "$LOGS/install.log" install \
		/tmp/debs/rpcrdma-cm-dkms_"${VER}"_all.deb /tmp/debs/rpcrdma-cm-tools_"${VER}"_amd64.deb \
		linux-headers-amd64 linux-image-amd64; then
		result install PASS "apt-get install exit 0 in $((SECONDS - t0)) s"
	else
		result install FAIL "apt-get install failed (log: ${LOGS#"$TOP"/}/install.log)"
		return 1
	fi
}

step_dkms() {
	local f v
	KVER1=$(in_root - dpkg-query -W -f='${Depends}' linux-image-amd64 |
		grep -o 'linux-image-[^ ,]*' | head -1 | sed 's/^linux-image-//')
	[ -n "$KVER1" ] || { result dkms FAIL "cannot tell which kernel linux-image-amd64 installed"; return 1; }
	in_root - dkms status >"$LOGS/dkms-status.txt"
	f=$(kernel_module "$KVER1")
	v=$(in_root - modinfo -k "$KVER1" -F version rpcrdma)
	MODVER=$v
	if dkms_installed "$KVER1" && [[ $f == /lib/modules/$KVER1/updates/dkms/rpcrdma.ko* ]] && [ "$v" = "$VER" ]; then
		result dkms PASS "$(grep -E "^rpcrdma-cm/" "$LOGS/dkms-status.txt" | head -1); modinfo: $f, version $v"
	else
		result dkms FAIL "kernel $KVER1: dkms status '$(tr '\n' ';' <"$LOGS/dkms-status.txt")', modinfo filename '$f' version '$v' (want updates/dkms, $VER)"
		return 1
	fi
}

step_tools() {
	local lua folders pv
	if in_root "$LOGS/tools.log" rpcrdma-cm-probe --help; then
		pv=$(in_root - rpcrdma-cm-probe --version)
		if [ "$pv" != "rpcrdma-cm-probe $MODVER" ]; then
			result tools FAIL "rpcrdma-cm-probe --version says '$pv', modinfo of the module says '$MODVER'"
			return 1
		fi
		lua=$(in_root - dpkg -L rpcrdma-cm-tools | grep '\.lua$')
		deb_apt "$ROOT" "$LOGS/tools.log" install --no-install-recommends tshark
		folders=$(in_root - tshark -G folders | sed -n 's/^Global Lua Plugins:[[:space:]]*//p')
		if [ -n "$lua" ] && [ "$(dirname "$lua")" = "$folders" ]; then
			result tools PASS "rpcrdma-cm-probe --help exit 0, --version '$pv' as modinfo; $lua is in tshark's Global Lua Plugins folder ($folders)"
		else
			result tools FAIL "dissector at '$lua', tshark reads system Lua plugins from '$folders'"
		fi
	else
		result tools FAIL "rpcrdma-cm-probe --help failed (log: ${LOGS#"$TOP"/}/tools.log)"
	fi
}

step_vm() {
	local f ko=$OUT/rpcrdma-$KVER1.ko line
	skipped vm && return 0
	f=$ROOT$(kernel_module "$KVER1")
	case $f in
	*.xz) xz -dc "$f" >"$ko" ;;
	*.zst) zstd -qdc "$f" >"$ko" ;;
	*) cp "$f" "$ko" ;;
	esac || { result vm FAIL "cannot copy $f"; return 1; }
	msg "[$REL] VM rig: scenarios $SCENARIOS with the module the packages installed ($KVER1)"
	# one VM pair at a time, whatever runs beside (DEB_RELEASES one by one)
	exec 6>"$BUILD/deb/.vm.lock"
	flock 6 || die "cannot lock $BUILD/deb/.vm.lock"
	if KVER=$KVER1 RPCRDMA_KO=$ko VMTEST_ONLY="$SCENARIOS" VM_SMP=1 \
		"$TOP/scripts/vm/vmtest.sh" >"$LOGS/vmtest.log" 2>&1; then
		# each scenario's line comes twice: as it ends, and in the summary
		line=$(grep -E '^(PASS|FAIL) ' "$LOGS/vmtest.log" | awk '!seen[$0]++ {print $1, $2}' | xargs)
		result vm PASS "$line (log: ${LOGS#"$TOP"/}/vmtest.log)"
	else
		grep -E '^(PASS|FAIL) |^ +' "$LOGS/vmtest.log" | tail -8 >&2
		result vm FAIL "vmtest.sh failed (log: ${LOGS#"$TOP"/}/vmtest.log)"
	fi
	exec 6>&-
}

step_autopkgtest() {
	skipped autopkgtest && return 0
	(cd "$ROOT/tmp/debs" && dpkg-scanpackages -m . >Packages 2>/dev/null) ||
		{ result autopkgtest FAIL "dpkg-scanpackages failed"; return 1; }
	echo "deb [trusted=yes] file:/tmp/debs ./" >"$ROOT/etc/apt/sources.list.d/rpcrdma-debtest.list"
	msg "[$REL] /usr/lib/dkms/dkms-autopkgtest rpcrdma-cm-dkms"
	if deb_apt "$ROOT" "$LOGS/autopkgtest.log" update &&
	   in_root "$LOGS/autopkgtest.log" env AUTOPKGTEST_ARTIFACTS=/tmp \
		/usr/lib/dkms/dkms-autopkgtest rpcrdma-cm-dkms; then
		result autopkgtest PASS "$(sed -n 's/^I: \(PASS\|FAIL\|SKIP\) /\1 /p' "$LOGS/autopkgtest.log" | xargs)"
	else
		result autopkgtest FAIL "dkms-autopkgtest failed (log: ${LOGS#"$TOP"/}/autopkgtest.log)"
	fi
	rm -f "$ROOT/etc/apt/sources.list.d/rpcrdma-debtest.list"
}

# step_mismatch: another version of the release's linux-source-X.Y makes
# DKMS refuse the kernel, and the right one makes it build again.
step_mismatch() {
	local xy have other log=$LOGS/mismatch.log
	skipped mismatch && return 0
	xy=$(in_root - dpkg-query -W -f='${Version}' "linux-headers-$KVER1")
	xy=$(echo "$xy" | cut -d. -f1-2)
	have=$(in_root - dpkg-query -W -f='${Version}' "linux-source-$xy")
	other=$(in_root - apt-cache madison "linux-source-$xy" | awk -F' *\\| *' '{print $2}' |
		while read -r v; do [ "${v%%-*}" != "${have%%-*}" ] && echo "$v"; done | head -1)
	if [ -z "$other" ]; then
		result mismatch SKIP "the archive has no other version of linux-source-$xy than $have"
		return 0
	fi
	msg "[$REL] linux-source-$xy $other instead of $have: DKMS must refuse $KVER1"
	deb_apt "$ROOT" "$log" install --allow-downgrades "linux-source-$xy=$other" ||
		{ result mismatch FAIL "cannot install linux-source-$xy=$other"; return 1; }
	in_root "$log" dkms remove -m rpcrdma-cm -v "$VER" -k "$KVER1"
	local rc=0
	in_root "$log" dkms install -m rpcrdma-cm -v "$VER" -k "$KVER1" || rc=$?
	local why
	why=$(grep -m1 "^rpcrdma-cm: not built for kernel $KVER1" "$log")
	if [ $rc -eq 77 ] && [[ $why == *"${have%%-*}"*"${other%%-*}"* ]] && ! dkms_installed "$KVER1" &&
	   [[ $(kernel_module "$KVER1") == /lib/modules/$KVER1/kernel/* ]]; then
		result mismatch PASS "dkms install exit 77, stock module in use: '$why'"
	else
		result mismatch FAIL "dkms install exit $rc (want 77), message '$why' (log: ${LOGS#"$TOP"/}/mismatch.log)"
	fi
	deb_apt "$ROOT" "$log" install "linux-source-$xy=$have" ||
		{ result mismatch FAIL "cannot put linux-source-$xy $have back"; return 1; }
	if dkms_installed "$KVER1"; then
		result mismatch PASS "linux-source-$xy $have back: the trigger built $KVER1's module again"
	else
		result mismatch FAIL "linux-source-$xy $have back, but no module for $KVER1 (log: ${LOGS#"$TOP"/}/mismatch.log)"
	fi
}

# step_second: a second kernel, from the release's backports.
step_second() {
	local log=$LOGS/second.log k2 xy2 why
	skipped second && return 0
	if [ "$REL" != trixie ]; then
		result second SKIP "the second kernel, trixie-backports' 7.x, is tested in the trixie root"
		return 0
	fi
	# a second kernel as an administrator adds one: image and headers
	msg "[$REL] trixie-backports' linux-image-amd64 and linux-headers-amd64, then its linux-source"
	deb_apt "$ROOT" "$log" install -t trixie-backports linux-image-amd64 linux-headers-amd64 ||
		{ result second FAIL "apt-get install -t trixie-backports linux-image-amd64 linux-headers-amd64 failed (log: ${LOGS#"$TOP"/}/second.log)"; return 1; }
	# 7.x's metapackage depends on linux-base-amd64 first
	k2=$(in_root - dpkg-query -W -f='${Depends}' linux-headers-amd64 |
		grep -o 'linux-headers-[^ ,]*' | head -1 | sed 's/^linux-headers-//')
	xy2=$(echo "$k2" | cut -d. -f1-2)
	why=$(grep -m1 "^rpcrdma-cm: not built for kernel $k2" "$log")
	if [ -n "$k2" ] && [ "$k2" != "$KVER1" ] && ! dkms_installed "$k2" && dkms_installed "$KVER1" &&
	   [[ $why == *"linux-source-$xy2"* ]]; then
		result second PASS "image and headers of $k2 without linux-source-$xy2: apt exit 0, no module for $k2, $KVER1's kept: '$why'"
	else
		result second FAIL "image and headers of '$k2': installed for it: $(dkms_installed "$k2" && echo yes || echo no), for $KVER1: $(dkms_installed "$KVER1" && echo yes || echo no), message '$why'"
		return 1
	fi
	deb_apt "$ROOT" "$log" install -t trixie-backports "linux-source-$xy2" ||
		{ result second FAIL "apt-get install linux-source-$xy2 failed"; return 1; }
	if dkms_installed "$k2" && [ "$(in_root - modinfo -k "$k2" -F version rpcrdma)" = "$VER" ]; then
		result second PASS "linux-source-$xy2 installed: DKMS built $k2 ($(kernel_module "$k2"))"
		KVER2=$k2
	else
		result second FAIL "linux-source-$xy2 installed, but no module for $k2 (log: ${LOGS#"$TOP"/}/second.log)"
	fi
}

# ours: what the packages installed and DKMS made, as paths in the root:
# every file of the two .debs, /var/lib/dkms/rpcrdma-cm, and each
# kernel's updates/dkms/rpcrdma.ko*.
ours() {
	local d
	for d in "${PKG_DEBS[@]}"; do
		dpkg-deb -c "$d" | awk '$1 !~ /^d/ {print $6}'
	done | usrmerge
	(cd "$ROOT" && find ./var/lib/dkms/rpcrdma-cm ./usr/lib/modules/*/updates/dkms \
		-name 'rpcrdma*' 2>/dev/null) | usrmerge
}

# step_remove: apt-get remove of both packages leaves the stock module
# for every kernel and nothing of theirs: no file the packages installed
# or DKMS made is left unless another installed package owns it, and no
# new path names rpcrdma. The files new since before the install that no
# package owns are listed (files-new-unowned): what the dependencies'
# scripts generate (alternatives links, rc.d and systemd links, the
# initramfs, Python caches, dkms's signing key).
step_remove() {
	local k f bad=() left
	ours | LC_ALL=C sort -u >"$OUT/files-ours"
	msg "[$REL] apt-get remove ${PKG_NAMES[*]}"
	deb_apt "$ROOT" "$LOGS/remove.log" remove "${PKG_NAMES[@]}" ||
		{ result remove FAIL "apt-get remove failed (log: ${LOGS#"$TOP"/}/remove.log)"; return 1; }
	in_root - sh -c 'command -v dkms >/dev/null && dkms status' | grep -q '^rpcrdma-cm' &&
		bad+=("dkms status still lists rpcrdma-cm")
	for k in "$KVER1" ${KVER2:-}; do
		f=$(kernel_module "$k")
		[[ $f == /lib/modules/$k/kernel/net/sunrpc/xprtrdma/rpcrdma.ko* ]] ||
			bad+=("modinfo -k $k rpcrdma: '$f', not the stock module")
	done
	snapshot "$ROOT" "$OUT/files-after"
	owned "$ROOT" >"$OUT/files-owned"
	LC_ALL=C comm -13 "$OUT/files-before" "$OUT/files-after" |
		LC_ALL=C comm -23 - "$OUT/files-owned" >"$OUT/files-new-unowned"
	# dpkg keeps a removed package's postrm (and its file list) until
	# it is purged: dpkg's record, not a file of the package
	local p info=()
	for p in "${PKG_NAMES[@]}"; do
		info+=(-e "^\./var/lib/dpkg/info/$(sed 's/[.+]/\\&/g' <<<"$p")\.(list|postrm|md5sums)\$")
	done
	{
		LC_ALL=C comm -12 "$OUT/files-ours" "$OUT/files-after" | LC_ALL=C comm -23 - "$OUT/files-owned"
		grep -i rpcrdma "$OUT/files-new-unowned" | grep -Ev "${info[@]}"
	} | LC_ALL=C sort -u >"$OUT/files-left"
	left=$(wc -l <"$OUT/files-left")
	[ "$left" -eq 0 ] || bad+=("$left of their files left behind (${OUT#"$TOP"/}/files-left): $(head -5 "$OUT/files-left" | xargs)")
	if [ ${#bad[@]} -eq 0 ]; then
		result remove PASS "stock rpcrdma.ko for $KVER1${KVER2:+ and $KVER2}; none of the $(wc -l <"$OUT/files-ours") files the packages installed or DKMS made is left, no new path names rpcrdma; $(wc -l <"$OUT/files-new-unowned") new unowned files, all the dependencies' (files-new-unowned)"
	else
		result remove FAIL "$(printf '%s; ' "${bad[@]}")"
	fi
}

# fresh_root NAME: ROOT, a new root of $REL from its apt tarball under
# $ROOTS/NAME-$REL.<pid>, removed on exit, its files listed in
# $OUT/files-before for the removal check.
fresh_root() {
	deb_tarball "$CACHE/$REL-apt.tar" apt "$TARBALL_DAYS" backports
	ROOT=$ROOTS/$1-$REL.$$
	DEB_CLEANUP=("$ROOT")
	msg "[$REL] fresh root from $REL-apt.tar"
	deb_root_unpack "$CACHE/$REL-apt.tar" "$ROOT"
	# The kernel's postinst makes an initramfs, which nothing here boots:
	# with every module in it (MODULES=most) it took 10 minutes on a
	# loaded machine. Before the snapshot, so it is no leftover.
	mkdir -p "$ROOT/etc/initramfs-tools/conf.d"
	echo MODULES=list >"$ROOT/etc/initramfs-tools/conf.d/rpcrdma-debtest"
	snapshot "$ROOT" "$OUT/files-before"
}

test_release() {
	local t0=$SECONDS
	REL=$1
	ARCHIVES=$CACHE/archives/$REL
	DEBS=$BUILD/deb/$REL
	OUT=$BUILD/deb/debtest-$REL
	LOGS=$OUT/logs
	SUMMARY=$OUT/summary.txt
	KVER1='' KVER2='' MODVER=''
	exec 5>"$BUILD/deb/.debtest-$REL.lock"
	flock -n 5 || die "another make debtest of $REL is running in this tree"
	rm -rf "$OUT"
	mkdir -p "$LOGS" || die "cannot create $LOGS"
	echo "debtest $REL, rpcrdma-cm $VER, $(date -u '+%Y-%m-%d %H:%M UTC') (make debtest)" >"$SUMMARY"
	packages_of_tree "rpcrdma-cm-dkms and rpcrdma-cm-tools" dkms_debs || return 0
	fresh_root test
	PKG_NAMES=(rpcrdma-cm-dkms rpcrdma-cm-tools)
	PKG_DEBS=("$DEBS/rpcrdma-cm-dkms_${VER}_all.deb" "$DEBS/rpcrdma-cm-tools_${VER}_amd64.deb")
	if step_install && step_dkms; then
		step_tools
		step_vm
		step_autopkgtest
		step_mismatch
		step_second
		step_remove
	fi
	deb_cleanup
	echo "$REL: $((SECONDS - t0)) s" >>"$SUMMARY"
	msg "[$REL] done in $((SECONDS - t0)) s"
}

# shellcheck source=scripts/debtest-modules.sh
[ "$DEBTEST_PATH" = dkms ] || . "$TOP/scripts/debtest-modules.sh"

mkdir -p "$ROOTS" || die "cannot create $ROOTS"
deb_roots_reap "$ROOTS"
trap deb_cleanup EXIT
trap 'exit 130' INT TERM
FAILED=0
for r in $RELEASES; do
	case $r in
	bookworm | trixie) ;;
	*) die "DEB_RELEASES: '$r' is not bookworm or trixie" ;;
	esac
done
for r in $RELEASES; do
	if [ "$DEBTEST_PATH" = dkms ]; then test_release "$r"; else test_release_modules "$r"; fi
done
echo
for r in $RELEASES; do
	if [ "$DEBTEST_PATH" = dkms ]; then
		cat "$BUILD/deb/debtest-$r/summary.txt"
	else
		cat "$BUILD/deb/debtest-modules-$r/summary.txt"
	fi
	echo
done
[ "$FAILED" -eq 0 ] || die "debtest: some steps failed (above)"
echo "debtest: every step passed"
