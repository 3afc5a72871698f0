# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# make deb, step 5: the prebuilt module packages
# rpcrdma-cm-modules-<kernel ABI>, for hosts without a compiler. Sourced
# by scripts/deb.sh (after lib.sh and deb-lib.sh, with REL, VER, ROOTS,
# TARBALL and the log and result directories set).
#
# Per kernel line of scripts/kernels.tab named in DEB_MODULES (default:
# the line named after the release, the kernel its linux-image-amd64
# follows; "none": no module package), the release that line's suites
# carry today is one source package, rpcrdma-cm-modules-<ABI>, version
# <rpcrdma-cm version>+<that kernel's Debian version, "-" as ".">: the
# files the module build reads (those of rpcrdma-cm-dkms) and a debian/
# made from debian/modules/*.in. It is built as the main one is: in a
# fresh root of the release, Build-Depends (that kernel's exact headers
# and linux-source) installed by apt-get build-dep, dpkg-buildpackage as
# an unprivileged user without network, lintian in its own root. Its
# binary package depends on that exact linux-image, and conflicts with
# rpcrdma-cm-dkms. DEB_MODULES_REBUILD=N appends "+rN" to the version
# (a rebuild of the same source, as make debtest's upgrade installs).

# modules_lines: the kernel lines whose module packages this make deb
# builds; stops on a line this release cannot build.
modules_lines() {
	local n fam
	[ "${DEB_MODULES:-}" != none ] || return 0
	for n in ${DEB_MODULES:-$REL}; do
		fam=$(ktab | awk -v n="$n" '$1 == n {print $3}')
		[ -n "$fam" ] || die "DEB_MODULES: '$n' is no line of scripts/kernels.tab (make kernels lists them)"
		[ "$fam" = "$REL" ] ||
			die "DEB_MODULES: $n's kernels are built in a $fam root, not $REL: make deb DEB_RELEASE=$fam DEB_MODULES=$n"
		echo "$n"
	done
}

