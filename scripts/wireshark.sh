#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Wireshark dissector for RFC 8797 private data,
# tools/wireshark/rpcrdma_cm.lua (Documentation/wireshark.md), and the
# experimental one for RPC-over-RDMA Version Two transport properties,
# tools/wireshark/rpcrdma_v2.lua (Documentation/transport-properties.md).
#
#   scripts/wireshark.sh test       check the dissector against the codec,
#                                   and the C dissector against the Lua one
#   scripts/wireshark.sh c-test     only the C dissector's part of test, for
#                                   the tshark on PATH (test runs it on the
#                                   host and in a Debian 13 root)
#   scripts/wireshark.sh install    copy it into ~/.local/lib/wireshark/plugins
#   scripts/wireshark.sh install-c  build the C dissector (tools/wireshark/c)
#                                   and copy it into
#                                   ~/.local/lib/wireshark/plugins/<version>/epan
#   scripts/wireshark.sh uninstall  remove those copies
#
# test builds net/sunrpc/xprtrdma/rpcrdma_pdata.c as a shared library
# and has tools/wireshark/gen-vectors.py write RoCEv2 (CM REQ/REP) and
# iWARP (MPA request/reply, revisions 1 and 2) frames carrying every
# private data buffer of kunit/rpcrdma_pdata_test.c and
# WIRESHARK_RANDOM random ones, each with the codec's verdict on it.
# text2pcap turns them into pcaps, tshark decodes them with the
# dissector, and every frame's fields must equal the codec's verdict,
# with Wireshark's own CM or MPA fields still there. tshark must exit 0
# and print no Lua error. Ends with "wireshark: N cases, M failed" and
# fails if M is not 0. Everything it writes goes under build/wireshark.
#
# tshark runs with HOME pointing at an empty directory, so that neither
# an installed copy of the plugin nor personal preferences take part.
#
# test then builds the C dissector (tools/wireshark/c) against the
# host's wireshark-dev (4.0 on Debian 12), decodes the same pcaps, the VM
# pcaps and the connection vectors of tools/wireshark/compare-c.py with
# it, and compares it with the Lua plugin field by field: the same value
# in every field of every frame. It must show the negotiated thresholds
# and R on every Send of the connection vectors, warn on a Send With
# Invalidate where R is clear and on a Send above its threshold, and,
# on the VM pcaps, warn on the stock server's pair and never on ours.
# It also runs scripts/vm/wireops.py's selftest (make bench's counts of
# RDMA operations and packets on a pcap of known frames).
# As root it repeats all of it with Wireshark 4.4 in a Debian 13 root
# (mmdebstrap, cached in build/wireshark-c; WIRESHARK_C_TRIXIE=0 skips).
#
# Variables: WIRESHARK_SEED (random buffers' seed; default: a new one,
# printed), WIRESHARK_RANDOM (how many random buffers, default 3000),
# WIRESHARK_VM_BUILD (the build directory whose VM pcaps are decoded,
# read only; default build/), WIRESHARK_C_TRIXIE (0: no 4.4 run),
# CC (default cc).

. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

PLUGIN=tools/wireshark/rpcrdma_cm.lua
GEN=tools/wireshark/gen-vectors.py
# The experimental Version Two dissector (transport properties)
PLUGIN_V2=tools/wireshark/rpcrdma_v2.lua
GEN_V2=tools/wireshark/gen-v2-vectors.py
PLUGIN_DIR=$HOME/.local/lib/wireshark/plugins
OUT=$BUILD/wireshark
# The C dissector, and its comparison with the Lua one
C_SRC=tools/wireshark/c
CMP=tools/wireshark/compare-c.py
C_OUT=$BUILD/wireshark-c
TRIXIE_ROOT=$C_OUT/trixie-root
VM_BUILD=${WIRESHARK_VM_BUILD:-$BUILD}
CODEC=$OUT/librpcrdma_pdata.so
# run_pcap's tally: frames and checks, and those that went wrong
cases=0
failed=0

