// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 8797 private data on the client (xprtrdma).
 *
 * rpcrdma_ep_create() calls rpcrdma_cm_client_advertise() where
 * upstream filled in its own message; the ESTABLISHED handler calls
 * rpcrdma_cm_client_established() where upstream parsed the server's
 * reply; rpcrdma_wc_receive() calls rpcrdma_cm_client_receive() for
 * every Receive completion; rpcrdma_ep_destroy() calls
 * rpcrdma_cm_client_destroy(); the UNREACHABLE handler calls
 * rpcrdma_cm_client_unreachable(), and 6.1's ADDR_CHANGE handler
 * rpcrdma_cm_client_addr_change().
 */

#include <linux/build_bug.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>
#include <linux/sunrpc/rpcrdma_cm.h>

#include "xprt_rdma.h"

#include <trace/events/rpcrdma_cm.h>

/* client_recv_size is the rdma_max_inline_read sysctl under a second
 * name: sysctls exist only once the module is loaded, too late for
 * /etc/sysctl.d, while "options rpcrdma client_recv_size=" in
 * /etc/modprobe.d applies as it loads. Same bounds as the sysctl.
 */
static int rpcrdma_cm_recv_size_set(const char *val,
				    const struct kernel_param *kp)
{
	unsigned int size;
	int ret;

	ret = kstrtouint(val, 0, &size);
	if (ret)
		return ret;
	if (size < RPCRDMA_MIN_INLINE || size > RPCRDMA_MAX_INLINE)
		return -EINVAL;
	WRITE_ONCE(xprt_rdma_max_inline_read, size);
	return 0;
}

static int rpcrdma_cm_recv_size_get(char *buffer,
				    const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%u\n", READ_ONCE(xprt_rdma_max_inline_read));
}

static const struct kernel_param_ops rpcrdma_cm_recv_size_ops = {
	.set	= rpcrdma_cm_recv_size_set,
	.get	= rpcrdma_cm_recv_size_get,
};

module_param_cb(client_recv_size, &rpcrdma_cm_recv_size_ops, NULL, 0644);
MODULE_PARM_DESC(client_recv_size,
		 "Client: Receive Size it advertises and sizes its Receive buffers to, in octets, 1024-65536 (default 8192; Debian's module: 4096); the same value as sysctl sunrpc.rdma_max_inline_read");

/**
 * rpcrdma_cm_client_advertise - Prepare the client's private data
 * @ep: endpoint being created, with re_inline_send/recv set from the
 *	rdma_max_inline_write/read sysctls
 * @device: the RDMA device the endpoint uses
 *
 * Advertises Send Size = max inline write, Receive Size = max inline
 * read and R when rpcrdma_cm_reminv_allowed(). Every reconnect creates
 * a new endpoint, so every connection advertises afresh from the
 * configured values.
 */
void rpcrdma_cm_client_advertise(struct rpcrdma_ep *ep,
				 struct ib_device *device)
{
	struct rpcrdma_cm_conn *conn = &ep->re_cm;
	u8 len;

	BUILD_BUG_ON(sizeof(ep->re_cm_private) != RPCRDMA_PDATA_V1_LEN);

