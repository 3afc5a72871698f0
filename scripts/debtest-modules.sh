# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# make debtest DEBTEST_PATH=modules: the prebuilt rpcrdma-cm-modules-<ABI>
# from make repo's signed repository, in a fresh root without a
# compiler (the steps: scripts/debtest.sh's header). Sourced by
# scripts/debtest.sh, whose helpers (result, in_root, kernel_module,
# snapshot, step_vm, step_remove) it uses.

# shellcheck source=scripts/deb-modules.sh
. "$TOP/scripts/deb-modules.sh"

REPO_KEYRING=rpcrdma-cm-archive-keyring.gpg

# compilers: the C compilers the root has, if any (gcc-14-base and
# libgcc-s1 are in every Debian root; they are no compiler).
compilers() {
	in_root - sh -c 'ls /usr/bin /usr/local/bin 2>/dev/null' |
		grep -E '^(cc|c\+\+|gcc(-[0-9]+)?|g\+\+(-[0-9]+)?|x86_64-linux-gnu-gcc(-[0-9]+)?|clang(-[0-9]+)?|tcc)$' | xargs
}

# use_repo DIR: the root's apt reads the repository DIR (a copy of
# make repo's), checking its signature against the key make repo
# exported, as an administrator's host does.
use_repo() {
	rm -rf "$ROOT/srv/rpcrdma-cm"
	mkdir -p "$ROOT/srv" "$ROOT/usr/share/keyrings" || die "cannot create $ROOT/srv"
	cp -a "$1" "$ROOT/srv/rpcrdma-cm" &&
		cp "$1/$REPO_KEYRING" "$ROOT/usr/share/keyrings/$REPO_KEYRING" ||
		die "cannot copy the repository $1 into the root"
	echo "deb [signed-by=/usr/share/keyrings/$REPO_KEYRING] file:/srv/rpcrdma-cm $REL main" \
		>"$ROOT/etc/apt/sources.list.d/rpcrdma-cm.list" || die "cannot write the root's sources"
}

# repo_unuse: the root's apt forgets the repository (before the removal
# is checked: those files are the test's, not the packages')
repo_unuse() {
	rm -rf "$ROOT/srv/rpcrdma-cm" "$ROOT/etc/apt/sources.list.d/rpcrdma-cm.list" \
		"$ROOT/usr/share/keyrings/$REPO_KEYRING" "$ROOT"/var/lib/apt/lists/_srv_rpcrdma-cm_*
}

mstep_install() {
	local t0=$SECONDS cc log=$LOGS/install.log
	cc=$(compilers)
	[ -z "$cc" ] || { result install FAIL "the fresh root has a compiler before the install: $cc"; return 1; }
	use_repo "$BUILD/repo"
	msg "[$REL] apt-get install $MOD_PKG rpcrdma-cm-tools, from make repo's repository"
	if ! deb_apt "$ROOT" "$log" update || ! deb_apt "$ROOT" "$log" install "$MOD_PKG" rpcrdma-cm-tools; then
		result install FAIL "apt-get install failed (log: ${LOGS#"$TOP"/}/install.log)"
		return 1
	fi
	cc=$(compilers)
	local img
	img=$(in_root - dpkg-query -W -f='${db:Status-Abbrev}${Version}' "linux-image-$KVER1" 2>/dev/null)
	if [ -n "$cc" ]; then
		result install FAIL "apt-get install exit 0, but it installed a compiler: $cc"
	elif in_root - sh -c 'command -v dkms' >/dev/null; then
		result install FAIL "apt-get install exit 0, but dkms is installed"
	elif [[ $img != "ii "* ]]; then
		result install FAIL "apt-get install exit 0, but linux-image-$KVER1 is not installed ($img)"
	else
		result install PASS "apt-get install exit 0 in $((SECONDS - t0)) s: $(grep -E '^[0-9]+ upgraded, ' "$log" | tail -n 1); InRelease verified; linux-image-$KVER1 ${img#ii } pulled in; no compiler, no dkms"
	fi
}

