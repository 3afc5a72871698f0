// SPDX-License-Identifier: GPL-2.0
/// svcrdma: xprt_setup_rdma_bc() sized backchannel Calls by the
/// server host's client-side sysctl rdma_max_inline_read, which says
/// nothing about this connection. A backchannel Call goes inline, so
/// size it by what the client takes: the server-to-client threshold
/// (svcrdma_recv_size) less the smallest transport header.
//
// Target: svc_rdma_backchannel.c
// Expect: svc_rdma_backchannel.c xprt->max_payload = rdma->sc_max_send_size - RPCRDMA_HDRLEN_MIN;

@@
identifier xprt, args;
symbol xprt_rdma_max_inline_read;
@@
 xprt_setup_rdma_bc(struct xprt_create *args)
 {
+struct svcxprt_rdma *rdma = container_of(args->bc_xprt, struct svcxprt_rdma, sc_xprt);
 ...
-xprt->max_payload = xprt_rdma_max_inline_read;
+xprt->max_payload = rdma->sc_max_send_size - RPCRDMA_HDRLEN_MIN;
 ...
 }
