#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make status-test`: rpcrdma-cm-status against made-up hosts. Each case
# builds a root (RPCRDMA_CM_STATUS_ROOT) with /lib/modules trees whose
# rpcrdma.ko are minimal ELF objects carrying only the .modinfo that
# modinfo and depmod read (this module's: its pdata parameter, a
# version and a srcversion; Debian's: neither), a /sys/module/rpcrdma
# and debugfs files, and stub dpkg-query answers; then checks the
# verdict, the exit code, the text, the JSON and the Prometheus file
# exactly where they matter, under dash and under busybox sh.

. "$(dirname "$0")/lib.sh"
set -o pipefail

STATUS=$TOP/tools/rpcrdma-cm-status
command -v depmod >/dev/null && command -v modinfo >/dev/null || need_pkgs kmod
command -v objcopy >/dev/null || need_pkgs binutils
command -v gcc >/dev/null || need_pkgs gcc
command -v python3 >/dev/null || need_pkgs python3

W=$(mktemp -d "${TMPDIR:-/tmp}/status-test.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$W"' EXIT
K1=6.1.0-57-amd64
K2=6.12.118+deb13-amd64
failed=0 n=0

# ko OUT KIND [SRCVERSION]: a module file modinfo and depmod accept
ko() {
	local out=$1 kind=$2 src=${3:-AAAA}
	printf 'int rpcrdma_status_test;\n' | gcc -c -x c - -o "$W/empty.o" ||
		die "gcc cannot build an object"
	if [ "$kind" = ours ]; then
		printf 'version=0.1\0parm=pdata:Exchange RFC 8797 private data\0parmtype=pdata:bool\0srcversion=%s\0license=GPL\0name=rpcrdma\0vermagic=x\0' "$src"
	else
		printf 'license=GPL\0name=rpcrdma\0vermagic=x\0'
	fi >"$W/modinfo.bin"
	mkdir -p "$(dirname "$out")"
	objcopy --add-section .modinfo="$W/modinfo.bin" \
		--set-section-flags .modinfo=alloc,readonly "$W/empty.o" "$out" ||
		die "objcopy failed"
}

# host NAME: a fresh root; kernel K1 runs
host() {
	R=$W/$1
	mkdir -p "$R/stub"
	printf '#!/bin/sh\nf=%s/pkgs; [ -e "$f" ] || exit 1\nfor p; do case $p in -*) ;; *) v=$(sed -n "s/^$p //p" "$f"); [ -n "$v" ] && printf "ii %%s" "$v" && exit 0;; esac; done\nexit 1\n' \
		"$R" >"$R/stub/dpkg-query"
	chmod +x "$R/stub/dpkg-query"
	# apt-cache madison PKG: the versions apt knows, from $R/madison
	printf '#!/bin/sh\n[ "$1" = madison ] || exit 1\ngrep "^ *$2 |" %s/madison\nexit 0\n' "$R" >"$R/stub/apt-cache"
	chmod +x "$R/stub/apt-cache"
	: >"$R/pkgs"
	: >"$R/madison"
}
# kernel K KIND...: install modules for K: stock under kernel/, ours
# under updates/dkms/ (KIND "ours[:SRC]"), ours as the prebuilt package
# installs it under updates/rpcrdma-cm/ (KIND "prebuilt[:SRC]"), headers
# with version V
kernel() {
	local k=$1 kind
	shift
	for kind in "$@"; do
		case $kind in
		stock) ko "$R/lib/modules/$k/kernel/net/sunrpc/xprtrdma/rpcrdma.ko" stock ;;
		ours*) ko "$R/lib/modules/$k/updates/dkms/rpcrdma.ko" ours "${kind#ours:}" ;;
		prebuilt*) ko "$R/lib/modules/$k/updates/rpcrdma-cm/rpcrdma.ko" ours "${kind#prebuilt:}" ;;
		headers=*)
			local -a v
			IFS=. read -ra v <<<"${kind#headers=}"
			mkdir -p "$R/lib/modules/$k/build"
			printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\n' \
				"${v[0]}" "${v[1]}" "${v[2]}" >"$R/lib/modules/$k/build/Makefile" ;;
		esac
	done
	depmod -b "$R" "$k" 2>/dev/null || die "depmod -b $R $k failed"
}
pkg() { echo "$1 $2" >>"$R/pkgs"; }
# loaded KIND [SRC]: /sys/module/rpcrdma of that module
loaded() {
	mkdir -p "$R/sys/module/rpcrdma/parameters"
	if [ "$1" = ours ]; then
		echo 1 >"$R/sys/module/rpcrdma/parameters/pdata"
		echo 0.1 >"$R/sys/module/rpcrdma/version"
		echo "${2:-AAAA}" >"$R/sys/module/rpcrdma/srcversion"
	fi
}
# debugfs SWI LONG LINE...: the module's debugfs files
debugfs() {
	local d=$R/sys/kernel/debug/rpcrdma_cm
	mkdir -p "$d"
	echo "$1" >"$d/swi_without_r"
	echo "$2" >"$d/recv_too_long"
	shift 2
	printf '%s\n' "$@" >"$d/connections"
}

