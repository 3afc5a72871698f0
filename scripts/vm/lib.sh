#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host side of the NFS/RDMA VM rig. Source it; do not run it.
#
# Two QEMU (TCG) guests, "server" and "client", boot Debian's kernel of
# release $KVER, unpacked from its image packages into the cache (never
# installed on the host: kimage_ensure in scripts/kernels.sh), with a
# busybox initramfs (mkinitramfs.sh) and talk RoCEv2 (rdma_rxe,
# or siw with VM_RDMA=siw) over a QEMU socket network on 127.0.0.1.
# Each guest runs a script from scripts/vm/guest/ and reports with
# lines "RPCRDMA-STATUS: <check> PASS|FAIL <detail>" on its serial
# console; the host collects them from the console logs.
#
# Variables (environment):
#   RPCRDMA_KO    module under test (default build/$KVER/rpcrdma.ko;
#                 "stock" = Debian's own rpcrdma.ko)
#   VM_RDMA       rxe (default) or siw (uses build/$KVER/siw/siw.ko)
#   VM_RXE        which rdma_rxe the guests load over rxe: "stock" (Debian's;
#                 vmtest's default), "fixed" (build/$KVER/rxe/rdma_rxe.ko of
#                 make rxe, built or rebuilt to match scripts/coccinelle/rxe/
#                 or RXE_UPSTREAM=1; the default of make soak and of scenario
#                 14, which drop links: Debian's rxe never recovers from a
#                 failed send on its GSI QP, Documentation/investigations/
#                 rxe-gsi-qp-link-drop.md) or a path to an rdma_rxe.ko
#   VM_IBCORE     which ib_core and ib_cm both guests load: "stock"
#                 (Debian's, the default) or "fixed" (build/$KVER/ibcore/
#                 ib_core.ko and ib_cm.ko of make ibcore, built or rebuilt
#                 to match scripts/coccinelle/ibcore/: a CM message whose
#                 send fails locally is resent, Documentation/
#                 investigations/stale-server-connection.md; a DREQ that
#                 cannot be sent is reported, addr-change-kref.md)
#   VM_PCAP       write a pcap of the virtual wire to this path (1: to
#                 wire.pcap beside each pair's console logs)
#   VM_MEM        guest memory in MiB (default 512)
#   VM_ACCEL      tcg (default) or kvm
#   VM_CPU        QEMU -cpu model (default: max under TCG, host under KVM)
#   VM_SMP        vCPUs per guest (default 1)
#   VM_QEMU       the emulator: "system" (the host's qemu-system-x86_64),
#                 "backports" (the newest QEMU of the host family's
#                 backports suite, unpacked into the cache, not installed;
#                 QEMU 10.0 on Debian 12) or a path to a binary; default:
#                 the kernel's qemu column in scripts/kernels.tab
#   VM_TIMEOUT    seconds a client script may run (default 240)
#   VM_BOOT_TIMEOUT  seconds the server may take to boot (default 90; nfsd
#                 gets 30 more)
#   VM_KEEP_LOGS  logs are kept in build/vm/<KVER>/logs/ anyway; set
#                 VM_VERBOSE=1 to echo guest status lines while waiting
#   VM_EXTRA_BINS host binaries to copy into the guests' /usr/local/bin
#   VM_APPEND     more kernel command line for the guests
#   VM_GUEST_ENV  "VAR=VALUE ..." put in every guest's /vm/env (before a
#                 pair's own variables, which win)
#   VM_OVERLAY_FILES  "SRC=DEST ..." host files put at DEST in both guests
#                 of every pair (e.g. a KUnit module for make debugtest)

