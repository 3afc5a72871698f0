#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the shared base initramfs for the NFS/RDMA test VMs:
#   build/vm/<KVER>/base.cpio  (uncompressed newc, cached)
# It holds busybox, the host's Debian NFS/RDMA userspace (binaries plus
# the shared libraries ldd reports), the distro kernel's modules needed
# for NFS over rxe/siw (dependencies resolved with modprobe
# --show-depends), a depmod'ed modules tree, and the guest scripts from
# scripts/vm/guest/. The module under test is NOT in it: each VM gets a
# small overlay archive appended at boot (see vm_overlay in lib.sh).
#
# Rebuilt when any input changes (a stamp of paths, sizes and mtimes).
# Usage: mkinitramfs.sh   (KVER from the environment or kver.sh)

set -euo pipefail
VMDIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/vm/lib.sh
. "$VMDIR/lib.sh"

vm_need_host
base=$VMBUILD/base.cpio
stampf=$VMBUILD/base.stamp

# Binaries copied from the host (with their libraries).
BINS=(/usr/bin/kmod /usr/sbin/ip /usr/bin/rdma /usr/bin/ibv_devinfo)
# The NFS programs, from the packages unpacked into the cache
# (vm_nfs_pkgs): the guests' path, then where the program is.
NFS_BINS=()
for b in /usr/sbin/rpc.nfsd /usr/sbin/rpc.mountd /usr/sbin/exportfs \
	/usr/sbin/mount.nfs /usr/sbin/nfsdcld; do
	p=$(vm_nfs_bin "$b") || exit 1
	NFS_BINS+=("$b=$p")
done
# Extra binaries other tools want in the guest (e.g. a probe tool):
# VM_EXTRA_BINS="path1 path2" (copied to /usr/local/bin).
read -r -a EXTRA <<<"${VM_EXTRA_BINS:-}"
# The project's probe (make tools), whenever it is built: scenarios 07-09
# run it in the guests. Always in the base once built, so suites running
# side by side never rebuild the base with and without it in turn.
# rpcrdma-cm-status comes with it (scenarios 1 and 2 ask it for its
# verdict).
for t in rpcrdma-cm-probe rpcrdma-cm-status; do
	[ -x "$BUILD/tools/$t" ] || continue
	case " ${EXTRA[*]} " in
	*" $BUILD/tools/$t "*) ;;
	*) EXTRA+=("$BUILD/tools/$t") ;;
	esac
done
# fio, whenever the host has it: scenario 14 verifies data with it
# across link drops (vmtest installs it when that scenario runs), and a
# base without it for some runs would be rebuilt back and forth.
if fio=$(command -v fio); then
	case " ${EXTRA[*]} " in
	*" $fio "*) ;;
	*) EXTRA+=("$fio") ;;
	esac
fi
# Extra plain files (e.g. make soak's dbench load file):
# VM_EXTRA_FILES="SRC=DEST ..." (DEST: absolute path in the guests).
read -r -a EXTRA_FILES <<<"${VM_EXTRA_FILES:-}"
EXTRA_SRCS=()
for kv in "${EXTRA_FILES[@]}"; do
	case $kv in
	?*=/?*) ;;
	*) die "VM_EXTRA_FILES: '$kv' is not SRC=/absolute/dest" ;;
	esac
	[ -f "${kv%%=*}" ] || die "VM_EXTRA_FILES: ${kv%%=*} is not a file"
	EXTRA_SRCS+=("${kv%%=*}")
done
# Kernel modules (with their dependencies) loaded in the guests.
# (crc32c_generic and libcrc32c: for an out-of-tree siw.ko, VM_RDMA=siw.)
MODS=(virtio_pci virtio_net crc32_generic rdma_rxe ib_uverbs rdma_cm
	rdma_ucm sunrpc rpcrdma nfsd nfsv4 nfs crc32c_generic libcrc32c)
