#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make rxe: build soft-RoCE (rdma_rxe.ko) out of tree for $KVER, with the
# fixes of scripts/coccinelle/rxe/ (RXE_UPSTREAM=1: without them).
#
#   rxe.sh            build build/$KVER/rxe/rdma_rxe.ko
#   rxe.sh fixes-id   print what a build would apply now ("upstream" or a
#                     hash of the rules): the VM rig compares it with the
#                     fixes-id kept beside the module to tell a stale one
#
# Debian builds rdma_rxe itself (CONFIG_RDMA_RXE=m); this one replaces it
# in the VM rig (VM_RXE=fixed, scripts/vm/lib.sh), from updates/, under
# the same name. The driver's sources are copied at build time from the
# target kernel's own source tree (drivers/infiniband/sw/rxe); none of it
# is committed here. A rule may fit one kernel series only ("// When:"
# in its header); each "// Fix:" name must be made by exactly one rule
# on every kernel, so a series none of a fix's variants fits stops the
# build instead of yielding a module without that fix. Output:
# build/$KVER/rxe/rdma_rxe.ko (with the copied sources and generated
# Kbuild beside it), published only when the build succeeds and every
# symbol it needs is exported by the target kernel.
# Documentation/investigations/rxe-gsi-qp-link-drop.md says what the
# fixes are for.

set -e -o pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

RULES=$TOP/scripts/coccinelle/rxe

