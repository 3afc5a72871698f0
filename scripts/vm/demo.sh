#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: boot an NFS server VM and an NFS client VM (QEMU TCG, soft-
# RoCE between them), both with the rpcrdma.ko under test, mount NFSv4.2
# over RDMA, write and read back a file, and print what each side
# advertised and what was negotiated (RFC 8797), from the module's
# debugfs file /sys/kernel/debug/rpcrdma_cm/connections.
#
#   RPCRDMA_KO=<path>|stock   module under test (default build/$KVER/rpcrdma.ko)
#   VM_RDMA=rxe|siw           soft-RDMA driver (default rxe)
#   VM_PCAP=<file>            keep a pcap of the virtual wire

set -uo pipefail
VMDIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/vm/lib.sh
. "$VMDIR/lib.sh"

which=ours
[ "${RPCRDMA_KO:-}" = stock ] && which=stock
vm_prepare
msg "booting the NFS server VM and then the client VM (QEMU TCG, $VM_RDMA; about 1 minute)"
t0=$SECONDS
vm_pair demo "$which" "" "$which" "" "$VMDIR/scenarios/demo.client.sh"
rc=$?
secs=$((SECONDS - t0))

cl=$(vm_lines "$VM_CLOG" "RPCRDMA-CONN" | sed -n 's/^client //p' | head -1)
sl=$(vm_lines "$VM_CLOG" "RPCRDMA-CONN" | sed -n 's/^server //p' | head -1)
kv() { echo " $1" | sed -n "s/.* $2=\([^ ]*\).*/\1/p"; }
row() { printf '  %-34s %-22s %s\n' "$1" "$2" "$3"; }

echo
echo "RFC 8797 on NFSv4.2 over RDMA ($VM_RDMA), $which rpcrdma.ko on both sides:"
echo "  I/O: $(vm_result "$VM_CLOG" demo-io) $(vm_status "$VM_CLOG" demo-io)"
if [ -n "$cl$sl" ]; then
	echo
	row "" "client $VM_CLIENT_IP" "server $VM_SERVER_IP"
	row "" "--------------------" "--------------------"
	echo "  advertised (as the peer parsed it):"
	row "  Send Size" "$(kv "$sl" peer_send)" "$(kv "$cl" peer_send)"
	row "  Receive Size" "$(kv "$sl" peer_recv)" "$(kv "$cl" peer_recv)"
	row "  R (may Send With Invalidate)" "$(kv "$sl" peer_r)" "$(kv "$cl" peer_r)"
	row "  private data received" "$(kv "$cl" peer_pdata)" "$(kv "$sl" peer_pdata)"
	echo "  negotiated (as each side applies it):"
	row "  client-to-server threshold" "$(kv "$cl" send) (its send)" "$(kv "$sl" recv) (its recv)"
	row "  server-to-client threshold" "$(kv "$cl" recv) (its recv)" "$(kv "$sl" send) (its send)"
	row "  remote invalidation" "$(kv "$cl" reminv)" "$(kv "$sl" reminv)"
	echo
	echo "  raw debugfs (/sys/kernel/debug/rpcrdma_cm/connections):"
	echo "    client: ${cl:-<none>}"
	echo "    server: ${sl:-<none>}"
else
	echo "  no rpcrdma_cm debugfs lines (the stock module has none);"
fi
echo "  client tracepoint rpcrdma:xprtrdma_inline_thresh: send/recv=$(vm_status "$VM_CLOG" thresh)"
echo "  guest console logs: ${VM_SLOG#"$TOP"/} ${VM_CLOG#"$TOP"/}"
# pdata_decode HEX: an RFC 8797 message in words.
pdata_decode() {
	local h=${1:0:16}
	if [ "${h:0:8}" != f6ab0e18 ]; then
		echo "${h:-<none>} (no RFC 8797 message at offset 0)"
		return
	fi
	printf '%s %s %s %s %s (version %d, R=%d, Send Size %d, Receive Size %d)\n' \
		"${h:0:8}" "${h:8:2}" "${h:10:2}" "${h:12:2}" "${h:14:2}" \
		"0x${h:8:2}" $((0x${h:10:2} & 1)) \
		$(((0x${h:12:2} + 1) * 1024)) $(((0x${h:14:2} + 1) * 1024))
}
if [ -n "${VM_PCAP:-}" ]; then
	echo "  pcap of the wire: $VM_PCAP"
	if [ "$VM_RDMA" = rxe ] && command -v tshark >/dev/null; then
		req=$(tshark -r "$VM_PCAP" -Y infiniband.cm.req -T fields \
			-e infiniband.cm.req.ip_cm.private 2>/dev/null | head -1)
		rep=$(tshark -r "$VM_PCAP" -Y infiniband.cm.rep -T fields \
			-e infiniband.cm.rep.private 2>/dev/null | head -1)
		echo "    CM REQ private data (client): $(pdata_decode "$req")"
		echo "    CM REP private data (server): $(pdata_decode "$rep")"
		echo "    (tshark -r $VM_PCAP -Y 'infiniband.cm.req || infiniband.cm.rep' -V)"
	fi
fi
echo
if [ $rc -eq 0 ]; then
	msg "demo passed in ${secs}s"
else
	die "demo failed after ${secs}s: $VM_RESULT_DETAIL"
fi
