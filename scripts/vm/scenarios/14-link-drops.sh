# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 14: fio writes and verifies (crc32c) on an NFSv4.2 mount while
# the client's link drops, then the server's, then both sides' during a
# forced reconnect; after each drop the mount must answer within
# LD_RECOVER_MAX (180) s, and fio must finish with 0 verify errors.
# Over rxe it loads make rxe's rdma_rxe unless VM_RXE says otherwise:
# Debian's (VM_RXE=stock) never recovers from the server's drop, the
# failed send on its GSI QP (Documentation/investigations/
# rxe-gsi-qp-link-drop.md), which this scenario then shows as a FAIL:
# recover-s-link "no answer", LD_RECOVER_MAX s after the link came back,
# and the client ends there (a hung fio is reported, not waited for).
# The result line gives each drop's recovery time. LD_CLIENT=stock puts
# Debian's rpcrdma.ko (the debug kernel's own, under make debugtest) on
# the client instead of this module, for A/B runs.
# A virtio-net transmit queue that stalls (NETDEV WATCHDOG in a guest's
# log) makes the run a rig fault, not a pass or a fail: nothing of the
# NFS/RDMA stack is judged on a link the emulator stopped carrying. The
# line says which guest's queue it was, what both QEMUs' virtio-net
# queues and the host's view of the link between them (link.txt) show,
# and whether that proves the emulator; a stall whose cause is the
# other guest, stopped receiving after kernel trouble, is judged
# instead (ld_rig_fault).
# LD_REPRO=tx-stall runs the reproducer of rxe's transmit destructor
# reaching a freed QP instead (14-tx-stall.client.sh; on demand, not in
# make check; Documentation/investigations/rxe-tx-dtor-uaf.md).
# LD_REPRO=dreq-loss measures instead how long the server keeps a
# connection whose client sent its DREQ while the client's link was down
# (14-dreq-loss.client.sh; LD_DREQ_VERS, LD_DREQ_DOWN, LD_DREQ_WAIT,
# LD_DREQ_BOUND; on demand, not in make check;
# Documentation/investigations/stale-server-connection.md).
# LD_REPRO=old-ack replays the client's old ACKs between the responses of
# the server's RDMA Reads instead, rxe's completer completing a Read as a
# success when one arrives there (14-old-ack.client.sh; OA_COUNT,
# OA_SECONDS; on demand, not in make check;
# Documentation/investigations/rxe-comp-error-success-61.md).
# LD_REPRO=unsent-first drops the first packet of the client's Read
# responses on its egress instead, rxe's responder resuming such a
# response with a MIDDLE (14-unsent-first.client.sh; UF_ROUNDS; on
# demand; UF_BS: the write size, 1M; the same page).
# LD_REPRO=unreachable fails the client's neighbour entry for the server
# while the mount is idle instead, rdma_cm then reporting UNREACHABLE on
# the established connection, and writes more Read chunks at once than
# the transport has MRs (14-unreachable.client.sh; UR_WRITERS,
# UR_IO_MAX; on demand; Documentation/investigations/
# xprt-write-space-stuck.md). LD_REPRO=addr-change moves the client to
# an active-backup bond and fails it over while a connect waits instead,
# rdma_cm then reporting ADDR_CHANGE before ESTABLISHED, then once more
# with the connection established (14-addr-change.client.sh; AC_FILES,
# AC_MOUNT_MAX, AC_CMID_MAX; on demand;
# Documentation/investigations/addr-change-kref.md). LD_REPRO=addr-reapply
# removes the client's address and adds it again under an established
# connection, then unmounts (14-addr-reapply.client.sh; AR_FILES,
# AR_CMID_MAX; on demand; the same page). LD_CLIENT=stock shows Debian's
# client.
SC_DESC="fio crc32c verify across client, server and overlapping link drops with a reconnect"
sc_run() {
	# the scenario's own rxe and time budget (three recoveries at most
	# LD_RECOVER_MAX each, fio's passes, boot)
	local VM_RXE=${VM_RXE_GIVEN:-fixed}
	local VM_TIMEOUT=$((${VM_TIMEOUT:-240} > 900 ? ${VM_TIMEOUT:-240} : 900))
	if [ "$VM_RDMA" = rxe ] && [ "$VM_RXE" != stock ]; then
		vm_ensure_rxe
		vm_check_vermagic "$(vm_rxe_ko)"
	fi
	local client=${LD_CLIENT:-ours}
	case $client in
	ours | stock) ;;
	*) die "scenario 14: LD_CLIENT=$client: say ours or stock" ;;
	esac
	if [ "$VM_RDMA" = rxe ]; then
		SC_DESC+=" (rxe, rdma_rxe $VM_RXE"
	else
		SC_DESC+=" ($VM_RDMA"
	fi
	[ "$client" = ours ] || SC_DESC+=", stock client"
	SC_DESC+=")"
	case ${LD_REPRO:-} in
	'') ;;
	tx-stall)
		ld_tx_stall "$client"
		return 0
		;;
	dreq-loss)
		ld_dreq_loss "$client"
		return 0
		;;
	old-ack)
		ld_old_ack "$client"
		return 0
		;;
	unsent-first)
		ld_unsent_first "$client"
		return 0
		;;
	unreachable)
		ld_unreachable "$client"
		return 0
		;;
	addr-change)
		ld_addr_change "$client"
		return 0
		;;
	addr-reapply)
		ld_addr_reapply "$client"
		return 0
		;;
	*) die "scenario 14: LD_REPRO=$LD_REPRO: say tx-stall, dreq-loss, old-ack, unsent-first, unreachable, addr-change or addr-reapply (or nothing)" ;;
	esac
	sc_pair linkdrop ours "" "$client" "" "$SCDIR/14-link-drops.client.sh" \
		LD_RECOVER_MAX="${LD_RECOVER_MAX:-180}"
	ld_rig_fault
	# the recoveries on the result line, PASS or FAIL
	local d t rec=
	for d in c-link s-link overlap; do
		t=$(vm_status "$VM_CLOG" "recover-$d" 2>/dev/null | sed 's/ after the link came back//')
		rec+="${rec:+, }$d ${t:-not reached}"
	done
	SC_DESC+="; recovery after the link came back: $rec"
}

