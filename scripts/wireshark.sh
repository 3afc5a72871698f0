#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Wireshark dissector for RFC 8797 private data,
# tools/wireshark/rpcrdma_cm.lua (Documentation/wireshark.md), and the
# experimental one for RPC-over-RDMA Version Two transport properties,
# tools/wireshark/rpcrdma_v2.lua (Documentation/transport-properties.md).
#
#   scripts/wireshark.sh test       check the dissector against the codec
#   scripts/wireshark.sh install    copy it into ~/.local/lib/wireshark/plugins
#   scripts/wireshark.sh uninstall  remove that copy
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
# Variables: WIRESHARK_SEED (random buffers' seed; default: a new one,
# printed), WIRESHARK_RANDOM (how many random buffers, default 3000),
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
CODEC=$OUT/librpcrdma_pdata.so
# run_pcap's tally: frames and checks, and those that went wrong
cases=0
failed=0

usage() {
	echo "usage: $0 test|install|uninstall" >&2
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

do_uninstall() {
	local f

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
install) do_install ;;
uninstall) do_uninstall ;;
*) usage ;;
esac
