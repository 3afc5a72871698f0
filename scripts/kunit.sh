#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make kunit`: run the RFC 8797 codec KUnit suite with kunit.py on UML.
#
# The kernel source comes from ensure_ksrc (Debian's linux-source-x.y,
# extracted once into $RPCRDMA_CM_CACHE/src, or KSRC=). That tree is a cache other
# scripts share, so it is never written to: kunit.py runs in a scratch
# tree made of hard links to the cache. Every file
# this script puts into the scratch tree first removes the link and then
# writes a new file, so the cache is never modified through a shared
# inode. Files are only replaced when their content differs, which keeps
# the UML build directory incremental. Scratch tree and UML build live in
# $RPCRDMA_CM_CACHE/kunit (outside the clone, one at a time under a lock),
# so a fresh clone (CI) reuses the UML kernel and rebuilds only the files
# whose content differs; the log stays in build/kunit/kunit.log.
#
# Environment: KVER, KSRC (see lib.sh), JOBS (default 2),
# KUNIT_VERBOSE=1 to stream all of kunit.py's output.

. "$(dirname "$0")/lib.sh"

JOBS=${JOBS:-2}
# Overlay directory in the scratch tree. It is hooked from the top-level
# Kbuild and Kconfig rather than net/sunrpc/xprtrdma, which only builds
# with NET, SUNRPC and INFINIBAND: the codec needs none of them.
OVL=rpcrdma-cm