# More modules a reproducer wants (scenario 14's LD_REPRO=tx-stall:
# sch_plug): VM_EXTRA_MODS="mod1 mod2"
read -r -a XMODS <<<"${VM_EXTRA_MODS:-}"
MODS+=("${XMODS[@]}")
# Modules a series may lack altogether (7.x: CRC32 and CRC32C are
# library code there, not crypto modules).
OPTIONAL_MODS=(crc32_generic crc32c_generic libcrc32c)
# Plain files copied as they are (verbs providers for rxe and siw).
FILES=(
	/etc/libibverbs.d/rxe.driver /etc/libibverbs.d/siw.driver
	/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
	/usr/lib/x86_64-linux-gnu/libibverbs/libsiw-rdmav34.so
	/etc/services /etc/protocols /etc/netconfig
	/lib/x86_64-linux-gnu/libgcc_s.so.1
)

# The modules come from Debian's image unpacked into the cache
# ($VM_MODDIR, see vm_need_host): pristine, so neither `make install` nor
# DKMS on this host can slip this project's rpcrdma.ko into a "stock"
# scenario. Paths are printed relative to $VM_MODDIR.
modpaths() {
	local m mods=("${MODS[@]}") i
	# An image without rdma_rxe (cloud-amd64) runs make rxe's
	# (VM_RXE=fixed, from each VM's overlay): the base holds what that
	# one depends on instead.
	if [ "$VM_RDMA" = rxe ] && [ "$VM_RXE" != stock ] &&
	   ! grep -qE '(^|/)rdma_rxe\.ko(\.[a-z]+)?:' "$VM_MODDIR/modules.dep"; then
		for i in "${!mods[@]}"; do [ "${mods[$i]}" = rdma_rxe ] && unset "mods[$i]"; done
		read -r -a i < <(modinfo -F depends "$(vm_rxe_ko)" | tr ',' ' ')
		mods+=("${i[@]}")
	fi
	for m in "${mods[@]}"; do
		# built into this kernel: nothing to copy, modprobe knows it
		grep -qE "(^|/)${m}\.ko\$" "$VM_MODDIR/modules.builtin" && continue
		if ! grep -qE "(^|/)${m}\.ko(\.[a-z]+)?:" "$VM_MODDIR/modules.dep"; then
			case " ${OPTIONAL_MODS[*]} " in
			*" $m "*) continue ;; # built in or gone in this series
			esac
			die "$KVER has no $m module ($VM_MODDIR/modules.dep)"
		fi
		modprobe -d "$KIMAGE" -S "$KVER" --show-depends "$m" ||
			die "modprobe -d $KIMAGE -S $KVER --show-depends $m failed"
	done | awk '$1 == "insmod" {print $2}' | sort -u |
		sed "s|^.*/lib/modules/$KVER/||"
}
# Resolved once, outside any loop: a failure above stops the script here
# instead of leaving a base without some modules.
MODPATHS=$(modpaths) || exit 1
MODFILES=()
for m in $MODPATHS; do MODFILES+=("$VM_MODDIR/$m"); done

