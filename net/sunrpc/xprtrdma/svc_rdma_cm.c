// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm: RFC 8797 private data on the server (svcrdma).
 *
 * At CONNECT_REQUEST the client's private data is parsed and kept. At
 * accept the server advertises its own limits and negotiates. The
 * results gate Send With Invalidate (both sides set R) and bound every
 * inline Send towards the client: min(server Send Size, client Receive
 * Size). A Reply that does not fit and has no Reply chunk is answered
 * with ERR_CHUNK by the caller (RFC 8166 Section 4.5.3).
 */

#include <linux/build_bug.h>
#include <linux/sunrpc/svc_rdma.h>
#include <linux/sunrpc/rpcrdma_cm.h>

#include <trace/events/rpcrdma_cm.h>

/**
 * svc_rdma_cm_parse - Keep the client's private data
 * @rdma: new transport, its sc_cm_id set
 * @param: connection parameters of the CONNECT_REQUEST event
 */
void svc_rdma_cm_parse(struct svcxprt_rdma *rdma,
		       const struct rdma_conn_param *param)
{
	struct rpcrdma_cm_conn *conn = &rdma->sc_cm;

	rpcrdma_cm_set_peer(conn, rdma->sc_cm_id, true);
	rpcrdma_cm_parse(conn, param);
	/* Decided at accept, once this side's limits are known */
	rdma->sc_snd_w_inv = false;
}

/**
 * svc_rdma_cm_accept - Advertise, negotiate and fill the accept params
 * @rdma: transport being accepted, its device known
 * @param: connection parameters about to be passed to rdma_accept()
 * @pmsg: storage for the private data message, owned by the caller
 *
 * The server advertises Receive Size = its receive buffer size and
 * Send Size = its largest inline Send (both sc_max_req_size), and R
 * when the device can post Send With Invalidate and the
 * remote_invalidate parameter allows.
 */
void svc_rdma_cm_accept(struct svcxprt_rdma *rdma,
			struct rdma_conn_param *param,
			struct rpcrdma_connect_private *pmsg)
{
	struct rpcrdma_cm_conn *conn = &rdma->sc_cm;
	u8 len;

	BUILD_BUG_ON(sizeof(*pmsg) != RPCRDMA_PDATA_V1_LEN);

	conn->local.max_send = rdma->sc_max_req_size;
	conn->local.max_recv = rdma->sc_max_req_size;
	conn->local.remote_inv =
		rpcrdma_cm_reminv_allowed(rdma->sc_cm_id->device);
	rpcrdma_cm_advertise(conn, pmsg, &len);
	rpcrdma_cm_negotiate(conn);
	rdma->sc_snd_w_inv = conn->res.remote_inv;

	param->private_data = len ? pmsg : NULL;
	param->private_data_len = len;

	rpcrdma_cm_link(conn);
}

/**
 * svc_rdma_cm_reminv - May the server use Send With Invalidate
 * @rdma: connected transport
 *
 * Return: true only when both sides set R (RFC 8797 Section 4.1).
 */
bool svc_rdma_cm_reminv(const struct svcxprt_rdma *rdma)
{
	return rdma->sc_cm.res.remote_inv;
}

static int svc_rdma_cm_count(const struct xdr_buf *xdr, void *data)
{
	unsigned int *length = data;

	*length += xdr->len;
	return 0;
}

/**
 * svc_rdma_cm_check_inline - Enforce the server-to-client threshold
 * @rdma: controlling transport
 * @sctxt: Send context holding the transport header
 * @rctxt: the Call's chunks (a Reply chunk means nothing goes inline)
 * @xdr: the RPC message about to be sent
 *
 * Counts what a Send would carry: the transport header plus every
 * part of @xdr that is not a Write chunk payload.
 *
 * Return: 0 when the message fits, or %-E2BIG when it is larger than
 * min(server Send Size, client Receive Size).
 */
int svc_rdma_cm_check_inline(const struct svcxprt_rdma *rdma,
			     const struct svc_rdma_send_ctxt *sctxt,
			     const struct svc_rdma_recv_ctxt *rctxt,
			     const struct xdr_buf *xdr)
{
	const struct rpcrdma_cm_conn *conn = &rdma->sc_cm;
	unsigned int length = sctxt->sc_hdrbuf.len;

	if (pcl_process_nonpayloads(&rctxt->rc_write_pcl, xdr,
				    svc_rdma_cm_count, &length) < 0)
		return 0;
	if (length <= conn->res.send_thresh)
		return 0;
	trace_rpcrdma_cm_inline_too_large(conn, length);
	return -E2BIG;
}

/**
 * svc_rdma_cm_bc_max_payload - Largest backchannel Call on a transport
 * @xprt: the forward channel's transport
 *
 * Return: the negotiated server-to-client threshold less the
 * RPC-over-RDMA header of a backchannel Call.
 */
unsigned int svc_rdma_cm_bc_max_payload(const struct svc_xprt *xprt)
{
	const struct svcxprt_rdma *rdma =
		container_of(xprt, struct svcxprt_rdma, sc_xprt);

	/* Never below the RPC-over-RDMA Version 1 minimum, even if asked
	 * before accept negotiated anything.
	 */
	return max_t(u32, rdma->sc_cm.res.send_thresh,
		     RPCRDMA_PDATA_SIZE_MIN) - RPCRDMA_HDRLEN_MIN;
}

/**
 * svc_rdma_cm_destroy - Forget a transport
 * @rdma: transport about to be freed (listeners included)
 */
void svc_rdma_cm_destroy(struct svcxprt_rdma *rdma)
{
	rpcrdma_cm_unlink(&rdma->sc_cm);
}