usage() {
	echo "usage: $0 test|c-test|install|install-c|uninstall" >&2
	exit 2
}

# build_codec: the unmodified codec as a library gen-vectors.py loads.
build_codec() {
	local src=net/sunrpc/xprtrdma/rpcrdma_pdata.c f

	command -v "${CC:-cc}" >/dev/null || need_pkgs gcc libc6-dev
	for f in "$src" include/linux/sunrpc/rpcrdma_pdata.h \
		 tools/fuzz/include/linux/*.h; do
		[ "$f" -nt "$CODEC" ] || [ ! -e "$CODEC" ] || continue
		"${CC:-cc}" -O2 -shared -fPIC -Wall -Wextra -Werror \
			-Itools/fuzz/include -Iinclude "$src" -o "$CODEC.tmp" ||
			die "wireshark: cannot build the codec library"
		mv "$CODEC.tmp" "$CODEC"
		return
	done
}

# tshark_run LUA PCAP ARGS...: tshark with the dissector LUA on PCAP.
# tshark 4.4 and newer (Debian 13) runs no Lua script as root, so root
# runs it as nobody there, from a copy of LUA and PCAP under /tmp (root's
# home, where a clone may live, is 0700): wirecheck.py's tshark command,
# which the VM wire checks use too.
tshark_run() {
	local lua=$1 pcap=$2
	shift 2
	python3 scripts/vm/wirecheck.py tshark "$OUT/home" "$lua" "$pcap" "$@"
}

# tally GEN NAME PCAP: GEN's check of $OUT/NAME.fields against
# NAME.expect (PCAP as GEN names it), its mismatches shown, its counts
# added to cases and failed.
tally() {
	local result n bad
	python3 "$1" check --pcap "$3" "$OUT/$2.expect" "$OUT/$2.fields" >"$OUT/$2.check"
	grep -v '^[0-9]* [0-9]*$' "$OUT/$2.check"
	read -r -a result < <(tail -1 "$OUT/$2.check")
	n=${result[0]:-0}
	bad=${result[1]:-1}
	cases=$((cases + n))
	failed=$((failed + bad))
	msg "wireshark: $2: $n frames, $bad wrong"
}

# run_pcap NAME: decode $OUT/NAME.pcap and compare with NAME.expect.
# Adds to the cases and failed counters.
run_pcap() {
	local name=$1 pcap=$OUT/$1.pcap fields=() f rc

	for f in $(python3 "$GEN" fields) _ws.expert.message; do
		fields+=(-e "$f")
	done
	tshark_run "$PLUGIN" "$pcap" -T fields \
		-E separator=/t -E occurrence=a -E aggregator=, "${fields[@]}" \
		>"$OUT/$name.fields" 2>"$OUT/$name.stderr"
	rc=$?
	cases=$((cases + 2))
	if [ $rc -ne 0 ]; then
		echo "FAIL $name: tshark exited $rc:"
		grep -v '^Running as user' "$OUT/$name.stderr" | head -5
		# Debian 13's tshark 4.4 silently skips Lua scripts for root
		[ "$(id -u)" -eq 0 ] && grep -q rpcrdma_cm "$OUT/$name.stderr" &&
			echo "  (did tshark skip the Lua script because this" \
				"runs as root? tshark 4.4 does; run the test as" \
				"a normal user)"
		failed=$((failed + 1))
	fi
	if grep -q -E 'Lua: Error|Lua Error' "$OUT/$name.fields" \
		"$OUT/$name.stderr"; then
		echo "FAIL $name: Lua error:"
		grep -h -o -E '(Lua: Error|Lua Error).*' "$OUT/$name.fields" \
			"$OUT/$name.stderr" | sort | uniq -c | head -5
		failed=$((failed + 1))
	fi
	tally "$GEN" "$name" "${pcap#"$TOP"/}"
}

# run_vm_pcaps: the pcaps of the newest VM run of each kernel
# (build/vm/<release>/logs/latest/<pair>/wire.pcap, when make vmtest
# recorded them): every CM REQ/REP and MPA request/reply must decode
# without a Lua error, and say what the debugfs line of the receiving
# side, logged by the same pair, reports (scripts/vm/wirecheck.py
# --pdata-only). Adds to the cases and failed counters.
run_vm_pcaps() {
	local pcap dir out n=0

	for pcap in "$BUILD"/vm/*/logs/latest/*/wire.pcap; do
		[ -s "$pcap" ] || continue
		dir=$(dirname "$pcap")
		n=$((n + 1))
		cases=$((cases + 1))
		if out=$(python3 scripts/vm/wirecheck.py --pdata-only \
			--lua "$PLUGIN" --home "$OUT/home" "$dir" 2>&1); then
			msg "wireshark: ${dir#"$BUILD"/vm/}: ${out#wire: }"
		else
			echo "FAIL ${pcap#"$TOP"/}:"
			printf '%s\n' "$out" | head -5
			failed=$((failed + 1))
		fi
	done
	[ $n -gt 0 ] || msg "wireshark: no VM pcap to decode (make vmtest records them)"
}

# run_ops_selftest: scripts/vm/wireops.py (make bench's operations and
# packets per RPC) on a pcap of known frames it writes: two marked
# windows, every kind of RDMA operation, a retransmission, a backchannel
# reply; every count must be the one written down by hand. One case.
run_ops_selftest() {
	local out
	cases=$((cases + 1))
	if out=$(python3 scripts/vm/wireops.py selftest --lua "$PLUGIN" \
		--home "$OUT/home" --outdir "$OUT" 2>&1); then
		msg "wireshark: ${out##*$'\n'}"
	else
		echo "FAIL scripts/vm/wireops.py selftest:"
		printf '%s\n' "$out" | head -5
		failed=$((failed + 1))
	fi
}

# run_v2 SEED COUNT: the Version Two dissector against the transport
# property codec (net/sunrpc/xprtrdma/rpcrdma_xchar.c, as a library):
# RoCEv2 RC Sends carrying the KUnit vectors of kunit/rpcrdma_xchar*_test.c,
# their prefixes and COUNT seeded mutations, each set decoded once as
# version-two-01 and once as the working copy (preference
# rpcrdma_v2.base); every frame's status, type, Receive Buffer Size
# values, subset positions, header length, error name and expert infos
# must be the codec's verdict. Adds to the cases and failed counters.
run_v2() {
	local lib=$OUT/librpcrdma_xchar.so name f rc fields=()

	"${CC:-cc}" -O2 -shared -fPIC -Wall -Wextra -Werror \
		-Itools/fuzz/include -Iinclude \
		net/sunrpc/xprtrdma/rpcrdma_xchar.c -o "$lib" ||
		die "wireshark: cannot build the xchar codec library"
	python3 "$GEN_V2" gen --codec "$lib" --kunit kunit/rpcrdma_xchar_test.c \
		--kunit kunit/rpcrdma_xchar_sm_test.c --outdir "$OUT" \
		--random "$2" --seed "$1" >"$OUT/gen-v2.log" ||
		die "wireshark: gen-v2-vectors.py failed"
	for f in $(python3 "$GEN_V2" fields); do
		fields+=(-e "$f")
	done
	while read -r name _ base; do
		text2pcap -q "$OUT/$name.txt" "$OUT/$name.pcap" \
			2>"$OUT/$name.t2p" ||
			die "wireshark: text2pcap failed; see $OUT/$name.t2p"
		tshark_run "$PLUGIN_V2" "$OUT/$name.pcap" -o "rpcrdma_v2.base:$base" \
			-T fields -E separator=/t \
			-E occurrence=a -E 'aggregator=|' "${fields[@]}" \
			>"$OUT/$name.fields" 2>"$OUT/$name.stderr"
		rc=$?
		cases=$((cases + 1))
		if [ $rc -ne 0 ] ||
		   grep -q -E 'Lua: Error|Lua Error' "$OUT/$name.fields" "$OUT/$name.stderr"; then
			echo "FAIL $name: tshark or Lua error:"
			grep -v '^Running as user' "$OUT/$name.stderr" | head -5
			failed=$((failed + 1))
		fi
		tally "$GEN_V2" "$name" "$name"
	done <"$OUT/gen-v2.log"
}

# tshark_major_minor: 4.0, 4.4, ... of the tshark on PATH
tshark_major_minor() {
	tshark --version 2>/dev/null | sed -n '1s/.*(Wireshark) \([0-9]*\.[0-9]*\).*/\1/p'
}

