#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host test of rpcrdma-cm-probe --fuzz, run by scripts/tools.sh (make
# tools) once the probe is built: --fuzz-dry-run needs no RDMA device.
# It holds the generator and the oracle to exact values:
#   - seed 1, 1000 inputs, REQ field: the output's sha256 (determinism:
#     the same seed gives the same blobs and verdicts on every host);
#   - each of the 5 classes exactly 200 times, in turn;
#   - the length class: every length 0..56, as often as k mod 57 says;
#   - the offset class: the identifier at every offset 0..52 (56 - 4),
#     as often as k mod 53 says, and really there in the octets;
#   - the version class (1280 inputs): every Version 0..255 once, and
#     only Version 1 found;
#   - the trunc class: a message cut at each octet gets RFC 8797's
#     verdict for a zero-padded REQ, octet by octet;
#   - iWARP (MPA, 252 octets, exact): lengths 0..252, length 0 no_data;
#   - the oracle on 11 cases of scenario 7 that the module passed on
#     RoCE, replayed as a --corpus (identifier at 48, cut, at the end,
#     reserved bits, extreme sizes, version 2 then 1, garbage);
#   - --json (with python3): every line an object, hex a string;
#   - the live paths, both sides, against a fake RDMA-CM (LD_PRELOAD of
#     tools/fuzz/probe_fake_cm.c): verdicts, counts, stops, exit codes,
#     and scenario 16's pairing of the peer's events with the lines;
#   - the server model: servers whose Send Size follows the client's
#     Receive Size as rpcrdma.ko's does (server_send_size 8192 and
#     others, inputs Receiving more than 4 KiB among them), a constant
#     one, learnt from the two control connections, exact per input;
#   - --flood against the same fake: the mix of every block of 10, the
#     seed's order, hostile inputs that are --fuzz's, the outcome counts
#     (the fake server sees every abandoned CM ID go with its answer
#     unread), a server that accepts what it must refuse, one that stops
#     answering, iWARP's refusals, --json;
#   - bad arguments exit 2.
# Usage: probe-fuzz-test.sh PROBE. Prints one line; exit 1 on a failure.

set -uo pipefail
P=${1:?usage: probe-fuzz-test.sh PROBE}
# sha256 of `$P --fuzz 1000 --seed 1 --fuzz-dry-run req`
WANT_SHA=13be14a5f7969bc5a36921513dd4d56ff3263d4c8586fc33cf3fa0c291b66029
fails=0 checks=0
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

check() { # check WHAT GOT WANT
	checks=$((checks + 1))
	[ "$2" = "$3" ] && return 0
	echo "probe-fuzz-test: FAIL $1: got '$2', want '$3'" >&2
	fails=$((fails + 1))
}

"$P" --fuzz 1000 --seed 1 --fuzz-dry-run req >"$TMP/req" ||
	check "dry run exit" $? 0
check "seed 1 sha256" "$(sha256sum <"$TMP/req" | cut -d' ' -f1)" "$WANT_SHA"
check "lines" "$(grep -c '^fuzz input=[0-9]' "$TMP/req")" 1000
for c in length offset version trunc random; do
	check "class $c count" "$(grep -c " class=$c " "$TMP/req")" 200
done
# round robin: input i is class i mod 5
check "class order" "$(awk '/^fuzz input=[0-9]/ { split("length offset version trunc random", n, " ")
	i = $2; sub("input=", "", i); if ($3 != "class=" n[i % 5 + 1]) bad++ }
	END { print bad + 0 }' "$TMP/req")" 0

# how often K mod M = V for K in 0..COUNT-1
times() { echo $((($3 - 1 - $2) / $1 + 1)); }

