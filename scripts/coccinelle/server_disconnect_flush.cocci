// SPDX-License-Identifier: GPL-2.0
/// Server CM events: flush the QP as soon as the CM reports the
/// connection gone (DISCONNECTED; up to 6.1 DEVICE_REMOVAL too, which
/// later kernels handle outside the CM handler), not only when an nfsd
/// thread detaches the transport. The peer moved its QP to ERROR
/// before its DREQ, so nothing posted can still succeed; until the
/// flush, a Work Request completes only after the device's retries
/// (about 16 s on rxe). Up to 6.1 an nfsd thread waits for its RDMA
/// Reads, and with every thread waiting none ran the close or accepted
/// the client's new connection: make soak's params faults that took
/// 16.7-17.1 s (Documentation/soak.md, "The 17-second recoveries").
/// On every kernel the detach's drain (server_detach_drain) waits for
/// the Send Queue to empty: without the flush, the close of a
/// connection whose client had gone held an nfsd thread for the
/// drain's whole second. 6.1 closes with svc_xprt_deferred_close(),
/// 6.12.y and 7.x with svc_rdma_xprt_deferred_close(), which also wakes
/// the threads waiting for Send Queue space.
//
// Target: svc_rdma_transport.c
// Expect: svc_rdma_transport.c svc_rdma_cm_disconnected(rdma);

@@
expression X;
@@
 svc_rdma_cma_handler(...)
 {
 <...
(
+svc_rdma_cm_disconnected(rdma);
 svc_xprt_deferred_close(X);
|
+svc_rdma_cm_disconnected(rdma);
 svc_rdma_xprt_deferred_close(X);
)
 ...>
 }
