# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 4: private data or remote invalidation switched off on one side.
SC_DESC="pdata=0 on either side -> 1024/1024 reminv=0; remote_invalidate=0 on either side -> reminv=0, no SWI"
sc_run() {
	# The client starts with rpcrdma.pdata=0 from modprobe; the other
	# cases flip the (0644) parameters at run time between mounts.
	sc_pair disabled ours "" ours "pdata=0" "$SCDIR/04-disabled.client.sh"
}
