# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 3: unequal limits on the two sides.
SC_DESC="client read 8192/write 16384, server 8192 -> 8192 both ways; then client read 2048 -> s->c 2048"
sc_run() {
	sc_pair unequal ours "" ours "" "$SCDIR/03-unequal.client.sh" \
		S:SERVER_SYSCTLS=sunrpc.svc_rdma.max_req_size=8192
}
