// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm: RFC 8797 private data on the client (xprtrdma).
 *
 * rpcrdma_ep_create() calls rpcrdma_cm_client_advertise() where
 * upstream filled in its own message; the ESTABLISHED handler calls
 * rpcrdma_cm_client_established() where upstream parsed the server's
 * reply; rpcrdma_ep_destroy() calls rpcrdma_cm_client_destroy().
 */

#include <linux/build_bug.h>
#include <linux/sunrpc/rpcrdma_cm.h>

#include "xprt_rdma.h"

/**
 * rpcrdma_cm_client_advertise - Prepare the client's private data
 * @ep: endpoint being created, with re_inline_send/recv set from the
 *	rdma_max_inline_write/read sysctls
 * @device: the RDMA device the endpoint uses
 *
 * Advertises Send Size = max inline write, Receive Size = max inline
 * read and R when the device and the remote_invalidate parameter
 * allow. Every reconnect creates a new endpoint, so every connection
 * advertises afresh from the configured values.
 */
void rpcrdma_cm_client_advertise(struct rpcrdma_ep *ep,
				 struct ib_device *device)
{
	struct rpcrdma_cm_conn *conn = &ep->re_cm;
	u8 len;

	BUILD_BUG_ON(sizeof(ep->re_cm_private) != RPCRDMA_PDATA_V1_LEN);

	rpcrdma_cm_set_peer(conn, ep->re_id, false);
	rpcrdma_cm_set_local(conn, device, ep->re_inline_send,
			     ep->re_inline_recv);
	rpcrdma_cm_advertise(conn, &ep->re_cm_private, &len);

	ep->re_remote_cma.private_data = len ? &ep->re_cm_private : NULL;
	ep->re_remote_cma.private_data_len = len;
}

/**
 * rpcrdma_cm_client_established - Apply the server's private data
 * @ep: endpoint that just connected
 * @param: connection parameters of the ESTABLISHED event
 *
 * Sets re_inline_send to min(client send, server receive) and
 * re_inline_recv to min(client receive, server send), then recomputes
 * everything upstream derives from them. The Receive buffers are
 * allocated after this, from re_inline_recv.
 */
void rpcrdma_cm_client_established(struct rpcrdma_ep *ep,
				   const struct rdma_conn_param *param)
{
	struct rpcrdma_cm_conn *conn = &ep->re_cm;

	rpcrdma_cm_parse(conn, param);
	rpcrdma_cm_negotiate(conn);

	ep->re_inline_send = conn->res.send_thresh;
	ep->re_inline_recv = conn->res.recv_thresh;
	rpcrdma_set_max_header_sizes(ep);

	rpcrdma_cm_link(conn);
}

/**
 * rpcrdma_cm_client_destroy - Forget an endpoint
 * @ep: endpoint about to be freed
 */
void rpcrdma_cm_client_destroy(struct rpcrdma_ep *ep)
{
	rpcrdma_cm_unlink(&ep->re_cm);
}