# ld_watchdog LOG: the transmit watchdog's lines of LOG (a guest console
# log, up to what vm_blackbox asked for): the kernel's NETDEV WATCHDOG
# and virtio_net's own "TX timeout on queue" (VM_TXSTALL_RE), both at
# every watchdog tick (5 s) while it lasts: "<count> <first uptime>
# <longest ms>" (the kernel's lines say how long the queue has been
# stopped), or nothing
ld_watchdog() {
	local n
	n=$(cat "$1.blackbox" 2>/dev/null || stat -c %s "$1" 2>/dev/null || echo 0)
	head -c "$n" "$1" 2>/dev/null | tr -d '\r' | grep -aE "$VM_TXSTALL_RE" |
		awk 'NR == 1 { t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t) }
		     match($0, /timed out [0-9]+ ms/) {
			v = substr($0, RSTART + 10, RLENGTH - 13) + 0
			if (v > ms) ms = v
		     }
		     END { if (NR) print NR, t, ms + 0 }'
}

# ld_link_end DIR: the last sample of the pair's link (link.txt): each
# QEMU's end of the TCP connection between them, "server|client
# recvq=R sendq=S"
ld_link_end() {
	awk 'sub(/^# server QEMU: /, "") { srv = $0; next }
	     /^\+/ { last = $0 }
	     END {
		n = split(last, part, / \| /)
		for (i = 2; i <= n; i++) {
			split(part[i], f, " ")
			who = f[1] == srv ? "server" : "client"
			out = out (out ? ", " : "") who " QEMU " f[3] " " f[4]
		}
		print out ? substr(part[1], 2) " after the client booted: " out : "no sample"
	     }' "$1/link.txt" 2>/dev/null
}

