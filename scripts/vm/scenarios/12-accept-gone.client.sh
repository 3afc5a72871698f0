#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 12 (client guest). The server stops nfsd and listens on
# "rdma 20049" without a thread, as in scenario 11. The probe's
# connection request is queued there; the probe gives up after 3 s and
# destroys its CM ID (a REJ: the scenario runs over rxe). Then nfsd
# threads start and accept what is queued: the probe's request, whose
# accept now fails (at rdma_create_qp(), the REJ having reset the CM
# ID), and the mount's own reconnect. 6.1's
# svc_rdma_accept() error path kept the failed transport's creation
# reference, so it was never freed (its resources leaked and its debugfs
# line stayed); this module drops it there
# (scripts/coccinelle/server_accept_errout.cocci), and 6.12 and later
# do so themselves.
# Checks: the probe timed out; the server counted the failed accept in
# <debugfs>/rpcrdma_cm/accept_failed (the rule's counter: 6.1 only, so
# scripts/kernels.tab runs this scenario on 6.1 only; on 6.12 and later,
# which make debugtest runs it on, one of svc_rdma_accept()'s error
# tracepoints must have fired for the client instead); within 20 s the
# server holds exactly one rpcrdma Protection Domain ("rdma resource show
# pd": one per svcrdma transport, here the mount's; a leaked transport
# keeps its own); the mount's data is intact. Reported (INFO): which
# step of the accept failed, from svcrdma's own error tracepoints, and
# the server's debugfs connection lines. Those lines cannot show this
# leak: a transport is listed only from rdma_accept() on, after the step
# that fails here (soak run C met a failure after it, Documentation/soak.md).
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
HOLD=12

mount_nfs 4.2 || { finish; exit 1; }
data_check before
# svc_rdma_accept()'s error tracepoints, to tell which step failed
EVS="svcrdma_pd_err svcrdma_qp_err svcrdma_fabric_err svcrdma_initdepth_err svcrdma_accept_err"
for _e in $EVS; do
	[ "$(srv run "echo 1 >/sys/kernel/tracing/events/rpcrdma/$_e/enable && echo on")" = on ] ||
		status accept-trace INFO "no tracepoint rpcrdma:$_e on the server"
done
[ "$(srv pending_listener $HOLD start)" = scheduled ] ||
	status pending-setup FAIL "the server did not schedule the listener"
sleep 6
step "probe: a connection request that gives up after 3 s, before any nfsd thread"
rpcrdma-cm-probe --json --timeout 3000 "$VM_SERVER_IP" >/tmp/p.json 2>/tmp/p.err
rc=$?
echo "RPCRDMA-PROBE: gone: $(head -c 1500 /tmp/p.json) $(head -c 200 /tmp/p.err)"
res=$(sed -n 's/.*"result":"\([a-z]*\)".*/\1/p' /tmp/p.json | head -n 1)
check probe-gave-up "probe: $res, exit $rc (it must give up while its request waits)" [ "$res" = timeout ]
step "waiting for nfsd threads and the mount"
[ "$(srv run echo back)" = back ] || status server-back FAIL "no answer from the server"
# accept_failed / one_pd: polled predicates (check takes one
# command)
accept_failed() {
	_n=$(srv run cat "${CONNS%/*}/accept_failed")
	[ "${_n:-0}" -ge 1 ]
}
one_pd() {
	_p=$(srv run rdma resource show pd | grep -c "comm \[rpcrdma\]")
	[ "${_p:-0}" = 1 ]
}
# accept_err: svc_rdma_accept() reported a failed step for this client
# (6.12 and later free the transport themselves, without the rule and
# so without its counter: there the error tracepoint proves the failed
# accept, and one_pd below that it was freed)
accept_err() {
	_e=$(srv run grep -c "svcrdma_[a-z]*_err:.*$VM_CLIENT_IP" /sys/kernel/tracing/trace)
	[ "${_e:-0}" -ge 1 ]
}
_i=0
case $(uname -r) in
[0-5].* | 6.[0-9].* | 6.1[01].*)
	while ! accept_failed && [ $_i -lt 20 ]; do sleep 1; _i=$((_i + 1)); done
	check accept-failed "<debugfs>/rpcrdma_cm/accept_failed on the server: ${_n:-?} (the accept of the probe's request failed and took the freeing path)" accept_failed ;;
*)
	while ! accept_err && [ $_i -lt 20 ]; do sleep 1; _i=$((_i + 1)); done
	check accept-failed "svcrdma error events for $VM_CLIENT_IP on the server: ${_e:-?} (the accept of the probe's request failed; $(uname -r) frees the transport itself, so the rule and its accept_failed counter are 6.1's only)" accept_err ;;
esac
status accept-step INFO "svcrdma error events: $(srv run grep -o "svcrdma_[a-z]*_err:.*" /sys/kernel/tracing/trace | head -n 3 | tr '\n' ';') (none: a step without a tracepoint, such as posting the Receives)"
_i=0
while ! one_pd && [ $_i -lt 20 ]; do sleep 1; _i=$((_i + 1)); done
srv run rdma resource show pd | sed 's/^/RPCRDMA-PD: server: /'
check accept-pd "rpcrdma Protection Domains on the server after ${_i} s: ${_p:-?} (the mount's transport's only)" one_pd
srv run cat "$CONNS" | sed 's/^/RPCRDMA-CONN: server: /'
data_check after
umount_nfs
finish
