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
	sc_pair linkdrop ours "" "$client" "" "$SCDIR/14-link-drops.client.sh" \
		LD_RECOVER_MAX="${LD_RECOVER_MAX:-180}"
	# the recoveries on the result line, PASS or FAIL
	local d t rec=
	for d in c-link s-link overlap; do
		t=$(vm_status "$VM_CLOG" "recover-$d" 2>/dev/null | sed 's/ after the link came back//')
		rec+="${rec:+, }$d ${t:-not reached}"
	done
	SC_DESC+="; recovery after the link came back: $rec"
}
