// SPDX-License-Identifier: GPL-2.0
/// Short replies (RFC 8166 Section 4.3.3): when the client offered a
/// Reply chunk but the whole Reply fits the negotiated server-to-client
/// threshold, send it inline as RDMA_MSG instead of writing it into the
/// Reply chunk. svc_rdma_cm_short_reply() decides (short_replies
/// parameter, size with the Reply chunk encoded as written-length 0)
/// and the answer is kept in sctxt->sc_cm_short (field added by
/// svc_rdma_send_ctxt_cm_field):
///  - svc_rdma_sendto(): skip svc_rdma_send_reply_chunk() (6.1) or
///    svc_rdma_prepare_reply_chunk() (6.12, which chains the Reply
///    chunk's Writes to the Send) so rc_size stays 0 and
///    svc_rdma_encode_reply_chunk() copies the chunk with every segment
///    length zero; send rdma_msg rather than rdma_nomsg;
///  - svc_rdma_map_reply_msg(): do not stop after the transport header
///    when the Reply is short, map the Reply as for any inline Reply;
///    server_inline_limit's check still bounds it;
///  - svc_rdma_send_ctxt_get(): every Send context starts with
///    sc_cm_short false (backchannel Calls and errors never set it).
/// Write chunk payloads and Send With Invalidate (server_reminv) are
/// untouched.
//
// Target: svc_rdma_sendto.c
// Expect: svc_rdma_sendto.c sctxt->sc_cm_short = svc_rdma_cm_short_reply(rdma, rctxt,
// Expect: svc_rdma_sendto.c || sctxt->sc_cm_short ? rdma_msg : rdma_nomsg;
// Expect: svc_rdma_sendto.c reply_pcl) && !sctxt->sc_cm_short)
// Expect: svc_rdma_sendto.c ctxt->sc_cm_short = false;
// Absent: svc_rdma_sendto.c *p = pcl_is_empty(&rctxt->rc_reply_pcl) ? rdma_msg : rdma_nomsg;

// 6.1: one call writes the Reply chunk (or does nothing without one)
@sendto@
identifier rqstp, rdma, rctxt, sctxt, ret;
@@
 svc_rdma_sendto(struct svc_rqst *rqstp)
 {
 ...
 sctxt = svc_rdma_send_ctxt_get(rdma);
 ...
-ret = svc_rdma_send_reply_chunk(rdma, rctxt, &rqstp->rq_res);
+sctxt->sc_cm_short = svc_rdma_cm_short_reply(rdma, rctxt, &rqstp->rq_res);
+if (sctxt->sc_cm_short)
+	ret = 0;
+else
+	ret = svc_rdma_send_reply_chunk(rdma, rctxt, &rqstp->rq_res);
 ...
 }

// 6.12: the Reply chunk's Writes are prepared only when there is one
@sendto_prepare depends on !sendto@
identifier rqstp, rdma, rctxt, sctxt, rc_size;
statement S;
@@
 svc_rdma_sendto(struct svc_rqst *rqstp)
 {
 ...
 sctxt = svc_rdma_send_ctxt_get(rdma);
 ...
+sctxt->sc_cm_short = svc_rdma_cm_short_reply(rdma, rctxt, &rqstp->rq_res);
 rc_size = 0;
-if (!pcl_is_empty(&rctxt->rc_reply_pcl))
+if (!pcl_is_empty(&rctxt->rc_reply_pcl) && !sctxt->sc_cm_short)
 S
 ...
 }

@proc@
identifier rqstp, rdma, rctxt, sctxt;
symbol rdma_msg, rdma_nomsg;
expression proc;
@@
 svc_rdma_sendto(struct svc_rqst *rqstp)
 {
 ...
 sctxt = svc_rdma_send_ctxt_get(rdma);
 ...
 proc = pcl_is_empty(&rctxt->rc_reply_pcl)
+	|| sctxt->sc_cm_short
 	? rdma_msg : rdma_nomsg;
 ...
 }

// 6.1: the receive context is passed in
@map@
identifier rdma, sctxt, rctxt, xdr;
@@
 svc_rdma_map_reply_msg(struct svcxprt_rdma *rdma, struct svc_rdma_send_ctxt *sctxt, const struct svc_rdma_recv_ctxt *rctxt, const struct xdr_buf *xdr)
 {
 ...
-if (!pcl_is_empty(&rctxt->rc_reply_pcl))
+if (!pcl_is_empty(&rctxt->rc_reply_pcl) && !sctxt->sc_cm_short)
 	return 0;
 ...
 }

// 6.12: the chunk lists are passed in
@map_pcl@
identifier rdma, sctxt, write_pcl, reply_pcl, xdr;
@@
 svc_rdma_map_reply_msg(struct svcxprt_rdma *rdma, struct svc_rdma_send_ctxt *sctxt, const struct svc_rdma_pcl *write_pcl, const struct svc_rdma_pcl *reply_pcl, const struct xdr_buf *xdr)
 {
 ...
-if (!pcl_is_empty(reply_pcl))
+if (!pcl_is_empty(reply_pcl) && !sctxt->sc_cm_short)
 	return 0;
 ...
 }

@get@
identifier rdma, ctxt;
@@
 svc_rdma_send_ctxt_get(struct svcxprt_rdma *rdma)
 {
 ...
 ctxt->sc_cur_sge_no = 0;
+ctxt->sc_cm_short = false;
 ...
 }