# ld_rig_fault: after the pair, a stalled virtio-net transmit queue in
# either guest, and what the queues say of it
# (Documentation/investigations/virtio-tx-stall.md). vm_pair records
# both QEMUs' virtio-net queues when a watchdog fired (vm_vq_state);
# "posted" is what a guest put in a ring that its QEMU never took:
# - the stalled guest's TX ring holds posted buffers, none in flight in
#   its QEMU: that QEMU was never told of them, a lost transmit kick
#   (the emulator: under TCG with one vCPU the guest's barrier before
#   the kick decision is not a barrier on the host);
# - its QEMU holds a packet for the link (one in flight: the socket to
#   the other QEMU is full) and the other guest's RX ring has posted
#   buffers its QEMU never filled: a lost receive kick there (the
#   emulator);
# - its QEMU holds a packet for the link and the other guest's RX ring
#   is empty, after kernel trouble in the other guest's log: that guest
#   stopped receiving, a guest fault, so the run is judged (the line
#   says so);
# - anything else (the other guest's ring empty with no trouble in its
#   log: a guest that stopped polling or a receive interrupt the
#   emulator lost; or every TX buffer used and not reaped: a completion
#   interrupt lost or the guest not polling; or no queue record): not
#   proven either way, a rig fault as before, with what was seen.
# A rig fault (SC_RIGFAULT, vmtest.sh) is neither a pass nor a fail.
ld_rig_fault() {
	local w who peer log plog dir sq n t ms tx rx inuse used last avail posted rlast ravail rposted note
	dir=$(dirname "$VM_CLOG")
	for who in client server; do
		log=$VM_CLOG plog=$VM_SLOG peer=server
		[ $who = client ] || { log=$VM_SLOG plog=$VM_CLOG peer=client; }
		w=$(ld_watchdog "$log")
		[ -n "$w" ] || continue
		sq=$(ld_link_end "$dir" | sed -n "s/.*$who QEMU recvq=[0-9]* sendq=\([0-9]*\).*/\1/p")
		read -r n t ms <<<"$w"
		[ "$ms" = 0 ] && ms= || ms=", stopped for $ms ms at the longest"
		note="the $who guest's virtio-net transmit queue stalled ($n watchdog lines from $t s of uptime$ms)"
		tx=$(vm_vq_state "$log" 1)
		rx=$(vm_vq_state "$plog" 0)
		posted='' rposted=''
		if [ -n "$tx" ]; then
			read -r inuse used last avail <<<"$tx"
			posted=$(((avail - last) & 0xffff))
			note+="; its TX queue: inuse=$inuse used_idx=$used last_avail_idx=$last, guest avail idx=$avail"
		fi
		if [ -n "$rx" ]; then
			read -r _ _ rlast ravail <<<"$rx"
			rposted=$(((ravail - rlast) & 0xffff))
			note+="; the $peer's RX queue: last_avail_idx=$rlast, guest avail idx=$ravail"
		fi
		note+="; link: $(ld_link_end "$dir")"
		if [ -z "$tx" ]; then
			case $sq in
			'') note+=": not proven (queues not recorded, link not sampled)" ;;
			0) note+=": not proven (queues not recorded; its QEMU held nothing to send on the link)" ;;
			*) note+=": not proven (queues not recorded; its QEMU held $sq bytes the other QEMU did not read)" ;;
			esac
		elif [ "$inuse" = 0 ] && [ "$posted" -gt 0 ]; then
			note+=": the emulator: its QEMU never took the $posted buffers the guest posted, with none in flight (a lost transmit kick)"
		elif [ "$inuse" = 0 ]; then
			note+=": not proven: its QEMU used every buffer the guest posted and the guest did not reap them (a lost completion interrupt, or the guest not polling)"
		elif [ -z "$rx" ]; then
			note+=": not proven: its QEMU holds a packet for the link; the $peer's queues not recorded"
		elif [ "$rposted" -gt 0 ]; then
			note+=": the emulator: its QEMU holds a packet for the link while the $peer's QEMU never filled the $rposted receive buffers its guest posted (a lost receive kick)"
		elif [ -n "$(vm_bad_lines "$plog")" ]; then
			SC_DESC+="; the $who guest's transmit queue stalled, a symptom: the $peer guest stopped receiving after kernel trouble (its RX ring empty, its QEMU not reading the link)"
			continue
		else
			note+=": not proven: its QEMU holds a packet for the link and the $peer guest gave its NIC no receive buffers, with no kernel trouble in its log (a guest that stopped polling, or a receive interrupt lost in the emulator)"
		fi
		SC_RIGFAULT+="${SC_RIGFAULT:+; }$note"
	done
	return 0
}

