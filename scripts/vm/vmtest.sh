#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make vmtest: end-to-end NFS/RDMA scenarios in pairs of QEMU VMs (see
# scripts/vm/lib.sh for the rig, scenarios/ for the scenarios).
#
# A scenario is scripts/vm/scenarios/NN-name.sh (host side, sourced): it
# sets SC_DESC and defines sc_run, which calls sc_pair once per VM pair
# it needs; each pair runs a guest client script (NN-name.client.sh,
# busybox sh, helpers in guest/lib.sh) against guest/server.sh. The
# guests print status lines; a pair passes when every status is PASS,
# the client reached the end, and neither kernel log has BUG/WARNING/
# Oops/Call Trace/general protection.
#
#   VMTEST_ONLY="1 3"   run only the scenarios whose number or name matches
#   VM_PCAP=1           keep a pcap per pair (<logs>/<pair>/wire.pcap) and
#                       check the wire (wirecheck.sh); the default here,
#                       VM_PCAP= turns both off, VM_WIRECHECK=0 the check
#   VM_VERBOSE=1        print every guest status line
#   RPCRDMA_KO, VM_RDMA, VM_TIMEOUT: see lib.sh
# Exit status: 0 when every scenario passed.

set -uo pipefail
VMDIR=$(cd "$(dirname "$0")" && pwd)
SCDIR=$VMDIR/scenarios
# shellcheck source=scripts/vm/lib.sh
. "$VMDIR/lib.sh"

# sc_pair RUN SERVER_KO SERVER_PARAMS CLIENT_KO CLIENT_PARAMS SCRIPT [VAR=VALUE...]
# One VM pair of the current scenario (arguments as vm_pair); records
# its result in SC_FAILED / SC_DETAIL.
sc_pair() {
	local run="$SC_NUM-$1" t0=$SECONDS
	shift
	msg "  pair $run"
	if vm_pair "$run" "$@"; then
		SC_DETAIL+="${SC_DETAIL:+; }$run ok ($((SECONDS - t0))s)"
	else
		SC_FAILED=1
		SC_DETAIL+="${SC_DETAIL:+; }$run FAILED ($((SECONDS - t0))s): $VM_RESULT_DETAIL"
	fi
	# Debug kernels name their active detectors (guest/lib.sh detectors)
	SC_DETECT+=$(grep -ahoE 'RPCRDMA-DETECTORS: .*' "$VM_SLOG" "$VM_CLOG" |
		tr -d '\r' | sed "s/^RPCRDMA-DETECTORS: /$run /" | sed 's/^/\n      detectors: /')
	if [ "${VM_VERBOSE:-0}" = 1 ]; then
		grep -ahE 'RPCRDMA-STATUS' "$VM_SLOG" "$VM_CLOG" | tr -d '\r' >&2
	fi
}

