// SPDX-License-Identifier: GPL-2.0
/// Client Receive accounting: in rpcrdma_wc_receive(), hand every
/// Receive completion to rpcrdma_cm_client_receive() before upstream
/// looks at its status. The client is where a server's Send With
/// Invalidate shows: mainline's server advertises R=0 yet uses it
/// whenever the client set R (RFC 8797 Section 4.1 allows it only when
/// both set R), and a Send longer than the Receive buffer fails the
/// Receive. Upstream only acts on both; the glue counts them per
/// connection (debugfs) and traces them.
//
// Target: verbs.c
// Expect: verbs.c rpcrdma_cm_client_receive(r_xprt, wc);

@@
identifier cq, wc, r_xprt, out;
@@
 rpcrdma_wc_receive(struct ib_cq *cq, struct ib_wc *wc)
 {
 ...
 struct rpcrdma_xprt *r_xprt = cq->cq_context;
 ...
+rpcrdma_cm_client_receive(r_xprt, wc);
 if (wc->status != IB_WC_SUCCESS)
 	goto out;
 ...
 }
