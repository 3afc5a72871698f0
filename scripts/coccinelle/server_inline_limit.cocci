// SPDX-License-Identifier: GPL-2.0
/// Server-to-client threshold: svc_rdma_map_reply_msg() prepares every
/// inline Send (Replies and backchannel Calls) but bounded it only by
/// its own buffer, and only when pull-up was needed. Before it decides
/// about pull-up, call svc_rdma_cm_check_inline(), which returns -E2BIG
/// when the Send would exceed min(server Send Size, client Receive
/// Size). svc_rdma_sendto() already answers -E2BIG with ERR_CHUNK
/// (RFC 8166 Section 4.5.3) instead of a Send the client cannot take;
/// a backchannel Call that large fails instead of being sent.
/// Up to 6.1 the function takes the Call's receive context; 6.12 passes
/// the Write chunk list itself. Either way, the Write list is what the
/// check needs.
//
// Target: svc_rdma_sendto.c
// Expect: svc_rdma_sendto.c ret = svc_rdma_cm_check_inline(rdma, sctxt,
// Expect: svc_rdma_sendto.c svc_rdma_send_error_msg(rdma, sctxt, rctxt, ret);

@@
identifier rdma, sctxt, rctxt, xdr, ret;
@@
 svc_rdma_map_reply_msg(struct svcxprt_rdma *rdma, struct svc_rdma_send_ctxt *sctxt, const struct svc_rdma_recv_ctxt *rctxt, const struct xdr_buf *xdr)
 {
 ...
+ret = svc_rdma_cm_check_inline(rdma, sctxt, &rctxt->rc_write_pcl, xdr);
+if (ret < 0)
+	return ret;
 ret = svc_rdma_check_pull_up(rdma, sctxt, rctxt, xdr);
 ...
 }

@@
identifier rdma, sctxt, write_pcl, reply_pcl, xdr, ret;
@@
 svc_rdma_map_reply_msg(struct svcxprt_rdma *rdma, struct svc_rdma_send_ctxt *sctxt, const struct svc_rdma_pcl *write_pcl, const struct svc_rdma_pcl *reply_pcl, const struct xdr_buf *xdr)
 {
 ...
+ret = svc_rdma_cm_check_inline(rdma, sctxt, write_pcl, xdr);
+if (ret < 0)
+	return ret;
 ret = svc_rdma_check_pull_up(rdma, sctxt, write_pcl, xdr);
 ...
 }
