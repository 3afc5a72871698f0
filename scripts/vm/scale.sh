#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make scale: many clients and connections on one server, under load and
# faults, in the VM rig (scripts/vm/lib.sh): one server VM and up to four
# client VMs over rxe, each client on a socket link of its own to the
# server (the server has one virtio NIC and one rxe device per client),
# with thresholds of its own: 1 KiB (this module with pdata=0), this
# module's defaults (4 KiB client-to-server, 8 KiB server-to-client),
# 16 KiB, and Debian's stock rpcrdma.ko. Per nconnect
# value, every client mounts NFSv4.2 over RDMA with that nconnect; every
# connection must be listed on both sides, negotiated exactly as the two
# sides' sizes give (RFC 8797); the server's memory per connection is
# measured (memory in use, slabs counted by their objects in use, caches
# dropped); fio with crc32c verify runs on every client at once while
# nfsd restarts, every link drops and every RDMA device of the server
# is deleted and added again:
# every mount must recover, 0 verify errors, every connection
# renegotiated. The server guest drives the run (scale/server.sh), the
# clients answer it (scale/client.sh); this script boots them, prints
# the progress, and writes build/scale/report.md and the rows of
# Documentation/bench.md's block "scale" (scripts/doctables.sh).
#
# Environment:
#   SCALE_CLIENTS    client VMs (default 5: four of this module's and the
#                    stock one; at most the SCALE_PROFILES)
#   SCALE_NCONNECT   the nconnect values, one step each (default "1 4 16";
#                    1 to 16, Linux's limit)
#   SCALE_PROFILES   the clients' thresholds in order, the first
#                    SCALE_CLIENTS taken (default "16k stock pdata0
#                    default 4k": with 2 clients, two sizes and a stock
#                    client already): pdata0 (1 KiB), default, 16k, 4k
#                    (the README's way back to 4 KiB), stock
#   SCALE_FAULTS     faults per step, in order, each on every link at once
#                    (default "nfsd link rdma"; without link with
#                    VM_RXE=stock, whose rxe never recovers from a link
#                    drop; "nfsd link" over siw, where deleting the
#                    device hangs: Documentation/soak.md). "" for none
#   SCALE_SERVER_MAXREQ  the server's sunrpc.svc_rdma.max_req_size
#                    (default 16384: the largest client threshold, so
#                    that the 16 KiB client gets 16 KiB; the server's
#                    receive buffers are this size on every connection)
#   SCALE_WARMUP     seconds of fio before the first fault (default 20)
#   SCALE_GAP        seconds between faults (default 10)
#   SCALE_LINK_SECS  a link drop's length (default 4)
#   SCALE_RDMA_SECS  how long the RDMA devices stay deleted (default 3)
#   SCALE_RECOVER_MAX  seconds every mount may take to answer after a
#                    fault (default 300)
#   SCALE_DOC        1: write the rows into Documentation/bench.md whatever
#                    ran; 0: never; default: when every step was reached
#   SCALE_RIG        the rig's build directory (default build/scale/rig)
#   VM_RXE           fixed (default here: make rxe's rdma_rxe, for the
#                    link drops) or stock; RPCRDMA_KO, VM_RDMA, VM_MEM
#                    (default 1024 here), VM_SMP (default 1), VM_TIMEOUT
#                    (the whole run's; default from the steps and
#                    faults): see lib.sh
# The check-full short cell: SCALE_CLIENTS=2 SCALE_NCONNECT=4
# SCALE_FAULTS=nfsd (a 16 KiB client and a stock one, 8 connections,
# one nfsd restart).
# Exit status 0 only when every check passed and no guest logged a
# kernel warning.