mstep_module() {
	local f v
	f=$(kernel_module "$KVER1")
	v=$(in_root - modinfo -k "$KVER1" -F version rpcrdma)
	MODVER=$v
	if [[ $f == */modules/$KVER1/updates/rpcrdma-cm/rpcrdma.ko ]] && [ "$v" = "$VER" ]; then
		result module PASS "modinfo -k $KVER1: $f, version $v"
	else
		result module FAIL "modinfo -k $KVER1 rpcrdma: filename '$f' version '$v' (want updates/rpcrdma-cm, $VER)"
		return 1
	fi
}

mstep_status() {
	local out rc=0 want
	out=$(in_root - env RPCRDMA_CM_STATUS_KERNEL="$KVER1" rpcrdma-cm-status) || rc=$?
	printf '%s\n' "$out" >"$LOGS/status.txt"
	want="this module $VER (/lib/modules/$KVER1/updates/rpcrdma-cm/rpcrdma.ko) from package $MOD_PKG"
	if [ "$rc" = 5 ] && [[ $(head -n 1 <<<"$out") == "rpcrdma-cm-status: not-loaded: "* ]] &&
	   grep -qF -- "$KVER1 * $want" <<<"$out"; then
		result status PASS "exit 5 (nothing is loaded in a root): '$(grep -F -- "$want" <<<"$out" | sed 's/^ *//')'"
	else
		result status FAIL "exit $rc (want 5), output '$(tr '\n' ';' <<<"$out")' (want a line '$KVER1 * $want')"
	fi
}

mstep_conflict() {
	local out
	out=$(in_root - apt-get -s -o APT::Sandbox::User=root install rpcrdma-cm-dkms)
	printf '%s\n' "$out" >"$LOGS/conflict.txt"
	if grep -q "^Remv $MOD_PKG " <<<"$out"; then
		result conflict PASS "apt-get -s install rpcrdma-cm-dkms: '$(grep -m1 "^Remv $MOD_PKG " <<<"$out")'"
	else
		result conflict FAIL "apt-get -s install rpcrdma-cm-dkms would not remove $MOD_PKG (${LOGS#"$TOP"/}/conflict.txt)"
	fi
}

# mstep_upgrade: a second build of the module package's source (version
# +r1) in a fresh root, a repository made again with the same key, and
# apt-get install --only-upgrade from it.
mstep_upgrade() {
	local u=$OUT/upgrade log=$LOGS/upgrade.log name deb2 v2 f
	skipped upgrade && return 0
	name=$(ktab_line "$KVER1" | awk '{print $1}')
	rm -rf "$u"
	mkdir -p "$u/new" "$u/build/deb/$REL" || die "cannot create $u"
	msg "[$REL] upgrade: a second build of $MOD_PKG's source (+r1), in a fresh root"
	if ! (
		trap deb_cleanup EXIT
		DEB_CLEANUP=()
		TARBALL=$CACHE/$REL-buildd.tar
		DEB_MODULES_REBUILD=1
		deb_tarball "$TARBALL" buildd "$TARBALL_DAYS" - passwd
		modules_build "$name" "$u/new" "$LOGS" -
	) >>"$log" 2>&1; then
		result upgrade FAIL "the second build failed (log: ${LOGS#"$TOP"/}/upgrade.log)"
		return 1
	fi
	deb2=$(ls "$u/new/${MOD_PKG}_"*+r1_amd64.deb 2>/dev/null)
	[ -n "$deb2" ] || { result upgrade FAIL "the second build made no ${MOD_PKG}_*+r1_amd64.deb"; return 1; }
	v2=$(dpkg-deb -f "$deb2" Version)
	cp "$DEBS"/*_"$VER"*.deb "$DEBS"/*_"$VER"*.dsc "$DEBS"/*_"$VER"*.tar.xz "$u/new"/* "$u/build/deb/$REL/" ||
		die "cannot gather the packages for the second repository"
	[ -n "${REPO_KEY:-}" ] || cp -a "$BUILD/repo-key" "$u/build/" || die "cannot copy $BUILD/repo-key"
	BUILD=$u/build REPO_RELEASES=$REL "$TOP/scripts/repo.sh" >>"$log" 2>&1 ||
		{ result upgrade FAIL "make repo of the second build failed (log: ${LOGS#"$TOP"/}/upgrade.log)"; return 1; }
	use_repo "$u/build/repo"
	if ! deb_apt "$ROOT" "$log" update || ! deb_apt "$ROOT" "$log" install --only-upgrade "$MOD_PKG"; then
		result upgrade FAIL "apt-get install --only-upgrade $MOD_PKG failed (log: ${LOGS#"$TOP"/}/upgrade.log)"
		return 1
	fi
	PKG_DEBS+=("$deb2")
	f=$(kernel_module "$KVER1")
	if [ "$(in_root - dpkg-query -W -f='${Version}' "$MOD_PKG")" = "$v2" ] &&
	   [[ $f == */modules/$KVER1/updates/rpcrdma-cm/rpcrdma.ko ]] && [ -z "$(compilers)" ]; then
		result upgrade PASS "$MOD_VERSION -> $v2 (apt-get install --only-upgrade, from the repository made again with the same key); modinfo: $f"
	else
		result upgrade FAIL "after the upgrade: $MOD_PKG $(in_root - dpkg-query -W -f='${Version}' "$MOD_PKG") (want $v2), modinfo '$f', compilers '$(compilers)'"
	fi
}