# ld_tx_stall CLIENT_KO: the LD_REPRO=tx-stall pair and its verdict. The
# client's rxe is expected to WARN in __rxe_cleanup (the QP destroy that
# gives up on its queued packets is the reproducer's step 3); any other
# kernel trouble, and a destructor in a fault above all, is the bug.
ld_tx_stall() {
	local bad
	# 6.12 and later hold the socket, so the stale QP write faults only
	# under KASAN; poisoned kmalloc caches, validated after the link
	# down, show it on a distro kernel too (the QP is a kmalloc object)
	local VM_APPEND="${VM_APPEND:+$VM_APPEND }slub_debug=FZP,kmalloc-*"
	SC_DESC="rxe: the queued packets of a QP destroyed while the client's egress is plugged, freed by a link down (${SC_DESC#*(}"
	sc_pair txstall ours "" "$1" "" "$SCDIR/14-tx-stall.client.sh" \
		TXS_WAIT="${TXS_WAIT:-150}" TXS_RESTART="${TXS_RESTART:-8}"
	bad=$( { vm_bad_lines "$VM_SLOG" | sed 's/^/server: /'
		vm_bad_lines "$VM_CLOG" | grep -vE '__rxe_cleanup|Call Trace:' | sed 's/^/client: /'; } | head -3)
	# 6.1's stock rxe: a NULL dereference in rxe_skb_tx_dtor, or, when
	# the freed QP's memory still looks like one, refcount_t's underflow
	# in __rxe_put (the destructor's tail call) from kfree_skb
	local uaf='rxe_skb_tx_dtor|BUG[: ]|Oops|general protection|Poison overwritten|Object corrupt|refcount_t: underflow'
	if grep -aqE "$uaf" "$VM_CLOG"; then
		SC_DESC+="; REPRODUCED: a freed QP's packet, freed at the link down, faulted or wrote to freed memory: $(grep -am1 -E "$uaf" "$VM_CLOG" | tr -d '\r')"
		SC_FAILED=1
	elif [ -z "$(vm_status "$VM_CLOG" qp-destroy)" ] || [ "$(vm_result "$VM_CLOG" qp-destroy)" = FAIL ]; then
		SC_DESC+="; not reached: no QP destroy timed out"
		SC_FAILED=1
	elif [ -z "$bad" ] && [ -z "$(vm_fails "$VM_SLOG" "$VM_CLOG")" ]; then
		# only the expected WARNING: the fix holds
		SC_DESC+="; no fault: $(vm_status "$VM_CLOG" qp-destroy), then the link went down cleanly"
		SC_FAILED=0
		SC_DETAIL="${SC_DETAIL%% FAILED*} ok (the expected __rxe_cleanup WARNING only)"
	else
		SC_DESC+="; other trouble: $bad"
		SC_FAILED=1
	fi
}