selected() { # selected FILE
	local n w base
	[ -z "${VMTEST_ONLY:-}" ] && return 0
	base=$(basename "$1" .sh)
	n=$((10#${base%%-*}))
	for w in $VMTEST_ONLY; do
		case $w in
		"$n" | "${base%%-*}" | "$base" | "${base#*-}") return 0 ;;
		esac
	done
	return 1
}

# A pcap per pair, checked by wirecheck.sh after the pair (lib.sh)
export VM_PCAP=${VM_PCAP-1}
[ "${RPCRDMA_KO:-}" = stock ] &&
	warn "RPCRDMA_KO=stock: the scenarios expect this project's module and will fail"
# Scenario 14 verifies data with fio in the guests: the base takes the
# host's fio (mkinitramfs.sh)
# (LD_REPRO=tx-stall: also tc and the plug qdisc; LD_REPRO=old-ack: the
# injector scripts/vm/oldack.c, built here; LD_REPRO=unsent-first,
# unreachable and addr-change: tc, clsact, u32 and the drop action;
# addr-change also bonding and dummy)
for f in "$SCDIR"/14-*.sh; do
	case $f in *.client.sh) continue ;; esac
	selected "$f" || continue
	need_pkgs fio
	if [ "${LD_REPRO:-}" = tx-stall ] || [ "${LD_REPRO:-}" = unsent-first ] ||
		[ "${LD_REPRO:-}" = unreachable ] || [ "${LD_REPRO:-}" = addr-change ]; then
		need_pkgs iproute2
		tc=$(command -v tc) || die "LD_REPRO=$LD_REPRO: no tc on this host"
		export VM_EXTRA_BINS="${VM_EXTRA_BINS:+$VM_EXTRA_BINS }$tc"
		if [ "$LD_REPRO" = tx-stall ]; then
			export VM_EXTRA_MODS="${VM_EXTRA_MODS:+$VM_EXTRA_MODS }sch_plug"
		else
			export VM_EXTRA_MODS="${VM_EXTRA_MODS:+$VM_EXTRA_MODS }sch_ingress cls_u32 act_gact"
		fi
		if [ "$LD_REPRO" = addr-change ]; then
			export VM_EXTRA_MODS="$VM_EXTRA_MODS bonding dummy"
		fi
	fi
	if [ "${LD_REPRO:-}" = old-ack ]; then
		need_pkgs gcc libc6-dev
		mkdir -p "$TOP/build/vm"
		gcc -O2 -Wall -Wextra -Werror -o "$TOP/build/vm/oldack" "$TOP/scripts/vm/oldack.c" ||
			die "LD_REPRO=old-ack: could not build scripts/vm/oldack.c (gcc's message above)"
		export VM_EXTRA_BINS="${VM_EXTRA_BINS:+$VM_EXTRA_BINS }$TOP/build/vm/oldack"
	fi
done
vm_prepare
results=()
pass=0
fail=0
rig=0
t_all=$SECONDS
for f in "$SCDIR"/[0-9][0-9]-*.sh; do
	case $f in *.client.sh) continue ;; esac
	selected "$f" || continue
	name=$(basename "$f" .sh)
	SC_NUM=${name%%-*}
	SC_DESC=
	SC_FAILED=0
	SC_DETAIL=
	SC_DETECT=
	# set by a scenario whose run the rig spoiled (e.g. scenario 14: a
	# virtio-net queue that stalled): neither a pass nor a fail
	SC_RIGFAULT=
	unset -f sc_run
	# shellcheck source=/dev/null
	. "$f"
	declare -F sc_run >/dev/null || die "$f defines no sc_run function"
	msg "scenario $name: $SC_DESC"
	t0=$SECONDS
	# a scenario that gives up before its first VM pair (sc_pair fills
	# SC_DETAIL) must not pass by saying nothing
	if ! sc_run && [ "$SC_FAILED" = 0 ] && [ -z "$SC_DETAIL" ]; then
		SC_FAILED=1
		SC_DETAIL="its sc_run failed before any VM pair ran"
	fi
	secs=$((SECONDS - t0))
	if [ -n "$SC_RIGFAULT" ]; then
		rig=$((rig + 1))
		line=$(printf 'RIG   %-16s %4ss  %s\n      rig fault: %s\n      not judged: %s' "$name" "$secs" "$SC_DESC" "$SC_RIGFAULT" "$SC_DETAIL")
	elif [ "$SC_FAILED" = 0 ]; then
		pass=$((pass + 1))
		line=$(printf 'PASS  %-16s %4ss  %s' "$name" "$secs" "$SC_DESC")
	else
		fail=$((fail + 1))
		line=$(printf 'FAIL  %-16s %4ss  %s\n      %s' "$name" "$secs" "$SC_DESC" "$SC_DETAIL")
	fi
	[ -n "$SC_DETECT" ] && line+=$(printf '%b' "$SC_DETECT")
	echo "$line"
	results+=("$line")
done
[ $((pass + fail + rig)) -gt 0 ] || die "no scenario matched VMTEST_ONLY='${VMTEST_ONLY:-}'"

echo
echo "vmtest ($KVER, $VM_RDMA, module ${RPCRDMA_KO:-build/$KVER/rpcrdma.ko}), $((SECONDS - t_all))s:"
printf '%s\n' "${results[@]}"
rigs=
[ "$rig" = 0 ] || rigs=", $rig rig fault(s), not judged"
echo "$pass passed, $fail failed$rigs (logs: ${VM_RUNDIR#"$TOP"/}/)"
[ "$fail" -eq 0 ] && [ "$rig" -eq 0 ]
