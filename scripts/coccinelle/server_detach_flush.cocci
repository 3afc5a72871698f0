// SPDX-License-Identifier: GPL-2.0
/// Server detach, up to 6.1: move the QP to ERROR right after
/// rdma_disconnect(), so every posted Work Request completes now. 6.1
/// pulls a Read chunk in the nfsd thread, which waits for its RDMA
/// Reads with wait_for_completion() while it holds the transport. siw
/// does not flush a Read it has sent when its own Send fails as the
/// client goes (QP_FATAL; the connection closes, the QP stays as it
/// was), so the thread waited for the drain in __svc_rdma_free(), and
/// that waits for the thread: the nfsd thread and the transport stayed
/// for good (make soak SOAK_REPRO=readwait, Documentation/soak.md).
/// 6.12 and later pull Read chunks without a waiting thread, so the
/// rule runs only where the wait exists ("// When:").
//
// Target: svc_rdma_transport.c
// When: svc_rdma_rw.c wait_for_completion\(&cc->cc_done\)
// Expect: svc_rdma_transport.c svc_rdma_cm_flush_qp(rdma);

@@
identifier rdma;
@@
 svc_rdma_detach(...)
 {
 ...
 rdma_disconnect(rdma->sc_cm_id);
+svc_rdma_cm_flush_qp(rdma);
 }
