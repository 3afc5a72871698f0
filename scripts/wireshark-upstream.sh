#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make wireshark-patch: the RFC 8797 dissector as a patch to Wireshark
# itself, generated from the fetched source. No Wireshark code is kept
# in this repository: the script
#   1. fetches Debian's wireshark source package of WIRESHARK_UPSTREAM_SUITE
#      (default trixie: Wireshark 4.4) with apt-get source, through an apt
#      configuration of its own under build/wireshark-upstream/ (a deb-src
#      line for that suite; the host's apt sources are not touched);
#   2. places this project's code into a copy of it, at anchors found by
#      the shape of the code (tools/wireshark/upstream/place.py): the
#      plugin's packet-rpcrdma-cm.c, with its upstream variant chosen by
#      unifdef -DRPCRDMA_CM_UPSTREAM, into packet-rpcrdma.c, and
#      tools/wireshark/upstream/iwarp-mpa-private.c (RFC 6581's IRD/ORD
#      and an "iwarp_mpa.private" heuristic table) into packet-iwarp-mpa.c;
#      packet-infiniband.c already offers "infiniband.mad.cm.private";
#   3. adds test captures (compare-c.py gen-conn: RoCEv2 and iWARP
#      connections, ours, a stock server's, one above its threshold) as
#      test/captures/rpcrdma-cm-{roce,iwarp}.pcap;
#   4. commits that in a git repository of the tree and writes
#      build/wireshark-upstream/patch/0001-*.patch (git format-patch
#      --binary), with a commit message in Wireshark's style;
#   5. runs Wireshark's own checkers on the two files (tools/checkhf.pl,
#      checkAPIs.pl, checkfiltername.pl, check_typed_item_calls.py): a
#      finding the unpatched file does not have fails;
#   6. configures the tree with cmake (no GUI, cached) and compiles the two
#      dissector objects with -Werror's effect checked (any warning from
#      them fails). WIRESHARK_UPSTREAM_BUILD=1 builds tshark too (1 to 2
#      hours on 2 cores) and decodes the test captures with it.
# Ends with "wireshark-patch: <patch>: N files changed, +A -D".
#
# Variables: WIRESHARK_UPSTREAM_SUITE (trixie or bookworm),
# WIRESHARK_UPSTREAM_BUILD (1: build tshark), RPCRDMA_CM_MIRROR.

. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

SUITE=${WIRESHARK_UPSTREAM_SUITE:-trixie}
case $SUITE in
trixie | bookworm) ;;
*) die "WIRESHARK_UPSTREAM_SUITE must be trixie or bookworm, not '$SUITE'" ;;
esac
W=$BUILD/wireshark-upstream
APT=$W/apt-$SUITE
SRC=$W/src-$SUITE
TREE=$W/tree-$SUITE
CMAKE=$W/cmake-$SUITE
PATCHES=$W/patch-$SUITE
PLUGIN_SRC=tools/wireshark/c/packet-rpcrdma-cm.c
MPA_SNIPPET=tools/wireshark/upstream/iwarp-mpa-private.c
FILES=(epan/dissectors/packet-rpcrdma.c epan/dissectors/packet-iwarp-mpa.c)

# private_apt: an apt configuration that knows SUITE's sources only
private_apt() {
	mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" ||
		die "cannot create $APT"
	cat >"$APT/sources.list" <<-EOF
		deb-src $MIRROR $SUITE main
		deb-src $MIRROR $SUITE-updates main
		deb-src $SECURITY_MIRROR $SUITE-security main
	EOF
	cat >"$APT/apt.conf" <<-EOF
		Dir::Etc::SourceList "$APT/sources.list";
		Dir::Etc::SourceParts "/nonexistent";
		Dir::State::Lists "$APT/lists";
		Dir::Cache "$APT/cache";
		Acquire::Languages "none";
	EOF
}