# build_c DIR: the C plugin against the installed wireshark-dev, in DIR.
build_c() {
	need_pkgs wireshark-dev pkg-config make gcc libc6-dev
	make -s -C "$C_SRC" O="$1" \
		PLUGIN_VERSION="$(changelog_version)" >"$1.log" 2>&1 ||
		{ cat "$1.log" >&2; die "wireshark: the C plugin does not build against $(pkg-config --modversion wireshark 2>/dev/null || echo '(no wireshark-dev)'); see $1.log"; }
}

# c_fields lua|c|conn: -e arguments for compare-c.py's field list
c_fields() {
	local f
	for f in $(python3 "$CMP" fields "$1"); do
		printf '%s\n' -e "$f"
	done
}

# c_tally DIR NAME RC MODE: one case of c_compare or c_compare_v2: a
# failure when tshark exited RC (non-zero) or when compare-c.py MODE
# finds the Lua and C decodes of NAME differ; the comparison's lines in
# out. Returns 1 when tshark failed, so the caller prints no summary.
c_tally() {
	local dir=$1 name=$2 rc=$3 mode=$4
	cases=$((cases + 1))
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $name: tshark exited $rc:"
		grep -h -v '^Running as user' "$dir/$name.lua.stderr" "$dir/$name.c.stderr" | head -5
		failed=$((failed + 1))
		return 1
	fi
	if ! out=$(python3 "$CMP" "$mode" "$dir/$name.lua" "$dir/$name.c"); then
		printf '%s\n' "$out" | head -30
		failed=$((failed + 1))
	fi
}

