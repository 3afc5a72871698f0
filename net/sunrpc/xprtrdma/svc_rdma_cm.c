// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 8797 private data on the server (svcrdma).
 *
 * At CONNECT_REQUEST the client's private data is parsed and kept. At
 * accept the server advertises its own limits and negotiates. The
 * results gate Send With Invalidate (both sides set R) and bound every
 * inline Send towards the client: min(server Send Size, client Receive
 * Size). A Reply that does not fit and has no Reply chunk is answered
 * with ERR_CHUNK by the caller (RFC 8166 Section 4.5.3). A Reply that
 * fits that threshold is sent inline even when the client offered a
 * Reply chunk (RFC 8166 Section 4.3.3).
 */

#include <linux/build_bug.h>
#include <linux/module.h>
#include <linux/sunrpc/svc_rdma.h>
#include <linux/sunrpc/rpcrdma_cm.h>

#include <trace/events/rpcrdma_cm.h>

/**
 * svc_rdma_cm_parse - Keep the client's private data
 * @rdma: new transport, its sc_cm_id set
 * @param: connection parameters of the CONNECT_REQUEST event
 *
 * Also fixes the Send Size offered to this client, before any of the
 * transport's send buffers is allocated, so that all are as long.
 */
void svc_rdma_cm_parse(struct svcxprt_rdma *rdma,
		       const struct rdma_conn_param *param)
{
	struct rpcrdma_cm_conn *conn = &rdma->sc_cm;
	u32 wanted = rpcrdma_cm_server_send_size_wanted();

	rpcrdma_cm_begin(conn, rdma->sc_cm_id, true);
	rpcrdma_cm_parse(conn, param);
	if (conn->status == RPCRDMA_PDATA_PRESENT)
		conn->send_size = svc_rdma_cm_offer_send(wanted,
							 conn->peer_msg.recv_size);
}

/**
 * svc_rdma_cm_accept - Advertise, negotiate and fill the accept params
 * @rdma: transport being accepted, its device known
 * @param: connection parameters about to be passed to rdma_accept()
 * @pmsg: storage for the private data message, owned by the caller
 *
 * The server advertises Receive Size = its receive buffer size
 * (sc_max_req_size), Send Size = the length of its send buffers, and
 * R when rpcrdma_cm_reminv_allowed(). svc_rdma_cm_reminv() reads the
 * outcome; sc_snd_w_inv no longer decides anything.
 */
void svc_rdma_cm_accept(struct svcxprt_rdma *rdma,
			struct rdma_conn_param *param,
			struct rpcrdma_connect_private *pmsg)
{
	struct rpcrdma_cm_conn *conn = &rdma->sc_cm;
	u8 len;

	BUILD_BUG_ON(sizeof(*pmsg) != RPCRDMA_PDATA_V1_LEN);

