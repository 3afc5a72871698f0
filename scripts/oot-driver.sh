# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The out-of-tree build of a soft-RDMA driver from the target kernel's own
# sources, shared by make siw (scripts/siw.sh) and make rxe
# (scripts/rxe.sh). Sourced after scripts/lib.sh. What differs between the
# drivers (their fixes, the Kbuild lines, the checks of their own
# CONFIG_ symbol, what to say when done) stays in their scripts.
#
# The caller sets
#   OOT_NAME     the short name: siw, rxe (drivers/infiniband/sw/$OOT_NAME,
#                build/$KVER/$OOT_NAME/, $OOT_NAME-build.log)
#   OOT_MODULE   the module: siw, rdma_rxe
#   OOT_KCONFIG  its Kconfig symbol without CONFIG_: RDMA_SIW, RDMA_RXE
#   OOT_UPSTREAM 1 when it builds without its fixes (no coccinelle then)
#   OOT_DIR      the source directory in the kernel tree, when it is not
#                drivers/infiniband/sw/$OOT_NAME (make ibcore's)
# and calls, in order: oot_enter, oot_check_kdeps, oot_stage, oot_kbuild,
# (its fixes), oot_build, oot_check_module, oot_publish. They set and
# use KBUILD_DIR, OOT_SRC, OUT, DEST, WORK, KO, LOG and JOBS.

# oot_enter SOURCE: prepare $KVER (headers, kernel source, a build root
# of its family when the host cannot build it) and set the paths; SOURCE
# is a file the driver's source directory must have. The calling script
# runs again in the build root with the argument "upstream" when
# OOT_UPSTREAM=1: the root's environment does not carry RXE_UPSTREAM or
# SIW_UPSTREAM, and without it a trixie kernel's build from a bookworm
# host had the fixes applied whatever was asked.
oot_enter() {
	local sentinel=$1 args=()
	[ "${OOT_UPSTREAM:-0}" != 1 ] || args=(upstream)
	[ -n "$KVER" ] || KVER=$(kver_default)
	kbuild_enter "${args[@]}"
	ensure_headers
	ensure_ksrc
	[ "${OOT_UPSTREAM:-0}" = 1 ] || need_pkgs coccinelle

	KBUILD_DIR=$(kdir)
	OOT_SRC=$KSRC_DIR/${OOT_DIR:-drivers/infiniband/sw/$OOT_NAME}
	OUT=$BUILD/$KVER
	DEST=$OUT/$OOT_NAME
	WORK=$OUT/$OOT_NAME.tmp
	# shellcheck disable=SC2034 # the callers name it when done
	KO=$DEST/$OOT_MODULE.ko
	LOG=$OUT/$OOT_NAME-build.log
	JOBS=${JOBS:-2}
	[ -e "$OOT_SRC/$sentinel" ] ||
		die "no $OOT_NAME sources in $OOT_SRC (kernel source too old or incomplete?)"
}

# kconfig SYM: the value of CONFIG_SYM in the target kernel's config
# (the headers' .config, else /boot/config-$KVER), empty when unset.
kconfig() {
	local cfg=$KBUILD_DIR/.config
	[ -e "$cfg" ] || cfg=/boot/config-$KVER
	[ -e "$cfg" ] || die "no kernel config for $KVER ($KBUILD_DIR/.config or /boot/config-$KVER)"
	sed -n "s/^CONFIG_$1=//p" "$cfg"
}