# c_compare DIR NAME PCAP [TSHARK-ARGS...]: PCAP decoded by the Lua
# plugin (the C one absent) and by the C plugin (DIR/rpcrdma-cm.so), field
# by field. Adds to the cases and failed counters.
c_compare() {
	local dir=$1 name=$2 pcap=$3 t0=$SECONDS out rc
	local -a lf cf
	shift 3
	mapfile -t lf < <(c_fields lua)
	mapfile -t cf < <(c_fields c)
	tshark_run "$PLUGIN" "$pcap" "$@" -T fields -E separator=/t \
		-E occurrence=a -E 'aggregator=|' "${lf[@]}" \
		>"$dir/$name.lua" 2>"$dir/$name.lua.stderr"
	rc=$?
	python3 "$CMP" tshark "$OUT/home-c" "$dir/rpcrdma-cm.so" "$pcap" "$@" \
		-T fields -E separator=/t -E occurrence=a -E 'aggregator=|' \
		"${cf[@]}" >"$dir/$name.c" 2>"$dir/$name.c.stderr" || rc=$?
	c_tally "$dir" "$name" "$rc" compare || return
	msg "wireshark: C $(tshark_major_minor): $name: $(printf '%s\n' "$out" | tail -1) from the Lua plugin's fields; tshark $((SECONDS - t0))s"
}