	rpcrdma_cm_set_local(conn, rdma->sc_cm_id->device,
			     svc_rdma_cm_send_size(rdma),
			     rdma->sc_max_req_size);
	rpcrdma_cm_advertise(conn, pmsg, &len);
	rpcrdma_cm_negotiate(conn);

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

/**
 * svc_rdma_cm_send_size - Length of a transport's send buffers
 * @rdma: the transport
 *
 * svcrdma sizes its send buffers, and bounds the Replies it pulls up
 * into them, by this rather than by sc_max_req_size, which sizes its
 * Receives: a client that Receives more gets longer Sends without
 * longer server Receives. Both values are fixed before the first send
 * buffer is allocated.
 *
 * Return: the larger of sc_max_req_size and the Send Size offered to
 * this transport's client.
 */
u32 svc_rdma_cm_send_size(const struct svcxprt_rdma *rdma)
{
	return max_t(u32, rdma->sc_max_req_size, rdma->sc_cm.send_size);
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
 * @write_pcl: the Call's Write chunks (their payloads are not Sent)
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
			     const struct svc_rdma_pcl *write_pcl,
			     const struct xdr_buf *xdr)
{
	const struct rpcrdma_cm_conn *conn = &rdma->sc_cm;
	unsigned int hdrlen = sctxt->sc_hdrbuf.len, msglen = 0;

	if (pcl_process_nonpayloads(write_pcl, xdr,
				    svc_rdma_cm_count, &msglen) < 0)
		return 0;
	if (svc_rdma_cm_inline_fits(hdrlen, msglen, conn->res.send_thresh))
		return 0;
	trace_rpcrdma_cm_inline_too_large(conn, hdrlen + msglen);
	return -E2BIG;
}

/**
 * svc_rdma_cm_short_reply - May a Reply skip the client's Reply chunk
 * @rdma: controlling transport
 * @rctxt: the Call's chunks
 * @xdr: the RPC Reply about to be sent
 *
 * RFC 8166 Section 4.3.3: when the Transport and Payload streams
 * together fit the reply inline threshold, the Responder MAY return a
 * Short message instead of using the Requester's Reply chunk. The
 * Reply chunk is still copied into the transport header, with every
 * segment length zero: nothing was written into it.
 *
 * The inline size counted here is what svc_rdma_sendto() will Send:
 * the fixed fields, an empty Read list, the Write list, the Reply
 * chunk, and every part of @xdr that no Write chunk conveys. It is
 * compared with the negotiated min(server Send Size, client Receive
 * Size). Write chunk payloads are unaffected, and so is the choice of
 * R_key for Send With Invalidate (made when the Call arrived, from the
 * Call's own chunks).
 *
 * The short_replies module parameter can turn this off.
 *
 * Return: true when the Call offered a Reply chunk and the Reply fits:
 * the caller then skips the RDMA Write and sends RDMA_MSG.
 */
bool svc_rdma_cm_short_reply(struct svcxprt_rdma *rdma,
			     const struct svc_rdma_recv_ctxt *rctxt,
			     const struct xdr_buf *xdr)
{
	struct rpcrdma_cm_conn *conn = &rdma->sc_cm;
	unsigned int hdrlen, write_hdrlen = 0, msglen = 0;
	struct svc_rdma_chunk *chunk;

	if (pcl_is_empty(&rctxt->rc_reply_pcl))
		return false;
	atomic_long_inc(&conn->reply_chunks);
	if (!rpcrdma_cm_short_replies_enabled())
		return false;

	pcl_for_each_chunk(chunk, &rctxt->rc_write_pcl)
		write_hdrlen += svc_rdma_cm_chunk_hdrlen(chunk->ch_segcount);
	chunk = pcl_first_chunk(&rctxt->rc_reply_pcl);
	hdrlen = svc_rdma_cm_short_hdrlen(write_hdrlen, chunk->ch_segcount);
	if (pcl_process_nonpayloads(&rctxt->rc_write_pcl, xdr,
				    svc_rdma_cm_count, &msglen) < 0)
		return false;

	if (!svc_rdma_cm_inline_fits(hdrlen, msglen, conn->res.send_thresh)) {
		trace_rpcrdma_cm_reply_chunk(conn, hdrlen + msglen);
		return false;
	}
	atomic_long_inc(&conn->short_replies);
	trace_rpcrdma_cm_short_reply(conn, hdrlen + msglen);
	return true;
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

	return svc_rdma_cm_bc_payload(rdma->sc_cm.res.send_thresh);
}

/**
 * svc_rdma_cm_destroy - Forget a transport
 * @rdma: transport about to be freed (listeners included)
 */
void svc_rdma_cm_destroy(struct svcxprt_rdma *rdma)
{
	rpcrdma_cm_unlink(&rdma->sc_cm);
}

/**
 * svc_rdma_cm_flush_qp - Have the device complete every posted WR now
 * @rdma: transport being detached, or whose CM ID reported the peer gone
 *        (a listener has no QP)
 *
 * Moving the QP to ERROR makes any device complete what is posted at
 * once, with a flush status. svc_rdma_cm_drain_sends() does it for a
 * client that has disconnected.
 *
 * Kernels up to 6.1 need it in two more places, where the module for
 * them calls it: the CM handler's svc_rdma_cm_disconnected(),
 * and the detach, right after rdma_disconnect(). There an nfsd thread
 * that pulls a Read chunk waits, uninterruptibly and holding the
 * transport, until its RDMA Reads complete. A disconnect must flush
 * them, but siw does not when one of its own Sends fails as the peer
 * goes: it reports QP_FATAL and closes the connection without moving
 * the QP to ERROR, so a Read it has sent stays on its queue until the
 * drain in the transport's release, which waits for that very thread.
 */
void svc_rdma_cm_flush_qp(struct svcxprt_rdma *rdma)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

	if (rdma->sc_qp)
		ib_modify_qp(rdma->sc_qp, &attr, IB_QP_STATE);
}

/* When the latest wait for a live peer's Work Requests ends, in jiffies */
static unsigned long svc_rdma_cm_drain_end = SVC_RDMA_CM_DRAIN_START;

/* svc_rdma_cm_drain_time() for a detach starting now. Two detaches
 * racing here at most shorten or lengthen one wait; no lock is worth
 * that.
 */