set -uo pipefail
VMDIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$VMDIR/../.." && pwd)
OUT=$TOP/build/scale
# A rig of its own (its base carries fio; its logs and module snapshot
# are its own): a vmtest running meanwhile keeps its own.
export BUILD=${SCALE_RIG:-$OUT/rig}
mkdir -p "$BUILD"
user_timeout=${VM_TIMEOUT:-}
# link drops need make rxe's rdma_rxe (scripts/vm/soak.sh says why)
export VM_RXE=${VM_RXE:-fixed}
# 1 GiB guests: set before lib.sh, whose own default is 512
export VM_MEM=${VM_MEM:-1024}
# shellcheck source=scripts/vm/lib.sh
. "$VMDIR/lib.sh"

NCLIENTS=${SCALE_CLIENTS:-5}
NCONNECT=${SCALE_NCONNECT:-"1 4 16"}
read -r -a PROFILES <<<"${SCALE_PROFILES:-16k stock pdata0 default 4k}"
if [ -n "${SCALE_FAULTS+x}" ]; then
	FAULTS=$SCALE_FAULTS
elif [ "$VM_RDMA" = siw ]; then
	FAULTS="nfsd link"
elif [ "$VM_RXE" = stock ]; then
	FAULTS="nfsd rdma"
else
	FAULTS="nfsd link rdma"
fi
MAXREQ=${SCALE_SERVER_MAXREQ:-16384}

# ---- the knobs, checked before anything is built or booted ------------
num() { case $2 in '' | *[!0-9]*) die "$1=$2 is not a number" ;; esac; }
num SCALE_CLIENTS "$NCLIENTS"
[ "$NCLIENTS" -ge 1 ] && [ "$NCLIENTS" -le "${#PROFILES[@]}" ] ||
	die "SCALE_CLIENTS=$NCLIENTS: between 1 and ${#PROFILES[@]}, the number of SCALE_PROFILES (${PROFILES[*]})"
[ "$NCLIENTS" -le 8 ] || die "SCALE_CLIENTS=$NCLIENTS: at most 8 (one 10.99.K.0/24 link each, and 2 cores)"
for p in "${PROFILES[@]:0:$NCLIENTS}"; do
	case $p in
	pdata0 | default | 16k | 4k | stock) ;;
	*) die "SCALE_PROFILES: '$p' is none of pdata0 (1 KiB), default, 16k, 4k, stock" ;;
	esac
done
for n in $NCONNECT; do
	num SCALE_NCONNECT "$n"
	[ "$n" -ge 1 ] && [ "$n" -le 16 ] || die "SCALE_NCONNECT: $n is not between 1 and 16 (Linux's nconnect limit)"
done
for f in $FAULTS; do
	case $f in
	nfsd | link | rdma) ;;
	*) die "SCALE_FAULTS: '$f' is none of nfsd, link, rdma" ;;
	esac
done
case " $FAULTS " in
*" link "*) [ "$VM_RDMA" != rxe ] || [ "$VM_RXE" != stock ] ||
	warn "SCALE_FAULTS has link with VM_RXE=stock: Debian's rdma_rxe never recovers from a link drop (scripts/vm/soak.sh); expect that fault to fail" ;;
esac
for v in SCALE_WARMUP SCALE_GAP SCALE_LINK_SECS SCALE_RDMA_SECS SCALE_RECOVER_MAX SCALE_SERVER_MAXREQ; do
	[ -z "${!v:-}" ] || num "$v" "${!v}"
done
# the module under test, rdma_rxe and siw live in the main build tree,
# not the rig's
export RPCRDMA_KO=${RPCRDMA_KO:-$TOP/build/$KVER/rpcrdma.ko}
export RXE_KO=${RXE_KO:-$TOP/build/$KVER/rxe/rdma_rxe.ko}
export SIW_KO=${SIW_KO:-$TOP/build/$KVER/siw/siw.ko}
[ "$RPCRDMA_KO" != stock ] ||
	die "RPCRDMA_KO=stock: make scale tests this module (with a stock client among the clients: SCALE_PROFILES)"
[ -f "$RPCRDMA_KO" ] ||
	die "no module under test at $RPCRDMA_KO; run 'make module' (or set RPCRDMA_KO=<path to rpcrdma.ko>)"