# c_compare_v2 DIR NAME BASE: the Version Two pcap NAME decoded by
# rpcrdma_v2.lua and by the C plugin's rpcrdma.v2, both told the
# Version Two text BASE, field by field.
c_compare_v2() {
	local dir=$1 name=$2 base=$3 out rc
	local -a lf cf
	mapfile -t lf < <(c_fields lua-v2)
	mapfile -t cf < <(c_fields c-v2)
	tshark_run "$PLUGIN_V2" "$OUT/$name.pcap" -o "rpcrdma_v2.base:$base" \
		-T fields -E separator=/t -E occurrence=a -E 'aggregator=|' \
		"${lf[@]}" >"$dir/$name.lua" 2>"$dir/$name.lua.stderr"
	rc=$?
	python3 "$CMP" tshark "$OUT/home-c" "$dir/rpcrdma-cm.so" "$OUT/$name.pcap" \
		-o "rpcrdma.v2.base:$base" -T fields -E separator=/t \
		-E occurrence=a -E 'aggregator=|' "${cf[@]}" \
		>"$dir/$name.c" 2>"$dir/$name.c.stderr" || rc=$?
	c_tally "$dir" "$name" "$rc" compare-v2 || return
	msg "wireshark: C $(tshark_major_minor): $name (Version Two, base $base): $(printf '%s\n' "$out" | tail -1) from rpcrdma_v2.lua's fields"
}

# c_conn DIR NAME: the connection vectors NAME (compare-c.py gen-conn),
# their Sends' thresholds, R and warnings as gen-conn expects them.
c_conn() {
	local dir=$1 name=$2 out
	local -a f
	mapfile -t f < <(c_fields conn)
	python3 "$CMP" tshark "$OUT/home-c" "$dir/rpcrdma-cm.so" "$OUT/$name.pcap" \
		-o tcp.try_heuristic_first:TRUE -T fields -E separator=/t \
		-E occurrence=a -E 'aggregator=|' "${f[@]}" \
		>"$dir/$name.fields" 2>"$dir/$name.stderr"
	cases=$((cases + 1))
	if ! out=$(python3 "$CMP" check-conn "$OUT/$name.expect" "$dir/$name.fields"); then
		printf '%s\n' "$out" | head -30
		failed=$((failed + 1))
	fi
	msg "wireshark: C $(tshark_major_minor): $name: $(printf '%s\n' "$out" | tail -1)"
}

# c_vm DIR: the VM pcaps (newest run of each kernel under $VM_BUILD/vm):
# the C plugin's fields equal the Lua plugin's on every CM REQ/REP and
# MPA request/reply; the R warning on every pair with a stock server
# (its Send With Invalidate while it advertises R=0) and on no pair of
# ours. Adds to the cases and failed counters.
c_vm() {
	local dir=$1 pcap pair name n=0 inv warn over
	local filt='infiniband.mad.mgmtclass == 0x07 || iwarp_mpa.key.req || iwarp_mpa.key.rep'
	for pcap in "$VM_BUILD"/vm/*/logs/latest/*/wire.pcap; do
		[ -s "$pcap" ] || continue
		pair=$(basename "$(dirname "$pcap")")
		# wirecheck.sh writes wire.txt once the pair is over
		if [ ! -e "$(dirname "$pcap")/wire.txt" ]; then
			msg "wireshark: C: ${pcap#"$VM_BUILD"/vm/}: the pair is still running, skipped"
			continue
		fi
		name=vm-$(basename "$(dirname "$(dirname "$(dirname "$(dirname "$pcap")")")")")-$pair
		n=$((n + 1))
		c_compare "$dir" "$name" "$pcap" -o tcp.try_heuristic_first:TRUE -Y "$filt"
		python3 "$CMP" tshark "$OUT/home-c" "$dir/rpcrdma-cm.so" "$pcap" \
			-o tcp.try_heuristic_first:TRUE -T fields -E occurrence=f \
			-e rpcrdma.conn.send_inv -e rpcrdma.conn.expert.inv_without_r \
			-e rpcrdma.conn.expert.over_threshold \
			-Y 'rpcrdma.conn.send_len' >"$dir/$name.sends" 2>/dev/null
		inv=$(awk -F'\t' '$1 == "1" || $1 == "True"' "$dir/$name.sends" | wc -l)
		warn=$(awk -F'\t' '$2 != ""' "$dir/$name.sends" | wc -l)
		over=$(awk -F'\t' '$3 != ""' "$dir/$name.sends" | wc -l)
		cases=$((cases + 1))
		case $pair in
		*stock-server*)
			if [ "$warn" -eq 0 ]; then
				echo "FAIL $name: no R warning on the stock server's pair ($inv Sends With Invalidate)"
				failed=$((failed + 1))
			fi ;;
		*stock*) ;;
		*)
			if [ "$warn" -ne 0 ]; then
				echo "FAIL $name: $warn R warnings on a pair of ours"
				failed=$((failed + 1))
			fi ;;
		esac
		msg "wireshark: C $(tshark_major_minor): $name: $(wc -l <"$dir/$name.sends") Sends, $inv With Invalidate, $warn R warnings, $over above the threshold"
	done
	[ $n -gt 0 ] || msg "wireshark: C: no VM pcap under ${VM_BUILD}/vm (make vmtest records them; WIRESHARK_VM_BUILD=<a build dir> reads another's)"
}