static long svc_rdma_cm_drain_wait(bool *shared)
{
	unsigned long now = jiffies;
	long wait;

	wait = svc_rdma_cm_drain_time(now, READ_ONCE(svc_rdma_cm_drain_end),
				      shared);
	WRITE_ONCE(svc_rdma_cm_drain_end, now + wait);
	return wait;
}

static bool svc_rdma_cm_sq_idle(struct svcxprt_rdma *rdma)
{
	return atomic_read(&rdma->sc_sq_avail) >= (int)rdma->sc_sq_depth;
}

/**
 * svc_rdma_cm_drain_sends - Let posted replies leave before a disconnect
 * @rdma: transport being detached (a listener has no QP)
 *
 * rdma_disconnect() moves the QP to ERROR, and the device flushes
 * every Work Request it has not carried out yet. When nfsd stops, its
 * threads post their last replies and exit, then every transport is
 * detached: a reply still on the Send Queue is flushed and never
 * reaches the client. The restart has ended the client's NFSv4.1
 * session and its reply cache, so the client sends the call again on
 * a new session and nfsd executes it a second time: an mkdir or
 * symlink then fails with EEXIST, a rename, unlink or rmdir with
 * ENOENT. A TCP transport sends what its socket holds before the FIN.
 * Wait until nothing is posted, for at most SVC_RDMA_CM_DRAIN_TIMEOUT,
 * shared with the detaches close in time (svc_rdma_cm_drain_time()):
 * when the peer has gone, Work Requests complete only as the device
 * gives up on them, and the close must not wait that long.
 *
 * When the client disconnected first, it moved its QP to ERROR before
 * its DREQ: nothing posted can reach it any more, and waiting would
 * hold this nfsd thread for the whole timeout. Flush the QP instead,
 * so that every Work Request completes now.
 */
void svc_rdma_cm_drain_sends(struct svcxprt_rdma *rdma)
{
	long wait = SVC_RDMA_CM_DRAIN_TIMEOUT;
	bool shared = false;
	bool idle;

	if (!rdma->sc_qp || svc_rdma_cm_sq_idle(rdma))
		return;
	if (READ_ONCE(rdma->sc_cm.peer_closed))
		svc_rdma_cm_flush_qp(rdma);
	else
		wait = svc_rdma_cm_drain_wait(&shared);
	idle = wait_event_timeout(rdma->sc_send_wait, svc_rdma_cm_sq_idle(rdma),
				  wait) > 0;
	rpcrdma_cm_count_drained(idle, shared);
}

/**
 * svc_rdma_cm_peer_closed - Note that the client has disconnected
 * @rdma: transport whose CM ID reported DISCONNECTED (or
 *        DEVICE_REMOVAL, where the handler closes on both alike)
 *
 * Called from the CM event handler, before it asks for the transport
 * to be closed; svc_rdma_cm_drain_sends() reads the mark when an nfsd
 * thread detaches the transport. The handler touches no QP: the
 * transport's release destroys the QP before the CM ID, and a
 * reference taken here to keep the QP could be the last one. Dropping
 * it would release the transport from inside this handler, and where
 * the release runs synchronously, its rdma_destroy_id() waits for this
 * very handler to return: a deadlock.
 */
void svc_rdma_cm_peer_closed(struct svcxprt_rdma *rdma)
{
	WRITE_ONCE(rdma->sc_cm.peer_closed, true);
}

/**
 * svc_rdma_cm_disconnected - Flush a connection the peer has closed
 * @rdma: transport whose CM ID reported DISCONNECTED or DEVICE_REMOVAL
 *
 * Called from the CM event handler. Up to 6.1 an nfsd thread waits for
 * its RDMA Reads to complete, and the close that would flush them runs
 * in an nfsd thread too. When the peer has gone, a Read still on the
 * QP completes only once the device has spent its retries (about 16 s
 * on rxe), and with every thread waiting, on that Read or for Send
 * Queue space, nothing closes the transport or accepts the client's
 * new connection until then (make soak: params faults that took 16.7
 * to 17.1 s instead of 0.5 to 1.2 s). The peer has already moved its
 * QP to ERROR, so nothing posted can still succeed: flush it now.
 *
 * The reference keeps the QP alive: the transport's release destroys
 * it before it destroys the CM ID, and events arrive until then.
 */
void svc_rdma_cm_disconnected(struct svcxprt_rdma *rdma)
{
	struct svc_xprt *xprt = &rdma->sc_xprt;

	if (!kref_get_unless_zero(&xprt->xpt_ref))
		return;
	svc_rdma_cm_flush_qp(rdma);
	svc_xprt_put(xprt);
}