# mod_deb: the release's first module package of this version (not a
# rebuild), or nothing
mod_deb() {
	local d
	for d in "$DEBS"/rpcrdma-cm-modules-*_"$VER"+*_amd64.deb; do
		[ -e "$d" ] || continue
		[[ $d == *+r[0-9]*_amd64.deb ]] && continue
		echo "$d"
		return 0
	done
}

# modules_debs: the prebuilt path's packages are in build/deb/$REL
modules_debs() {
	[ -n "$(mod_deb)" ] && [ -e "$DEBS/rpcrdma-cm-tools_${VER}_amd64.deb" ]
}

# shellcheck disable=SC2034 # ARCHIVES, KVER2, MODVER, PKG_NAMES: read by
# deb-lib.sh and debtest.sh's steps
test_release_modules() {
	local t0=$SECONDS
	REL=$1
	ARCHIVES=$CACHE/archives/$REL
	DEBS=$BUILD/deb/$REL
	OUT=$BUILD/deb/debtest-modules-$REL
	LOGS=$OUT/logs
	SUMMARY=$OUT/summary.txt
	KVER1='' KVER2='' MODVER=''
	exec 5>"$BUILD/deb/.debtest-$REL.lock"
	flock -n 5 || die "another make debtest of $REL is running in this tree"
	rm -rf "$OUT"
	mkdir -p "$LOGS" || die "cannot create $LOGS"
	echo "debtest (prebuilt modules) $REL, rpcrdma-cm $VER, $(date -u '+%Y-%m-%d %H:%M UTC') (make debtest DEBTEST_PATH=modules)" >"$SUMMARY"
	packages_of_tree "rpcrdma-cm-modules package (DEB_MODULES=none makes none) and rpcrdma-cm-tools" modules_debs || return 0
	MOD_DEB=$(mod_deb)
	MOD_PKG=$(dpkg-deb -f "$MOD_DEB" Package)
	MOD_VERSION=$(dpkg-deb -f "$MOD_DEB" Version)
	KVER1=${MOD_PKG#rpcrdma-cm-modules-}
	echo "debtest (prebuilt modules) $REL, $MOD_PKG $MOD_VERSION, $(date -u '+%Y-%m-%d %H:%M UTC') (make debtest DEBTEST_PATH=modules)" >"$SUMMARY"
	msg "[$REL] make repo (build/repo/), from build/deb/*/"
	"$TOP/scripts/repo.sh" >"$LOGS/repo.log" 2>&1 || { cat "$LOGS/repo.log" >&2; die "make repo failed (log: $LOGS/repo.log)"; }
	grep -qx "Package: $MOD_PKG" "$BUILD/repo/dists/$REL/main/binary-amd64/Packages" ||
		die "make repo's $REL suite has no $MOD_PKG"
	fresh_root test-modules
	PKG_NAMES=("$MOD_PKG" rpcrdma-cm-tools)
	PKG_DEBS=("$MOD_DEB" "$DEBS/rpcrdma-cm-tools_${VER}_amd64.deb")
	if mstep_install && mstep_module; then
		mstep_status
		mstep_conflict
		step_vm
		mstep_upgrade
		repo_unuse
		step_remove
	fi
	deb_cleanup
	echo "$REL: $((SECONDS - t0)) s" >>"$SUMMARY"
	msg "[$REL] done in $((SECONDS - t0)) s"
}