# ld_dreq_loss CLIENT_KO: the LD_REPRO=dreq-loss pair. The client's
# stale-gone line is the measurement: the seconds from its DREQ, sent
# while its link was down, until the server's transport for that client
# port was gone; FAIL (REPRODUCED) past LD_DREQ_BOUND s. The pair's
# budget covers the wait (LD_DREQ_WAIT, 900 s by default) and the
# recovery.
ld_dreq_loss() {
	local wait=${LD_DREQ_WAIT:-900} res
	local VM_TIMEOUT=$((VM_TIMEOUT > wait + 480 ? VM_TIMEOUT : wait + 480))
	SC_DESC="a client DREQ sent while its link is down: how long the server keeps that connection (NFSv${LD_DREQ_VERS:-4.2}, ${SC_DESC#*(}"
	sc_pair dreqloss ours "" "$1" "" "$SCDIR/14-dreq-loss.client.sh" \
		LD_DREQ_VERS="${LD_DREQ_VERS:-4.2}" LD_DREQ_DOWN="${LD_DREQ_DOWN:-5}" \
		LD_DREQ_WAIT="$wait" LD_DREQ_BOUND="${LD_DREQ_BOUND:-120}" \
		LD_RECOVER_MAX="${LD_RECOVER_MAX:-180}"
	ld_rig_fault
	res=$(vm_status "$VM_CLOG" stale-gone)
	SC_DESC+="; ${res:-not measured: $(vm_fails "$VM_SLOG" "$VM_CLOG")}"
}

# ld_old_ack CLIENT_KO: the LD_REPRO=old-ack pair and its verdict. The
# bug is the server's: its completer's WARN_ON_ONCE on a WQE completed in
# error with a success status (REPRODUCED). Without it the run passes
# when a replay landed inside a Read (the client's inject check), every
# file was exact and connect_count, read before and after the replays,
# did not move (a QP errored by the replays without the warning would
# still be a bug).
ld_old_ack() {
	[ "$VM_RDMA" = rxe ] || die "scenario 14: LD_REPRO=old-ack needs rxe (VM_RDMA=rxe)"
	SC_DESC="rxe: old ACKs replayed between the responses of the server's RDMA Reads (${SC_DESC#*(}"
	sc_pair oldack ours "" "$1" "" "$SCDIR/14-old-ack.client.sh" \
		OA_COUNT="${OA_COUNT:-200}" OA_SECONDS="${OA_SECONDS:-120}"
	ld_completer_verdict
}

# ld_unsent_first CLIENT_KO: the LD_REPRO=unsent-first pair and its
# verdict, ld_completer_verdict's: the run passes when a FIRST was
# dropped (the client's inject check), every file was exact and
# connect_count did not move.
ld_unsent_first() {
	[ "$VM_RDMA" = rxe ] || die "scenario 14: LD_REPRO=unsent-first needs rxe (VM_RDMA=rxe)"
	SC_DESC="rxe: the first packet of the client's Read responses dropped on its egress (${SC_DESC#*(}"
	sc_pair unsent ours "" "$1" "" "$SCDIR/14-unsent-first.client.sh" \
		UF_ROUNDS="${UF_ROUNDS:-10}" UF_BS="${UF_BS:-1M}"
	ld_completer_verdict
}