/**
 * svc_rdma_cm_refuse_unaccepted - Refuse requests a freed listener kept
 * @rdma: transport about to be freed, its CM ID already destroyed
 *
 * The listener's CM handler queues each connection request on
 * sc_accept_q for an nfsd thread to accept. A request that arrives as
 * nfsd shuts down stays there when the listener goes: its CM ID is
 * never accepted or rejected, and the RDMA CM answers each of the
 * client's retries with an MRA (Message Receipt Acknowledgment). The
 * client then waits out up to 15 service timeouts of about 68 s each
 * before it tries again and finds the new listener: a mount that hung
 * for minutes after "rpc.nfsd 0" under the 6.12 debug kernel. Freeing
 * each such transport destroys its CM ID, which refuses the request
 * (a REJ on InfiniBand and RoCE, a reject on iWARP), so the client
 * reconnects at once. Only listeners have such a queue.
 */
void svc_rdma_cm_refuse_unaccepted(struct svcxprt_rdma *rdma)
{
	struct svcxprt_rdma *newxprt, *next;
	LIST_HEAD(unaccepted);
	unsigned int n = 0;

	if (!test_bit(XPT_LISTENER, &rdma->sc_xprt.xpt_flags))
		return;

	/* With the listener's CM ID gone, its handler queues nothing more */
	spin_lock(&rdma->sc_lock);
	list_splice_init(&rdma->sc_accept_q, &unaccepted);
	spin_unlock(&rdma->sc_lock);

	list_for_each_entry_safe(newxprt, next, &unaccepted, sc_accept_q) {
		list_del_init(&newxprt->sc_accept_q);
		trace_svc_rdma_cm_refuse_unaccepted(newxprt->sc_xprt.xpt_remotebuf);
		/* svc_xprt_free() drops the module reference an accepted
		 * transport inherits from svc_handle_xprt(); this one never
		 * got it.
		 */
		__module_get(newxprt->sc_xprt.xpt_class->xcl_owner);
		svc_xprt_put(&newxprt->sc_xprt);
		n++;
	}
	if (!n)
		return;
	rpcrdma_cm_count_unaccepted(n);
	pr_info_ratelimited("svcrdma: listener %pISpc closed: refused %u connection request(s) it never accepted\n",
			    (struct sockaddr *)&rdma->sc_xprt.xpt_local, n);
}

/**
 * svc_rdma_cm_payload_err - What nfsd hears when a Write chunk failed
 * @rdma: transport the READ's reply was to go out on
 * @err: negative errno from posting the READ payload's Write chunk
 *
 * Where svc_rdma_result_payload() posts the Write chunk itself (6.1),
 * a post that fails because the connection is going returns
 * -ENOTCONN, for which nfsd's nfserrno() has no NFS status: it WARNs
 * and answers NFS4ERR_IO. That answer never leaves: the failed post
 * has marked the transport to close, and svc_rdma_sendto() drops every
 * reply of a closing transport. So nfsd is told the payload is done,
 * the behaviour of kernels that post the chunk from svc_rdma_sendto();
 * the client sends the READ again on its next connection. Each such
 * READ is counted in <debugfs>/rpcrdma_cm/unposted. An error on a
 * transport not marked to close is passed on unchanged.
 *
 * Return: 0 when the reply will be dropped anyway, else @err.
 */
int svc_rdma_cm_payload_err(struct svcxprt_rdma *rdma, int err)
{
	if (err != -ENOTCONN || !svc_xprt_is_dead(&rdma->sc_xprt))
		return err;
	rpcrdma_cm_count_unposted();
	return 0;
}

/**
 * svc_rdma_cm_accept_failed - Let a transport accept gave up on be freed
 * @newxprt: new transport svc_rdma_accept() could not complete
 *
 * Called on svc_rdma_accept()'s error path (6.1) just before the put of
 * @newxprt's creation reference, which now frees it: __svc_rdma_free()
 * drains and destroys its QP, CQs, PD and CM ID like any transport's.
 * svc_xprt_free() drops a module reference that only an accepted
 * transport holds (svc_handle_xprt() dropped its own when accept
 * failed), so take one for it. @newxprt was never handed to svc: it
 * keeps XPT_BUSY, and a CM event that arrives before its CM ID is
 * destroyed cannot queue it. Counted in <debugfs>/rpcrdma_cm/accept_failed.
 */
void svc_rdma_cm_accept_failed(struct svcxprt_rdma *newxprt)
{
	__module_get(newxprt->sc_xprt.xpt_class->xcl_owner);
	rpcrdma_cm_count_accept_failed();
}
