#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make fuzz`: build the codecs with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer and run each for a bounded time:
#
#   rpcrdma_pdata  tools/fuzz/rpcrdma_pdata_fuzz.c + the unmodified RFC
#                  8797 codec (net/sunrpc/xprtrdma/rpcrdma_pdata.c)
#   rpcrdma_xchar  tools/fuzz/rpcrdma_xchar_fuzz.c + the unmodified
#                  transport property codec and state machine
#                  (rpcrdma_xchar.c, rpcrdma_xchar_sm.c)
#
# FUZZ_SECONDS is the whole run: each target gets half of it (at least
# one second). Prints executions, coverage and crashes per target;
# fails on any crash, leak, timeout or failed invariant.
#
# Everything it writes goes under build/fuzz: the binaries, a working
# corpus per target seeded from tools/fuzz/corpus and
# tools/fuzz/corpus-xchar (kept between runs so coverage accumulates;
# FUZZ_FRESH=1 starts again from the seeds), the logs and the
# reproducers of any crash. Nothing is written into the repository.
#
# Variables: FUZZ_SECONDS (default 60), FUZZ_MAX_LEN (default 512,
# more than the 196 octets a CM REP carries), FUZZ_FRESH=1, CC (clang),
# ASAN_OPTIONS (default: a 32 MB quarantine; the codecs allocate
# nothing, and the default 256 MB only inflates the fuzzer's memory use).

. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_MAX_LEN=${FUZZ_MAX_LEN:-512}
[[ $FUZZ_SECONDS =~ ^[1-9][0-9]*$ ]] ||
	die "FUZZ_SECONDS must be a positive number of seconds, not '$FUZZ_SECONDS'"
[[ $FUZZ_MAX_LEN =~ ^[1-9][0-9]*$ ]] ||
	die "FUZZ_MAX_LEN must be a positive number of octets, not '$FUZZ_MAX_LEN'"

CC=${CC:-clang}
# libFuzzer's runtime ships apart from clang (libclang-rt-<ver>-dev)
[ "$CC" = clang ] && need_pkgs clang libclang-rt-dev
command -v "$CC" >/dev/null || die "no $CC; install clang"

OUT=$BUILD/fuzz
mkdir -p "$OUT"
failed=0

# fuzz_target NAME SECONDS SEEDS SRC...: build build/fuzz/NAME_fuzz
# from SRC (when one of its inputs is newer) and run it for SECONDS on
# build/fuzz/NAME-corpus, seeded from SEEDS. Sets failed on any finding.
fuzz_target() {
	local name=$1 secs=$2 seeds=$3 f rebuild=0
	shift 3
	local bin=$OUT/${name}_fuzz corpus=$OUT/$name-corpus
	local artifacts=$OUT/$name-artifacts log=$OUT/$name.log
	local -a srcs=("$@") deps=("$@" include/linux/sunrpc/rpcrdma_*.h
			tools/fuzz/include/linux/*.h scripts/fuzz.sh)

	[ -x "$bin" ] || rebuild=1
	for f in "${deps[@]}"; do
		[ "$f" -nt "$bin" ] && rebuild=1
	done
	if [ $rebuild -eq 1 ]; then
		msg "fuzz: building $bin"
		if ! "$CC" -g -O1 -Wall -Wextra -Werror \
			-fsanitize=fuzzer,address,undefined \
			-fno-sanitize-recover=all \
			-Itools/fuzz/include -Iinclude \
			"${srcs[@]}" -o "$bin.tmp" 2>"$OUT/$name.build.log"; then
			cat "$OUT/$name.build.log" >&2
			grep -q -- '-lclang_rt.fuzzer\|libclang_rt.fuzzer' "$OUT/$name.build.log" &&
				need_pkgs libclang-rt-dev
			die "fuzz: build of $name failed; see $OUT/$name.build.log"
		fi
		mv "$bin.tmp" "$bin"
	fi

	[ "${FUZZ_FRESH:-0}" = 1 ] && rm -rf "$corpus"
	rm -rf "$artifacts"
	mkdir -p "$corpus" "$artifacts"
	cp -n "$seeds"/* "$corpus"/ 2>/dev/null
	local nseeds start_units
	nseeds=$(find "$seeds" -type f | wc -l)
	start_units=$(find "$corpus" -type f | wc -l)

	msg "fuzz: $name: ${secs} s, ${nseeds} seeds, working corpus ${start_units} inputs (${corpus#"$TOP"/})"
	# The working corpus comes first so that new inputs land there and
	# never in the seed directory.
	ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=32} \
	"$bin" -max_total_time="$secs" -max_len="$FUZZ_MAX_LEN" \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1
	local rc=$?

	# Figures from libFuzzer's own log
	local last execs rate rss cov ft corp crashes
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$last")
	crashes=$(find "$artifacts" -type f | wc -l)

	echo "fuzz: $name: executions ${execs:-?} (${rate:-?}/s), time limit ${secs} s"
	echo "fuzz: $name: coverage cov ${cov:-?} ft ${ft:-?}, corpus ${corp:-?} (${corpus#"$TOP"/})"
	echo "fuzz: $name: crashes ${crashes}, libFuzzer exit ${rc}, peak RSS ${rss:-?} MB"

	if [ "$crashes" -gt 0 ] || [ $rc -ne 0 ]; then
		grep -E 'ERROR: |SUMMARY: |check failed|runtime error' "$log" | head -20 >&2
		for f in "$artifacts"/*; do
			[ -e "$f" ] || continue
			echo "fuzz: reproducer $f ($(wc -c <"$f") octets):" >&2
			xxd "$f" | head -16 >&2
		done
		echo "fuzz: replay with: $bin <file>; full log $log" >&2
		failed=1
	fi
}

xchar_secs=$((FUZZ_SECONDS / 2))
[ $xchar_secs -ge 1 ] || xchar_secs=1
pdata_secs=$((FUZZ_SECONDS - xchar_secs))
[ $pdata_secs -ge 1 ] || pdata_secs=1

fuzz_target rpcrdma_pdata "$pdata_secs" tools/fuzz/corpus \
	tools/fuzz/rpcrdma_pdata_fuzz.c net/sunrpc/xprtrdma/rpcrdma_pdata.c
fuzz_target rpcrdma_xchar "$xchar_secs" tools/fuzz/corpus-xchar \
	tools/fuzz/rpcrdma_xchar_fuzz.c net/sunrpc/xprtrdma/rpcrdma_xchar.c \
	net/sunrpc/xprtrdma/rpcrdma_xchar_sm.c
exit $failed