VMDIR=${VMDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
# shellcheck source=scripts/lib.sh
. "$VMDIR/../lib.sh"

KVER=${KVER:-$(kver_default)}
if [ -z "$KVER" ]; then
	for k in /lib/modules/*/kernel; do
		[ -d "$k" ] && KVER=$(basename "$(dirname "$k")")
	done
fi
export KVER
VMBUILD=$BUILD/vm/$KVER
VM_SERVER_IP=10.99.0.1
VM_CLIENT_IP=10.99.0.2
VM_RDMA=${VM_RDMA:-rxe}
# what the user asked for (a scenario that drops links takes "fixed"
# when nothing was asked: scenarios/14-link-drops.sh)
# shellcheck disable=SC2034
VM_RXE_GIVEN=${VM_RXE:-}
VM_RXE=${VM_RXE:-stock}
VM_IBCORE=${VM_IBCORE:-stock}
VM_MEM=${VM_MEM:-512}
VM_TIMEOUT=${VM_TIMEOUT:-240}
# QEMU accelerator: TCG unless VM_ACCEL=kvm is asked for; KVM guests
# hung on the machines the rig was written for.
VM_ACCEL=${VM_ACCEL:-tcg}
# QEMU CPU model: the host's under KVM, else everything TCG emulates.
if [ -z "${VM_CPU:-}" ]; then
	VM_CPU=max
	[ "$VM_ACCEL" = kvm ] && VM_CPU=host
fi
VM_SMP=${VM_SMP:-1}
# The QEMU a kernel boots with is a column of scripts/kernels.tab (the one
# place per-kernel choices live); a release the table does not know gets
# the host's own.
[ -n "${VM_QEMU:-}" ] || VM_QEMU=$(ktab_field "$KVER" 7)
VM_QEMU=${VM_QEMU:-system}
# What makes a guest log a failure, whatever the scripts reported.
# KASAN and kmemleak-era reports start with BUG:, lockdep's with WARNING:,
# UBSAN's with UBSAN: (make debugtest).
VM_BAD_RE='BUG:|WARNING:|Oops|Call Trace|general protection|Kernel panic|UBSAN:'
# a guest's transmit watchdog: the kernel's NETDEV WATCHDOG and
# virtio_net's own line, both every 5 s while a queue stays stopped
VM_TXSTALL_RE='NETDEV WATCHDOG|TX timeout on queue'
mkdir -p "$VMBUILD"

VM_PIDS=()

# vm_need_host: packages the rig needs on the host, and the guests'
# kernel: Debian's image of $KVER unpacked into the cache. Sets
# VM_KERNEL and VM_MODDIR (the pristine modules tree of that image).
vm_need_host() {
	need_pkgs busybox-static iproute2 kmod \
		rdma-core ibverbs-providers ibverbs-utils qemu-system-x86 ipxe-qemu seabios cpio binutils \
		netbase libtirpc-common xz-utils
	vm_nfs_pkgs
	vm_qemu_ensure
	kimage_ensure
	VM_KERNEL=$KIMAGE_VMLINUZ
	VM_MODDIR=$KIMAGE_MODDIR
	[ -d "$VM_MODDIR/kernel" ] ||
		die "no kernel/ in $VM_MODDIR; remove $(kimage_dir) and retry"
}

# The NFS packages whose programs the guests run. They are unpacked into
# the cache, never installed: installing nfs-kernel-server and
# nfs-common would enable and start an NFS server, rpcbind and statd on
# the host, which a user running make demo did not ask for. Only their
# libraries are installed; libraries start nothing.
VM_NFS_PKGS=(nfs-kernel-server nfs-common)

# vm_nfs_pkgs: VM_NFS_ROOT, the host release's VM_NFS_PKGS unpacked
# into $RPCRDMA_CM_CACHE/guest-pkgs/, fetched again when apt's
# candidate versions change.
vm_nfs_pkgs() {
	local dir want libs tmp deb
	dir=$RPCRDMA_CM_CACHE/guest-pkgs/$(. /etc/os-release && echo "$VERSION_CODENAME")
	want=$(vm_nfs_versions)
	if [ -z "$want" ] && [ -s "$dir/.complete" ] && offline; then
		VM_NFS_ROOT=$dir/root
		return 0
	fi
	if [ -z "$want" ] && ! offline; then
		msg "reading the host's package lists for ${VM_NFS_PKGS[*]} (apt-get update)"
		apt-get -o DPkg::Lock::Timeout=600 update -q >"$BUILD/apt.log" 2>&1 ||
			die "apt-get update failed: $(net_hint "$BUILD/apt.log")"
		want=$(vm_nfs_versions)
	fi
	[ -n "$want" ] ||
		die "apt knows no ${VM_NFS_PKGS[*]} for this host; check /etc/apt/sources.list (Debian's main)"
	# their libraries (Depends: lib*), for ldd when the initramfs is built
	mapfile -t libs < <(apt-cache depends --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances "${VM_NFS_PKGS[@]}" |
		awk '$1 ~ /Depends:$/ && $2 ~ /^lib/ {print $2}' | sort -u)
	need_pkgs "${libs[@]}"
	VM_NFS_ROOT=$dir/root
	[ "$(cat "$dir/.complete" 2>/dev/null)" = "$want" ] && return 0
	offline && die "the guests' NFS programs (${VM_NFS_PKGS[*]}) are not in the cache and RPCRDMA_CM_OFFLINE=1 fetches nothing"
	msg "fetching ${VM_NFS_PKGS[*]} for the guests (unpacked into the cache, not installed on this host)"
	mkdir -p "$dir" || die "cannot create $dir"
	tmp=$(mktemp -d "$dir/.new.XXXXXX") || die "cannot write in $dir"
	(cd "$tmp" && apt-get download -q "${VM_NFS_PKGS[@]}") >"$BUILD/apt.log" 2>&1 ||
		{ rm -rf "$tmp"; die "apt-get download ${VM_NFS_PKGS[*]} failed: $(net_hint "$BUILD/apt.log")"; }
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$tmp/root" ||
			{ rm -rf "$tmp"; die "cannot unpack $deb"; }
	done
	rm -f "$tmp"/*.deb "$dir/.complete"
	rm -rf "$dir/root"
	mv "$tmp/root" "$dir/root" && rmdir "$tmp" && echo "$want" >"$dir/.complete" ||
		die "cannot move the unpacked packages into $dir"
}

# vm_nfs_versions: apt's candidate versions of VM_NFS_PKGS, one line;
# empty when apt knows one of them not.
vm_nfs_versions() {
	local p v out=''
	for p in "${VM_NFS_PKGS[@]}"; do
		v=$(apt-cache policy "$p" 2>/dev/null | awk '$1 == "Candidate:" {print $2}')
		[ -n "$v" ] && [ "$v" != "(none)" ] || return 0
		out+="$p=$v "
	done
	echo "${out% }"
}

# vm_nfs_bin PATH: the unpacked program of PATH (/usr/sbin/rpc.nfsd):
# under /usr, or under / for a package of a release before the /usr
# merge (bookworm's nfs-common: /sbin/mount.nfs).
vm_nfs_bin() {
	local f
	for f in "$VM_NFS_ROOT$1" "$VM_NFS_ROOT${1#/usr}"; do
		[ -x "$f" ] && { echo "$f"; return 0; }
	done
	die "${VM_NFS_PKGS[*]} of this host's release have no ${1##*/} (looked in $VM_NFS_ROOT)"
}

# vm_qemu_ensure: set VM_QEMU_BIN (and VM_QEMU_ARGS: firmware search
# path) for VM_QEMU.
vm_qemu_ensure() {
	local fam ver dir
	VM_QEMU_ARGS=()
	case $VM_QEMU in
	system) VM_QEMU_BIN=qemu-system-x86_64 ;;
	backports)
		# "a QEMU of 8 or later": the host's own when it is (Debian
		# 13's 10.0), else the newest of its release's backports
		if [ "$(qemu-system-x86_64 --version 2>/dev/null |
			sed -n '1s/^QEMU emulator version \([0-9]*\).*/\1/p')" -ge 8 ] 2>/dev/null; then
			VM_QEMU=system
			vm_qemu_ensure
			return
		fi
		fam=$(host_family)
		ver=$(suite_version qemu-system-x86 "$fam-backports")
		[ -n "$ver" ] || die "VM_QEMU=backports: $fam-backports has no qemu-system-x86 (set VM_QEMU=system to use the host's)"
		dir=$RPCRDMA_CM_CACHE/qemu/${ver//[:~+]/_}
		if [ ! -x "$dir/root/usr/bin/qemu-system-x86_64" ]; then
			msg "VM_QEMU=backports: unpacking qemu-system-x86 $ver from $fam-backports into the cache"
			rm -rf "$dir"
			mkdir -p "$dir/debs" || die "cannot create $dir"
			(cd "$dir/debs" && papt apt-get -q download "qemu-system-x86=$ver" \
				"qemu-system-common=$ver" "qemu-system-data=$ver") >"$dir/download.log" 2>&1 ||
				die "cannot download QEMU $ver (see $dir/download.log)"
			for p in "$dir"/debs/*.deb; do dpkg-deb -x "$p" "$dir/root.new" || die "cannot unpack $p"; done
			rm -rf "$dir/debs"
			mv "$dir/root.new" "$dir/root"
		fi
		VM_QEMU_BIN=$dir/root/usr/bin/qemu-system-x86_64
		VM_QEMU_ARGS=(-L "$dir/root/usr/share/qemu" -L /usr/share/qemu -L /usr/share/seabios)
		;;
	*) VM_QEMU_BIN=$VM_QEMU ;;
	esac
	"$VM_QEMU_BIN" --version >/dev/null 2>&1 ||
		die "VM_QEMU=$VM_QEMU: $VM_QEMU_BIN does not run (missing libraries? try VM_QEMU=system)"
	VM_QEMU_VERSION=$("$VM_QEMU_BIN" --version | sed -n '1s/^QEMU emulator version \([^ ]*\).*/\1/p')
}