stamp() {
	local f
	{
		echo "v6 $KVER ${EXTRA[*]}${EXTRA_FILES[*]:+ files ${EXTRA_FILES[*]}}"
		for f in "${BINS[@]}" "${NFS_BINS[@]#*=}" "${EXTRA[@]}" "${EXTRA_SRCS[@]}" "${FILES[@]}" /usr/bin/busybox \
			"$VMDIR"/guest/* "${MODFILES[@]}"; do
			stat -L -c '%n %s %Y' "$f"
		done
	} | sha256sum | cut -d' ' -f1
}

# one builder at a time (several suites may start together)
exec 9>"$VMBUILD/.mkinitramfs.lock"
flock 9 || die "cannot lock $VMBUILD/.mkinitramfs.lock"
want=$(stamp)
if [ -s "$base" ] && [ "$(cat "$stampf" 2>/dev/null)" = "$want" ]; then
	exit 0
fi

msg "building VM initramfs for $KVER (cached in ${base#"$TOP"/})"
root=$VMBUILD/root
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,etc,proc,sys,dev,tmp,run,mnt,export,var/lib/nfs/v4recovery,var/lib/nfs/rpc_pipefs,vm}
ln -s usr/lib "$root/lib" 2>/dev/null || true
mkdir -p "$root/usr/lib" "$root/lib64"
# A console for PID 1 (as non-root there is none until init mounts
# devtmpfs and reopens /dev/console itself).
if [ "$(id -u)" -eq 0 ]; then
	mknod -m 600 "$root/dev/console" c 5 1
	mknod -m 666 "$root/dev/null" c 1 3
fi

# busybox and its applets (never over a real binary copied below).
cp /usr/bin/busybox "$root/bin/busybox"
while read -r a; do
	[ "$a" = bin/busybox ] && continue
	mkdir -p "$root/$(dirname "$a")"
	ln -sf /bin/busybox "$root/$a"
done < <(/usr/bin/busybox --list-full)

copy_libs() {
	local lib
	# a library the host lacks would leave the program dead in the guest
	ldd "$1" 2>/dev/null | grep -q 'not found' &&
		die "$1 needs libraries this host lacks: $(ldd "$1" | awk '/not found/ {print $1}' | xargs)"
	for lib in $(ldd "$1" 2>/dev/null | awk '/=> \// {print $3} /^\t\/lib/ {print $1}'); do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
copy_bin() { # copy_bin SRC DEST
	rm -f "$root$2"
	mkdir -p "$root$(dirname "$2")"
	cp -L "$1" "$root$2"
	copy_libs "$1"
}
for b in "${BINS[@]}"; do
	[ -x "$b" ] || die "$b is missing; install its package (apt-get install iproute2 kmod rdma-core ibverbs-utils)"
	copy_bin "$b" "$b"
done
for b in "${NFS_BINS[@]}"; do
	copy_bin "${b#*=}" "${b%%=*}"
done
for b in "${EXTRA[@]}"; do
	[ -x "$b" ] || die "VM_EXTRA_BINS: $b is not an executable file"
	copy_bin "$b" "/usr/local/bin/$(basename "$b")"
done
for t in modprobe insmod rmmod lsmod depmod modinfo; do
	rm -f "$root/sbin/$t" "$root/usr/sbin/$t" "$root/bin/$t"
	ln -s /usr/bin/kmod "$root/sbin/$t"
done
for t in ip rdma mount.nfs; do
	rm -f "$root/bin/$t" "$root/sbin/$t"
done
ln -sf /usr/sbin/ip "$root/sbin/ip"
ln -sf /usr/sbin/mount.nfs "$root/sbin/mount.nfs"
ln -sf /usr/sbin/mount.nfs "$root/sbin/mount.nfs4"
for f in "${FILES[@]}"; do
	[ -e "$f" ] || die "$f is missing; install rdma-core, ibverbs-providers, netbase and libtirpc-common"
	mkdir -p "$root$(dirname "$f")"
	cp -L "$f" "$root$f"
	case $f in *.so) copy_libs "$f" ;; esac
done
for kv in "${EXTRA_FILES[@]}"; do
	mkdir -p "$root$(dirname "${kv#*=}")"
	cp -L "${kv%%=*}" "$root${kv#*=}"
done

# Kernel modules and a modules.dep covering exactly them.
mdir=$root/lib/modules/$KVER
for m in $MODPATHS; do
	mkdir -p "$mdir/$(dirname "$m")"
	cp "$VM_MODDIR/$m" "$mdir/$m"
done
cp "$VM_MODDIR"/modules.{order,builtin,builtin.modinfo} "$mdir/" 2>/dev/null || true
mkdir -p "$mdir/updates" "$mdir/extra"
depmod -b "$root" "$KVER" || die "depmod -b $root $KVER failed"

cat >"$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
EOF
cat >"$root/etc/group" <<'EOF'
root:x:0:
nogroup:x:65534:
EOF
cat >"$root/etc/hosts" <<EOF
127.0.0.1 localhost
$VM_SERVER_IP server
$VM_CLIENT_IP client
EOF
echo "hosts: files" >"$root/etc/nsswitch.conf"
: >"$root/etc/exports"
: >"$root/etc/fstab"
: >"$root/var/lib/nfs/etab"
: >"$root/var/lib/nfs/rmtab"

cp "$VMDIR"/guest/* "$root/vm/"
chmod +x "$root"/vm/*.sh
mv "$root/vm/init" "$root/init"
chmod +x "$root/init"

(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --quiet --owner=0:0) >"$base.tmp" ||
	die "cpio failed while building $base"
mv "$base.tmp" "$base"
echo "$want" >"$stampf"
msg "initramfs ready: $(du -h "$base" | cut -f1), ${#MODFILES[@]} modules"