# ld_unreachable CLIENT_KO: the LD_REPRO=unreachable pair and its
# verdict. The bug is the client's: after the UNREACHABLE event its
# transport stays connected with XPRT_WRITE_SPACE set (bit 11 of the
# state in rpc_xprt/*/info) and the writes never finish (REPRODUCED).
# Without it the run passes when the client's checks passed: the event
# was seen, the writes ran out of MRs, finished and read back exact; and
# with this module's client, its rpcrdma_cm/unreachable counted the
# connection it closed (a reconnect for another reason does not pass).
ld_unreachable() {
	[ "$VM_RDMA" = rxe ] || die "scenario 14: LD_REPRO=unreachable needs RoCE (VM_RDMA=rxe): rdma_cm follows neighbours for RoCE only"
	SC_DESC="xprtrdma: rdma_cm's UNREACHABLE on an established connection, then its MRs exhausted (${SC_DESC#*(}"
	sc_pair unreach ours "" "$1" "" "$SCDIR/14-unreachable.client.sh" \
		UR_WRITERS="${UR_WRITERS:-16}" UR_IO_MAX="${UR_IO_MAX:-60}"
	local x w
	SC_DESC+="; $(vm_status "$VM_CLOG" inject 2>/dev/null)"
	w=$(vm_status "$VM_CLOG" writes 2>/dev/null)
	x=$(vm_status "$VM_CLOG" xprt 2>/dev/null)
	if [[ $x == *"waiting for write space"* ]]; then
		SC_DESC+="; REPRODUCED: $x; $w"
		SC_FAILED=1
	elif [ "$SC_FAILED" = 0 ] && [ "$1" = ours ] &&
		! vm_status "$VM_CLOG" closed 2>/dev/null | grep -qE 'unreachable [1-9]'; then
		SC_DESC+="; $w, but this module did not count the connection it closed (rpcrdma_cm/unreachable: $(vm_status "$VM_CLOG" closed 2>/dev/null))"
		SC_FAILED=1
	elif [ "$SC_FAILED" = 0 ]; then
		SC_DESC+="; $w; $(vm_status "$VM_CLOG" reconnects 2>/dev/null)"
		[ "$1" = stock ] || SC_DESC+="; $(vm_status "$VM_CLOG" closed 2>/dev/null)"
	fi
}

# ld_addr_change CLIENT_KO: the LD_REPRO=addr-change pair and its
# verdict, on two bugs. The first is 6.1's: the endpoint put once too
# often after the ADDR_CHANGE that reached a connecting cm_id, which
# the kernel reports as a refcount_t underflow (or KASAN as a
# use-after-free) in the client's log. The second is mainline's since
# af9b65b29af3: after the ADDR_CHANGE on the established connection
# the close waits for a DISCONNECTED event that never comes (the DREQ
# cannot be sent), so its cm_id is still there after the unmount.
# Either is REPRODUCED. Without them the run passes when the client's
# checks passed: the events were seen, the mounts worked and the files
# read back exact both times.
ld_addr_change() {
	[ "$VM_RDMA" = rxe ] || die "scenario 14: LD_REPRO=addr-change needs RoCE (VM_RDMA=rxe): rdma_cm follows bond failovers for RoCE and IPoIB only"
	SC_DESC="xprtrdma: rdma_cm's ADDR_CHANGE (bond failover) during a connect, then on the established connection (${SC_DESC#*(}"
	sc_pair addrchg ours "" "$1" "" "$SCDIR/14-addr-change.client.sh" \
		AC_FILES="${AC_FILES:-4}" AC_MOUNT_MAX="${AC_MOUNT_MAX:-150}" \
		AC_CMID_MAX="${AC_CMID_MAX:-90}"
	local bad
	SC_DESC+="; $(vm_status "$VM_CLOG" inject 2>/dev/null)"
	bad=$(grep -am1 -E 'refcount_t: underflow|KASAN: [a-z-]+ in [a-z_]*rpcrdma|BUG: KASAN' "$VM_CLOG" | tr -d '\r')
	if [ -n "$bad" ]; then
		SC_DESC+="; REPRODUCED (during the connect): ${bad#*] }"
		SC_FAILED=1
		return 0
	fi
	if [ "$(vm_result "$VM_CLOG" writes)" = PASS ]; then
		SC_DESC+="; $(vm_status "$VM_CLOG" writes 2>/dev/null)"
	fi
	SC_DESC+="; $(vm_status "$VM_CLOG" inject-established 2>/dev/null)"
	if [ "$(vm_result "$VM_CLOG" cm-ids)" = FAIL ]; then
		SC_DESC+="; REPRODUCED (established): $(vm_status "$VM_CLOG" cm-ids 2>/dev/null)"
		SC_FAILED=1
	elif [ "$SC_FAILED" = 0 ]; then
		SC_DESC+="; $(vm_status "$VM_CLOG" writes-established 2>/dev/null)"
		SC_DESC+="; $(vm_status "$VM_CLOG" reconnects 2>/dev/null); $(vm_status "$VM_CLOG" cm-ids 2>/dev/null)"
	fi
}