# vm_module_path WHICH: resolve "ours"/"stock"/a path to a .ko file
# (empty output for stock).
vm_module_path() {
	case $1 in
	stock) echo "" ;;
	ours | "") echo "${VM_OURS_KO-${RPCRDMA_KO:-$BUILD/$KVER/rpcrdma.ko}}" ;;
	*) echo "$1" ;;
	esac
}

# vm_ensure_siw: siw.ko for $KVER (SIW_KO, else the build tree's), built
# with 'make siw' when it is missing from its build tree or was built with
# other fixes than scripts/coccinelle/siw/ (or SIW_UPSTREAM=1) call for; a
# path the user gave elsewhere is taken as it is.
vm_ensure_siw() {
	local ko=${SIW_KO:-$BUILD/$KVER/siw/siw.ko} want have
	case $ko in
	*/"$KVER"/siw/siw.ko) ;;
	*)
		[ -f "$ko" ] || die "SIW_KO=$ko does not exist; build siw.ko with 'make siw' or unset SIW_KO"
		return 0 ;;
	esac
	want=$(siw_fixes_id)
	have=$(cat "${ko%/siw.ko}/fixes-id" 2>/dev/null || echo none)
	[ -f "$ko" ] && [ -f "${ko%/ib_core.ko}/ib_cm.ko" ] && [ "$have" = "$want" ] && return 0
	if [ -f "$ko" ]; then
		msg "siw.ko for $KVER was built with fixes '$have', '$want' wanted: rebuilding it ('make siw')"
	else
		msg "no siw.ko for $KVER yet: building it first ('make siw', about a minute)"
	fi
	BUILD=${ko%/"$KVER"/siw/siw.ko} "$TOP/scripts/siw.sh" ||
		die "'make siw' failed for $KVER; see ${ko%/siw/siw.ko}/siw-build.log"
}

# vm_rxe_ko: the rdma_rxe.ko VM_RXE names (empty output for stock).
vm_rxe_ko() {
	case $VM_RXE in
	stock) echo "" ;;
	fixed) echo "${RXE_KO:-$BUILD/$KVER/rxe/rdma_rxe.ko}" ;;
	*.ko) echo "$VM_RXE" ;;
	*) die "VM_RXE=$VM_RXE: say stock (Debian's rdma_rxe), fixed (make rxe's) or a path to an rdma_rxe.ko" ;;
	esac
}

# vm_ensure_rxe: with VM_RXE=fixed, make rxe's rdma_rxe.ko for $KVER,
# built (again) when it is missing or was built with other fixes than
# scripts/coccinelle/rxe/ (or RXE_UPSTREAM=1) call for; a path given
# elsewhere is taken as it is, after a vermagic check.
vm_ensure_rxe() {
	local ko want have
	ko=$(vm_rxe_ko)
	[ -n "$ko" ] || return 0
	case $VM_RXE:$ko in
	fixed:*/"$KVER"/rxe/rdma_rxe.ko) ;;
	*)
		[ -f "$ko" ] || die "VM_RXE=$VM_RXE: $ko does not exist; build it with 'make rxe' (or say VM_RXE=fixed)"
		return 0 ;;
	esac
	want=$("$TOP/scripts/rxe.sh" fixes-id)
	have=$(cat "${ko%/rdma_rxe.ko}/fixes-id" 2>/dev/null || echo none)
	[ -f "$ko" ] && [ -f "${ko%/ib_core.ko}/ib_cm.ko" ] && [ "$have" = "$want" ] && return 0
	if [ -f "$ko" ]; then
		msg "rdma_rxe.ko for $KVER was built with fixes '$have', '$want' wanted: rebuilding it ('make rxe')"
	else
		msg "no rdma_rxe.ko for $KVER yet: building it first ('make rxe', about a minute)"
	fi
	BUILD=${ko%/"$KVER"/rxe/rdma_rxe.ko} "$TOP/scripts/rxe.sh" ||
		die "'make rxe' failed for $KVER; see ${ko%/rxe/rdma_rxe.ko}/rxe-build.log"
}

# vm_ibcore_ko: the ib_core.ko VM_IBCORE names (empty output for stock).
vm_ibcore_ko() {
	case $VM_IBCORE in
	stock) echo "" ;;
	fixed) echo "${IBCORE_KO:-$BUILD/$KVER/ibcore/ib_core.ko}" ;;
	*) die "VM_IBCORE=$VM_IBCORE: say stock (Debian's ib_core) or fixed (make ibcore's)" ;;
	esac
}

# vm_ensure_ibcore: with VM_IBCORE=fixed, make ibcore's ib_core.ko for
# $KVER, built (again) when it is missing or was built with other fixes
# than scripts/coccinelle/ibcore/ call for.
vm_ensure_ibcore() {
	local ko want have
	ko=$(vm_ibcore_ko)
	[ -n "$ko" ] || return 0
	want=$("$TOP/scripts/ibcore.sh" fixes-id)
	have=$(cat "${ko%/ib_core.ko}/fixes-id" 2>/dev/null || echo none)
	[ -f "$ko" ] && [ -f "${ko%/ib_core.ko}/ib_cm.ko" ] && [ "$have" = "$want" ] && return 0
	if [ -f "$ko" ]; then
		msg "ib_core.ko for $KVER was built with fixes '$have', '$want' wanted: rebuilding it ('make ibcore')"
	else
		msg "no ib_core.ko for $KVER yet: building it first ('make ibcore', about a minute)"
	fi
	BUILD=${ko%/"$KVER"/ibcore/ib_core.ko} "$TOP/scripts/ibcore.sh" ||
		die "'make ibcore' failed for $KVER; see ${ko%/ibcore/ib_core.ko}/ibcore-build.log"
}

