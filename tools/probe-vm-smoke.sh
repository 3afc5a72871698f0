#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Smoke test of rpcrdma-cm-probe in one throwaway QEMU (TCG) VM: a
# distro kernel, a busybox initramfs, soft-RoCE (rdma_rxe) on the VM's
# only NIC, the probe talking to itself over it, to the stock kernel
# NFS server and to the stock kernel NFS client. Every case checks the
# probe's exit status (and some its output); the guest prints one
# status line that this script checks, and any BUG/WARNING/Oops in the
# guest log fails the run.
#
# Not part of `make check` (the VM suites under scripts/vm/ are); run by
# hand: tools/probe-vm-smoke.sh. Uses build/tools/rpcrdma-cm-probe
# (`make tools`) and writes only under build/probe-vm.
#
# Variables: PROBE_VM_KVER (default: the newest /boot/vmlinuz-* whose
# modules include rdma_rxe).

. "$(dirname "$0")/../scripts/lib.sh"
cd "$TOP" || exit 1

need_pkgs qemu-system-x86 busybox-static rdma-core ibverbs-providers iproute2
[ -x build/tools/rpcrdma-cm-probe ] || scripts/tools.sh >/dev/null ||
	die "cannot build the probe"

KV=${PROBE_VM_KVER:-}
if [ -z "$KV" ]; then
	for k in $(ls /boot/vmlinuz-* 2>/dev/null | sed 's|/boot/vmlinuz-||' | sort -V -r); do
		if modprobe -S "$k" --show-depends rdma_rxe >/dev/null 2>&1; then
			KV=$k
			break
		fi
	done
fi
[ -n "$KV" ] && [ -e "/boot/vmlinuz-$KV" ] ||
	die "no kernel with rdma_rxe in /boot; apt-get install linux-image-amd64"

OUT=$BUILD/probe-vm
R=$OUT/root
rm -rf "$OUT"
mkdir -p "$R"/{bin,etc/libibverbs.d,lib64,lib/x86_64-linux-gnu,mods,proc,sys,dev,tmp,mnt}
mkdir -p "$R/usr/lib/x86_64-linux-gnu/libibverbs"

cp /bin/busybox "$R/bin/"
for a in sh mount ip sleep cat echo insmod poweroff ls grep dmesg kill mkdir; do
	ln -s busybox "$R/bin/$a"
done
cp build/tools/rpcrdma-cm-probe "$(command -v rdma)" "$R/bin/"
prov=/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
cp "$prov" "$R/usr/lib/x86_64-linux-gnu/libibverbs/"
cp /etc/libibverbs.d/rxe.driver "$R/etc/libibverbs.d/"
for b in build/tools/rpcrdma-cm-probe "$(command -v rdma)" "$prov"; do
	ldd "$b" | awk '/=>/ {print $3} /^[ \t]*\/lib64/ {print $1}'
done | sort -u | while read -r l; do
	[ -e "$l" ] && cp -L "$l" "$R/lib64/" && cp -L "$l" "$R/lib/x86_64-linux-gnu/"
done

i=0
for m in crc32_generic virtio_pci virtio_net rdma_rxe rdma_ucm nfsd rpcrdma nfsv4; do
	modprobe -S "$KV" --show-depends "$m" ||
		die "module $m missing for $KV"
done | awk '/^insmod/ && !seen[$2]++ {print $2}' | while read -r f; do
	cp "$f" "$R/mods/$(printf '%03d' $i)-$(basename "$f")"
	i=$((i + 1))
done