# oot_check_kdeps: the kernel must provide what the driver's Kconfig
# entry depends on or selects, built in or as a module. The list is read
# from the source: it differs between series (7.x's rxe wants 64BIT and
# CRC32 where 6.x's wanted CRYPTO_CRC32).
oot_check_kdeps() {
	local kdeps sym val bad=()
	kdeps=$(awk -v c="$OOT_KCONFIG" '/^config /{on = ($2 == c)} on && /^[[:space:]]*(depends on|select) /' \
		"$OOT_SRC/Kconfig" | sed -E 's/^[[:space:]]*(depends on|select)[[:space:]]+//; s/![[:space:]]*[A-Z0-9_]+//g' |
		grep -oE '[A-Z0-9_]*[A-Z][A-Z0-9_]*' | grep -vx 'if' | sort -u)
	[ -n "$kdeps" ] || die "cannot read $OOT_KCONFIG's dependencies from $OOT_SRC/Kconfig"
	msg "checking $KVER's config for $OOT_NAME's Kconfig dependencies"
	for sym in $kdeps; do
		val=$(kconfig "$sym")
		case $val in
		y | m) msg "  CONFIG_$sym=$val" ;;
		*) bad+=("CONFIG_$sym") ;;
		esac
	done
	[ ${#bad[@]} -eq 0 ] ||
		die "kernel $KVER lacks ${bad[*]} ($OOT_NAME's Kconfig depends on or selects them); $OOT_NAME cannot be built for it"
}

# oot_stage [PATH...]: copy the driver's sources into a fresh $WORK (after
# removing $DEST, $WORK and the PATHs, left by an older layout) under
# $OUT/.$OOT_NAME.lock, held until the script ends, and set OOT_OBJS to
# $OOT_MODULE's object list (oot_objs).
oot_stage() {
	msg "copying $OOT_NAME sources from $OOT_SRC"
	mkdir -p "$OUT"
	exec 9>"$OUT/.$OOT_NAME.lock"
	flock -n 9 || die "another 'make $OOT_NAME' for $KVER is running (lock $OUT/.$OOT_NAME.lock)"
	rm -rf "$DEST" "$WORK" "$@"
	mkdir -p "$WORK"
	cp "$OOT_SRC"/*.c "$OOT_SRC"/*.h "$WORK"/
	oot_objs "$OOT_MODULE"
}

# oot_objs MODULE: set OOT_OBJS to MODULE's object list in upstream's
# Makefile: MODULE-y, plus each MODULE-$(CONFIG_X) whose symbol the
# target kernel sets to y (7.x builds rxe_odp.o only with on-demand
# paging), so that a series which adds or renames a file still builds.
oot_objs() {
	local mod=$1 var list sym o listed=()
	OOT_OBJS=()
	while read -r var list; do
		case $var in
		y) ;;
		'$(CONFIG_'*')')
			sym=${var#'$(CONFIG_'}
			sym=${sym%')'}
			[ "$(kconfig "$sym")" = y ] || { msg "  leaving out $list (CONFIG_$sym is not y)"; continue; }
			;;
		*) die "cannot read '$mod-$var' in $OOT_SRC/Makefile" ;;
		esac
		read -r -a listed <<<"$list"
		OOT_OBJS+=("${listed[@]}")
	done < <(sed -e ':a' -e '/\\$/{N;s/\\\n//;ba}' "$OOT_SRC/Makefile" |
		sed -n "s/^$mod-\([^[:space:]:+]*\)[[:space:]]*[:+]\?=[[:space:]]*/\1 /p")
	[ ${#OOT_OBJS[@]} -gt 0 ] || die "cannot read the $mod-y object list from $OOT_SRC/Makefile"
	for o in "${OOT_OBJS[@]}"; do
		[ -e "$WORK/${o%.o}.c" ] || die "$OOT_SRC/Makefile lists $o but ${o%.o}.c is missing"
	done
}

# oot_kbuild LINE...: write $WORK/Kbuild: a header, the LINEs (what makes
# the kernel build $OOT_MODULE.o) and the object list.
oot_kbuild() {
	{
		echo "# Generated by scripts/$OOT_NAME.sh from $OOT_SRC/Makefile."
		printf '%s\n' "$@"
		echo "$OOT_MODULE-y := ${OOT_OBJS[*]}"
	} >"$WORK/Kbuild"
}

# oot_fixes RULEDIR SUBJECT: apply the rules of RULEDIR to $WORK and check that
# every "// Fix:" name was made by exactly one rule (the variant for this
# series) or is in this kernel's source already (a rule's "// Upstream:
# FILE ERE"), so that a series none of a fix's variants fits stops the
# build instead of yielding a module without that fix. Then write what
# the rules changed as a patch against the kernel's files,
# $OUT/$OOT_NAME-fixes.patch (SUBJECT is its subject line), which
# checkpatch --strict must pass. Sets OOT_FIXES to the rules applied.
oot_fixes() {
	local rules=$1 subject=$2 f n r up have="" patch rel
	OOT_FIXES=$(cocci_apply_dir "$rules" "$KSRC_DIR" "$WORK" "$OUT")
	for f in $(sed -n 's|^// Fix: *||p' "$rules"/*.cocci | sort -u); do
		n=0 up=""
		for r in $OOT_FIXES; do
			grep -qx "// Fix: *$f" "$rules/$r.cocci" && n=$((n + 1))
		done
		for r in $(grep -lx "// Fix: *$f" "$rules"/*.cocci); do
			cocci_header_match Upstream "$r" "$KSRC_DIR" || continue
			n=$((n + 1))
			up+="${r##*/} "
		done
		[ -z "$up" ] || have+="$f "
		[ "$n" = 1 ] ||
			die "fix '$f' was made by $n rules of ${rules#"$TOP"/}/ on $KVER (want 1; applied: $(echo "$OOT_FIXES" | tr '\n' ' ')${up:+; found upstream by: $up}): none of its variants fits this kernel's $OOT_NAME ($OOT_SRC), or their When: and Upstream: lines overlap"
	done
	[ -z "$have" ] || msg "  $OOT_NAME in $KVER has these fixes upstream already: $have"
	for r in $OOT_FIXES; do
		grep -q '^// Fix: ' "$rules/$r.cocci" ||
			die "rule ${rules#"$TOP"/}/$r.cocci has no '// Fix:' line"
	done
	msg "  $OOT_NAME fixes applied: $(echo "${OOT_FIXES:-none}" | tr '\n' ' ')"
	patch=$OUT/$OOT_NAME-fixes.patch
	rm -f "$patch"
	[ -n "$OOT_FIXES" ] || return 0
	rel=${OOT_DIR:-drivers/infiniband/sw/$OOT_NAME}
	{
		printf 'From: make %s <%s@localhost>\nSubject: [PATCH] %s\n\n' "$OOT_NAME" "$OOT_NAME" "$subject"
		printf "What %s/ changed in this kernel's %s, checked\nas a patch by scripts/%s.sh.\n\n---\n" \
			"${rules#"$TOP"/}" "$OOT_NAME" "$OOT_NAME"
		for f in "$WORK"/*.[ch]; do
			f=${f##*/}
			diff -u --label "a/$rel/$f" --label "b/$rel/$f" \
				"$OOT_SRC/$f" "$WORK/$f" || [ $? = 1 ] || die "diff failed on $f"
		done
	} >"$patch"
	"$KSRC_DIR/scripts/checkpatch.pl" --strict --no-tree --no-signoff "$patch" >"$OUT/$OOT_NAME-checkpatch.log" 2>&1 ||
		{ grep -E '^(ERROR|WARNING|CHECK)' "$OUT/$OOT_NAME-checkpatch.log" >&2; die "the $OOT_NAME fixes are not checkpatch-clean on $KVER: see $OUT/$OOT_NAME-checkpatch.log and ${patch#"$TOP"/}"; }
	msg "  checkpatch --strict: $(grep -E '^total: ' "$OUT/$OOT_NAME-checkpatch.log") (${patch#"$TOP"/})"
}

# oot_build [MAKEARG...]: build $WORK against the target kernel's headers
# (log: $LOG). With OOT_WARN_FATAL=1 a compiler warning stops it: code a
# rule wrote must compile cleanly.
oot_build() {
	local start=$SECONDS
	msg "building $OOT_MODULE.ko against $KBUILD_DIR (log: ${LOG#"$TOP"/})"
	if ! make -C "$KBUILD_DIR" M="$WORK" "$@" -j"$JOBS" modules >"$LOG" 2>&1; then
		grep -E 'error|Error|ERROR' "$LOG" | head -20 >&2 || true
		die "$OOT_NAME build failed; see $LOG"
	fi
	[ -e "$WORK/$OOT_MODULE.ko" ] || die "make succeeded but produced no $OOT_MODULE.ko; see $LOG"
	if [ "${OOT_WARN_FATAL:-0}" = 1 ] && grep -q 'warning:' "$LOG"; then
		grep 'warning:' "$LOG" | head -10 >&2
		die "the $OOT_NAME build warned (a rule's code must compile cleanly); see $LOG"
	fi
	msg "built in $((SECONDS - start)) s"
}

# oot_check_module [MODULE]: the module ($OOT_MODULE, or MODULE when a
# directory builds more than one) must load into the target kernel:
# every symbol it imports exported (modpost's verdict, then an
# independent look at its undefined symbols against the headers'
# Module.symvers), its vermagic $KVER's, and every module it depends on
# one that Module.symvers names as an exporter (the headers describe the
# image; neither needs to be installed, so modinfo -k cannot be asked).
oot_check_module() {
	local mod=${1:-$OOT_MODULE}
	local ko=$WORK/$mod.ko symvers=$KBUILD_DIR/Module.symvers
	local unexported more vermagic deps d
	unexported=$(sed -n "s/.*modpost: \"\([^\"]*\)\" \[.*$mod\.ko\] undefined!.*/\1/p" "$LOG" | sort -u)
	[ -e "$symvers" ] || die "no $symvers: cannot check $mod.ko's symbols and dependencies"
	more=$(comm -23 <(nm -u "$ko" | awk '{print $2}' | sort -u) \
		<(awk '{print $2}' "$symvers" | sort -u))
	unexported=$(printf '%s\n%s\n' "$unexported" "$more" | sed '/^$/d' | sort -u)
	[ -z "$unexported" ] ||
		die "kernel $KVER does not export symbols $mod.ko needs: $(echo "$unexported" | tr '\n' ' ')(see $LOG); this kernel cannot load an out-of-tree $OOT_NAME"
	msg "all $(nm -u "$ko" | wc -l) undefined symbols of $mod.ko are exported by $KVER"

	vermagic=$(modinfo -F vermagic "$ko")
	case $vermagic in
	"$KVER "*) ;;
	*) die "$mod.ko has vermagic '$vermagic', not $KVER" ;;
	esac
	deps=$(modinfo -F depends "$ko" | tr ',' ' ')
	for d in $deps; do
		awk -v d="${d//-/_}" '{n = split($3, p, "/"); m = p[n]; gsub("-", "_", m)
			if (m == d) {found = 1; exit}} END {exit !found}' "$symvers" ||
			die "$mod.ko depends on module $d, which $KVER does not have ($symvers names no such exporter)"
	done
	msg "$mod.ko depends on: ${deps:-nothing}; each exports symbols in $KVER's Module.symvers"
}

# oot_publish: $WORK becomes $DEST only now, so $KO exists only after a
# fully checked build.
oot_publish() {
	mv "$WORK" "$DEST"
}