# vm_prepare: install what is missing and build the base initramfs.
vm_prepare() {
	vm_need_host
	[ "$VM_RDMA" != siw ] || vm_ensure_siw
	if [ "$VM_RDMA" = rxe ] && [ "$VM_RXE" != stock ]; then
		vm_ensure_rxe
		vm_check_vermagic "$(vm_rxe_ko)"
		msg "rdma_rxe: $VM_RXE ($(vm_rxe_ko | sed "s|^$TOP/||"), fixes $(cat "$(dirname "$(vm_rxe_ko)")/fixes-id" 2>/dev/null || echo unknown), build-id $(vm_buildid "$(vm_rxe_ko)"))"
	fi
	if [ "$VM_IBCORE" != stock ]; then
		vm_ensure_ibcore
		vm_check_vermagic "$(vm_ibcore_ko)"
		msg "ib_core: $VM_IBCORE ($(vm_ibcore_ko | sed "s|^$TOP/||"), fixes $(cat "$(dirname "$(vm_ibcore_ko)")/fixes-id"), build-id $(vm_buildid "$(vm_ibcore_ko)"))"
	fi
	msg "kernel $KVER, QEMU $VM_QEMU_VERSION ($VM_QEMU), -smp $VM_SMP, -cpu $VM_CPU"
	"$VMDIR/mkinitramfs.sh" || die "building the VM initramfs failed"
	# A snapshot of the module under test: the build may replace it while
	# the VMs run.
	local ko=${RPCRDMA_KO:-$BUILD/$KVER/rpcrdma.ko}
	if [ "$ko" = stock ]; then
		VM_OURS_KO=
	else
		[ -f "$ko" ] || die "no module under test at $ko; run 'make module' (or set RPCRDMA_KO=<path to rpcrdma.ko>, or RPCRDMA_KO=stock for Debian's)"
		vm_check_vermagic "$ko"
		VM_OURS_KO=$VMBUILD/rpcrdma-under-test.$$.ko
		cp "$ko" "$VM_OURS_KO"
		msg "module under test: ${ko#"$TOP"/} ($(modinfo -F version "$ko" 2>/dev/null || echo no version), build-id $(vm_buildid "$ko"))"
	fi
	trap vm_cleanup EXIT
	trap 'vm_cleanup; exit 130' INT TERM
	# One directory per run (suites may run side by side), the newest
	# linked as logs/latest; the 20 newest are kept.
	VM_RUNDIR=$VMBUILD/logs/$(date +%Y%m%d-%H%M%S)-$$
	mkdir -p "$VM_RUNDIR"
	ln -sfn "$(basename "$VM_RUNDIR")" "$VMBUILD/logs/latest"
	local old
	for old in $(find "$VMBUILD/logs" -mindepth 1 -maxdepth 1 -type d -name '20*' | sort -r | tail -n +21); do
		rm -rf "$old"
	done
}

# vm_check_vermagic KO: stop unless KO was built for the image the
# guests boot (same vermagic as the image's own rpcrdma.ko): a module
# built from other headers would be refused at load time, or worse.
vm_check_vermagic() {
	local want got
	# kmod reads compressed modules itself (Debian's kmod has xz and zstd)
	want=$(modinfo -F vermagic "$(vm_stock_rpcrdma)")
	got=$(modinfo -F vermagic "$1")
	[ -n "$want" ] || die "cannot read the vermagic of $(vm_stock_rpcrdma)"
	[ "$got" = "$want" ] ||
		die "${1#"$TOP"/} has vermagic '$got' but Debian's $KVER image expects '$want': rebuild it (make module KVER=$KVER FORCE=1)"
}

# vm_cleanup: kill every QEMU this shell started.
vm_cleanup() {
	local p
	for p in "${VM_PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${VM_PIDS[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	VM_PIDS=()
	if [ -n "${VM_OURS_KO:-}" ]; then rm -f "$VM_OURS_KO"; fi
}

# vm_overlay OUT ROLE KO PARAMS SCRIPT [VAR=VALUE...]: the per-VM archive
# appended to the base initramfs: /vm/env, the scenario script as
# /vm/run.sh, and the module under test in updates/ (none = stock).
vm_overlay() {
	local out=$1 role=$2 ko=$3 params=$4 script=$5 d kv
	shift 5
	d=$(mktemp -d "$VMBUILD/ovl.XXXXXX")
	# /lib is a symlink to usr/lib in the base image: never a directory here
	mkdir -p "$d/vm" "$d/usr/lib/modules/$KVER/updates" "$d/usr/lib/modules/$KVER/extra"
	{
		echo "VM_ROLE=$role"
		echo "VM_RDMA=$VM_RDMA"
		if [ "$VM_RDMA" = rxe ] && [ "$VM_RXE" != stock ]; then
			echo "RXE_MODULE=$VM_RXE"
			echo "RXE_BUILDID=$(vm_buildid "$(vm_rxe_ko)")"
		else
			echo "RXE_MODULE=stock"
		fi
		echo "IBCORE_MODULE=$VM_IBCORE"
		if [ "$VM_IBCORE" != stock ]; then
			echo "IBCORE_BUILDID=$(vm_buildid "$(vm_ibcore_ko)")"
			echo "IBCM_BUILDID=$(vm_buildid "$(dirname "$(vm_ibcore_ko)")/ib_cm.ko")"
		fi
		echo "VM_SERVER_IP=$VM_SERVER_IP"
		echo "VM_CLIENT_IP=$VM_CLIENT_IP"
		printf 'RPCRDMA_PARAMS=%q\n' "$params"
		echo "RPCRDMA_MODULE=${ko:+ours}"
		echo "RPCRDMA_MODULE=\${RPCRDMA_MODULE:-stock}"
		echo "RPCRDMA_BUILDID=$(vm_buildid "${ko:-$(vm_stock_rpcrdma)}")"
		for kv in ${VM_GUEST_ENV:-} "$@"; do
			printf '%s=%q\n' "${kv%%=*}" "${kv#*=}"
		done
	} >"$d/vm/env"
	cp "$script" "$d/vm/run.sh"
	for kv in ${VM_OVERLAY_FILES:-}; do
		mkdir -p "$d/$(dirname "${kv#*=}")"
		cp "${kv%%=*}" "$d/${kv#*=}" || die "VM_OVERLAY_FILES: cannot copy ${kv%%=*}"
	done
	if [ -n "$ko" ]; then
		[ -f "$ko" ] || die "module under test $ko does not exist; run 'make module' or set RPCRDMA_KO=<path> (RPCRDMA_KO=stock for Debian's)"
		cp "$ko" "$d/usr/lib/modules/$KVER/updates/rpcrdma.ko"
	fi
	if [ "$VM_RDMA" = siw ]; then
		local siw=${SIW_KO:-$BUILD/$KVER/siw/siw.ko}
		[ -f "$siw" ] || die "VM_RDMA=siw needs $siw; run 'make siw'"
		cp "$siw" "$d/usr/lib/modules/$KVER/extra/siw.ko"
	fi
	if [ "$VM_RDMA" = rxe ] && [ "$VM_RXE" != stock ]; then
		local rxe
		rxe=$(vm_rxe_ko)
		[ -f "$rxe" ] || die "VM_RXE=$VM_RXE needs $rxe; run 'make rxe'"
		cp "$rxe" "$d/usr/lib/modules/$KVER/updates/rdma_rxe.ko"
	fi
	if [ "$VM_IBCORE" != stock ]; then
		cp "$(vm_ibcore_ko)" "$(dirname "$(vm_ibcore_ko)")/ib_cm.ko" "$d/usr/lib/modules/$KVER/updates/" ||
			die "VM_IBCORE=$VM_IBCORE: cannot copy $(vm_ibcore_ko) and the ib_cm.ko beside it (make ibcore builds both)"
	fi
	(cd "$d" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --quiet --owner=0:0) >"$out.ovl" ||
		die "cpio failed for $out"
	cat "$VMBUILD/base.cpio" "$out.ovl" >"$out"
	rm -rf "$d" "$out.ovl"
}

# vm_buildid KO: the GNU build ID of a module file (hex).
# Distro modules may be compressed (Debian's 6.12 ships .ko.xz).
vm_buildid() {
	local tmp

	case $1 in
	*.xz | *.zst | *.gz)
		tmp=$(mktemp) || return
		case $1 in
		*.xz) xz -dc "$1" ;;
		*.zst) zstd -qdc "$1" ;;
		*.gz) gzip -dc "$1" ;;
		esac >"$tmp" 2>/dev/null
		vm_buildid "$tmp"
		rm -f "$tmp"
		;;
	*) readelf -n "$1" 2>/dev/null | awk '/Build ID:/ {print $3; exit}' ;;
	esac
}

