// SPDX-License-Identifier: GPL-2.0
/// Server CM events, up to 6.1: flush the QP as soon as the CM reports
/// the connection gone (DISCONNECTED, DEVICE_REMOVAL), not only when an
/// nfsd thread detaches the transport. 6.1 pulls a Read chunk in the
/// nfsd thread, which waits for its RDMA Reads; when the client has
/// gone, a Read on the QP completes only after the device's retries
/// (about 16 s on rxe), and with every nfsd thread waiting no thread
/// runs the close or accepts the client's new connection: make soak's
/// params faults that took 16.7-17.1 s (Documentation/soak.md, "The
/// 17-second recoveries"). 6.12 and later pull Read chunks without a
/// waiting thread, so the rule runs only where the wait exists
/// ("// When:").
//
// Target: svc_rdma_transport.c
// When: svc_rdma_rw.c wait_for_completion\(&cc->cc_done\)
// Expect: svc_rdma_transport.c svc_rdma_cm_disconnected(rdma);

@@
expression X;
@@
 svc_rdma_cma_handler(...)
 {
 <...
+svc_rdma_cm_disconnected(rdma);
 svc_xprt_deferred_close(X);
 ...>
 }