	rpcrdma_cm_begin(conn, ep->re_id, false);
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
 * rpcrdma_cm_client_receive - Note what a Receive completion shows
 * @r_xprt: transport whose Receive completed
 * @wc: the completion, before rpcrdma_wc_receive() looks at its status
 *
 * See rpcrdma_cm_recv_done(): remote invalidation the server used
 * without having negotiated it, and Sends too long for the Receive.
 */
void rpcrdma_cm_client_receive(struct rpcrdma_xprt *r_xprt,
			       const struct ib_wc *wc)
{
	rpcrdma_cm_recv_done(&r_xprt->rx_ep->re_cm, wc->status, wc->wc_flags,
			     wc->ex.invalidate_rkey);
}

/**
 * rpcrdma_cm_client_destroy - Forget an endpoint
 * @ep: endpoint about to be freed
 */
void rpcrdma_cm_client_destroy(struct rpcrdma_ep *ep)
{
	rpcrdma_cm_unlink(&ep->re_cm);
}

/**
 * rpcrdma_cm_cq_lockdep_class - Give a transport CQ's poll work its own class
 * @cq: a send or receive CQ rpcrdma_ep_create() has just allocated
 *
 * Every CQ's poll work is initialised at one site in ib_core, so lockdep
 * holds them all in one class with the MAD layer's, whose completion
 * handler takes an rdma_cm id's handler_mutex. rpcrdma_ep_destroy() may
 * run inside the CM event handler, under that mutex, and frees these
 * CQs, waiting for their poll work. Their handlers never reach rdma_cm,
 * so no deadlock follows, but lockdep would report one and then stop
 * checking anything for the rest of the boot. A class per transport CQ
 * keeps the check: a transport completion handler that took a CM lock
 * would still be reported.
 */
void rpcrdma_cm_cq_lockdep_class(struct ib_cq *cq)
{
#ifdef CONFIG_LOCKDEP
	static struct lock_class_key key;

	/* IB_POLL_WORKQUEUE: the work is idle, no QP is attached yet */
	if (cq->poll_ctx == IB_POLL_WORKQUEUE)
		lockdep_init_map(&cq->work.lockdep_map,
				 "(work_completion)(rpcrdma cq->work)", &key, 0);
#endif
}

/* True when @req's rqst is still pinned by the reply @req holds: the
 * reply handler pins the rqst, and only the completion of the last
 * LOCAL_INV of the chain (or the failure to post it) unpins it.
 */
static bool rpcrdma_cm_req_stranded(struct rpcrdma_req *req)
{
	struct rpcrdma_rep *rep = req->rl_reply;

	return rep && rep->rr_rqst == &req->rl_slot &&
	       atomic_read(&req->rl_slot.rq_pin);
}

/**
 * rpcrdma_cm_client_unpin_stranded - Release RPCs a lost LOCAL_INV pinned
 * @r_xprt: transport being disconnected, its Send and Receive queues
 *	    drained
 *
 * A Reply whose Call registered memory pins its rqst until the last
 * LOCAL_INV Work Request of the chain completes; until then the RPC
 * cannot be sent again (xprt_request_dequeue_xprt() waits for the
 * pin). After ib_drain_qp() every posted Work Request has completed,
 * at least with a flush status, so no rqst should still be pinned.
 * soft-iWARP (siw) has been seen to drop LOCAL_INVs posted just
 * before a disconnect without a completion: the RPC then waited
 * forever and the hard mount hung. Release such an RPC the way a
 * flushed LOCAL_INV does, return its Reply buffer, and count it, so
 * the RPC is sent again on the next connection. The chain's MRs are
 * destroyed with all the others by rpcrdma_mrs_destroy().
 */
void rpcrdma_cm_client_unpin_stranded(struct rpcrdma_xprt *r_xprt)
{
	struct rpcrdma_buffer *buf = &r_xprt->rx_buf;
	struct rpcrdma_req *req;
	struct rpcrdma_rep *rep;
	unsigned int n = 0;

	/* rpcrdma_reqs_reset() walks this list unlocked at the same point */
	list_for_each_entry(req, &buf->rb_allreqs, rl_all) {
		if (!rpcrdma_cm_req_stranded(req))
			continue;
		rep = req->rl_reply;
		trace_rpcrdma_cm_unpin_stranded(req->rl_slot.rq_task->tk_pid,
						be32_to_cpu(req->rl_slot.rq_xid));
		rpcrdma_unpin_rqst(rep);
		rpcrdma_rep_put(buf, rep);
		n++;
	}
	if (!n)
		return;
	rpcrdma_cm_count_stranded(n);
	pr_warn_ratelimited("rpcrdma: %s: %u RPC(s) still waited for LOCAL_INV completions after the drain; sending them again\n",
			    r_xprt->rx_xprt.address_strings[RPC_DISPLAY_ADDR],
			    n);
}

/**
 * rpcrdma_cm_client_addr_change - Take RDMA_CM_EVENT_ADDR_CHANGE (6.1)
 * @ep: the endpoint the event came to
 *
 * rdma_cm reports ADDR_CHANGE when the bond an id is bound to fails
 * over to a slave with another MAC, in whatever state the id is. 6.1's
 * handler then put the endpoint as DISCONNECTED does. Before
 * ESTABLISHED no get balances that put: the failed connect's teardown
 * frees the endpoint in its drain and puts it again (refcount_t
 * underflow, a use-after-free, a cm_id never destroyed). A connect
 * attempt is therefore only woken, and sees -ENODEV.
 *
 * An established connection keeps 6.1's put, unlike mainline's fix: the
 * failover has deleted the GID its DREQ would be sent from, so
 * rdma_disconnect() sends nothing and no DISCONNECTED event ever puts
 * the reference ESTABLISHED took.
 *
 * Return: true when the connection was established (the handler closes
 * it and puts that reference), false otherwise.
 */
bool rpcrdma_cm_client_addr_change(struct rpcrdma_ep *ep)
{
	switch (xchg(&ep->re_connect_status, -ENODEV)) {
	case 0:
		wake_up_all(&ep->re_connect_wait);
		return false;
	case 1:
		return true;
	}
	return false;
}

/**
 * rpcrdma_cm_client_unreachable - Take RDMA_CM_EVENT_UNREACHABLE
 * @ep: the endpoint the event came to
 *
 * rdma_cm reports UNREACHABLE on an established RoCE connection too,
 * when a neighbour update for the server fails or changes its address.
 * Upstream's handler only set re_connect_status, which on a live
 * connection stops rpcrdma_mrs_refresh() for good: the next marshal
 * that finds no MR leaves XPRT_WRITE_SPACE set and the mount hangs.
 * Close such a connection instead, as for ADDR_CHANGE; the DISCONNECTED
 * event that follows puts the reference taken at ESTABLISHED.
 *
 * Return: true when the connection was established and is being closed
 * (the handler returns), false for a connect attempt (the handler wakes
 * its waiter, which sees -ENETUNREACH).
 */
bool rpcrdma_cm_client_unreachable(struct rpcrdma_ep *ep)
{
	struct sockaddr *peer;

	if (xchg(&ep->re_connect_status, -ENETUNREACH) != 1)
		return false;
	peer = (struct sockaddr *)&ep->re_id->route.addr.dst_addr;
	trace_rpcrdma_cm_unreachable(peer);
	rpcrdma_cm_count_unreachable();
	pr_info_ratelimited("rpcrdma: %pISpc: unreachable while connected (a neighbour entry failed or changed); reconnecting\n",
			    peer);
	rpcrdma_force_disconnect(ep);
	return true;
}