run() {
	OUT=$(PATH=$R/stub:$PATH RPCRDMA_CM_STATUS_ROOT=$R RPCRDMA_CM_STATUS_KERNEL=$K1 \
		$STATUS_SH "$STATUS" "$@" 2>&1)
	RC=$?
}
# expect NAME RC VERDICT TEXT...: the case passes when the exit code is
# RC, the first line names VERDICT, and every TEXT is in the output
expect() {
	local name=$1 rc=$2 verdict=$3 t bad=''
	shift 3
	n=$((n + 1))
	[ "$RC" = "$rc" ] || bad+=" exit $RC (want $rc);"
	[[ $(head -n 1 <<<"$OUT") == "rpcrdma-cm-status: $verdict: "* ]] || bad+=" verdict '$(head -n 1 <<<"$OUT")' (want $verdict);"
	for t in "$@"; do
		grep -qF -- "$t" <<<"$OUT" || bad+=" no '$t';"
	done
	if [ -z "$bad" ]; then
		echo "status-test: PASS $name"
	else
		echo "status-test: FAIL $name:$bad" >&2
		printf '%s\n' "$OUT" | sed 's/^/    /' >&2
		failed=$((failed + 1))
	fi
}
# json EXPR WANT: a python expression over the JSON object j
json() {
	local got
	n=$((n + 1))
	got=$(python3 -c 'import json,sys; j=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1" <<<"$OUT") ||
		got="<not JSON: $(head -c 200 <<<"$OUT")>"
	if [ "$got" = "$2" ]; then
		echo "status-test: PASS json $1 == $2"
	else
		echo "status-test: FAIL json $1: $got (want $2)" >&2
		failed=$((failed + 1))
	fi
}

# this module on both sides at its defaults: the client Sends 4096 and
# Receives 8192, the server offers it a Send Size of 8192
LINE_OURS="role=client peer=10.0.2.1:20049 peer_pdata=present peer_send=8192 peer_recv=4096 peer_r=1 send=4096 recv=8192 reminv=1 recv_inv=872 swi_without_r=0 recv_too_long=0"
LINE_STOCK="role=client peer=10.0.2.2:20049 peer_pdata=present peer_send=4096 peer_recv=4096 peer_r=0 send=4096 recv=4096 reminv=0 recv_inv=57 swi_without_r=57 recv_too_long=0"
LINE_SRV="role=server peer=10.0.2.15:51283 peer_pdata=present peer_send=4096 peer_recv=8192 peer_r=1 send=8192 recv=4096 reminv=1 reply_chunks=140 short_replies=138"

# every case, run by the shell SH (dash as /bin/sh on Debian, busybox
# sh in the project's guests)
cases() {
	STATUS_SH=$1
	echo "status-test: with $STATUS_SH"
	host ok
	kernel $K1 stock ours:AAAA
	loaded ours AAAA
	debugfs 0 0 "$LINE_OURS" "$LINE_SRV"
	run
	expect ok 0 ok "this module (0.1), loaded, conforming peers" \
		"$K1 * this module 0.1 (/lib/modules/$K1/updates/dkms/rpcrdma.ko)" \
		"connections: 1 client, 1 server; non-conforming peers: 0 live"
	run --json
	json 'j["verdict"], j["exit"], j["loaded"]["matches_disk"]' "('ok', 0, True)"
	json 'j["connections"][0]["recv_inv"], j["connections"][1]["role"]' "(872, 'server')"
	run --quiet --prometheus "$R/rpcrdma-cm.prom"
	OUT=$(cat "$R/rpcrdma-cm.prom" 2>&1)
	expect_prom() {
		local t
		n=$((n + 1))
		for t in "$@"; do
			grep -qxF -- "$t" <<<"$OUT" || { echo "status-test: FAIL prometheus: no line '$t'" >&2; failed=$((failed + 1)); return; }
		done
		echo "status-test: PASS prometheus ($# lines)"
	}
	expect_prom 'rpcrdma_cm_status_verdict{verdict="ok"} 1' 'rpcrdma_cm_status_verdict{verdict="stock"} 0' \
		'rpcrdma_cm_status_exit_code 0' 'rpcrdma_cm_loaded{module="ours",version="0.1",matches_disk="1"} 1' \
		"rpcrdma_cm_kernel_module{kernel=\"$K1\",module=\"ours\",version=\"0.1\"} 1" \
		'rpcrdma_cm_connections{role="client"} 1' 'rpcrdma_cm_nonconforming_peers 0' \
		'rpcrdma_cm_swi_without_r_total 0'
	leftover=$(find "$R" -maxdepth 1 -name 'rpcrdma-cm.prom.*')
	[ "$RC" = 0 ] && [ -z "$leftover" ] ||
		{ echo "status-test: FAIL --quiet --prometheus: exit $RC, left $leftover" >&2; failed=$((failed + 1)); }

	# apt remove without a reload: the stock module is on disk, ours loaded
	host removed
	kernel $K1 stock
	loaded ours AAAA
	debugfs 0 0 "$LINE_OURS"
	run
	expect removed-not-reloaded 3 reload "the loaded rpcrdma is still this module (0.1), but modprobe would now load Debian's" \
		"rmmod rpcrdma; modprobe rpcrdma, or reboot" "loaded rpcrdma: this module 0.1, not the one on disk"

	# upgraded on disk, old build still loaded
	host upgraded
	kernel $K1 stock ours:BBBB
	loaded ours AAAA
	run
	expect upgraded 3 reload "is not the one on disk"

	# DKMS skipped the kernel: its linux-source is of another version
	host skipped
	kernel $K1 stock headers=6.1.192
	pkg rpcrdma-cm-dkms 0.1-1
	pkg linux-source-6.1 6.1.176-1
	loaded stock
	run
	expect source-mismatch 2 stock "linux-source-6.1 is 6.1.176, the kernel is 6.1.192" \
		"fix: apt install linux-source-6.1 (version 6.1.192)"
	run --json
	json 'j["kernels"][0]["module"], j["kernels"][0]["fix"]' "('stock', 'apt install linux-source-6.1 (version 6.1.192)')"

	# a kernel whose headers stayed in the archive, but not its source
	host nosource
	kernel $K1 stock headers=6.16.12
	pkg rpcrdma-cm-dkms 0.1-1
	pkg linux-headers-$K1 6.16.12-1~bpo13+1
	echo " linux-source-7.3 | 7.3.4-1~bpo13+1 | http://deb.debian.org/debian trixie-backports/main amd64 Packages" >"$R/madison"
	loaded stock
	run
	expect source-gone 2 stock "no apt source of this host carries linux-source-6.16 6.16.12-1~bpo13+1 any more" \
		"fix: boot a kernel whose linux-source apt carries (the newest of the suite $K1 came from), or build the module from a tree of 6.16.12: make install KVER=$K1 KSRC=<tree>"
	# the same kernel when apt still has its source: install it
	echo " linux-source-6.16 | 6.16.12-1~bpo13+1 | http://deb.debian.org/debian trixie-backports/main amd64 Packages" >>"$R/madison"
	run
	expect source-in-apt 2 stock "linux-source-6.16 is not installed (the build needs the kernel's own source, 6.16.12); fix: apt install linux-source-6.16"

	host nodkms
	kernel $K1 stock
	run
	expect no-package 2 stock "neither rpcrdma-cm-modules-$K1 (prebuilt) nor rpcrdma-cm-dkms is installed; fix: apt install rpcrdma-cm-modules-$K1 (no compiler needed; from a repository of make repo), or apt install rpcrdma-cm-dkms"

	# the prebuilt package (make deb, make repo): no DKMS, no headers
	host prebuilt
	kernel $K1 stock prebuilt:AAAA
	pkg "rpcrdma-cm-modules-$K1" 0.1+6.1.192.3
	loaded ours AAAA
	debugfs 0 0 "$LINE_OURS"
	run
	expect prebuilt 0 ok "this module (0.1), loaded, conforming peers" \
		"$K1 * this module 0.1 (/lib/modules/$K1/updates/rpcrdma-cm/rpcrdma.ko) from package rpcrdma-cm-modules-$K1"
	run --json
	json 'j["kernels"][0]["source"], j["kernels"][0]["shadowed"]' "('rpcrdma-cm-modules-$K1', '')"

	# the package is installed, its module is not what modprobe finds
	host prebuilt-nodepmod
	kernel $K1 stock
	pkg "rpcrdma-cm-modules-$K1" 0.1+6.1.192.3
	run
	expect prebuilt-nodepmod 2 stock "rpcrdma-cm-modules-$K1 is installed, but modprobe does not find its module; fix: depmod -a $K1"

	# both the package's module and a DKMS one (make dkms beside the
	# package): the one modprobe loads is named, the other as shadowed
	host both
	kernel $K1 stock ours:AAAA prebuilt:BBBB
	run --json
	json 'sorted([j["kernels"][0]["file"], j["kernels"][0]["shadowed"]])' \
		"['/lib/modules/$K1/updates/dkms/rpcrdma.ko', '/lib/modules/$K1/updates/rpcrdma-cm/rpcrdma.ko']"
	run
	expect both 5 not-loaded "which modprobe does not load (dkms status lists DKMS's)"

	host noheaders
	kernel $K1 stock
	pkg rpcrdma-cm-dkms 0.1-1
	run
	expect no-headers 2 stock "no headers for $K1; fix: apt install linux-headers-$K1"

	# Debian's stock server on the other end
	host stockpeer
	kernel $K1 stock ours:AAAA
	loaded ours AAAA
	debugfs 1 0 "$LINE_OURS" "$LINE_STOCK"
	run
	expect stock-server-peer 4 nonconforming "1 live connection(s); since it was loaded, 1 connection(s) whose server used Send With Invalidate without R, 0 Receive(s) too long"
	run --json
	json 'j["nonconforming_peers"], j["totals"]["swi_without_r"], j["connections"][1]["swi_without_r"]' "(1, 1, 57)"

	# a Reply that was too long: the connection is gone, the total stays
	host toolong
	kernel $K1 ours:AAAA
	loaded ours AAAA
	debugfs 0 1
	run
	expect reply-too-long 4 nonconforming "0 live connection(s)" "1 Receive(s) too long"

	host notloaded
	kernel $K1 stock ours:AAAA
	run
	expect not-loaded 5 not-loaded "this module (0.1) is installed for $K1 but not loaded"

	# the running kernel is fine; the next one would boot the stock module
	host otherkernel
	kernel $K1 stock ours:AAAA
	kernel $K2 stock headers=6.12.118
	pkg rpcrdma-cm-dkms 0.1-1
	loaded ours AAAA
	debugfs 0 0
	run
	expect other-kernel 6 other-kernel "1 other installed kernel(s) would boot Debian's rpcrdma" \
		"$K2 Debian's (/lib/modules/$K2/kernel/net/sunrpc/xprtrdma/rpcrdma.ko): linux-source-6.12 is not installed"

	# a host without any rpcrdma for the running kernel (not Debian's kernel)
	host bare
	run
	expect bare 2 stock "the running kernel $K1 has no rpcrdma module"

	run --bogus
	n=$((n + 1))
	if [ "$RC" = 1 ]; then echo "status-test: PASS usage error exits 1"; else
		echo "status-test: FAIL usage error: exit $RC" >&2; failed=$((failed + 1)); fi
}

cases sh
# root installs busybox, as every command installs what it needs
command -v busybox >/dev/null || [ "$(id -u)" -ne 0 ] || need_pkgs busybox
if command -v busybox >/dev/null; then
	cases "busybox sh"
else
	echo "status-test: no busybox and not root to install it: not run under busybox sh"
fi

[ "$failed" -eq 0 ] || die "status-test: $failed of $n checks failed"
msg "status-test: $n checks passed"
