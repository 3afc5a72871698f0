# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 16: hostile peers at volume (issue 53 item 2). rpcrdma-cm-probe
# --fuzz sends FUZZ_SERVER_N generated private data blobs (default 2000)
# to this module's server, then answers FUZZ_CLIENT_N (default 100)
# connections of this module's client with generated accept private
# data, while 2 MiB copies are read back and sha256-checked across both.
# Each connection the peer accepted is compared with what RFC 8797 says
# for its input (the probe's oracle, the module's own codec) through the
# peer's rpcrdma_cm_negotiate events. Not in make check or check-full:
#   VMTEST_ONLY=16 scripts/vm/vmtest.sh                 (or make vmtest)
#   FUZZ_SERVER_N=100000 FUZZ_CLIENT_N=10000 VMTEST_ONLY=16 ...
#   make debugtest KVER=... DEBUGTEST_SCENARIOS=16      (KASAN, kmemleak)
# FUZZ_RECORD=1 writes the run's row into Documentation/debugtest.md's
# block fuzz-volume, with the totals of the passing rows per kernel
# (fuzz_record below). FUZZ_SEED (default 8797) repeats a run; VM_TIMEOUT_16 overrides the
# client script's budget (600 s plus half a second per server input and
# 5 s per client input). Above 5000 server inputs the wire is not
# recorded (FUZZ_PCAP=1 records it anyway): the copy loop alone makes
# hundreds of MB in scenario 7's four minutes. FUZZ_COPY_GAP (default 1)
# spaces the 2 MiB copies, which otherwise take most of the client's
# single vCPU on a debug kernel.
SC_DESC="probe --fuzz vs our server and our client, NFS copies sha256-checked across"
sc_run() {
	local sn=${FUZZ_SERVER_N:-2000} cn=${FUZZ_CLIENT_N:-100}
	local seed=${FUZZ_SEED:-8797} n
	for n in "$sn" "$cn" "$seed"; do
		[[ $n =~ ^[1-9][0-9]*$ ]] ||
			die "scenario 16: FUZZ_SERVER_N, FUZZ_CLIENT_N and FUZZ_SEED are positive numbers, not '$n'"
	done
	# shellcheck source=scripts/vm/scenarios/probe-lib.bash
	. "$SCDIR/probe-lib.bash"
	sc_probe_guests || { SC_FAILED=1; SC_DETAIL="the probe could not be built or put in the guests"; return; }
	local VM_TIMEOUT=${VM_TIMEOUT_16:-$((600 + sn / 2 + cn * 5))}
	SC_DESC="probe --fuzz: $sn inputs vs our server, $cn vs our client (seed $seed), NFS copies sha256-checked across"
	if [ "$sn" -gt 5000 ] && [ "${FUZZ_PCAP:-0}" != 1 ]; then
		local VM_PCAP=
		SC_DESC+=" (no wire capture above 5000 inputs)"
	fi
	sc_pair fuzz ours "" ours "" "$SCDIR/16-fuzz.client.sh" \
		FUZZ_SERVER_N="$sn" FUZZ_CLIENT_N="$cn" FUZZ_SEED="$seed" \
		FUZZ_COPY_GAP="${FUZZ_COPY_GAP:-1}"
	# the rates and totals on the result line, PASS or FAIL
	local s c
	s=$(vm_status "$VM_CLOG" fuzz-server | grep -oE 'inputs=[0-9]+|seconds=[0-9.]+|per_second=[0-9.]+|mismatches=[0-9]+' | xargs)
	c=$(vm_status "$VM_CLOG" fuzz-client | grep -oE 'inputs=[0-9]+|seconds=[0-9.]+|per_second=[0-9.]+|mismatches=[0-9]+' | xargs)
	SC_DESC+="; server: ${s:-not reached}; client: ${c:-not reached}"
	case ${FUZZ_RECORD:-0} in
	0) ;;
	1) fuzz_record "$seed" || warn "scenario 16: its row was not written into Documentation/debugtest.md (above)" ;;
	*) die "FUZZ_RECORD=$FUZZ_RECORD: say 1 (write the row into Documentation/debugtest.md) or 0" ;;
	esac
}