# do_c_test: the C plugin against the tshark on PATH: built, compared
# with the Lua plugin on the pcaps test wrote ($OUT/gen.log), its
# connection vectors and the VM pcaps. Prints its own tally line.
do_c_test() {
	local ver dir name
	need_tshark
	command -v python3 >/dev/null || need_pkgs python3
	ver=$(tshark_major_minor)
	[ -n "$ver" ] || die "wireshark: cannot tell tshark's version"
	dir=$C_OUT/$ver
	mkdir -p "$dir" "$OUT/home-c" || die "cannot create $dir"
	[ -s "$OUT/gen.log" ] ||
		die "wireshark: no pcaps in $OUT to compare; run scripts/wireshark.sh test"
	build_c "$dir"
	msg "wireshark: C plugin for tshark $(tshark --version 2>/dev/null | sed -n '1s/^TShark (Wireshark) \([0-9][0-9.]*[0-9]\).*/\1/p'): $(du -k "$dir/rpcrdma-cm.so" | cut -f1) KiB"
	while read -r name _; do
		c_compare "$dir" "$name" "$OUT/$name.pcap"
	done <"$OUT/gen.log"
	if [ -s "$OUT/gen-v2.log" ]; then
		while read -r name _ base; do
			c_compare_v2 "$dir" "$name" "$base"
		done <"$OUT/gen-v2.log"
	fi
	for name in conn-roce conn-mpa; do
		c_conn "$dir" "$name"
	done
	c_vm "$dir"
	echo "wireshark: C $ver: $cases cases, $failed failed"
	[ "$failed" -eq 0 ]
}

