#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make hosttest`: what a new user on a bare Debian host goes through.
# For each release of HOSTTEST_HOSTS (default "bookworm trixie"), a fresh
# mmdebstrap root holding only git, make and ca-certificates (and what
# apt itself needs) is entered with chroot, as root, with its own empty
# cache; in it a clone of this tree's HEAD runs the README's two
# commands:
#   make demo                 the two VMs and the negotiation table
#   make check CHECK_KERNELS=<its release> CHECK_SCENARIOS=1 FUZZ_SECONDS=10
#                             the bounded tier: KUnit, fuzz, probe,
#                             build, lint and a smoke pair of the host's
#                             own kernel, built natively, the dissector
# and the wall time of each is reported per host. The roots are made
# anew every time (a reused one would prove nothing about a bare host)
# under build/hosttest/ and removed afterwards; each run's logs stay in
# build/hosttest/<release>.{demo,check}.log.
#
# Environment: HOSTTEST_HOSTS, HOSTTEST_CHECK_HOSTS (the hosts of those
# that also run the make check; default: all of them), HOSTTEST_KEEP=1
# (keep the roots),
# HOSTTEST_CHECK=0 (make demo only) or =full (the whole make check, as
# CI runs it, instead of the bounded one: with HOSTTEST_DEMO=0, which
# skips make demo, that measures make check on a bare host with nothing
# cached); VM_BOOT_TIMEOUT and VM_TIMEOUT reach the roots' VM runs (a
# loaded machine boots TCG guests slowly). The results go into
# Documentation/testing.md (HOSTTEST_DOC=0: not).

. "$(dirname "$0")/lib.sh"
set -o pipefail

HOSTS=${HOSTTEST_HOSTS:-bookworm trixie}
CHECK_HOSTS=${HOSTTEST_CHECK_HOSTS:-$HOSTS}
OUT=$BUILD/hosttest
[ "$(id -u)" -eq 0 ] || die "make hosttest creates roots and enters them with chroot: run it as root"
HEAD_ID=$(git -C "$TOP" rev-parse --verify -q HEAD) ||
	die "make hosttest clones this tree's HEAD: run it from a git clone"
# The repository, not the tree's git directory: a worktree's (git
# worktree add) holds no objects of its own, and its HEAD is checked out
# by id after the clone
GITDIR=$(cd "$TOP" && cd "$(git rev-parse --git-common-dir)" && pwd) ||
	die "cannot find the git repository of $TOP"
need_pkgs mmdebstrap mount
mkdir -p "$OUT" || die "cannot create $OUT"
papt true # Debian's archive reachable, or say so now

declare -a report doc_rows
load0=$(cut -d' ' -f1 /proc/loadavg)
failed=0