# every guest's memory, and some for the host: QEMU's own and the page
# cache of the images
need=$(((NCLIENTS + 1) * VM_MEM + 512))
avail=$(awk '$1 == "MemAvailable:" { print int($2 / 1024) }' /proc/meminfo)
[ "${avail:-0}" -ge "$need" ] ||
	die "$((NCLIENTS + 1)) guests of VM_MEM=$VM_MEM MiB need about $need MiB; this host has $avail MiB available (fewer SCALE_CLIENTS, or a smaller VM_MEM)"
need_pkgs fio
fio_bin=$(command -v fio) || die "fio is installed but not on PATH"
export VM_EXTRA_BINS="${VM_EXTRA_BINS:+$VM_EXTRA_BINS }$fio_bin"

# The run's time: boot, then per step the mounts, checks and fio's
# stop (600 s on loaded cores), and per fault its recovery and checks
# (300 s); the server's own timeouts are within these.
nsteps=$(wc -w <<<"$NCONNECT")
nfaults=$(wc -w <<<"$FAULTS")
TIMEOUT=${user_timeout:-$((600 + nsteps * (600 + 300 * nfaults)))}
BOOT_TIMEOUT=${VM_BOOT_TIMEOUT:-$((90 + 45 * NCLIENTS))}
mkdir -p "$OUT"
vm_prepare
msg "make scale: $NCLIENTS client(s) (${PROFILES[*]:0:$NCLIENTS}), nconnect ${NCONNECT}, faults: ${FAULTS:-none}; server max_req_size $MAXREQ; $VM_RDMA$([ "$VM_RDMA" = rxe ] && echo " (rdma_rxe $VM_RXE)"), VM_MEM $VM_MEM, timeout ${TIMEOUT}s"
t_all=$SECONDS

dir=$VM_RUNDIR/scale
mkdir -p "$dir"
# vm_prepare's traps, and the guests' images (five of about 120 MB) gone
# however the run ends
trap 'vm_cleanup; rm -f "$dir"/*.img "$dir"/*.mon.in "$dir"/*.mon.out' EXIT
trap 'vm_cleanup; rm -f "$dir"/*.img "$dir"/*.mon.in "$dir"/*.mon.out; exit 130' INT TERM
SLOG=$dir/server.log
CLOGS=()
LOGS=("$SLOG")
PIDS=()

# The links: client K on 10.99.K.0/24, the server's NIC K (K=0 its eth0;
# the others from VM_EXTRA_NICS by MAC), each a socket netdev the server's
# QEMU listens on and the client's connects to. Ports picked one by one
# are checked against each other: none listens until the server starts.
ports=()
extra=
for ((k = 0; k < NCLIENTS; k++)); do
	while :; do
		p=$(vm_port)
		case " ${ports[*]} " in *" $p "*) ;; *) break ;; esac
	done
	ports+=("$p")
	[ "$k" = 0 ] || extra+="${extra:+ }$(vm_nic_mac server "$k")=10.99.$k.1"
done
profiles_used="${PROFILES[*]:0:$NCLIENTS}"
# the clients' thresholds in words, for the tables
thresholds=$(for p in $profiles_used; do
	case $p in
	16k) echo "16 KiB" ;;
	4k) echo "4 KiB" ;;
	pdata0) echo "1 KiB (pdata=0)" ;;
	default) echo "defaults" ;;
	stock) echo "stock" ;;
	esac
done | paste -sd, - | sed 's/,/, /g')
vm_overlay "$dir/server.img" server "$(vm_module_path ours)" "" "$VMDIR/scale/server.sh" \
	VM_EXTRA_NICS="$extra" SCALE_CLIENTS="$NCLIENTS" SCALE_NCONNECT="$NCONNECT" \
	SCALE_FAULTS="$FAULTS" SCALE_PROFILES="$profiles_used" \
	SCALE_WARMUP="${SCALE_WARMUP:-20}" SCALE_GAP="${SCALE_GAP:-10}" \
	SCALE_LINK_SECS="${SCALE_LINK_SECS:-4}" SCALE_RDMA_SECS="${SCALE_RDMA_SECS:-3}" \
	SCALE_RECOVER_MAX="${SCALE_RECOVER_MAX:-300}" SERVER_THREADS=8 \
	SERVER_SYSCTLS="sunrpc.svc_rdma.max_req_size=$MAXREQ"