# trixie_root: Debian 13's tshark and wireshark-dev (4.4) in a root of
# their own, made once (mmdebstrap, about 3 minutes, ~700 MB), its
# tarball kept in the cache for every clone.
trixie_root() {
	local tb=$RPCRDMA_CM_CACHE/wireshark/trixie-tshark.tar t0=$SECONDS
	[ -e "$TRIXIE_ROOT/.complete" ] && return 0
	need_pkgs mmdebstrap
	mkdir -p "$C_OUT" "${tb%/*}" || die "cannot create $C_OUT and ${tb%/*}"
	if [ ! -s "$tb" ]; then
		msg "wireshark: making a Debian 13 root with tshark 4.4 and wireshark-dev (once; ~3 minutes)"
		rm_tree "$C_OUT/mmdebstrap.tmp"
		mkdir -p "$C_OUT/mmdebstrap.tmp"
		TMPDIR=$C_OUT/mmdebstrap.tmp no_fds \
			unshare --mount --propagation private -- \
			mmdebstrap --mode=root --variant=apt --format=tar \
			--include=tshark,wireshark-dev,gcc,libc6-dev,make,pkg-config,python3,ca-certificates \
			--aptopt='APT::Install-Recommends "false"' \
			--aptopt='Acquire::Languages "none"' \
			--dpkgopt='path-exclude=/usr/share/doc/*' \
			--dpkgopt='path-exclude=/usr/share/man/*' \
			trixie "$tb.new" "deb $MIRROR trixie main" \
			"deb $MIRROR trixie-updates main" \
			"deb $SECURITY_MIRROR trixie-security main" \
			>"$C_OUT/mmdebstrap.log" 2>&1 ||
			{ rm -f "$tb.new"; rm_tree "$C_OUT/mmdebstrap.tmp"; die "wireshark: mmdebstrap of trixie failed (log: $C_OUT/mmdebstrap.log): can the host reach $MIRROR? WIRESHARK_C_TRIXIE=0 skips the 4.4 run"; }
		rm_tree "$C_OUT/mmdebstrap.tmp"
		mv "$tb.new" "$tb" || die "cannot rename $tb.new"
	fi
	rm_tree "$TRIXIE_ROOT"
	mkdir -p "$TRIXIE_ROOT" || die "cannot create $TRIXIE_ROOT"
	tar -C "$TRIXIE_ROOT" -xf "$tb" || die "wireshark: cannot unpack $tb"
	mkdir -p "$TRIXIE_ROOT/rpcrdma-cm" "$TRIXIE_ROOT/rpcrdma-cm-build" "$TRIXIE_ROOT/vm-build"
	touch "$TRIXIE_ROOT/.complete"
	msg "wireshark: Debian 13 root ready in $((SECONDS - t0)) s"
}

# run_c_trixie: do_c_test inside the Debian 13 root, with this tree at
# /rpcrdma-cm, $BUILD at /rpcrdma-cm-build and $VM_BUILD (read only) at
# /vm-build, in a mount namespace of its own: nothing stays mounted.
run_c_trixie() {
	local rc
	[ "${WIRESHARK_C_TRIXIE:-1}" != 0 ] || { msg "wireshark: WIRESHARK_C_TRIXIE=0: no Wireshark 4.4 run"; return 0; }
	if [ "$(id -u)" -ne 0 ]; then
		msg "wireshark: not root: no Wireshark 4.4 run (it needs a Debian 13 root: run as root, or WIRESHARK_C_TRIXIE=0 to say so)"
		return 0
	fi
	trixie_root
	[ -d "$VM_BUILD" ] || VM_BUILD=$BUILD
	# shellcheck disable=SC2016 # the positional parameters are sh's
	unshare --mount --propagation private -- sh -c '
		r=$1
		mount --bind "$2" "$r/rpcrdma-cm" &&
		mount --bind "$3" "$r/rpcrdma-cm-build" &&
		mount --bind -o ro "$4" "$r/vm-build" &&
		mount -t proc proc "$r/proc" &&
		mount --bind /dev "$r/dev" &&
		exec chroot "$r" env HOME=/root BUILD=/rpcrdma-cm-build \
			WIRESHARK_VM_BUILD=/vm-build RPCRDMA_CM_OFFLINE=1 \
			/rpcrdma-cm/scripts/wireshark.sh c-test
	' sh "$TRIXIE_ROOT" "$TOP" "$BUILD" "$VM_BUILD"
	rc=$?
	cases=$((cases + 1))
	[ $rc -eq 0 ] || { echo "FAIL the C dissector under Wireshark 4.4 (Debian 13 root)"; failed=$((failed + 1)); }
}