# modules_files: the tree's files the module build reads, as
# debian/rules puts them into rpcrdma-cm-dkms.
modules_files() {
	sed -e '/^#/d' -e '/^$/d' "$TOP/scripts/module.files"
	printf '%s\n' scripts/module.files scripts/build-module.sh scripts/lib.sh \
		scripts/kernels.sh scripts/kernels.tab
	(cd "$TOP" && ls scripts/coccinelle/*.cocci)
}

# modules_source NAME DIR: the source tree of NAME's module package in
# DIR; sets MOD_ABI, MOD_KVERSION, MOD_SRC (the source name) and
# MOD_VER (its version).
modules_source() {
	local name=$1 dir=$2 up xy maint trailer f
	MOD_ABI=$(kver_resolve "$name") || die "cannot tell which kernel $name carries today"
	MOD_KVERSION=$(kver_releases "$name" | awk -v r="$MOD_ABI" '$2 == r {print $4}' | sort -V | tail -n 1)
	[ -n "$MOD_KVERSION" ] || die "no Debian version of linux-image-$MOD_ABI in $(ktab_field "$name" 2)"
	up=${MOD_KVERSION%%-*}
	xy=${up%.*}
	MOD_SRC=rpcrdma-cm-modules-$MOD_ABI
	MOD_VER=$VER+${MOD_KVERSION//-/.}${DEB_MODULES_REBUILD:++r$DEB_MODULES_REBUILD}
	maint=$(sed -n 's/^Maintainer: //p' "$TOP/debian/control")
	trailer=$(grep -m1 '^ -- ' "$TOP/debian/changelog")
	mkdir -p "$dir/debian/source" || die "cannot create $dir/debian"
	(cd "$TOP" && modules_files | xargs cp --parents -t "$dir") ||
		die "cannot copy the module's files into $dir"
	for f in control rules postinst postrm; do
		sed -e "s|@ABI@|$MOD_ABI|g" -e "s|@KVERSION@|$MOD_KVERSION|g" -e "s|@XY@|$xy|g" \
			-e "s|@RPCRDMA_CM_VERSION@|$VER|g" -e "s|@MAINTAINER@|$maint|g" \
			"$TOP/debian/modules/$f.in" >"$dir/debian/$f" || die "cannot write $dir/debian/$f"
	done
	chmod 755 "$dir/debian/rules" "$dir/debian/postinst" "$dir/debian/postrm"
	{ cp "$TOP/debian/modules/copyright" "$dir/debian/copyright" &&
		echo '3.0 (native)' >"$dir/debian/source/format"; } || die "cannot write $dir/debian"
	{
		printf '%s (%s) %s; urgency=medium\n\n' "$MOD_SRC" "$MOD_VER" "$REL"
		if [ -n "${DEB_MODULES_REBUILD:-}" ]; then
			printf '  * Rebuild %s of the same source.\n\n%s\n\n' "$DEB_MODULES_REBUILD" "$trailer"
			printf '%s (%s) %s; urgency=medium\n\n' "$MOD_SRC" "${MOD_VER%+r*}" "$REL"
		fi
		printf '  * rpcrdma-cm %s prebuilt for Linux %s\n    (linux-image-%s %s).\n\n%s\n' \
			"$VER" "$MOD_ABI" "$MOD_ABI" "$MOD_KVERSION" "$trailer"
	} >"$dir/debian/changelog" || die "cannot write $dir/debian/changelog"
}

# modules_build NAME NEW LOGS LROOT: build NAME's module package in a
# fresh root, its files into NEW, its lintian tags appended to
# NEW/lintian.txt (run in the lintian root LROOT; "-": no lintian).
modules_build() {
	local name=$1 new=$2 logs=$3 lroot=$4 root t0=$SECONDS tdir=() log
	root=$ROOTS/modules-$REL.$$
	DEB_CLEANUP+=("$root")
	rm_tree "$root"
	deb_root_unpack "$TARBALL" "$root"
	# The headers depend on their linux-image, whose postinst makes an
	# initramfs nothing here boots: with every module in it, minutes.
	mkdir -p "$root/etc/initramfs-tools/conf.d" &&
		echo MODULES=list >"$root/etc/initramfs-tools/conf.d/rpcrdma-cm-build" ||
		die "cannot write $root/etc/initramfs-tools/conf.d"
	modules_source "$name" "$root/build/src"
	log=$logs/modules-$MOD_ABI.log
	msg "[5/5 +$((SECONDS - t0)) s] $MOD_SRC $MOD_VER: fresh $REL root, Build-Depends linux-headers-$MOD_ABI and linux-source ($MOD_KVERSION)"
	mv "$root/build/src" "$root/build/$MOD_SRC-$MOD_VER" || die "cannot move the source into $root/build"
	# a kernel of the release's backports comes from there
	case ,$(ktab_field "$name" 2), in
	*,"$REL"-backports,*)
		echo "deb $MIRROR $REL-backports main" >"$root/etc/apt/sources.list.d/backports.list"
		tdir=(-t "$REL-backports") ;;
	esac
	{ deb_chroot "$root" "$log" useradd -m -u 4242 builder &&
		deb_chroot "$root" "$log" chown -R builder: /build; } ||
		deb_fail "$log" "cannot create the user builder in the root"
	deb_chroot_as builder "$root" "$log" sh -c "cd /build && dpkg-source -b $MOD_SRC-$MOD_VER &&
		rm -rf $MOD_SRC-$MOD_VER && dpkg-source -x ${MOD_SRC}_$MOD_VER.dsc" ||
		deb_fail "$log" "dpkg-source failed on $MOD_SRC"
	deb_apt "$root" "$log" update ||
		deb_fail "$log" "apt-get update failed in the $REL root: can the host reach $MIRROR?"
	deb_apt "$root" "$log" "${tdir[@]}" build-dep "/build/${MOD_SRC}_$MOD_VER.dsc" ||
		deb_fail "$log" "apt-get build-dep could not install linux-headers-$MOD_ABI and linux-source (= $MOD_KVERSION): has the archive moved on? (make kernels shows what it carries today)"
	msg "[5/5 +$((SECONDS - t0)) s] $MOD_SRC: dpkg-buildpackage -us -uc, as user builder, without network"
	deb_chroot_as builder "$root" "$log" --nonet \
		sh -c "cd /build/$MOD_SRC-$MOD_VER && dpkg-buildpackage -us -uc" ||
		deb_fail "$log" "dpkg-buildpackage of $MOD_SRC failed"
	cp "$root/build/${MOD_SRC}_$MOD_VER"{.dsc,.tar.xz,_amd64.buildinfo,_amd64.changes,_amd64.deb} "$new/" ||
		die "dpkg-buildpackage did not make every file of $MOD_SRC expected (see $log)"
	rm_tree "$root"
	if [ "$lroot" = - ]; then
		msg "[5/5 +$((SECONDS - t0)) s] ${MOD_SRC}_${MOD_VER}_amd64.deb"
		return 0
	fi
	cp "$new/${MOD_SRC}_$MOD_VER"* "$lroot/build/" || die "cannot copy $MOD_SRC into the lintian root"
	deb_chroot_as nobody "$lroot" "$logs/lintian-run.log" \
		sh -c "cd /build && lintian --display-info --pedantic --show-overrides ${MOD_SRC}_${MOD_VER}_amd64.changes >lintian-$MOD_ABI.txt; echo lintian exit \$?"
	# a section of this source from an earlier run (DEB_MODULES_ONLY=1)
	# is replaced
	awk -v s="== $MOD_SRC " 'index($0, "== ") == 1 {skip = index($0, s) == 1} !skip' \
		"$new/lintian.txt" >"$new/lintian.txt.new" 2>/dev/null || : >"$new/lintian.txt.new"
	{ echo "== $MOD_SRC $MOD_VER"; cat "$lroot/build/lintian-$MOD_ABI.txt"; } >>"$new/lintian.txt.new" &&
		mv "$new/lintian.txt.new" "$new/lintian.txt" ||
		die "lintian wrote no output for $MOD_SRC; see $logs/lintian-run.log"
	msg "[5/5 +$((SECONDS - t0)) s] ${MOD_SRC}_${MOD_VER}_amd64.deb"
}