cat >"$R/init" <<'EOF'
#!/bin/sh
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for f in /mods/*; do insmod "$f" 2>/dev/null; done
P=/bin/rpcrdma-cm-probe
pass=0; fail=0
# expect NAME WANT_RC RC [FILE PATTERN]
expect() {
	if [ "$3" = "$2" ] && { [ -z "$4" ] || grep -q "$5" "$4"; }; then
		echo "PROBE-SMOKE: PASS $1"; pass=$((pass + 1))
	else
		echo "PROBE-SMOKE: FAIL $1 (exit $3, want $2${4:+, pattern '$5'})"
		fail=$((fail + 1)); [ -n "$4" ] && cat "$4"
	fi
}

$P 10.0.2.15 >/tmp/o 2>&1; expect "no RDMA device before rxe" 3 $?
ip link set lo up; ip link set eth0 up; ip addr add 10.0.2.15/24 dev eth0
rdma link add rxe0 type rxe netdev eth0
$P 10.0.2.15 >/tmp/o 2>&1; expect "refused, nobody listening" 5 $? /tmp/o "reject status 8"

$P --listen 10.0.2.15:20049 --count 5 --wait 60 >/tmp/l 2>&1 & L=$!; sleep 1
$P 10.0.2.15 >/tmp/o 2>&1; expect "default message" 0 $? /tmp/o "server RFC 8797: version 1 at offset 0: R=1, send size 4096"
$P --no-pdata 10.0.2.15 >/tmp/o 2>&1; expect "--no-pdata" 0 $? /tmp/o "client->server 1024, server->client 1024"
$P --pdata 000000f6ab0e1802010303 10.0.2.15 >/tmp/o 2>&1; expect "--pdata version 2 at offset 3" 0 $?
$P --json --send-size 1000 --recv-size 300k --no-r 10.0.2.15 >/tmp/o 2>&1; expect "--json, clamped sizes" 0 $? /tmp/o '"client_to_server":1024,"server_to_client":4096,"remote_inv":false'
$P --pdata f6ab0e1801010303000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 10.0.2.15 >/tmp/o 2>&1; expect "56 octets" 0 $?
wait $L; expect "listener saw 5 connections" 0 $? /tmp/l "bad_version: Format Identifier"
$P --pdata 00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 10.0.2.15 >/tmp/o 2>&1; expect "57 octets refused by the CM" 1 $? /tmp/o "at most 56"

$P --listen 20050 --reject --count 1 >/tmp/l 2>&1 & L=$!; sleep 1
$P 10.0.2.15:20050 >/tmp/o 2>&1; expect "--reject" 5 $? /tmp/o "reject status 28"
wait $L

$P --listen 20051 --count 200 --json >/tmp/l 2>&1 & L=$!; sleep 1
$P --repeat 200 --random-seed 42 10.0.2.15:20051 >/tmp/o 2>&1; expect "200 random cycles" 0 $? /tmp/o "200 established, 0 rejected, 0 refused, 0 timeouts, 0 errors, 0 unclean"
wait $L; expect "listener completed 200" 0 $? /tmp/l '"connections":200,"completed":200'

$P --timeout 2000 10.0.2.99 >/tmp/o 2>&1; expect "unreachable host" 4 $?
$P 127.0.0.1 >/tmp/o 2>&1; expect "loopback has no RDMA device" 3 $?
$P --listen 10.0.2.99:20049 >/tmp/o 2>&1; expect "listen on a foreign address" 3 $?
$P --listen 20052 --wait 4 >/dev/null 2>&1 & L=$!; sleep 1
$P --listen 20052 >/tmp/o 2>&1; expect "listen port in use" 1 $? /tmp/o "port is in use"
wait $L; expect "--wait gives up" 6 $?

mkdir -p /proc/fs/nfsd; mount -t nfsd nfsd /proc/fs/nfsd
echo 10 >/proc/fs/nfsd/nfsv4leasetime; echo 10 >/proc/fs/nfsd/nfsv4gracetime
echo "-2 -3 +4 +4.1 +4.2" >/proc/fs/nfsd/versions
echo "rdma 20049" >/proc/fs/nfsd/portlist; echo 2 >/proc/fs/nfsd/threads
$P 10.0.2.15 >/tmp/o 2>&1; expect "stock nfsd answers" 0 $? /tmp/o "server RFC 8797: version 1 at offset 0: R=0, send size 4096, receive size 4096"
cat /tmp/o
$P --repeat 100 --random-seed 1 10.0.2.15 >/tmp/o 2>&1; expect "stock nfsd, 100 random cycles" 0 $? /tmp/o "100 established"

$P --listen 20053 --count 1 --wait 60 >/tmp/l 2>&1 & L=$!; sleep 1
mount -t nfs4 -o vers=4.2,proto=rdma,port=20053,addr=10.0.2.15,clientaddr=10.0.2.15,soft,timeo=30,retrans=1 10.0.2.15:/ /mnt >/dev/null 2>&1 & M=$!
wait $L; expect "stock NFS client's request" 0 $? /tmp/l "client RFC 8797: version 1 at offset 0: R=1, send size 4096, receive size 4096"
cat /tmp/l
kill $M 2>/dev/null

echo "PROBE-SMOKE-STATUS: $pass passed, $fail failed"
poweroff -f
EOF
chmod +x "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) >"$OUT/initrd.gz"

msg "probe-vm: booting $KV under QEMU TCG (about a minute)"
timeout 600 qemu-system-x86_64 -machine q35,accel=tcg -m 768 -smp 1 \
	-nographic -no-reboot -kernel "/boot/vmlinuz-$KV" \
	-initrd "$OUT/initrd.gz" -append "console=ttyS0 quiet panic=-1" \
	-netdev user,id=n0 -device virtio-net-pci,netdev=n0 \
	>"$OUT/console.log" 2>&1
grep -a 'PROBE-SMOKE' "$OUT/console.log"
status=$(grep -a 'PROBE-SMOKE-STATUS' "$OUT/console.log")
[ -n "$status" ] || die "probe-vm: no status line; see $OUT/console.log"
if grep -aE 'BUG:|WARNING:|Oops|Call Trace' "$OUT/console.log"; then
	die "probe-vm: kernel problem in the guest; see $OUT/console.log"
fi
case $status in
*" 0 failed"*) msg "probe-vm: all passed (log $OUT/console.log)" ;;
*) die "probe-vm: failures; see $OUT/console.log" ;;
esac