# fuzz_kv CHECK KEY: KEY's value in the client log's status line CHECK
# (the probe's fuzz-summary: inputs=, per_second=, mismatches=), or -
fuzz_kv() {
	local v
	v=$(vm_status "$VM_CLOG" "$1" | grep -oE "(^| )$2=[0-9.]+" | head -n 1 | cut -d= -f2)
	echo "${v:--}"
}

# fuzz_record SEED: this run's row in Documentation/debugtest.md's block
# fuzz-volume. Inputs are counted toward the issue's volume across runs,
# so a row is keyed by kernel, transport and seed: a seed run again sends
# the same inputs and replaces its row instead of adding one. Under the
# rows, per kernel and transport, the sums of the passing rows: a pass
# means every connection answered as RFC 8797 says, the copies exact,
# no BUG/WARNING/KASAN/lockdep report on either side and, on a kmemleak
# kernel, no leak.
fuzz_record() {
	local seed=$1 doc=$TOP/Documentation/debugtest.md old row rows key det copies verdict
	old=$("$TOP/scripts/doctables.sh" get "$doc" fuzz-volume) || return 1
	# each side's last detector line; a detector counts when on in both
	det=$(for side in client server; do
		grep -aohE "RPCRDMA-DETECTORS: $side .*" "$VM_SLOG" "$VM_CLOG" | tail -n 1
	done | tr -d '\r' | grep -oE '(kasan|lockdep|kmemleak)=on' | sort | uniq -c |
		awk '$1 == 2 { sub(/=on/, "", $2); printf "%s%s", s, $2; s = " " }')
	copies=$(vm_status "$VM_CLOG" fuzz-copies | grep -oE '^[0-9]+ copies' | cut -d' ' -f1)
	verdict=PASS
	[ "$SC_FAILED" = 0 ] || verdict="FAIL: $(cut -c1-160 <<<"$SC_DETAIL" | tr '|' '/')"
	row=$(printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' \
		"$KVER" "${VM_RDMA:-rxe}" "$seed" \
		"$(fuzz_kv fuzz-server inputs)" "$(fuzz_kv fuzz-server per_second)" \
		"$(fuzz_kv fuzz-client inputs)" "$(fuzz_kv fuzz-client per_second)" \
		"$(fuzz_kv fuzz-server mismatches) / $(fuzz_kv fuzz-client mismatches)" \
		"${copies:--}" "${det:-none}" "$verdict" "$(date -u '+%Y-%m-%d %H:%M')")
	key=$(cut -d'|' -f1-4 <<<"$row")
	rows=$({
		grep '^| [0-9]' <<<"$old" | while IFS= read -r l; do
			[ "$(cut -d'|' -f1-4 <<<"$l")" = "$key" ] || echo "$l"
		done
		echo "$row"
	} | sort -t'|' -k2,2V -k3,3 -k4,4n)
	{
		echo "<!-- generated by scenario 16 with FUZZ_RECORD=1 (scripts/vm/scenarios/16-fuzz.sh): one row per kernel, transport and seed, its last run -->"
		echo "| kernel | transport | seed | server inputs | per second | client inputs | per second | mismatches (server / client) | 2 MiB copies exact | detectors on at the end, both sides | verdict | finished (UTC) |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
		echo "$rows"
		echo
		echo "Passing runs summed per kernel and transport (distinct seeds, so distinct inputs):"
		echo
		fuzz_totals <<<"$rows"
	} | "$TOP/scripts/doctables.sh" put "$doc" fuzz-volume &&
		msg "recorded in Documentation/debugtest.md (block fuzz-volume): $row"
}

# fuzz_totals: the block's rows on stdin; one line per kernel and
# transport with the server and client inputs of its passing rows
fuzz_totals() {
	awk -F'|' '{ for (i = 2; i <= NF; i++) gsub(/^ +| +$/, "", $i) }
		$12 == "PASS" {
			k = $2 " over " $3
			if (!(k in runs)) order[++n] = k
			runs[k]++; srv[k] += $5; cli[k] += $7
		}
		END {
			if (!n) print "- none yet"
			for (i = 1; i <= n; i++)
				printf "- %s: %d server inputs, %d client inputs, %d run(s)\n",
					order[i], srv[order[i]], cli[order[i]], runs[order[i]]
		}'
}
