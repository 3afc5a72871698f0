#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make fuzz`: build the RFC 8797 codec with libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer (tools/fuzz/rpcrdma_pdata_fuzz.c plus
# the unmodified net/sunrpc/xprtrdma/rpcrdma_pdata.c) and run it for a
# bounded time. Prints executions, coverage and crashes; fails on any
# crash, leak, timeout or failed invariant.
#
# Everything it writes goes under build/fuzz: the binary, a working
# corpus seeded from tools/fuzz/corpus (kept between runs so coverage
# accumulates; FUZZ_FRESH=1 starts again from the seeds), the log and
# the reproducers of any crash. Nothing is written into the repository.
#
# Variables: FUZZ_SECONDS (default 60), FUZZ_MAX_LEN (default 512,
# more than the 196 octets a CM REP carries), FUZZ_FRESH=1, CC (clang),
# ASAN_OPTIONS (default: a 32 MB quarantine; the codec allocates nothing,
# and the default 256 MB only inflates the fuzzer's memory use).

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
BIN=$OUT/rpcrdma_pdata_fuzz
SEEDS=$TOP/tools/fuzz/corpus
CORPUS=$OUT/corpus
ARTIFACTS=$OUT/artifacts
LOG=$OUT/fuzz.log
mkdir -p "$OUT"

SRCS=(tools/fuzz/rpcrdma_pdata_fuzz.c net/sunrpc/xprtrdma/rpcrdma_pdata.c)
DEPS=("${SRCS[@]}" include/linux/sunrpc/rpcrdma_pdata.h
      tools/fuzz/include/linux/*.h scripts/fuzz.sh)
rebuild=0
[ -x "$BIN" ] || rebuild=1
for f in "${DEPS[@]}"; do
	[ "$f" -nt "$BIN" ] && rebuild=1
done
if [ $rebuild -eq 1 ]; then
	msg "fuzz: building $BIN"
	# libFuzzer's runtime ships in libclang-rt-<ver>-dev on Debian 12
	if ! "$CC" -g -O1 -Wall -Wextra -Werror \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all \
		-Itools/fuzz/include -Iinclude \
		"${SRCS[@]}" -o "$BIN.tmp" 2>"$OUT/build.log"; then
		cat "$OUT/build.log" >&2
		grep -q -- '-lclang_rt.fuzzer\|libclang_rt.fuzzer' "$OUT/build.log" &&
			need_pkgs libclang-rt-dev
		die "fuzz: build failed; see $OUT/build.log"
	fi
	mv "$BIN.tmp" "$BIN"
fi

[ "${FUZZ_FRESH:-0}" = 1 ] && rm -rf "$CORPUS"
rm -rf "$ARTIFACTS"
mkdir -p "$CORPUS" "$ARTIFACTS"
cp -n "$SEEDS"/* "$CORPUS"/ 2>/dev/null
seeds=$(find "$SEEDS" -type f | wc -l)
start_units=$(find "$CORPUS" -type f | wc -l)

msg "fuzz: ${FUZZ_SECONDS} s, ${seeds} seeds, working corpus ${start_units} inputs (${CORPUS#"$TOP"/})"
# The working corpus comes first so that new inputs land there and
# never in tools/fuzz/corpus.
ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=32} \
"$BIN" -max_total_time="$FUZZ_SECONDS" -max_len="$FUZZ_MAX_LEN" \
	-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$ARTIFACTS/" "$CORPUS" >"$LOG" 2>&1
rc=$?

# Figures from libFuzzer's own log
last=$(grep -E '^#[0-9]+' "$LOG" | tail -1)
lfstat() { sed -n "s/^stat::$1: *//p" "$LOG" | tail -1; }
execs=$(lfstat number_of_executed_units)
rate=$(lfstat average_exec_per_sec)
rss=$(lfstat peak_rss_mb)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$last")
crashes=$(find "$ARTIFACTS" -type f | wc -l)

echo "fuzz: executions ${execs:-?} (${rate:-?}/s), time limit ${FUZZ_SECONDS} s"
echo "fuzz: coverage cov ${cov:-?} ft ${ft:-?}, corpus ${corp:-?} (${CORPUS#"$TOP"/})"
echo "fuzz: crashes ${crashes}, libFuzzer exit ${rc}, peak RSS ${rss:-?} MB"

if [ "$crashes" -gt 0 ] || [ $rc -ne 0 ]; then
	grep -E 'ERROR: |SUMMARY: |check failed|runtime error' "$LOG" | head -20 >&2
	for f in "$ARTIFACTS"/*; do
		[ -e "$f" ] || continue
		echo "fuzz: reproducer $f ($(wc -c <"$f") octets):" >&2
		xxd "$f" | head -16 >&2
	done
	echo "fuzz: replay with: $BIN <file>; full log $LOG" >&2
	exit 1
fi
exit 0