# vm_stock_rpcrdma: Debian's own rpcrdma.ko for $KVER, from the unpacked
# image, whatever its compression.
vm_stock_rpcrdma() {
	local f

	for f in "$VM_MODDIR/kernel/net/sunrpc/xprtrdma/rpcrdma.ko"{,.xz,.zst,.gz}; do
		[ -e "$f" ] && { echo "$f"; return; }
	done
	die "no stock rpcrdma.ko under $VM_MODDIR/kernel/net/sunrpc/xprtrdma; remove $(kimage_dir) and retry"
}

# vm_port: a free TCP port on 127.0.0.1 for the socket network.
vm_port() {
	local p
	for _ in $(seq 50); do
		p=$((20000 + RANDOM % 20000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
	done
	die "no free TCP port found on 127.0.0.1"
}

# vm_nic_mac ROLE N: the MAC of a guest's NIC N (0: its first, eth0):
# 52:54:00:52:<44 + N>:01 on the server, :02 on a client, so both ends
# of link N differ in the last octet only and every server NIC is told
# apart from the others (make scale: scripts/vm/scale.sh).
vm_nic_mac() {
	local last=01
	[ "$1" = server ] || last=02
	printf '52:54:00:52:%02x:%s\n' $((0x44 + $2)) "$last"
}

# vm_start NAME ROLE INITRD LOG NETARG [NETARG...]: boot one guest in the
# background; its PID lands in VM_PID and VM_PIDS. Each NETARG is a
# socket netdev's "listen=..." or "connect=..." and gets a virtio NIC of
# its own, in order (the guest's eth0 first; the extra NICs' MACs from
# vm_nic_mac, so the guest finds them by MAC: VM_EXTRA_NICS in
# guest/lib.sh). VM_MAC, if set, is the first NIC's MAC instead of the
# role's (a client on the server's link N: vm_nic_mac client N).
vm_start() {
	local name=$1 role=$2 initrd=$3 log=$4 net=$5 mac dump=() nics=() i=0 extra
	shift 5
	for extra in "$@"; do
		i=$((i + 1))
		nics+=(-netdev "socket,id=n$i,$extra"
			-device "virtio-net-pci,id=nic$i,netdev=n$i,mac=$(vm_nic_mac "$role" $i)")
	done
	if [ "$role" = server ]; then
		mac=52:54:00:52:44:01
		case ${VM_PCAP:-} in
		"") ;;
		1) dump=(-object "filter-dump,id=dump0,netdev=n0,file=$(dirname "$log")/wire.pcap") ;;
		*) dump=(-object "filter-dump,id=dump0,netdev=n0,file=$VM_PCAP") ;;
		esac
	else
		mac=52:54:00:52:44:02
	fi
	mac=${VM_MAC:-$mac}
	: >"$log"
	# the monitor, for vm_blackbox: two FIFOs beside the log
	rm -f "$log.mon.in" "$log.mon.out" "$log.blackbox"
	mkfifo "$log.mon.in" "$log.mon.out" || die "cannot create the monitor FIFOs beside $log"
	# no_timer_check: a TCG guest on a busy host can miss the IO-APIC timer
	# check at boot and panic ("IO-APIC + timer doesn't work!"); KVM guests
	# skip that check by themselves; TCG guests are told to.
	"$VM_QEMU_BIN" "${VM_QEMU_ARGS[@]}" -name "rpcrdma-$name" -machine "q35,accel=$VM_ACCEL" \
		-cpu "$VM_CPU" -smp "$VM_SMP" -m "$VM_MEM" -nodefaults -display none \
		-no-reboot -kernel "$VM_KERNEL" -initrd "$initrd" \
		-append "console=ttyS0 loglevel=5 panic=-1 rdinit=/init no_timer_check sysrq_always_enabled${VM_APPEND:+ $VM_APPEND}" \
		-serial "file:$log" -monitor "pipe:$log.mon" \
		-netdev "socket,id=n0,$net" \
		-device "virtio-net-pci,id=nic0,netdev=n0,mac=$mac" "${dump[@]}" "${nics[@]}" \
		</dev/null >"$log.qemu" 2>&1 &
	VM_PID=$!
	VM_PIDS+=("$VM_PID")
}

# vm_listening PORT PID: wait (30 s at most) until a TCP socket listens
# on 127.0.0.1:PORT, the server QEMU's netdev; fail when PID exits first.
# ss looks without connecting: a connection would be taken for the peer.
vm_listening() {
	local _
	for _ in $(seq 150); do
		[ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ] && return 0
		vm_alive "$2" || return 1
		sleep 0.2
	done
	return 1
}

# vm_alive PID
vm_alive() { kill -0 "$1" 2>/dev/null; }

