// SPDX-License-Identifier: GPL-2.0
/// Backchannel size: xprt_setup_rdma_bc() sized backchannel Calls by the
/// client-side sysctl rdma_max_inline_read, unrelated to what this
/// connection negotiated. Use svc_rdma_cm_bc_max_payload(): the
/// server-to-client threshold less the transport header.
//
// Target: svc_rdma_backchannel.c
// Expect: svc_rdma_backchannel.c xprt->max_payload = svc_rdma_cm_bc_max_payload(args->bc_xprt);

@@
identifier xprt, args;
symbol xprt_rdma_max_inline_read;
@@
 xprt_setup_rdma_bc(struct xprt_create *args)
 {
 ...
-xprt->max_payload = xprt_rdma_max_inline_read;
+xprt->max_payload = svc_rdma_cm_bc_max_payload(args->bc_xprt);
 ...
 }
