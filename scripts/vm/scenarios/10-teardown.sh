# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 10: the server tears its transports down while READ replies
# are still on their way (issue 14). A debug kernel's scenario: its
# verdict is kmemleak's and KASAN's; on a production kernel it only
# shows that the reads come back intact.
SC_DESC="nfsd stopped and started under O_DIRECT READ load (Write chunks), TEARDOWN_CYCLES times: reads intact, no leak"
sc_run() {
	local VM_TIMEOUT=${VM_TIMEOUT_10:-900}
	# TEARDOWN_MODULES=stock: the kernel's own rpcrdma.ko on both sides,
	# to tell a hang of this load from one of this module
	local m=${TEARDOWN_MODULES:-ours}
	sc_pair "teardown-$m" "$m" "" "$m" "" "$SCDIR/10-teardown.client.sh" "C:TEARDOWN_CYCLES=${TEARDOWN_CYCLES:-8}"
}