# vm_wait LOG PID PATTERN TIMEOUT WHAT: wait until PATTERN (ERE) is in
# LOG; fail when the guest dies or TIMEOUT passes. Says what it waits
# for every 15 s.
vm_wait() {
	local log=$1 pid=$2 re=$3 t=$4 what=$5 start=$SECONDS next=15
	VM_WAIT_ERR=
	while ! grep -aqE "$re" "$log" 2>/dev/null; do
		if ! vm_alive "$pid"; then
			grep -aqE "$re" "$log" && return 0
			VM_WAIT_ERR="guest exited before $what"
			return 1
		fi
		if [ $((SECONDS - start)) -ge "$t" ]; then
			VM_WAIT_ERR="timeout after ${t}s waiting for $what"
			return 1
		fi
		if [ $((SECONDS - start)) -ge $next ]; then
			msg "  ... still waiting for $what ($((SECONDS - start))s, last: $(vm_last_status "$log"))"
			next=$((next + 15))
		fi
		sleep 1
	done
}

# vm_last_status LOG: the last status/progress line of a guest.
vm_last_status() {
	grep -aoE 'RPCRDMA-(STATUS|STEP): .*' "$1" 2>/dev/null | tail -1 | tr -d '\r' |
		sed 's/^RPCRDMA-//' | cut -c1-100
}

# vm_fails LOG...: the first three FAIL status lines, on one line.
vm_fails() {
	grep -ahoE 'RPCRDMA-STATUS: [^ ]+ FAIL.*' "$@" 2>/dev/null | tr -d '\r' |
		sed 's/^RPCRDMA-STATUS: //' | head -3 | paste -sd';' -
}

# vm_bad_lines LOG: kernel trouble lines in a guest log (not the guest
# scripts' RPCRDMA-DIAG and RPCRDMA-HUNG lines: they quote dmesg, stacks
# included, and whoever prints them judges what they show; nor the
# stacks vm_blackbox asked for after the failure).
vm_bad_lines() {
	local n
	n=$(cat "$1.blackbox" 2>/dev/null || stat -c %s "$1" 2>/dev/null || echo 0)
	head -c "$n" "$1" 2>/dev/null | grep -aE "$VM_BAD_RE" | tr -d '\r' |
		grep -avE '^RPCRDMA-(DIAG|HUNG): ' || true
}