do_test() {
	local seed=${WIRESHARK_SEED:-$((RANDOM * 32768 + RANDOM))}
	local count=${WIRESHARK_RANDOM:-3000} name

	[[ $seed =~ ^[0-9]+$ ]] ||
		die "WIRESHARK_SEED must be a number, not '$seed'"
	[[ $count =~ ^[0-9]+$ ]] ||
		die "WIRESHARK_RANDOM must be a number, not '$count'"
	need_tshark
	command -v python3 >/dev/null || need_pkgs python3
	mkdir -p "$OUT/home"
	build_codec
	msg "wireshark: $(tshark --version 2>/dev/null | head -1)"
	msg "wireshark: $count random buffers, seed $seed" \
		"(WIRESHARK_SEED=$seed repeats them)"
	python3 "$GEN" gen --codec "$CODEC" --kunit kunit/rpcrdma_pdata_test.c \
		--outdir "$OUT" --random "$count" --seed "$seed" \
		>"$OUT/gen.log" || die "wireshark: gen-vectors.py failed"
	while read -r name _; do
		text2pcap -q "$OUT/$name.txt" "$OUT/$name.pcap" \
			2>"$OUT/$name.t2p" ||
			die "wireshark: text2pcap failed; see $OUT/$name.t2p"
		run_pcap "$name"
	done <"$OUT/gen.log"
	run_v2 "$seed" "$count"
	run_vm_pcaps
	run_ops_selftest
	python3 "$CMP" gen-conn "$OUT" >"$OUT/gen-conn.log" ||
		die "wireshark: compare-c.py gen-conn failed"
	for name in conn-roce conn-mpa; do
		text2pcap -q "$OUT/$name.txt" "$OUT/$name.pcap" 2>"$OUT/$name.t2p" ||
			die "wireshark: text2pcap failed; see $OUT/$name.t2p"
	done
	( cases=0 failed=0; do_c_test ) || failed=$((failed + 1))
	cases=$((cases + 1))
	run_c_trixie
	echo "wireshark: $cases cases, $failed failed"
	[ "$failed" -eq 0 ]
}

do_install() {
	mkdir -p "$PLUGIN_DIR" || die "cannot create $PLUGIN_DIR"
	cp "$PLUGIN" "$PLUGIN_DIR/" || die "cannot copy $PLUGIN to $PLUGIN_DIR"
	echo "wireshark: installed $PLUGIN_DIR/$(basename "$PLUGIN")"
	if command -v tshark >/dev/null &&
	   ! tshark -G plugins 2>/dev/null | grep -q rpcrdma_cm.lua; then
		warn "tshark -G plugins does not list rpcrdma_cm.lua"
	fi
}

do_install_c() {
	local ver dir
	need_tshark
	ver=$(tshark_major_minor)
	[ -n "$ver" ] || die "wireshark: cannot tell tshark's version"
	build_c "$C_OUT/$ver"
	dir=$PLUGIN_DIR/$ver/epan
	mkdir -p "$dir" || die "cannot create $dir"
	cp "$C_OUT/$ver/rpcrdma-cm.so" "$dir/" || die "cannot copy the plugin to $dir"
	echo "wireshark: installed $dir/rpcrdma-cm.so (Wireshark $ver; rpcrdma_cm.lua steps aside while it is there)"
	[ "$(id -u)" -ne 0 ] ||
		warn "Wireshark loads no personal plugin when it runs as root: run it as yourself"
}

do_uninstall() {
	local f
	for f in "$PLUGIN_DIR"/*/epan/rpcrdma-cm.so; do
		[ -e "$f" ] || continue
		rm -f "$f" || die "cannot remove $f"
		echo "wireshark: removed $f"
	done

	f=$PLUGIN_DIR/$(basename "$PLUGIN")
	if [ -e "$f" ]; then
		rm -f "$f" || die "cannot remove $f"
		echo "wireshark: removed $f"
	else
		echo "wireshark: $f is not installed"
	fi
}

[ $# -eq 1 ] || usage
case $1 in
test) do_test ;;
c-test) do_c_test ;;
install-c) do_install_c ;;
install) do_install ;;
uninstall) do_uninstall ;;
*) usage ;;
esac