# need_cmds CMD:PKG... : install PKG when CMD is not on $PATH. Checking
# commands rather than packages accepts tools that did not come from
# apt (a pyenv python3, for one).
need_cmds() {
	local pair pkgs=()
	for pair in "$@"; do
		command -v "${pair%%:*}" >/dev/null 2>&1 || pkgs+=("${pair#*:}")
	done
	[ ${#pkgs[@]} -eq 0 ] || need_pkgs "${pkgs[@]}"
}

# put SRC DST: make DST a private copy of SRC unless it already matches.
# rm before cp breaks any hard link to the cache instead of writing
# through it.
put() {
	cmp -s "$1" "$2" && return 0
	mkdir -p "$(dirname "$2")"
	rm -f "$2"
	cp "$1" "$2" || die "cannot copy $1 to $2"
}

# hook FILE LINE...: the scratch FILE is the cache's FILE plus LINEs.
# Built from the pristine copy every time, so reruns never append twice.
hook() {
	local file=$1 tmp
	shift
	tmp=$(mktemp) || die "mktemp failed"
	{ cat "$KSRC_DIR/$file"; printf '%s\n' "$@"; } >"$tmp"
	put "$tmp" "$SCRATCH/$file"
	rm -f "$tmp"
}

need_cmds make:make gcc:gcc flex:flex bison:bison bc:bc python3:python3 \
	perl:perl
[ -e /usr/include/stdio.h ] || need_pkgs libc6-dev

[ -n "$KVER" ] || KVER=$(kver_default)
ensure_headers
ensure_ksrc

kver_src=$(makefile_version "$KSRC_DIR")
KCACHE=$RPCRDMA_CM_CACHE/kunit
SCRATCH=$KCACHE/src-$kver_src
OUT=$KCACHE/uml-$kver_src
LOG=$BUILD/kunit/kunit.log
mkdir -p "$BUILD/kunit" "$KCACHE" || die "cannot create $KCACHE; set RPCRDMA_CM_CACHE=<a writable directory>"
exec 7>"$KCACHE/.lock"
flock -n 7 || { msg "kunit: another make kunit uses $KCACHE; waiting for it"; flock 7; }

# Rebuild the scratch tree (and drop the UML objects built from it) when
# the cache it was linked from is newer or is another tree (KSRC=).
origin="$KSRC_DIR $(stat -c %Y "$KSRC_DIR/Makefile" "$KSRC_DIR/.extracted" 2>/dev/null | tr '\n' ' ')"
if [ ! -e "$SCRATCH/.rpcrdma-origin" ] ||
   [ "$(cat "$SCRATCH/.rpcrdma-origin")" != "$origin" ]; then
	msg "kunit: linking a scratch copy of $KSRC_DIR into $KCACHE (hard links, ~10 s)"
	rm -rf "$SCRATCH" "$SCRATCH.tmp" "$OUT"
	cp -al "$KSRC_DIR" "$SCRATCH.tmp" || die "cannot link $KSRC_DIR into $SCRATCH.tmp"
	rm -f "$SCRATCH.tmp/.extracted"
	# kunit.py builds with O=, which needs a source tree without a
	# configuration of its own. mrproper only unlinks files, so it
	# cannot damage the cache behind the links.
	if [ -e "$SCRATCH.tmp/.config" ] || [ -d "$SCRATCH.tmp/include/config" ]; then
		msg "kunit: source tree was configured in place; cleaning the scratch copy"
		make -s -C "$SCRATCH.tmp" mrproper >/dev/null ||
			die "make mrproper failed in $SCRATCH.tmp"
	fi
	mv "$SCRATCH.tmp" "$SCRATCH" || die "cannot create $SCRATCH"
	echo "$origin" >"$SCRATCH/.rpcrdma-origin"
fi

msg "kunit: overlaying the codec and its tests into $SCRATCH"
for h in "$TOP"/include/linux/sunrpc/rpcrdma_*.h \
	 "$TOP"/include/trace/events/rpcrdma_cm.h; do
	put "$h" "$SCRATCH/include/${h#"$TOP"/include/}"
done
kunit_stage "$SCRATCH/$OVL"
hook Kbuild "" "# rpcrdma-cm: RFC 8797 codec KUnit overlay" \
	"obj-\$(CONFIG_RPCRDMA_PDATA_KUNIT_TEST) += $OVL/"
hook Kconfig "" "# rpcrdma-cm: RFC 8797 codec KUnit overlay" \
	"source \"$OVL/Kconfig\""

if [ -e "$OUT/.config" ]; then
	msg "kunit: incremental UML build and run in $OUT (jobs=$JOBS)"
else
	msg "kunit: first UML build in $OUT (jobs=$JOBS, several minutes)"
fi
msg "kunit: full kunit.py output in ${LOG#"$TOP"/}"

cd "$SCRATCH" || die "cannot enter $SCRATCH"
export PYTHONDONTWRITEBYTECODE=1
start=$(date +%s)
python3 tools/testing/kunit/kunit.py run --arch=um \
	--kunitconfig="$TOP/kunit/.kunitconfig" --build_dir="$OUT" \
	--jobs="$JOBS" </dev/null 2>&1 |
	tee "$LOG" |
	if [ "${KUNIT_VERBOSE:-0}" = 1 ]; then
		cat
	else
		# Progress and verdicts only: the suite has hundreds of
		# parameter cases, and the log keeps every line.
		grep --line-buffered -E \
			'Configuring|Building KUnit|Starting|Elapsed|FAILED|CRASHED|ERROR|error:|Ran [0-9]+ tests'
	fi
rc=${PIPESTATUS[0]}
elapsed=$(($(date +%s) - start))

# kunit.py's own summary, without its timestamp and colours
summary=$(sed -E 's/\x1b\[[0-9;]*m//g' "$LOG" | grep -oE 'Ran [0-9]+ tests.*' | tail -n 1)
if [ "$rc" -ne 0 ] || [ -z "$summary" ]; then
	# Show where it went wrong: failed expectations with their context,
	# or the end of the log for build and configuration errors.
	if grep -q 'EXPECTATION FAILED\|ASSERTION FAILED' "$LOG"; then
		grep -B2 -A6 'EXPECTATION FAILED\|ASSERTION FAILED' "$LOG" | head -n 120 >&2
	else
		tail -n 40 "$LOG" >&2
	fi
	die "kunit.py failed (exit $rc) after ${elapsed}s; see ${LOG#"$TOP"/}"
fi
case $summary in
*failed:* | *crashed:* | *errors:* | "Ran 0 tests"*)
	die "kunit: $summary";;
esac
msg "kunit: passed in ${elapsed}s"
echo "$summary"
