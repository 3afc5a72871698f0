// SPDX-License-Identifier: GPL-2.0
/// Send With Invalidate gating: svc_rdma_get_inv_rkey() picks the R_key
/// a Reply may invalidate only when remote invalidation is allowed.
/// Upstream allowed it whenever the client set R, although the server
/// itself advertised R clear. Ask svc_rdma_cm_reminv() instead: true
/// only when both sides set R (RFC 8797 Section 4.1).
//
// Target: svc_rdma_recvfrom.c
// Expect: svc_rdma_recvfrom.c if (!svc_rdma_cm_reminv(rdma))
// Absent: svc_rdma_recvfrom.c sc_snd_w_inv

@@
identifier rdma;
@@
 svc_rdma_get_inv_rkey(struct svcxprt_rdma *rdma, ...)
 {
 <...
-rdma->sc_snd_w_inv
+svc_rdma_cm_reminv(rdma)
 ...>
 }