# fetch: SUITE's wireshark source, unpacked in SRC (kept for the next run)
fetch() {
	local dsc
	dsc=$(ls "$SRC"/wireshark_*.dsc 2>/dev/null | head -1)
	if [ -z "$dsc" ] || [ ! -d "$(ls -d "$SRC"/wireshark-*/ 2>/dev/null | head -1)" ]; then
		private_apt
		msg "wireshark-patch: apt-get source wireshark ($SUITE)"
		APT_CONFIG=$APT/apt.conf apt-get update -q >"$W/apt-$SUITE.log" 2>&1 ||
			die "wireshark-patch: apt-get update of $SUITE's sources failed: $(net_hint "$W/apt-$SUITE.log")"
		rm -rf "$SRC"
		mkdir -p "$SRC"
		if ! (cd "$SRC" && APT_CONFIG=$APT/apt.conf apt-get source -q wireshark) \
			>>"$W/apt-$SUITE.log" 2>&1; then
			grep -E '^(E|W):' "$W/apt-$SUITE.log" | tail -3 >&2
			die "wireshark-patch: apt-get source wireshark of $SUITE failed (log: $W/apt-$SUITE.log): the mirror ($MIRROR) may not carry the source files of $SUITE's wireshark; WIRESHARK_UPSTREAM_SUITE=bookworm takes Debian 12's (4.0), or set RPCRDMA_CM_MIRROR to a full mirror"
		fi
	fi
	UPSTREAM=$(ls -d "$SRC"/wireshark-*/ | head -1)
	UPSTREAM=${UPSTREAM%/}
	[ -f "$UPSTREAM/epan/dissectors/packet-rpcrdma.c" ] ||
		die "wireshark-patch: $UPSTREAM has no epan/dissectors/packet-rpcrdma.c"
	UVER=$(sed -n 's/^Version: //p' "$(ls "$SRC"/wireshark_*.dsc | head -1)")
}

# captures DIR: the connection vectors as pcaps
captures() {
	python3 tools/wireshark/compare-c.py gen-conn "$1" >/dev/null ||
		die "wireshark-patch: compare-c.py gen-conn failed"
	text2pcap -q "$1/conn-roce.txt" "$1/rpcrdma-cm-roce.pcap" 2>"$1/t2p.log" &&
		text2pcap -q "$1/conn-mpa.txt" "$1/rpcrdma-cm-iwarp.pcap" 2>>"$1/t2p.log" ||
		die "wireshark-patch: text2pcap failed (log: $1/t2p.log)"
}

# checkers DIR FILE: Wireshark's own checkers on FILE of the tree DIR,
# their output on stdout
checkers() {
	(
		cd "$1" || exit 1
		echo "== checkhf.pl"; perl tools/checkhf.pl "$2" 2>&1
		echo "== checkAPIs.pl"; perl tools/checkAPIs.pl "$2" 2>&1
		echo "== checkfiltername.pl"; perl tools/checkfiltername.pl "$2" 2>&1
		if [ -f tools/check_typed_item_calls.py ]; then
			echo "== check_typed_item_calls.py"
			python3 tools/check_typed_item_calls.py --file "$2" 2>&1
		fi
	) | sed -e "s|$1/||g"
}