# vm_monitor LOG CMD...: send monitor commands to LOG's QEMU; their
# answers are appended to LOG.regs (the monitor's echo of each command,
# redrawn key by key, reduced to one "(qemu) CMD" line). The reader runs
# while they are sent: a FIFO nobody reads would stall QEMU on a long
# answer.
vm_monitor() {
	local log=$1 c reader
	shift
	[ -p "$log.mon.in" ] || return 0
	timeout $((5 + 3 * $#)) cat "$log.mon.out" >"$log.mon.raw" 2>/dev/null &
	reader=$!
	for c in "$@"; do
		timeout 5 sh -c 'printf "%s\n" "$1" >"$2"' sh "$c" "$log.mon.in" 2>/dev/null || break
		sleep "${VM_MONITOR_PAUSE:-2}"
	done
	sleep 1
	kill "$reader" 2>/dev/null
	wait "$reader" 2>/dev/null
	tr -d '\r' <"$log.mon.raw" |
		sed -E -e 's/^(\(qemu\) )?[^\x1b]*\x1b.*\x1b\[D([^\x1b]*)\x1b\[K$/(qemu) \2/' \
			-e '/^\(qemu\) $/d' >>"$log.regs"
	rm -f "$log.mon.raw"
}

# vm_netstate LOG PID: what LOG's QEMU (PID) holds of the guests' link:
# its netdev and the virtio-net device's queues (RX 0, TX 1: the guest's
# buffers given, used and still in flight). With the host's socket queues
# (vm_netwatch), this tells a guest that stopped taking packets from a
# QEMU that stopped passing them. A guest that powered off has nothing to
# say, and its FIFOs no reader: skipped. virtio-queue-status gives
# QEMU's own indices (last_avail_idx: the next buffer it takes;
# shadow_avail_idx: the guest's index when QEMU last looked);
# virtio-queue-element, asked after it (reading the ring refreshes the
# shadow), gives the guest's avail index as it is in guest memory now:
# buffers the guest posted that QEMU never took (vm_vq_state).
vm_netstate() {
	local dev=/machine/peripheral/nic0/virtio-backend
	local -a xp
	vm_alive "$2" || return 0
	vm_monitor "$1" 'info network' "info virtio-status $dev" \
		"info virtio-queue-status $dev 0" "info virtio-queue-status $dev 1" \
		"info virtio-queue-element $dev 0" "info virtio-queue-element $dev 1"
	mapfile -t xp < <(vm_ring_xp "$1.regs")
	[ ${#xp[@]} = 0 ] || VM_MONITOR_PAUSE=1 vm_monitor "$1" "${xp[@]}"
}

# vm_ring_xp REGS: monitor commands that read the guest's side of each
# virtio-net ring that REGS (vm_netstate's output) names, from guest
# memory: the avail ring's flags and idx and its used_event, the used
# ring's flags and idx and its avail_event. QEMU's shadow_avail_idx is
# only what it last read; a guest avail idx beyond QEMU's last_avail_idx
# with nothing in use is buffers QEMU was not told of (a lost kick), a
# used idx the guest has not reclaimed with the queue stopped is a lost
# interrupt (Documentation/investigations/sc7-hang-61.md).
vm_ring_xp() {
	local num av us
	# only the virtio-queue-status blocks: the element blocks after them
	# have "avail:" and "used:" lines of their own, with no address
	awk '/^\(qemu\) / { q = ($3 == "virtio-queue-status") ? $NF : ""; next }
	     q == "" { next }
	     /^ *num:/ { n[q] = $2 }
	     /^ *avail:/ { a[q] = $2 }
	     /^ *used:/ { u[q] = $2 }
	     END { for (q in n) if (a[q] != "" && u[q] != "") print q, n[q], a[q], u[q] }' "$1" 2>/dev/null |
		sort -n | while read -r _ num av us; do
			printf 'xp /2hx %s\nxp /1hx 0x%x\nxp /2hx %s\nxp /1hx 0x%x\n' \
				"$av" $((av + 4 + 2 * num)) "$us" $((us + 4 + 8 * num))
		done
}

# vm_vq_state LOG QUEUE: the last vm_netstate record of LOG's virtio-net
# queue QUEUE (0 RX, 1 TX) in LOG.regs: "INUSE USED LAST_AVAIL AVAIL",
# AVAIL being the guest's avail index read from guest memory; nothing
# when the record lacks a field (no record, or a QEMU that did not
# answer). Indices are 16-bit and wrap: compare them modulo 65536.
vm_vq_state() {
	awk -v q="$2" '
	/^\(qemu\) / {
		blk = ""
		if ($2 == "info" && $NF == q && $3 == "virtio-queue-status") {
			blk = "s"; inuse = used = last = ""
		} else if ($2 == "info" && $NF == q && $3 == "virtio-queue-element") {
			blk = "e"; sect = ""; avail = ""
		}
		next
	}
	blk == "s" && $1 == "inuse:" { inuse = $2 }
	blk == "s" && $1 == "used_idx:" { used = $2 }
	blk == "s" && $1 == "last_avail_idx:" { last = $2 }
	blk == "e" && /^  [a-z]+:$/ { sect = $1 }
	blk == "e" && sect == "avail:" && $1 == "idx:" { avail = $2 }
	END { if (inuse != "" && used != "" && last != "" && avail != "")
		print inuse, used, last, avail }' "$1.regs" 2>/dev/null
}

# vm_netwatch PORT FILE PID: every 5 s, the host's view of the pair's
# link (the TCP connection between the two QEMUs): each end's receive
# and send queues and TCP state, appended to FILE while the QEMU PID
# lives. A link that stops shows here as a queue that grows and no
# longer drains, and says on which side.
vm_netwatch() {
	local port=$1 file=$2 pid=$3 t0=$SECONDS
	while vm_alive "$pid"; do
		ss -tniH "( sport = :$port or dport = :$port )" 2>/dev/null |
			awk -v t=$((SECONDS - t0)) '
			/^[A-Z]/ { line = line sprintf(" | %s %s recvq=%s sendq=%s", $4, $1, $2, $3); next }
			{ for (i = 1; i <= NF; i++)
				if ($i ~ /^(bytes_sent|bytes_received|lastsnd|lastrcv):/)
					line = line " " $i }
			END { print "+" t "s" line }' >>"$file"
		sleep 5
	done
}

# vm_blackbox LOG WHY: a failed pair's guest may be what is stuck, its own
# scripts with it, so ask its kernel from outside, through QEMU's monitor:
# sysrq (the emulated keyboard) raises the console's log level, then
# prints every CPU's backtrace and the tasks in uninterruptible sleep;
# the monitor adds each vCPU's registers to LOG.regs. The log's size
# before that is kept in LOG.blackbox (vm_bad_lines stops there).
vm_blackbox() {
	local log=$1
	[ -p "$log.mon.in" ] && [ ! -e "$log.blackbox" ] || return 0
	stat -c %s "$log" >"$log.blackbox"
	VM_MONITOR_PAUSE=3 vm_monitor "$log" 'sendkey alt-sysrq-9' 'sendkey alt-sysrq-l' \
		'sendkey alt-sysrq-w' 'info registers -a'
	msg "$2: asked the ${log##*/} guest for its CPUs' backtraces and blocked tasks (sysrq l, w in the log after byte $(cat "$log.blackbox"); registers and link state in ${log##*/}.regs)"
}

# vm_stop PID: power off a guest (it has finished) or kill it.
vm_stop() {
	local pid=$1 _
	for _ in $(seq 20); do
		vm_alive "$pid" || break
		sleep 0.5
	done
	vm_alive "$pid" && kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null || true
	local p keep=()
	for p in "${VM_PIDS[@]}"; do
		[ "$p" = "$pid" ] || keep+=("$p")
	done
	VM_PIDS=("${keep[@]}")
}

# vm_pair RUN SERVER_KO SERVER_PARAMS CLIENT_KO CLIENT_PARAMS CLIENT_SCRIPT [VAR=VALUE...]
#   Boot the server (scripts/vm/guest/server.sh), wait for it to be
#   ready, boot the client running CLIENT_SCRIPT, wait for the client to
#   finish, stop both and check the logs. *_KO: "ours", "stock" or a
#   path. VAR=VALUE pairs go into both guests' /vm/env (prefix a name
#   with S: or C: for one side only, e.g. S:SERVER_SYSCTLS=...).
#   VM_SERVER_SCRIPT replaces guest/server.sh (it must print
#   "RPCRDMA-STATUS: server-ready PASS" and answer the client's beacon).
#   Sets VM_SLOG, VM_CLOG (console logs) and VM_RESULT_DETAIL; returns
#   non-zero on failure.
vm_pair() {
	local run=$1 sko cko sparams=$3 cparams=$5 script=$6 port kv sv=() cv=()
	sko=$(vm_module_path "$2")
	cko=$(vm_module_path "$4")
	shift 6
	for kv in "$@"; do
		case $kv in
		S:*) sv+=("${kv#S:}") ;;
		C:*) cv+=("${kv#C:}") ;;
		*) sv+=("$kv"); cv+=("$kv") ;;
		esac
	done
	local dir=$VM_RUNDIR/$run
	rm -rf "$dir"
	mkdir -p "$dir"
	VM_SLOG=$dir/server.log
	VM_CLOG=$dir/client.log
	VM_RESULT_DETAIL=
	vm_overlay "$dir/server.img" server "$sko" "$sparams" "${VM_SERVER_SCRIPT:-$VMDIR/guest/server.sh}" "${sv[@]}"
	vm_overlay "$dir/client.img" client "$cko" "$cparams" "$script" "${cv[@]}"
	port=$(vm_port)

	# Order: the server's QEMU starts; once its netdev socket listens (the
	# client's QEMU connects to it at start), the client boots too, and
	# both guests boot at once, one per host core: 5-7 s less per pair
	# under TCG than booting the client after the server's kernel. The
	# client waits for the server's readiness beacon before it mounts
	# (wait_server in guest/lib.sh). The host checks the server booted
	# and became ready, then waits for the client.
	vm_start "$run-server" server "$dir/server.img" "$VM_SLOG" "listen=127.0.0.1:$port"
	local spid=$VM_PID cpid rc=0 watch
	if ! vm_listening "$port" "$spid"; then
		VM_RESULT_DETAIL="server: its QEMU did not listen on 127.0.0.1:$port within 30 s: $(head -c 300 "$VM_SLOG.qemu" | tr '\n' ' ')"
		vm_stop "$spid"
		rm -f "$dir"/*.img "$dir"/*.mon.in "$dir"/*.mon.out
		VM_RESULT_DETAIL+=" (logs: ${dir#"$TOP"/})"
		return 1
	fi
	vm_start "$run-client" client "$dir/client.img" "$VM_CLOG" "connect=127.0.0.1:$port"
	cpid=$VM_PID
	# which end is the server's, for whoever reads the link's queues
	echo "# server QEMU: 127.0.0.1:$port" >"$dir/link.txt"
	vm_netwatch "$port" "$dir/link.txt" "$spid" &
	watch=$!
	if ! vm_wait "$VM_SLOG" "$spid" 'RPCRDMA-STEP: .*boot server' "${VM_BOOT_TIMEOUT:-90}" "the server kernel to boot" ||
	   ! vm_wait "$VM_SLOG" "$spid" 'RPCRDMA-STATUS: server-ready' $((${VM_BOOT_TIMEOUT:-90} + 30)) "the server to start nfsd" ||
	   ! grep -aq 'RPCRDMA-STATUS: server-ready PASS' "$VM_SLOG"; then
		VM_RESULT_DETAIL="server: ${VM_WAIT_ERR:-did not start}; $(vm_fails "$VM_SLOG")"
		kill "$cpid" "$spid" "$watch" 2>/dev/null
		vm_stop "$cpid"
		vm_stop "$spid"
		rm -f "$dir"/*.img "$dir"/*.mon.in "$dir"/*.mon.out
		VM_RESULT_DETAIL+=" (logs: ${dir#"$TOP"/})"
		return 1
	fi
	if ! vm_wait "$VM_CLOG" "$cpid" 'RPCRDMA-STATUS: client-done' "$VM_TIMEOUT" "the client script"; then
		VM_RESULT_DETAIL="client: $VM_WAIT_ERR"
		rc=1
	fi
	kill "$watch" 2>/dev/null
	wait "$watch" 2>/dev/null
	# a failed pair: what both QEMUs hold of the link, then what the
	# kernels were doing, before they are killed (a server that stopped
	# answering says nothing on its own)
	if [ $rc != 0 ] || [ -n "$(vm_fails "$VM_CLOG")" ]; then
		vm_netstate "$VM_SLOG" "$spid"
		vm_netstate "$VM_CLOG" "$cpid"
		[ $rc = 0 ] || vm_blackbox "$VM_CLOG" "$run"
		vm_blackbox "$VM_SLOG" "$run"
	elif grep -aqE "$VM_TXSTALL_RE" "$VM_SLOG" "$VM_CLOG"; then
		# a transmit queue stalled in a pair that did not fail: the
		# queues still say whose fault it was (scenario 14's rig-fault
		# check reads them)
		vm_netstate "$VM_SLOG" "$spid"
		vm_netstate "$VM_CLOG" "$cpid"
	fi
	vm_stop "$cpid"
	kill "$spid" 2>/dev/null
	vm_stop "$spid"
	rm -f "$dir"/*.img "$dir"/*.mon.in "$dir"/*.mon.out

	# Verdict: every status line PASS, no kernel trouble in either log.
	local fails bad
	fails=$(vm_fails "$VM_SLOG" "$VM_CLOG")
	bad=$( { vm_bad_lines "$VM_SLOG" | sed 's/^/server: /'; vm_bad_lines "$VM_CLOG" | sed 's/^/client: /'; } | head -3)
	if [ -n "$fails" ]; then
		VM_RESULT_DETAIL="${VM_RESULT_DETAIL:+$VM_RESULT_DETAIL; }$fails"
		rc=1
	fi
	if [ -n "$bad" ]; then
		VM_RESULT_DETAIL="${VM_RESULT_DETAIL:+$VM_RESULT_DETAIL; }kernel: $(echo "$bad" | paste -sd';' -)"
		rc=1
	fi
	# Wire assertions on the pair's capture (wirecheck.sh; VM_WIRECHECK=0
	# skips). A pair that failed already keeps its whole capture: what a
	# hang is read from (ACKs, NAKs, Reads, ARP) is what a checked
	# capture leaves out.
	if [ "${VM_WIRECHECK:-1}" != 0 ] && [ -s "$dir/wire.pcap" ]; then
		local full=${VM_PCAP_FULL:-0}
		[ $rc = 0 ] || full=1
		VM_PCAP_FULL=$full "$VMDIR/wirecheck.sh" "$dir" "$VM_RDMA" >"$dir/wire.txt" 2>&1 ||
			{ rc=1; VM_RESULT_DETAIL="${VM_RESULT_DETAIL:+$VM_RESULT_DETAIL; }$(grep -m1 -E '^(wire FAIL|error)' "$dir/wire.txt")"; }
		sed 's/^/    /' "$dir/wire.txt" >&2
	fi
	[ $rc -eq 0 ] || VM_RESULT_DETAIL+=" (logs: ${dir#"$TOP"/}, kept in $(vm_keep_logs "$dir"))"
	return $rc
}

# vm_keep_logs DIR: copy a failed pair's logs (DIR, without its images)
# to $RPCRDMA_CM_CACHE/failed/<run>-<release>-<pair>/ and print that path.
# CI runs in a clone it deletes afterwards, and a failure that comes once
# in dozens of runs can only be explained from its own logs; the 20
# newest copies are kept.
vm_keep_logs() {
	local dir=$1 top=$RPCRDMA_CM_CACHE/failed keep old
	keep=$top/$(basename "$VM_RUNDIR")-$KVER-$(basename "$dir")
	if [ ! -d "$keep" ]; then
		if ! mkdir -p "$keep" || ! cp -a "$dir/." "$keep/"; then
			warn "could not keep the logs of ${dir#"$TOP"/} in $keep (space? permissions? RPCRDMA_CM_CACHE=<dir>)"
			echo "nowhere (see the warning)"
			return 0
		fi
		rm -f "$keep"/*.img
		for old in $(find "$top" -mindepth 1 -maxdepth 1 -type d -name '20*' | sort -r | tail -n +21); do
			rm -rf "$old"
		done
	fi
	echo "$keep"
}

# vm_status LOG CHECK: the detail of the (last) status line CHECK in LOG.
vm_status() {
	grep -aoE "RPCRDMA-STATUS: $2 (PASS|FAIL|INFO).*" "$1" | tail -1 | tr -d '\r' |
		sed -E "s/^RPCRDMA-STATUS: $2 (PASS|FAIL|INFO) ?//"
}

# vm_result LOG CHECK: PASS, FAIL or INFO of the (last) status line CHECK.
vm_result() {
	grep -aoE "RPCRDMA-STATUS: $2 (PASS|FAIL|INFO)" "$1" | tail -1 | awk '{print $3}'
}

# vm_lines LOG TAG: the payload of every "TAG: ..." line in LOG.
vm_lines() {
	grep -aoE "$2: .*" "$1" | tr -d '\r' | sed -E "s/^$2: //"
}