srv_ip=$VM_SERVER_IP cli_ip=$VM_CLIENT_IP
for ((k = 0; k < NCLIENTS; k++)); do
	p=${PROFILES[$k]}
	ko=ours params=
	[ "$p" = stock ] && ko=stock
	[ "$p" = pdata0 ] && params=pdata=0
	VM_SERVER_IP=10.99.$k.1 VM_CLIENT_IP=10.99.$k.2
	vm_overlay "$dir/client$k.img" client "$(vm_module_path "$ko")" "$params" "$VMDIR/scale/client.sh" \
		SCALE_IDX="$k" SCALE_PROFILE="$p" SCALE_CLIENT_MAX="$TIMEOUT"
done
VM_SERVER_IP=$srv_ip VM_CLIENT_IP=$cli_ip

# scale_fail WHY: blackbox every guest still running, stop them, keep
# the logs, and die
scale_fail() {
	local log
	for log in "${LOGS[@]}"; do vm_blackbox "$log" scale; done
	scale_stop kill
	die "make scale: $1 (logs: ${dir#"$TOP"/}, kept in $(vm_keep_logs "$dir"))"
}
# scale_stop [kill]: every guest powered off (vm_stop kills one that
# has not within 10 s), or killed at once
scale_stop() {
	local pid
	for pid in "${PIDS[@]}"; do
		[ "${1:-}" != kill ] || kill "$pid" 2>/dev/null
		vm_stop "$pid"
	done
	PIDS=()
	rm -f "$dir"/*.img "$dir"/*.mon.in "$dir"/*.mon.out
}

nets=()
for p in "${ports[@]}"; do nets+=("listen=127.0.0.1:$p"); done
vm_start scale-server server "$dir/server.img" "$SLOG" "${nets[@]}"
spid=$VM_PID
PIDS+=("$spid")
for p in "${ports[@]}"; do
	vm_listening "$p" "$spid" ||
		scale_fail "the server's QEMU did not listen on 127.0.0.1:$p within 30 s: $(head -c 300 "$SLOG.qemu" | tr '\n' ' ')"
done
# the clients boot beside the server (each waits for its requests)
for ((k = 0; k < NCLIENTS; k++)); do
	CLOGS+=("$dir/client$k.log")
	LOGS+=("$dir/client$k.log")
	VM_MAC=$(vm_nic_mac client "$k") vm_start "scale-client$k" client "$dir/client$k.img" \
		"$dir/client$k.log" "connect=127.0.0.1:${ports[$k]}"
	PIDS+=("$VM_PID")
	echo "# server QEMU: 127.0.0.1:${ports[$k]}" >"$dir/link$k.txt"
	vm_netwatch "${ports[$k]}" "$dir/link$k.txt" "$spid" &
done
msg "booting the server and $NCLIENTS client(s) (logs: ${dir#"$TOP"/})"
vm_wait "$SLOG" "$spid" 'RPCRDMA-STEP: .*boot server' "$BOOT_TIMEOUT" "the server kernel to boot" ||
	scale_fail "server: $VM_WAIT_ERR"
vm_wait "$SLOG" "$spid" 'RPCRDMA-STATUS: server-ready' $((BOOT_TIMEOUT + 60)) "the server to start nfsd" ||
	scale_fail "server: $VM_WAIT_ERR; $(vm_fails "$SLOG")"
grep -aq 'RPCRDMA-STATUS: server-ready PASS' "$SLOG" || scale_fail "server: nfsd did not start: $(vm_fails "$SLOG")"

# The run: the server's "scale:" step lines are its progress.
seen=0 t0=$SECONDS quiet=$SECONDS
while ! grep -aq 'RPCRDMA-STATUS: scale-done' "$SLOG"; do
	mapfile -t lines < <(grep -aoE 'RPCRDMA-STEP: \[[0-9.]+\] scale: .*' "$SLOG" | tr -d '\r')
	for ((i = seen; i < ${#lines[@]}; i++)); do
		msg "  [$((SECONDS - t_all))s] ${lines[$i]#*scale: }"
		quiet=$SECONDS
	done
	seen=${#lines[@]}
	vm_alive "$spid" || scale_fail "the server guest exited before the run ended; $(vm_fails "${LOGS[@]}")"
	[ $((SECONDS - t0)) -lt "$TIMEOUT" ] ||
		scale_fail "timeout after ${TIMEOUT}s (VM_TIMEOUT); last: $(vm_last_status "$SLOG")"
	if [ $((SECONDS - quiet)) -ge 120 ]; then
		msg "  ... still at it ($((SECONDS - t_all))s; server: $(vm_last_status "$SLOG"))"
		quiet=$SECONDS
	fi
	sleep 2
done
for ((k = 0; k < NCLIENTS; k++)); do
	vm_wait "${CLOGS[$k]}" "${PIDS[$((k + 1))]}" 'RPCRDMA-STATUS: client-done' 60 "client $k to finish" ||
		warn "client $k: $VM_WAIT_ERR"
done
scale_stop
wait 2>/dev/null

# ---- verdict and report -------------------------------------------------
fails=$(vm_fails "${LOGS[@]}")
bad=$(for log in "${LOGS[@]}"; do vm_bad_lines "$log" | sed "s|^|$(basename "$log" .log): |"; done | head -n 3)
vm_lines "$SLOG" RPCRDMA-SCALE-STEP >"$OUT/steps.txt"
vm_lines "$SLOG" RPCRDMA-SCALE-FAULT >"$OUT/faults.txt"
vm_lines "$SLOG" RPCRDMA-SCALE-CONN >"$OUT/conns.txt"
maxconns=$(vm_lines "$SLOG" RPCRDMA-SCALE-MAX | sed -n 's/^conns=//p' | tail -n 1)
WHY=
[ -z "$fails" ] || WHY+="$fails; "
[ -z "$bad" ] || WHY+="kernel: $(paste -sd';' - <<<"$bad"); "
[ "$(grep -c . "$OUT/steps.txt")" = "$nsteps" ] || WHY+="$(grep -c . "$OUT/steps.txt") of $nsteps steps reached; "
WHY=${WHY%; }

# field LINE KEY: a key=value of a step line
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"; }
# the kernel's short name (scripts/kernels.tab), else the release
kname=$(ktab_field "$KVER" 1)
kname=${kname:-$KVER}
when=$(date -u '+%Y-%m-%d %H:%M')
# row LINE: one step as a row of the doc's table
row() {
	local l=$1 faults conns
	faults=$(field "$l" faults)
	if [ "$faults" = 0 ]; then
		faults="none"
	else
		faults="$(field "$l" recovered)/$faults recovered ($FAULTS)$([ "$(field "$l" recover_max_s)" = - ] || echo ", in $(field "$l" recover_max_s) s at most"); $(field "$l" renegotiated) connections renegotiated"
	fi
	conns="$(field "$l" conns) of $(field "$l" want)"
	[ "$(field "$l" nconnect_rdma)" != no ] || [ "$(field "$l" n)" = 1 ] ||
		conns+=" (this kernel's NFSv4 client ignores nconnect over RDMA: one per mount)"
	printf '| `%s` | %s | %s | %s | %s | %s | %s server, %s client lines | %s | %s passes, %s failed, %s verify errors | %s (%s in slabs) | %s |\n' \
		"$kname" "$VM_RDMA" "$NCLIENTS" "$(field "$l" n)" "$thresholds" "$conns" \
		"$(field "$l" neg_server)" "$(field "$l" neg_client)" "$faults" \
		"$(field "$l" passes)" "$(field "$l" failed)" "$(field "$l" verify)" \
		"$(field "$l" per_conn_kib)" "$(field "$l" slab_per_conn_kib)" "$(field "$l" result)"
}
HEAD="| kernel | transport | clients | nconnect | clients' thresholds | connections on the server | debugfs lines negotiated as configured, at the mount and after each fault | faults during fio | fio, crc32c verify, all clients | server memory per connection, KiB | step |"
{
	echo "# make scale"
	echo
	echo "Kernel $KVER, module $(modinfo -F version "$VM_OURS_KO" 2>/dev/null || echo unknown) (build-id $(vm_buildid "$VM_OURS_KO")), $VM_RDMA$([ "$VM_RDMA" = rxe ] && echo " (rdma_rxe $VM_RXE)"), server max_req_size $MAXREQ, $when UTC."
	echo "Verdict: $([ -z "$WHY" ] && echo PASS || echo "FAIL ($WHY)"). Most connections held by the server: ${maxconns:--}."
	echo
	echo "$HEAD"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	while read -r l; do row "$l"; done <"$OUT/steps.txt"
	echo
	echo "Faults (nconnect, kind, seconds until every mount answered, connections renegotiated):"
	echo
	sed 's/^/    /' "$OUT/faults.txt"
	echo
	echo "Connections (nconnect, when, client, thresholds, side, debugfs line): ${OUT#"$TOP"/}/conns.txt"
	echo "Logs: ${dir#"$TOP"/}/"
} >"$OUT/report.md"
cat "$OUT/report.md"

# scale_doc: this run's rows replace the rows of the same kernel, client
# count, nconnect and transport in Documentation/bench.md's block
# "scale"; the others stay (a short cell does not erase a full run's)
scale_doc() {
	local doc=$TOP/Documentation/bench.md old new n l max
	old=$("$TOP/scripts/doctables.sh" get "$doc" scale) || return 1
	new=$(while read -r l; do row "$l"; done <"$OUT/steps.txt")
	{
		grep '^| `' <<<"$old" | while read -r l; do
			for n in $NCONNECT; do
				case $l in "| \`$kname\` | $VM_RDMA | $NCLIENTS | $n |"*) continue 2 ;; esac
			done
			echo "$l"
		done
		echo "$new"
	} | sort -t'|' -k2,2 -k3,3 -k4,4n -k5,5n >"$OUT/rows.md"
	max=$(awk -F'|' '{ split($7, a, " ")
			if (a[1] + 0 > m) { m = a[1] + 0; k = $2; t = $3; c = $4; n = $5; gsub(/ /, "", k); gsub(/ /, "", t); gsub(/ /, "", c); gsub(/ /, "", n) } }
		END { if (m) printf "%d (%s over %s, %s clients, nconnect=%s)", m, k, t, c, n; else print "-" }' "$OUT/rows.md")
	{
		echo "<!-- generated by make scale (scripts/vm/scale.sh): one row per kernel, transport, client count and nconnect, its last run -->"
		echo "$HEAD"
		echo "|---|---|---|---|---|---|---|---|---|---|---|"
		cat "$OUT/rows.md"
		echo
		echo "Most connections one server held in these runs: $max."
	} | "$TOP/scripts/doctables.sh" put "$doc" scale &&
		msg "scale: $(grep -c . <<<"$new") row(s) of $kname written into ${doc#"$TOP"/}"
}

doc=${SCALE_DOC:-}
if [ -z "$doc" ]; then
	doc=0
	[ "$(grep -c . "$OUT/steps.txt")" = "$nsteps" ] && doc=1
fi
[ "$doc" = 1 ] && { scale_doc || warn "Documentation/bench.md not written"; }

msg "make scale: $((SECONDS - t_all)) s; report in ${OUT#"$TOP"/}/report.md"
[ -z "$WHY" ] || die "make scale FAILED: $WHY (logs kept in $(vm_keep_logs "$dir"))"
msg "make scale passed: every connection negotiated as configured, 0 verify errors across the faults, at most ${maxconns:--} connections"