got=$(awk '/ class=length / { sub("len=", "", $5); n[$5]++ }
	END { for (l = 0; l <= 56; l++) printf "%d ", n[l] + 0 }' "$TMP/req")
want=$(for l in $(seq 0 56); do printf '%d ' "$(times 57 "$l" 200)"; done)
check "length class: counts of lengths 0..56" "$got" "$want"

got=$(awk '/ class=offset / { sub("at=", "", $6); n[$6]++
		h = $NF; sub("hex=", "", h)
		if (substr(h, 2 * $6 + 1, 8) != "f6ab0e18") bad++ }
	END { for (o = 0; o <= 52; o++) printf "%d ", n[o] + 0; print "bad=" bad + 0 }' "$TMP/req")
want=$(for o in $(seq 0 52); do printf '%d ' "$(times 53 "$o" 200)"; done; echo "bad=0")
check "offset class: identifier at offsets 0..52" "$got" "$want"

"$P" --fuzz 1280 --seed 1 --fuzz-dry-run req >"$TMP/ver"
got=$(awk '/ class=version / { h = $NF; sub("hex=", "", h); v[substr(h, 9, 2)]++
		if ($0 ~ /peer_pdata=present/) p = p " " substr(h, 9, 2) }
	END { for (x in v) if (v[x] == 1) once++; print once + 0 " present:" p }' "$TMP/ver")
check "version class: each of 256 versions once, only 01 found" "$got" "256 present: 01"

# j = k mod 18: cut after j octets (zero-padded by the CM), then the
# first j - 9 octets as the field's last ones
got=$(awk '/ class=trunc / { sub("k=", "", $4); j = $4 % 18
		split("no_ident no_ident no_ident no_ident bad_version present present present present " \
		      "no_ident no_ident no_ident no_ident truncated truncated truncated truncated present", w, " ")
		s = $0; sub(/.*peer_pdata=(absent:)?/, "", s); sub(/ .*/, "", s)
		if (s != w[j + 1]) bad = bad " " $2 ":" s }
	END { print "bad:" bad }' "$TMP/req")
check "trunc class: RFC 8797 verdict at each cut" "$got" "bad:"

"$P" --fuzz 1265 --seed 1 --fuzz-dry-run mpa >"$TMP/mpa"
got=$(awk '/ class=length / { sub("len=", "", $5); n[$5]++; if ($5 == 0) z = $0 }
	END { for (l = 0; l <= 252; l++) if (n[l] == 1) c++
		print c + 0, (z ~ /peer_pdata=absent:no_data/) }' "$TMP/mpa")
check "mpa: lengths 0..252 once each, 0 octets no_data" "$got" "253 1"

# The oracle against scenario 7's hand-written cases, whose expected
# values the kernel module met on real RoCE (a REQ zero-padded to 56)
# while it advertised 4096/4096, the limits of the dry run's receiver
# (the probe's own); since server_send_size the module offers a client
# that Receives more a Send Size of 8192 (d-sizes-0-255: send=8192 in
# scenario 7). The corpus files are replayed in name order.
hexfile() { # hexfile FILE HEX
	local h=$2 out=
	while [ -n "$h" ]; do
		out+="\\x${h:0:2}"
		h=${h:2}
	done
	# shellcheck disable=SC2059 # the format is the octets
	printf "$out" >"$1"
}
ID=f6ab0e18
Z30=$(printf '%060d' 0) Z48=$(printf '%096d' 0)
mkdir "$TMP/c7"
hexfile "$TMP/c7/a-garbage" deadbeef00112233445566778899aabbccddeeff
hexfile "$TMP/c7/b-offset-48" "$Z48${ID}01010101"
hexfile "$TMP/c7/c-reserved-noR" "${ID}01fe0303"
hexfile "$TMP/c7/d-sizes-0-255" "${ID}010100ff"
hexfile "$TMP/c7/e-trunc-4" "$ID"
hexfile "$TMP/c7/f-trunc-5" "${ID}01"
hexfile "$TMP/c7/g-trunc-7" "${ID}010103"
hexfile "$TMP/c7/h-trunc-end-4" "${Z48}00000000$ID"
hexfile "$TMP/c7/i-trunc-end-7" "${Z48}00${ID}010103"
hexfile "$TMP/c7/j-trunc-end-short" "$Z30${ID}0101"
hexfile "$TMP/c7/k-v2-then-v1" "${ID}02010303${ID}01010101"
got=$("$P" --fuzz 11 --seed 1 --corpus "$TMP/c7" --fuzz-dry-run req |
	sed -n 's/^fuzz input=[0-9]* class=corpus k=[0-9]* \(len=[0-9]*\) .*peer_pdata=\([^ ]*\) peer_send=\([0-9]*\) peer_recv=\([0-9]*\) peer_r=\([01]\) send=\([0-9]*\) recv=\([0-9]*\) reminv=\([01]\) hex=.*/\1 \2 \3 \4 \5 \6 \7 \8/p' | tr '\n' ,)
want="len=20 absent:no_ident 1024 1024 0 1024 1024 0,len=56 present 2048 2048 1 2048 2048 1,\
len=8 present 4096 4096 0 4096 4096 0,len=8 present 1024 262144 1 4096 1024 1,\
len=4 absent:bad_version 1024 1024 0 1024 1024 0,len=5 present 1024 1024 0 1024 1024 0,\
len=7 present 4096 1024 1 1024 4096 1,len=56 absent:truncated 1024 1024 0 1024 1024 0,\
len=56 absent:truncated 1024 1024 0 1024 1024 0,len=36 present 1024 1024 1 1024 1024 1,\
len=16 present 2048 2048 1 2048 2048 1,"
check "oracle: scenario 7's 11 verified cases" "$got" "$want"

# --json: the same lines as objects (probe_print_kv_json), hex always a
# string even when its digits look like a number; python3 reads them
if command -v python3 >/dev/null; then
	got=$("$P" --fuzz 1000 --seed 1 --fuzz-dry-run req --json | python3 -c '
import json, sys
objs = [json.loads(line) for line in sys.stdin]
fuzz = [o for o in objs if o["event"] == "fuzz"]
bad = [o["input"] for i, o in enumerate(fuzz)
       if o["input"] != i or not isinstance(o["hex"], str) or
       not isinstance(o["len"], int) or o["hex"] != "-" and len(o["hex"]) != 2 * o["len"]]
print(len(fuzz), objs[-1]["event"], objs[-1]["inputs"], "bad:", bad[:5])')
	check "--json: 1000 objects and the summary, hex a string" "$got" "1000 fuzz-dry-run 1000 bad: []"
fi

# The live paths against a fake RDMA-CM (tools/fuzz/probe_fake_cm.c,
# LD_PRELOAD): an RFC 8797 server and clients played with the codec,
# IB/RoCE limits enforced. The server's log is paired with the probe's
# lines by scenario 16's own pair(), so its awk is tested here too.
# Not under a sanitizer's runtime, which must come first.
TOP=$(cd "$(dirname "$0")/.." && pwd)
fake_cm() {
	${CC:-cc} -O2 -Wall -Wextra -Werror -shared -fPIC \
		-I"$TOP/tools/fuzz/include" -I"$TOP/include" \
		"$TOP/tools/fuzz/probe_fake_cm.c" "$TOP/net/sunrpc/xprtrdma/rpcrdma_pdata.c" \
		-o "$TMP/fake_cm.so"
}
# live FAKE_CM_VARS -- PROBE_ARGS: the probe under the fake; output in
# $TMP/live, exit status in rc
live() {
	local -a env=()
	while [ "$1" != -- ]; do
		env+=("$1")
		shift
	done
	shift
	env "${env[@]}" LD_PRELOAD="$TMP/fake_cm.so" timeout 60 "$P" "$@" >"$TMP/live" 2>"$TMP/live.err"
	rc=$?
}
# summary_keys MODE KEY...: those keys of the run's MODE-summary line
summary_keys() {
	local k line
	line=$(grep "^$1-summary " "$TMP/live")
	shift
	for k in "$@"; do
		printf '%s ' "$(echo " $line" | sed -n "s/.* $k=\([^ ]*\).*/$k=\1/p")"
	done
}
# sum KEY...: of the fuzz-summary line; fsum KEY...: of the flood-summary line
sum() { summary_keys fuzz "$@"; }
fsum() { summary_keys flood "$@"; }
# kinds: the kind of every cycle line of the last run, on one line
kinds() { sed -n 's/^flood cycle=[0-9]* kind=\([a-z_]*\) .*/\1/p' "$TMP/live" | paste -sd' ' -; }
# The server's Send Size as rpcrdma.ko offers it since server_send_size:
# max(max_req_size, min(server_send_size, 65536, the client's Receive
# Size)), learnt from the two control connections (Receive Size 1024,
# then 262144); every input's accept, and the threshold the server's
# event shows, held to it exactly. With one constant Send Size, as the
# model was before, each server below but the FAKE_CM_SEND_FIXED one
# makes mismatches: the corpus's d-sizes-0-255 alone Receives 262144.
model_checks() {
	local w
	live FAKE_CM_SEND_SIZE=8192 FAKE_CM_LOG="$TMP/w8.log" -- --fuzz 500 --seed 8797 --corpus "$TMP/c7" -v 10.0.0.1
	check "model: server_send_size 8192, the controls' answers" \
		"$(sed -n 's/^fuzz-control .* control_recv=\([0-9]*\) server_send=\([0-9]*\) server_recv=\([0-9]*\) .*/\1:\2\/\3/p' "$TMP/live" | paste -sd' ' -)" \
		"1024:4096/4096 262144:8192/4096"
	check "model: server_send_size 8192, 500 inputs" "$rc $(sum inputs established mismatches)" \
		"0 inputs=500 established=500 mismatches=0 "
	check "model: server_send_size 8192, a client Receiving 262144 gets 8192" \
		"$(grep -c '^fuzz input=3 class=corpus .* peer_recv=262144 peer_r=1 send=8192 ' "$TMP/live")" 1
	check "model: server_send_size 8192, inputs Receiving more than 4096 that got more" \
		"$(awk '/^fuzz input=/ { s = $0; sub(/.* send=/, "", s); sub(/ .*/, "", s); if (s + 0 > 4096) n++ }
			END { print (n > 20) }' "$TMP/live")" 1
	check "model: server_send_size 8192, the server's log paired by port" \
		"$(pair "$TMP/w8.log" "$TMP/live" port)" "500 0 0"
	for w in "FAKE_CM_SEND_SIZE=100000" "FAKE_CM_SEND_SIZE=4096 FAKE_CM_MAX_REQ=8192" \
		"FAKE_CM_SEND_SIZE=8192 FAKE_CM_MAX_REQ=4500" "FAKE_CM_SEND_SIZE=1000" \
		"FAKE_CM_SEND_FIXED=8192"; do
		# shellcheck disable=SC2086 # one word per variable
		live $w FAKE_CM_LOG="$TMP/w.log" -- --fuzz 600 --seed 5 -v 10.0.0.1
		check "model: $w, 600 inputs" "$rc $(sum mismatches) $(pair "$TMP/w.log" "$TMP/live" port)" \
			"0 mismatches=0  600 0 0"
		rm -f "$TMP/w.log"
	done
	live FAKE_CM_SEND_SIZE=8192 -- --flood 200 --seed 8797 10.0.0.1
	check "model: server_send_size 8192, --flood 200" "$rc $(fsum good hostile established unexpected)" \
		"0 good=80/0 hostile=60/0 established=140 unexpected=0 "
	live FAKE_CM_SERVER=change=1 -- --fuzz 10 --seed 1 10.0.0.1
	check "model: controls answered with two Receive Sizes" \
		"$rc $(grep -c 'only a Send Size that grows' "$TMP/live.err")" "1 1"
}

# --flood against the fake server (scenario 17's probe side)
flood_checks() {
	local a b
	live FAKE_CM_LOG="$TMP/fl.log" -- --flood 200 --seed 8797 -v 10.0.0.1
	check "flood: 200 cycles to an RFC 8797 server that refuses no Read resources" \
		"$rc $(fsum cycles good hostile abandon_req abandon_rep refuse established rejected abandoned failed unexpected unclean)" \
		"0 cycles=200 good=80/0 hostile=60/0 abandon_req=20/0 abandon_rep=20/0 refuse=20/0 established=140 rejected=20 abandoned=40 failed=0 unexpected=0 unclean=0 "
	check "flood: the fake server saw 40 CM IDs go with their answer unread" \
		"$(grep -c '^fake-abandoned ' "$TMP/fl.log")" 40
	check "flood: 3 progress lines, at 50, 100, 150 cycles" \
		"$(sed -n 's/^flood-progress quarter=\([0-9]\) cycles=\([0-9]*\) .*/\1:\2/p' "$TMP/live" | paste -sd' ' -)" "1:50 2:100 3:150"
	check "flood: every block of 10 is 4 good, 3 hostile, 1 of each other kind" \
		"$(kinds | tr ' ' '\n' | awk '{ b = int((NR - 1) / 10); c[b, $1]++ }
			END { for (i = 0; i < 20; i++) if (c[i, "good"] != 4 || c[i, "hostile"] != 3 ||
				c[i, "abandon_req"] != 1 || c[i, "abandon_rep"] != 1 || c[i, "refuse"] != 1) bad++
				print bad + 0 }')" 0
	a=$(kinds)
	check "flood: the blocks come in different orders" \
		"$(kinds | tr ' ' '\n' | awk '{ o[int((NR - 1) / 10)] = o[int((NR - 1) / 10)] " " $1 }
			END { for (i in o) n[o[i]]++; for (x in n) d++; print (d > 10) }')" 1
	# the hostile cycles' blobs are --fuzz's inputs 0, 1, 2, ... of the seed
	check "flood: the hostile blobs are --fuzz's, in order" \
		"$(sed -n 's/^flood cycle=.* kind=hostile .* input=\([0-9]*\) .* hex=\([^ ]*\).*/\1 \2/p' "$TMP/live" | sha256sum)" \
		"$("$P" --fuzz 60 --seed 8797 --fuzz-dry-run req | sed -n 's/^fuzz input=\([0-9]*\) .* hex=\([^ ]*\)$/\1 \2/p' | sha256sum)"
	live -- --flood 200 --seed 8797 -v 10.0.0.1
	check "flood: the same seed, the same cycles" "$(kinds)" "$a"
	live -- --flood 200 --seed 1 -v 10.0.0.1
	b=$(kinds)
	check "flood: another seed, another order" "$([ "$a" != "$b" ] && echo differs)" differs
	live FAKE_CM_SERVER=no-refuse -- --flood 200 --seed 8797 10.0.0.1
	check "flood: a server that accepts a connection without Read resources" \
		"$rc $(fsum refuse established unexpected) $(grep -c '^flood cycle=.* kind=refuse result=established verdict=unexpected ' "$TMP/live")" \
		"1 refuse=20/20 established=160 unexpected=20  20"
	live FAKE_CM_SERVER=change=100 -- --flood 200 --seed 8797 10.0.0.1
	check "flood: a server whose message changes" \
		"$rc $(fsum abandon_req abandon_rep refuse)" "1 abandon_req=20/0 abandon_rep=20/0 refuse=20/0 "
	live FAKE_CM_SERVER=silent=50 -- --flood 200 --seed 8797 --timeout 20 10.0.0.1
	check "flood: a server that stops answering: 10 failures in a row end it" \
		"$rc $(fsum failed unexpected) $(grep -c 'no answer to 10 connections in a row' "$TMP/live.err")" \
		"1 failed=10 unexpected=10  1"
	live FAKE_CM_IWARP=1 -- --flood 100 --seed 8797 10.0.0.1
	check "flood: iWARP, whose refusals come as ECONNREFUSED" \
		"$rc $(fsum field refuse rejected unexpected)" "0 field=mpa refuse=10/0 rejected=10 unexpected=0 "
	if command -v python3 >/dev/null; then
		live -- --flood 20 --seed 8797 --json 10.0.0.1
		check "flood --json: objects, the summary last with numbers" "$(python3 -c '
import json, sys
objs = [json.loads(line) for line in open(sys.argv[1])]
s = objs[-1]
print(s["event"], s["cycles"], s["good"], s["unexpected"], len([o for o in objs if o["event"] == "flood"]))' "$TMP/live")" \
			"flood-summary 20 8/0 0 20"
	fi
}

if ldd "$P" 2>/dev/null | grep -q 'lib[at]san'; then
	echo "probe-fuzz-test: $P runs under a sanitizer: the fake RDMA-CM checks are skipped" >&2
elif ! fake_cm; then
	check "fake RDMA-CM builds" no yes
else
	eval "$(sed -n '/^pair() {/,/^}/p' "$TOP/scripts/vm/scenarios/16-fuzz.client.sh")"
	live FAKE_CM_LOG="$TMP/srv.log" -- --fuzz 500 --seed 8797 --corpus "$TMP/c7" -v 10.0.0.1
	check "live: 500 inputs to an RFC 8797 server" "$rc $(sum inputs established mismatches corpus)" \
		"0 inputs=500 established=500 mismatches=0 corpus=11/0 "
	check "live: the server's log paired by port (scenario 16)" "$(pair "$TMP/srv.log" "$TMP/live" port)" "500 0 0"
	live FAKE_CM_IWARP=1 FAKE_CM_LOG="$TMP/srv-iw.log" -- --fuzz 1265 --seed 2 -v 10.0.0.1
	check "live: 1265 inputs over iWARP (MPA, up to 252 octets)" \
		"$rc $(sum inputs field mismatches) $(pair "$TMP/srv-iw.log" "$TMP/live" port)" \
		"0 inputs=1265 field=mpa mismatches=0  1265 0 0"
	# requests 0 and 1 are the control connections: input I is request I + 2
	live FAKE_CM_SERVER=change=200 -- --fuzz 300 --seed 1 10.0.0.1
	check "live: a server whose message changes from request 200" "$rc $(sum mismatches)" "1 mismatches=102 "
	live FAKE_CM_SERVER=reject=5 -- --fuzz 20 --seed 1 10.0.0.1
	check "live: a server that rejects one" "$rc $(sum established rejected mismatches)" \
		"0 established=19 rejected=1 mismatches=0 "
	live FAKE_CM_SERVER=silent=8 -- --fuzz 100 --seed 1 --timeout 20 10.0.0.1
	check "live: a server that stops answering" "$rc $(sum inputs failed mismatches)" \
		"1 inputs=16 failed=10 mismatches=10 "
	live FAKE_CM_SERVER=silent=0 -- --fuzz 10 --seed 1 --timeout 20 10.0.0.1
	check "live: the control connection unanswered" "$rc" 6
	live FAKE_CM_CLIENTS=300 FAKE_CM_LOG="$TMP/cl.log" -- --listen 20051 --fuzz 250 --seed 3 -v --wait 2
	check "live: 250 clients answered (--listen)" "$rc $(sum inputs established mismatches field)" \
		"0 inputs=250 established=250 mismatches=0 field=rep "
	check "live: the clients' log paired in order (scenario 16)" "$(pair "$TMP/cl.log" "$TMP/live" order)" "250 0 0"
	live FAKE_CM_IWARP=1 FAKE_CM_CLIENTS=300 FAKE_CM_LOG="$TMP/cl-iw.log" -- --listen 20051 --fuzz 260 --seed 4 -v --wait 2
	check "live: 260 clients over iWARP (--listen)" \
		"$rc $(sum inputs field mismatches) $(pair "$TMP/cl-iw.log" "$TMP/live" order)" \
		"0 inputs=260 field=mpa mismatches=0  260 0 0"
	live FAKE_CM_CLIENTS=3 -- --listen 20051 --fuzz 5 --seed 3 --wait 1
	check "live: fewer clients than --fuzz, --wait 1" "$rc $(sum inputs)" "6 inputs=3 "
	model_checks
	flood_checks
fi

for args in "--fuzz 0" "--fuzz 10 --fuzz-dry-run ib" "--seed 1 --fuzz-dry-run req" \
	"--fuzz 10 --pdata 00 --fuzz-dry-run req" "--fuzz 10 --fuzz-dry-run req host" \
	"--fuzz 10 --listen 20050 --fuzz-dry-run req" "--fuzz 10 --v2 host" \
	"--fuzz 10 --corpus /nonexistent --fuzz-dry-run req" \
	"--flood 0 host" "--flood 10" "--flood 10 --listen 20050" "--flood 10 --fuzz 10 host" \
	"--flood 10 --pdata 00 host" "--flood 10 --corpus /tmp host" "--flood 10 --repeat 2 host" \
	"--flood 10 --v2 host" "--flood 10 --reject host" "--seed 1 host"; do
	# shellcheck disable=SC2086 # one word per option
	"$P" $args >/dev/null 2>&1
	check "exit of '$args'" $? 2
done

if [ $fails -ne 0 ]; then
	echo "probe-fuzz-test: $fails of $checks checks failed" >&2
	exit 1
fi
echo "probe-fuzz-test: $checks checks passed (seed 1 sha256 ${WANT_SHA:0:12}, 5 classes x 200, lengths 0..56, offsets 0..52, versions 0..255, cuts 0..8, mpa 0..252, scenario 7's 11 cases, live paths on a fake CM, the server model's Send Sizes, --flood's mix and counts)"
