// SPDX-License-Identifier: GPL-2.0
/// Server accept, 6.1 only: when svc_rdma_accept() gives up on a new
/// transport (rdma_accept() failing because the client went away while
/// its request waited, or any resource shortage), its error path takes
/// a reference, destroys the QP and the CM ID, and drops that same
/// reference: the creation reference stays, so the transport is never
/// freed. Its CQs, PD, Receive buffers and memory leak, and its debugfs
/// line stays (a siw soak's client link drop left one, failing every
/// later negotiation check). Drop the creation reference instead and
/// let __svc_rdma_free() tear the transport down like any other; it
/// copes with a part-built one, as 6.12 and later rely on.
/// svc_rdma_cm_accept_failed() takes the module reference that
/// svc_xprt_free() will drop.
//
// Target: svc_rdma_transport.c
// When: svc_rdma_transport.c Take a reference in case the DTO handler runs
// Expect: svc_rdma_transport.c svc_rdma_cm_accept_failed(newxprt);
// Absent: svc_rdma_transport.c svc_xprt_get(&newxprt->sc_xprt);

@ exists @
identifier newxprt;
@@
 svc_rdma_accept(...)
 {
 ...
-svc_xprt_get(&newxprt->sc_xprt);
-if (newxprt->sc_qp && !IS_ERR(newxprt->sc_qp))
-	ib_destroy_qp(newxprt->sc_qp);
-rdma_destroy_id(newxprt->sc_cm_id);
+svc_rdma_cm_accept_failed(newxprt);
 svc_xprt_put(&newxprt->sc_xprt);
 return NULL;
 }