# stop_roots: kill whatever still runs chrooted in a root of ours (an
# interrupted run's make, QEMU, compilers), so nothing outlives us.
stop_roots() {
	local sig p r
	for sig in TERM KILL; do
		for p in /proc/[0-9]*; do
			r=$(readlink "$p/root" 2>/dev/null) || continue
			case $r in "$OUT"/*) kill -"$sig" "${p#/proc/}" 2>/dev/null ;; esac
		done
		[ $sig = KILL ] || sleep 2
	done
}
trap stop_roots EXIT
trap 'exit 130' INT TERM

# mkroot FAMILY DIR: the bare host, made fresh.
mkroot() {
	local fam=$1 dir=$2 sec
	sec="deb $SECURITY_MIRROR $fam-security main"
	rm_tree "$dir"
	need_space "$OUT" 12000 "a $fam host root (packages, kernels, VM images)"
	no_fds mmdebstrap --mode=root --variant=apt --include=git,make,ca-certificates \
		--aptopt='Acquire::Languages "none"' "$fam" "$dir" \
		"deb $MIRROR $fam main" "deb $MIRROR $fam-updates main" "$sec" \
		>"$OUT/$fam.mmdebstrap.log" 2>&1 ||
		{ rm_tree "$dir"; die "cannot create a $fam root: $(net_hint "$OUT/$fam.mmdebstrap.log")"; }
	cp -L /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
}

# in_root DIR LOG CMD: run CMD (a shell command line) in DIR as root, in a
# private mount namespace holding proc, sys and dev, with this tree's git
# repository read-only at /src.git; its output goes to LOG and, its
# progress lines only, to the terminal. Returns CMD's status.
in_root() {
	local dir=$1 log=$2 cmd=$3
	mkdir -p "$dir/src.git"
	: >"$log" # before tail below opens it
	unshare --mount --propagation private -- bash -c '
		set -e
		r=$1
		# / is a mount point on a real host, and unshare
		# --propagation (build roots, make deb) needs it to be one
		mount --bind "$r" "$r"
		mount -t proc proc "$r/proc"
		mount -t sysfs sys "$r/sys"
		mount --rbind /dev "$r/dev"
		mount --bind "$2" "$r/src.git"
		mount -o remount,bind,ro "$r/src.git"
		exec chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			CI="${CI:-}" ${VM_BOOT_TIMEOUT:+VM_BOOT_TIMEOUT=$VM_BOOT_TIMEOUT} \
			${VM_TIMEOUT:+VM_TIMEOUT=$VM_TIMEOUT} bash -c "$3"
	' hosttest "$dir" "$GITDIR" "$cmd" \
		</dev/null >"$log" 2>&1 &
	local pid=$!
	# progress: the scripts' step lines, as they come
	tail -n +1 -f --pid="$pid" "$log" 2>/dev/null |
		grep --line-buffered -E '^(==> |error:|make: \*\*\*|  (PASS|FAIL) )' | sed -u 's/^/    /'
	wait "$pid"
}

# negotiated LOG: true when make demo's table shows both thresholds with
# a value on each side.
negotiated() {
	[ "$(grep -cE '^ +(client-to-server|server-to-client) threshold +[0-9]+ \(its (send|recv)\) +[0-9]+ \(its (send|recv)\)' "$1")" -eq 2 ]
}

# row WHAT RESULT SECONDS LOG: a line of the report, and its row in
# Documentation/testing.md's table.
row() {
	report+=("$(printf '%-8s %-30s %-4s %5d s  log %s' "$fam" "$1" "$2" "$3" "${4#"$TOP"/}")")
	doc_rows+=("$(printf '| %s | %s | %s | %d | %s | %s | %s |' "$fam" "$1" "$2" "$3" \
		"$(git -C "$TOP" rev-parse --short HEAD)" "$(date -u '+%Y-%m-%d %H:%M')" "$load0")")
}

# write_doc: this run's rows into Documentation/testing.md, replacing
# those of the same host and command and keeping the others.
write_doc() {
	local doc=$TOP/Documentation/testing.md r key old
	old=$("$TOP/scripts/doctables.sh" get "$doc" hosttest | grep '^| [a-z]' | grep -v '^| host |')
	{
		echo "| host | command | result | seconds | tree | run on (UTC) | load at start |"
		echo "|---|---|---|---|---|---|---|"
		{
			while IFS= read -r r; do
				[ -n "$r" ] || continue
				key=$(cut -d'|' -f2,3 <<<"$r")
				printf '%s\n' "${doc_rows[@]}" | cut -d'|' -f2,3 | grep -qxF "$key" || echo "$r"
			done <<<"$old"
			printf '%s\n' "${doc_rows[@]}"
		} | sort -t'|' -k2,3
	} | "$TOP/scripts/doctables.sh" put "$doc" hosttest
}

for fam in $HOSTS; do
	case $fam in
	bookworm | trixie) ;;
	*) die "HOSTTEST_HOSTS: $fam is not a release the project supports as a host (bookworm, trixie)" ;;
	esac
	root=$OUT/$fam
	msg "hosttest $fam: a fresh root with git, make and ca-certificates"
	t0=$SECONDS
	mkroot "$fam" "$root"
	msg "hosttest $fam: root ready in $((SECONDS - t0)) s; cloning HEAD"
	in_root "$root" "$OUT/$fam.clone.log" \
		"git clone -q /src.git /root/rpcrdma-cm && cd /root/rpcrdma-cm &&
		 { [ \"\$(git rev-parse HEAD)\" = $HEAD_ID ] || git checkout -q --detach $HEAD_ID; }" ||
		die "cannot clone the tree into the $fam root (see $OUT/$fam.clone.log)"
	if [ "${HOSTTEST_DEMO:-1}" = 1 ]; then
		load0=$(cut -d' ' -f1 /proc/loadavg)
		t0=$SECONDS
		r=PASS
		in_root "$root" "$OUT/$fam.demo.log" "cd /root/rpcrdma-cm && make demo" || r=FAIL
		[ "$r" = FAIL ] || negotiated "$OUT/$fam.demo.log" || r="FAIL (no negotiation table)"
		[ "$r" = PASS ] || failed=$((failed + 1))
		row "make demo (from nothing)" "$r" $((SECONDS - t0)) "$OUT/$fam.demo.log"
	fi
	check=${HOSTTEST_CHECK:-1}
	case " $CHECK_HOSTS " in *" $fam "*) ;; *) check=0 ;; esac
	case $check in
	1)
		what="make check (bounded)"
		cmd="make check CHECK_KERNELS=$fam CHECK_SCENARIOS=1 FUZZ_SECONDS=10" ;;
	full)
		what="make check ($([ "${HOSTTEST_DEMO:-1}" = 1 ] && echo "after demo" || echo "from nothing"))"
		cmd="make check" ;;
	*) what= ;;
	esac
	if [ -n "$what" ]; then
		msg "hosttest $fam: $cmd"
		load0=$(cut -d' ' -f1 /proc/loadavg)
		t0=$SECONDS
		r=PASS
		in_root "$root" "$OUT/$fam.check.log" "cd /root/rpcrdma-cm && $cmd" ||
			{ r=FAIL; failed=$((failed + 1)); }
		row "$what" "$r" $((SECONDS - t0)) "$OUT/$fam.check.log"
	fi
	if [ "${HOSTTEST_KEEP:-0}" = 1 ]; then
		msg "hosttest $fam: root kept in $root"
	else
		rm_tree "$root"
	fi
done

echo
echo "make hosttest (HEAD $(git -C "$TOP" rev-parse --short HEAD), $(date -u +%Y-%m-%d)):"
printf '  %s\n' "${report[@]}"
if [ "${HOSTTEST_DOC:-1}" = 1 ]; then
	write_doc && msg "hosttest: results written into Documentation/testing.md" ||
		warn "hosttest: could not write Documentation/testing.md"
fi
[ $failed -eq 0 ] || { echo "hosttest: $failed run(s) failed"; exit 1; }
echo "hosttest: every host passed"
