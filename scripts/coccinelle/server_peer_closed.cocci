// SPDX-License-Identifier: GPL-2.0
/// Server CM events: note that the client disconnected (DISCONNECTED;
/// on 6.1 DEVICE_REMOVAL too, which shares the statement), before the
/// handler asks for the transport to be closed. The client moved its
/// QP to ERROR before its DREQ, so nothing the server has posted can
/// reach it; the detach's drain (server_detach_drain) then flushes the
/// QP instead of waiting its whole second for Sends that complete only
/// when the device gives up on them (6.12, make soak with c-rdma
/// faults: every such detach waited the second). The handler only sets
/// a flag: a QP flush there needs a reference on the transport, and
/// 6.12 and 7.x release a transport synchronously, so dropping the last
/// reference in the handler destroyed the CM ID from inside its own
/// handler and deadlocked (Documentation/soak.md). 6.1 closes with
/// svc_xprt_deferred_close(), 6.12.y and 7.x with
/// svc_rdma_xprt_deferred_close().
//
// Target: svc_rdma_transport.c
// Expect: svc_rdma_transport.c svc_rdma_cm_peer_closed(rdma);

@@
expression X;
@@
 svc_rdma_cma_handler(...)
 {
 <...
(
+svc_rdma_cm_peer_closed(rdma);
 svc_xprt_deferred_close(X);
|
+svc_rdma_cm_peer_closed(rdma);
 svc_rdma_xprt_deferred_close(X);
)
 ...>
 }