commit_message() {
	cat <<-'EOF'
	RPC-over-RDMA: Dissect the RFC 8797 CM private data

	RFC 8797 defines a message that the two ends of an RPC-over-RDMA
	Version 1 connection exchange in the private data of the connection
	request and reply: a Format Identifier (0xf6ab0e18), a Version, a
	flag saying whether the sender takes part in remote invalidation
	(R), and the largest inline Send and Receive each can handle. It
	was shown as raw bytes.

	Decode it in the InfiniBand CM REQ and REP (InfiniBand, RoCE,
	RoCEv2), from the existing "infiniband.mad.cm.private" heuristic
	table, and in the iWARP MPA request and reply. For the latter, the
	MPA dissector now shows the IRD/ORD header of Enhanced MPA (RFC
	6581) and offers the private data after it to a new heuristic table,
	"iwarp_mpa.private". The message is searched for at any offset, as
	RFC 8797 Section 5.2 allows; a truncated message, an unknown
	version, reserved bits and an offset other than zero get expert
	infos.

	Pair the request's and the reply's messages of each connection and
	show, on each of its RDMA Sends, the inline threshold of both
	directions and whether remote invalidation is allowed (both ends
	set R), with a warning on a Send larger than its direction's
	threshold and on a Send With Invalidate on a connection where
	either end cleared R (RFC 8797 Section 4.1). Linux NFS servers do
	the latter: they advertise R clear and still use Send With
	Invalidate when the client set R.

	The new fields are rpcordma.cm.* and rpcordma.conn.*; the test
	captures carry three RoCEv2 and three iWARP connections (both ends
	set R; a server that cleared R yet invalidates; a client Send
	above the server's Receive Size).
	EOF
}

# build: cmake configure (once) and the two dissector objects
build() {
	local obj log=$W/build-$SUITE.log t0=$SECONDS
	need_pkgs cmake ninja-build flex bison perl libglib2.0-dev \
		libgcrypt20-dev libc-ares-dev libpcap-dev zlib1g-dev
	if [ ! -f "$CMAKE/build.ninja" ]; then
		mkdir -p "$CMAKE"
		msg "wireshark-patch: cmake (no GUI, no Lua) in ${CMAKE#"$TOP"/}"
		(cd "$CMAKE" && cmake -G Ninja -DBUILD_wireshark=OFF \
			-DBUILD_logray=OFF -DBUILD_stratoshark=OFF -DENABLE_LUA=OFF \
			-DENABLE_WERROR=ON "$TREE") >"$log" 2>&1 ||
			{ tail -20 "$log" >&2; die "wireshark-patch: cmake failed (log: $log); apt-get build-dep wireshark installs everything it may ask for"; }
	fi
	for obj in "${FILES[@]}"; do
		(cd "$CMAKE" && ninja -j1 \
			"epan/dissectors/CMakeFiles/dissectors.dir/$(basename "$obj").o") \
			>>"$log" 2>&1 ||
			{ grep -E 'error|warning' "$log" | tail -20 >&2; die "wireshark-patch: $obj does not compile (log: $log)"; }
		if grep -E "$(basename "$obj"):[0-9]+:[0-9]+: warning" "$log" >/dev/null; then
			grep -E "$(basename "$obj"):[0-9]+:[0-9]+: warning" "$log" >&2
			die "wireshark-patch: $obj compiles with warnings"
		fi
	done
	msg "wireshark-patch: compiled $(printf '%s ' "${FILES[@]##*/}")in $((SECONDS - t0)) s, no warning"
	[ "${WIRESHARK_UPSTREAM_BUILD:-0}" = 1 ] || {
		msg "wireshark-patch: WIRESHARK_UPSTREAM_BUILD=1 builds tshark too (1 to 2 hours on 2 cores) and decodes the test captures with it"
		return 0
	}
	# tshark in a tree of its own, configured without -Werror: the
	# release's own files do not all build warning-free with Debian's
	# compiler (4.0.17's tvbuff_composite.c: a variable only its
	# assertions use, unused under NDEBUG); the two dissectors were held
	# to -Werror above
	t0=$SECONDS
	if [ ! -f "$CMAKE-tshark/build.ninja" ]; then
		mkdir -p "$CMAKE-tshark"
		(cd "$CMAKE-tshark" && cmake -G Ninja -DBUILD_wireshark=OFF \
			-DBUILD_logray=OFF -DBUILD_stratoshark=OFF -DENABLE_LUA=OFF \
			-DENABLE_WERROR=OFF "$TREE") >>"$log" 2>&1 ||
			die "wireshark-patch: cmake for tshark failed (log: $log)"
	fi
	(cd "$CMAKE-tshark" && ninja tshark) >>"$log" 2>&1 ||
		die "wireshark-patch: the tshark build failed (log: $log)"
	msg "wireshark-patch: tshark built in $((SECONDS - t0)) s"
	for obj in roce iwarp; do
		"$CMAKE-tshark/run/tshark" -r "$TREE/test/captures/rpcrdma-cm-$obj.pcap" \
			-o tcp.try_heuristic_first:TRUE -Y 'rpcordma.cm.status || rpcordma.conn' \
			>"$W/decode-$obj.txt" 2>&1 ||
			die "wireshark-patch: the patched tshark fails on rpcrdma-cm-$obj.pcap"
		msg "wireshark-patch: patched tshark on rpcrdma-cm-$obj.pcap: $(wc -l <"$W/decode-$obj.txt") frames with rpcordma.cm.status or rpcordma.conn"
	done
}

main() {
	local f new stat before after
	need_pkgs dpkg-dev git unifdef python3 perl
	need_tshark
	mkdir -p "$W" || die "cannot create $W"
	fetch
	msg "wireshark-patch: Wireshark $UVER (Debian $SUITE) in ${UPSTREAM#"$TOP"/}"

	rm -rf "$TREE" "$PATCHES"
	cp -a "$UPSTREAM" "$TREE" || die "cannot copy $UPSTREAM"
	rm -rf "$TREE/debian" "$TREE/.pc"
	(
		cd "$TREE" && git init -q && git add -A &&
			git -c user.name=base -c user.email=base@invalid commit -q \
				-m "Wireshark $UVER as Debian's $SUITE ships it"
	) || die "wireshark-patch: cannot make a git repository of $TREE"

	for f in "${FILES[@]}"; do
		checkers "$TREE" "$f" >"$W/checks-before-$(basename "$f").txt"
	done
	unifdef -DRPCRDMA_CM_UPSTREAM "$PLUGIN_SRC" >"$W/packet-rpcrdma-cm.upstream.c"
	[ $? -le 1 ] || die "wireshark-patch: unifdef failed on $PLUGIN_SRC"
	python3 tools/wireshark/upstream/place.py "$TREE" \
		"$W/packet-rpcrdma-cm.upstream.c" "$MPA_SNIPPET" >"$W/place.log" ||
		die "wireshark-patch: placing the code failed: $(cat "$W/place.log")"
	sed 's/^/    /' "$W/place.log" >&2
	mkdir -p "$TREE/test/captures"
	captures "$W"
	cp "$W/rpcrdma-cm-roce.pcap" "$W/rpcrdma-cm-iwarp.pcap" "$TREE/test/captures/" ||
		die "cannot copy the test captures"

	# Wireshark's checkers: nothing the unpatched file did not have
	new=0
	for f in "${FILES[@]}"; do
		checkers "$TREE" "$f" >"$W/checks-after-$(basename "$f").txt"
		before=$W/checks-before-$(basename "$f").txt
		after=$W/checks-after-$(basename "$f").txt
		if ! diff "$before" "$after" >"$W/checks-new-$(basename "$f").txt"; then
			echo "wireshark-patch: new checker output on $f:" >&2
			cat "$W/checks-new-$(basename "$f").txt" >&2
			new=1
		fi
		msg "wireshark-patch: checkers on $f: $(grep -c -v '^==' "$after") lines of output, $(grep -c '^>' "$W/checks-new-$(basename "$f").txt") new"
	done
	[ $new -eq 0 ] || die "wireshark-patch: Wireshark's checkers find something in our code (above)"

	(
		cd "$TREE" && git add -A &&
			git -c user.name="rpcrdma-cm maintainers" \
				-c user.email="maintainers@users.noreply.a-seed-d2060c0c.example" \
				commit -q -F - < <(commit_message) &&
			git format-patch -q --binary -1 -o "$PATCHES"
	) || die "wireshark-patch: git commit or format-patch failed in $TREE"
	build
	f=$(ls "$PATCHES"/*.patch)
	stat=$(cd "$TREE" && git diff --shortstat HEAD~1 HEAD)
	echo "wireshark-patch: ${f#"$TOP"/}:$stat"
}

main "$@"