# rxe_fixes_id: what make rxe applies to rxe: "upstream" with
# RXE_UPSTREAM=1, else a hash of scripts/coccinelle/rxe/*.cocci. Kept
# beside rdma_rxe.ko, so the VM rig can tell one built with other fixes.
rxe_fixes_id() {
	if [ "${RXE_UPSTREAM:-0}" = 1 ]; then
		echo upstream
	else
		cat "$RULES"/*.cocci 2>/dev/null | sha256sum | cut -c1-12
	fi
}

case ${1:-} in
fixes-id) rxe_fixes_id; exit 0 ;;
'') ;;
*) die "usage: rxe.sh [fixes-id] (got '$1')" ;;
esac

[ -n "$KVER" ] || KVER=$(kver_default)
kbuild_enter "$@"
ensure_headers
ensure_ksrc
[ "${RXE_UPSTREAM:-0}" = 1 ] || need_pkgs coccinelle

KBUILD_DIR=$(kdir)
RXE_SRC=$KSRC_DIR/drivers/infiniband/sw/rxe
OUT=$BUILD/$KVER
DEST=$OUT/rxe
WORK=$OUT/rxe.tmp
KO=$DEST/rdma_rxe.ko
LOG=$OUT/rxe-build.log
JOBS=${JOBS:-2}

[ -e "$RXE_SRC/rxe.c" ] ||
	die "no rxe sources in $RXE_SRC (kernel source too old or incomplete?)"

# kconfig SYM: the value of CONFIG_SYM in the target kernel's config
# (the headers' .config, else /boot/config-$KVER), empty when unset.
kconfig() {
	local cfg=$KBUILD_DIR/.config
	[ -e "$cfg" ] || cfg=/boot/config-$KVER
	[ -e "$cfg" ] || die "no kernel config for $KVER ($KBUILD_DIR/.config or /boot/config-$KVER)"
	sed -n "s/^CONFIG_$1=//p" "$cfg"
}

# 1. The kernel must provide what rxe's Kconfig entry depends on or
#    selects (read from the source: the list differs between series).
kdeps=$(awk '/^config /{on = ($2 == "RDMA_RXE")} on && /^[[:space:]]*(depends on|select) /' \
	"$RXE_SRC/Kconfig" | sed -E 's/^[[:space:]]*(depends on|select)[[:space:]]+//; s/![[:space:]]*[A-Z0-9_]+//g' |
	grep -oE '[A-Z0-9_]*[A-Z][A-Z0-9_]*' | grep -vx 'if' | sort -u)
[ -n "$kdeps" ] || die "cannot read RDMA_RXE's dependencies from $RXE_SRC/Kconfig"
msg "checking $KVER's config for rxe's Kconfig dependencies"
bad=()
for sym in $kdeps; do
	val=$(kconfig "$sym")
	case $val in
	y | m) msg "  CONFIG_$sym=$val" ;;
	*) bad+=("CONFIG_$sym") ;;
	esac
done
[ ${#bad[@]} -eq 0 ] ||
	die "kernel $KVER lacks ${bad[*]} (rxe's Kconfig depends on or selects them); rxe cannot be built for it"
case $(kconfig RDMA_RXE) in
m) msg "  $KVER builds rdma_rxe as a module too: this one replaces it from updates/" ;;
y) warn "kernel $KVER has rxe built in (CONFIG_RDMA_RXE=y): a module cannot replace it; building anyway" ;;
*) warn "kernel $KVER does not build rxe (CONFIG_RDMA_RXE unset); building anyway" ;;
esac

# 2. Copy the sources into a fresh work directory and generate a Kbuild
#    file from upstream's Makefile: rdma_rxe-y, plus each
#    rdma_rxe-$(CONFIG_X) whose symbol the target kernel sets (7.x builds
#    rxe_odp.o only with on-demand paging).
msg "copying rxe sources from $RXE_SRC"
mkdir -p "$OUT"
exec 9>"$OUT/.rxe.lock"
flock -n 9 || die "another 'make rxe' for $KVER is running (lock $OUT/.rxe.lock)"
rm -rf "$DEST" "$WORK"
mkdir -p "$WORK"
cp "$RXE_SRC"/*.c "$RXE_SRC"/*.h "$WORK"/
objs=()
while read -r var list; do
	case $var in
	y) ;;
	'$(CONFIG_'*')')
		sym=${var#'$(CONFIG_'}
		sym=${sym%')'}
		[ "$(kconfig "$sym")" = y ] || { msg "  leaving out $list (CONFIG_$sym is not y)"; continue; }
		;;
	*) die "cannot read 'rdma_rxe-$var' in $RXE_SRC/Makefile" ;;
	esac
	read -r -a listed <<<"$list"
	objs+=("${listed[@]}")
done < <(sed -e ':a' -e '/\\$/{N;s/\\\n//;ba}' "$RXE_SRC/Makefile" |
	sed -n 's/^rdma_rxe-\([^[:space:]:+]*\)[[:space:]]*[:+]\?=[[:space:]]*/\1 /p')
[ ${#objs[@]} -gt 0 ] || die "cannot read the rdma_rxe-y object list from $RXE_SRC/Makefile"
for o in "${objs[@]}"; do
	[ -e "$WORK/${o%.o}.c" ] || die "$RXE_SRC/Makefile lists $o but ${o%.o}.c is missing"
done
{
	echo "# Generated by scripts/rxe.sh from $RXE_SRC/Makefile."
	echo "obj-m += rdma_rxe.o"
	echo "rdma_rxe-y := ${objs[*]}"
} >"$WORK/Kbuild"

# 2b. Fix what the soak found in rxe itself (scripts/coccinelle/rxe/:
#     each rule's header says what and why); RXE_UPSTREAM=1 builds the
#     driver exactly as the kernel's source has it, to reproduce.
if [ "${RXE_UPSTREAM:-0}" = 1 ]; then
	msg "RXE_UPSTREAM=1: building rxe unmodified"
else
	fixes=$(cocci_apply_dir "$RULES" "$KSRC_DIR" "$WORK" "$OUT")
	# every fix made by exactly one rule (the variant of this series)
	for f in $(sed -n 's|^// Fix: *||p' "$RULES"/*.cocci | sort -u); do
		n=0
		for r in $fixes; do
			grep -qx "// Fix: *$f" "$RULES/$r.cocci" && n=$((n + 1))
		done
		[ "$n" = 1 ] ||
			die "fix '$f' was made by $n rules of scripts/coccinelle/rxe/ on $KVER (want 1; applied: $(echo "$fixes" | tr '\n' ' ')): none of its variants fits this kernel's rxe ($RXE_SRC), or their When: lines overlap"
	done
	for r in $fixes; do
		grep -q '^// Fix: ' "$RULES/$r.cocci" ||
			die "rule rxe/$r.cocci has no '// Fix:' line"
	done
	msg "  rxe fixes applied: $(echo "$fixes" | tr '\n' ' ')(RXE_UPSTREAM=1 leaves them out)"
	# What the rules changed, as a patch against this kernel's rxe:
	# checkpatch --strict must find nothing, as for the linux-rdma
	# series make patches writes from the newest source.
	patch=$OUT/rxe-fixes.patch
	{
		printf 'From: make rxe <rxe@localhost>\nSubject: [PATCH] RDMA/rxe: the fixes of make rxe\n\n'
		printf "What scripts/coccinelle/rxe/ changed in this kernel's rxe, checked\nas a patch by scripts/rxe.sh.\n\n---\n"
		for f in "$WORK"/*.[ch]; do
			f=${f##*/}
			diff -u --label "a/drivers/infiniband/sw/rxe/$f" --label "b/drivers/infiniband/sw/rxe/$f" \
				"$RXE_SRC/$f" "$WORK/$f" || [ $? = 1 ] || die "diff failed on $f"
		done
	} >"$patch"
	"$KSRC_DIR/scripts/checkpatch.pl" --strict --no-tree --no-signoff "$patch" >"$OUT/rxe-checkpatch.log" 2>&1 ||
		{ grep -E '^(ERROR|WARNING|CHECK)' "$OUT/rxe-checkpatch.log" >&2; die "the rxe fixes are not checkpatch-clean on $KVER: see $OUT/rxe-checkpatch.log and ${patch#"$TOP"/}"; }
	msg "  checkpatch --strict: $(grep -E '^total: ' "$OUT/rxe-checkpatch.log") (${patch#"$TOP"/})"
fi

rxe_fixes_id >"$WORK/fixes-id"

# 3. Build against the installed headers.
msg "building rdma_rxe.ko against $KBUILD_DIR (log: ${LOG#"$TOP"/})"
start=$SECONDS
if ! make -C "$KBUILD_DIR" M="$WORK" -j"$JOBS" modules >"$LOG" 2>&1; then
	grep -E 'error|Error|ERROR' "$LOG" | head -20 >&2 || true
	die "rxe build failed; see $LOG"
fi
[ -e "$WORK/rdma_rxe.ko" ] || die "make succeeded but produced no rdma_rxe.ko; see $LOG"
! grep -q 'warning:' "$LOG" || {
	grep 'warning:' "$LOG" | head -10 >&2
	die "the rxe build warned (a rule's code must compile cleanly); see $LOG"
}
msg "built in $((SECONDS - start)) s"

# 4. Every symbol rdma_rxe.ko imports must be exported by the target
#    kernel: modpost's verdict, then the undefined symbols against the
#    headers' Module.symvers.
unexported=$(sed -n 's/.*modpost: "\([^"]*\)" \[.*rdma_rxe\.ko\] undefined!.*/\1/p' "$LOG" | sort -u)
symvers=$KBUILD_DIR/Module.symvers
[ -e "$symvers" ] || die "no $symvers: cannot check rdma_rxe.ko's symbols and dependencies"
more=$(comm -23 <(nm -u "$WORK/rdma_rxe.ko" | awk '{print $2}' | sort -u) \
	<(awk '{print $2}' "$symvers" | sort -u))
unexported=$(printf '%s\n%s\n' "$unexported" "$more" | sed '/^$/d' | sort -u)
[ -z "$unexported" ] ||
	die "kernel $KVER does not export symbols rdma_rxe.ko needs: $(echo "$unexported" | tr '\n' ' ')(see $LOG)"
msg "all $(nm -u "$WORK/rdma_rxe.ko" | wc -l) undefined symbols of rdma_rxe.ko are exported by $KVER"

# 5. vermagic and module dependencies.
vermagic=$(modinfo -F vermagic "$WORK/rdma_rxe.ko")
case $vermagic in
"$KVER "*) ;;
*) die "rdma_rxe.ko has vermagic '$vermagic', not $KVER" ;;
esac
deps=$(modinfo -F depends "$WORK/rdma_rxe.ko" | tr ',' ' ')
for d in $deps; do
	awk -v d="${d//-/_}" '{n = split($3, p, "/"); m = p[n]; gsub("-", "_", m)
		if (m == d) {found = 1; exit}} END {exit !found}' "$symvers" ||
		die "rdma_rxe.ko depends on module $d, which $KVER does not have ($symvers names no such exporter)"
done
msg "rdma_rxe.ko depends on: ${deps:-nothing}; each exports symbols in $KVER's Module.symvers"

# 6. Publish: build/$KVER/rxe/rdma_rxe.ko exists only after a fully
#    checked build.
mv "$WORK" "$DEST"
msg "done: ${KO#"$TOP"/} (fixes: $(cat "$DEST/fixes-id"))"
msg "load: modprobe -r rdma_rxe; modprobe -a ib_core ip6_udp_tunnel udp_tunnel && insmod ${KO#"$TOP"/}"
msg "or in the VM rig: VM_RXE=fixed (see Documentation/investigations/rxe-gsi-qp-link-drop.md)"