# ld_addr_reapply CLIENT_KO: the LD_REPRO=addr-reapply pair and its
# verdict: a cm_id still there after the unmount is REPRODUCED (the
# DREQ of a connection whose address was reapplied could not be sent,
# and nothing said so). Without it the run passes when the client's
# checks passed: a DREQ was refused during the reapply (else the run did
# not reach the bug) and the files read back exact before and after.
ld_addr_reapply() {
	[ "$VM_RDMA" = rxe ] || die "scenario 14: LD_REPRO=addr-reapply needs RoCE (VM_RDMA=rxe): the address's GIDs are RoCE's"
	SC_DESC="xprtrdma: the client's address removed and added again under an established connection, then the unmount (${SC_DESC#*(}"
	sc_pair addrre ours "" "$1" "" "$SCDIR/14-addr-reapply.client.sh" \
		AR_FILES="${AR_FILES:-4}" AR_CMID_MAX="${AR_CMID_MAX:-90}"
	SC_DESC+="; $(vm_status "$VM_CLOG" reach 2>/dev/null); $(vm_status "$VM_CLOG" writes-after 2>/dev/null)"
	if [ "$(vm_result "$VM_CLOG" cm-ids)" = FAIL ]; then
		SC_DESC+="; REPRODUCED: $(vm_status "$VM_CLOG" cm-ids 2>/dev/null)"
		SC_FAILED=1
	elif [ "$SC_FAILED" = 0 ]; then
		SC_DESC+="; $(vm_status "$VM_CLOG" reconnects 2>/dev/null); $(vm_status "$VM_CLOG" cm-ids 2>/dev/null)"
	fi
}

# ld_completer_verdict: the verdict of the pair just run by ld_old_ack or
# ld_unsent_first. The bug is the server's: its completer's WARN_ON_ONCE
# on a WQE completed in error with a success status (REPRODUCED).
# Without it the run passes only when the client's checks passed and
# connect_count, read before and after the injection ("connect_count N
# before the <what>, M after"), did not move: a QP errored without the
# warning would still be a bug.
ld_completer_verdict() {
	local c0 c1 warn
	SC_DESC+="; $(vm_status "$VM_CLOG" inject 2>/dev/null)"
	warn=$(grep -am1 -E 'WARNING: .*rxe_comp\.c' "$VM_SLOG" | tr -d '\r')
	c0=$(vm_status "$VM_CLOG" reconnects 2>/dev/null | sed -n 's/.*connect_count \([0-9]*\) before.*/\1/p')
	c1=$(vm_status "$VM_CLOG" reconnects 2>/dev/null | sed -n 's/.* before the [a-z]*, \([0-9]*\) after.*/\1/p')
	if [ -n "$warn" ]; then
		SC_DESC+="; REPRODUCED: the server's completer: ${warn#*] }; connect_count ${c0:-?} to ${c1:-?}"
		SC_FAILED=1
	elif [ "$SC_FAILED" = 0 ] && { [ -z "$c0" ] || [ "$c0" != "$c1" ]; }; then
		SC_DESC+="; no warning, but the mount reconnected or did not say (connect_count ${c0:-?} to ${c1:-?})"
		SC_FAILED=1
	elif [ "$SC_FAILED" = 0 ]; then
		SC_DESC+="; no warning, no reconnect (connect_count $c0), every file exact"
	fi
}
