/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Glue between rpcrdma.ko and the RFC 8797 codec.
 *
 * Private to rpcrdma.ko. The build's semantic patches add a
 * struct rpcrdma_cm_conn to the client endpoint (struct rpcrdma_ep) and
 * to the server transport (struct svcxprt_rdma), include this header
 * from xprt_rdma.h and svc_rdma.h, and call the hooks declared below
 * where upstream built, parsed and applied the private data itself.
 */
#ifndef _LINUX_SUNRPC_RPCRDMA_CM_H
#define _LINUX_SUNRPC_RPCRDMA_CM_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/socket.h>
#include <linux/sunrpc/rpcrdma_pdata.h>

/**
 * struct rpcrdma_cm_conn - RFC 8797 state of one connection
 * @list: entry in the connection registry shown in debugfs
 * @linked: @list is on the registry
 * @server: this side accepted the connection (svcrdma)
 * @peer_closed: server: the CM reported the client's disconnect
 * @pdata: this connection exchanges private data: the pdata parameter
 *	as it was when the connection began, used by advertise and parse
 * @peer: the peer's address
 * @status: outcome of parsing the peer's private data
 * @peer_msg: the peer's message, valid when @status is present
 * @local: what this side advertised
 * @res: the negotiated thresholds and remote invalidation decision
 * @send_size: server: the Send Size offered beyond sc_max_req_size,
 *	svc_rdma_cm_offer_send() of the client's Receive Size, fixed when
 *	the connection request arrived; its send buffers are this long
 * @reply_chunks: server: Replies to Calls that offered a Reply chunk
 * @short_replies: server: those of @reply_chunks sent inline (RDMA_MSG)
 * @recv_inv: client: Receives that arrived with remote invalidation
 * @swi_without_r: client: those of @recv_inv that arrived although
 *	remote invalidation was not negotiated (RFC 8797 Section 4.1)
 * @recv_too_long: client: Receives that failed because the Send was
 *	longer than the Receive buffer
 */
struct rpcrdma_cm_conn {
	struct list_head		list;
	bool				linked;
	bool				server;
	bool				peer_closed;
	bool				pdata;
	struct sockaddr_storage		peer;
	enum rpcrdma_pdata_status	status;
	struct rpcrdma_pdata		peer_msg;
	struct rpcrdma_pdata_limits	local;
	struct rpcrdma_pdata_result	res;
	u32				send_size;
	atomic_long_t			reply_chunks;
	atomic_long_t			short_replies;
	atomic_long_t			recv_inv;
	atomic_long_t			swi_without_r;
	atomic_long_t			recv_too_long;
};

struct ib_cq;
struct ib_device;
struct ib_wc;
struct rdma_cm_id;
struct rdma_conn_param;
struct rpcrdma_connect_private;
struct rpcrdma_ep;
struct rpcrdma_xprt;
struct svc_xprt;
struct svcxprt_rdma;
struct svc_rdma_send_ctxt;
struct svc_rdma_pcl;
struct svc_rdma_recv_ctxt;
struct xdr_buf;

/* rpcrdma_cm.c: the steps both roles share */
bool rpcrdma_cm_reminv_allowed(const struct ib_device *device);
void rpcrdma_cm_set_local(struct rpcrdma_cm_conn *conn,
			  const struct ib_device *device,
			  u32 max_send, u32 max_recv);
void rpcrdma_cm_begin(struct rpcrdma_cm_conn *conn,
		      const struct rdma_cm_id *id, bool server);
void rpcrdma_cm_advertise(struct rpcrdma_cm_conn *conn, void *buf, u8 *len);
void rpcrdma_cm_parse(struct rpcrdma_cm_conn *conn,
		      const struct rdma_conn_param *param);
void rpcrdma_cm_negotiate(struct rpcrdma_cm_conn *conn);
/* ... and the drop-in module's parameters, registry and debugfs */
int rpcrdma_cm_init(void);
void rpcrdma_cm_exit(void);
bool rpcrdma_cm_pdata_enabled(void);
bool rpcrdma_cm_short_replies_enabled(void);
u32 rpcrdma_cm_server_send_size_wanted(void);
void rpcrdma_cm_link(struct rpcrdma_cm_conn *conn);
void rpcrdma_cm_unlink(struct rpcrdma_cm_conn *conn);
void rpcrdma_cm_count_stranded(unsigned int n);
void rpcrdma_cm_count_unreachable(void);
void rpcrdma_cm_count_unaccepted(unsigned int n);
void rpcrdma_cm_count_unposted(void);
void rpcrdma_cm_count_accept_failed(void);
void rpcrdma_cm_count_drained(bool completed, bool shared);
void rpcrdma_cm_recv_done(struct rpcrdma_cm_conn *conn, int status,
			  int wc_flags, u32 inv_rkey);

/* rpcrdma_cm_client.c: xprtrdma hooks */
void rpcrdma_cm_client_advertise(struct rpcrdma_ep *ep,
				 struct ib_device *device);
void rpcrdma_cm_client_established(struct rpcrdma_ep *ep,
				   const struct rdma_conn_param *param);
void rpcrdma_cm_client_destroy(struct rpcrdma_ep *ep);
void rpcrdma_cm_cq_lockdep_class(struct ib_cq *cq);
void rpcrdma_cm_client_unpin_stranded(struct rpcrdma_xprt *r_xprt);
bool rpcrdma_cm_client_unreachable(struct rpcrdma_ep *ep);
bool rpcrdma_cm_client_addr_change(struct rpcrdma_ep *ep);
void rpcrdma_cm_client_receive(struct rpcrdma_xprt *r_xprt,
			       const struct ib_wc *wc);
/* The client's default Receive Size (the rdma_max_inline_read sysctl):
 * the Linux client offers a Reply chunk for every Call whose largest
 * possible reply exceeds it, and OPEN's (every kernel) and GETATTR's
 * (7.x) are above 4 KiB.
 */
#define RPCRDMA_CM_CLIENT_RECV_SIZE	8192U

/* svc_rdma_cm_calc.c: the server hooks' arithmetic, on plain values */
/* How long a detach waits for the Work Requests posted on its QP */
#define SVC_RDMA_CM_DRAIN_TIMEOUT	HZ
/* The least a detach waits when it shares an earlier detach's wait */
#define SVC_RDMA_CM_DRAIN_SHARED	(HZ / 5)
/* The end of a wait no detach shares: one over a second before boot */
#define SVC_RDMA_CM_DRAIN_START		(INITIAL_JIFFIES - SVC_RDMA_CM_DRAIN_TIMEOUT)
unsigned int svc_rdma_cm_chunk_hdrlen(u32 segcount);
unsigned int svc_rdma_cm_short_hdrlen(unsigned int write_hdrlen,
				      u32 reply_segcount);
bool svc_rdma_cm_inline_fits(unsigned int hdrlen, unsigned int msglen,
			     u32 send_thresh);
unsigned int svc_rdma_cm_bc_payload(u32 send_thresh);
/* The Send Size the server offers a client that Receives as much:
 * 8 KiB holds the replies (OPEN, GETATTR) that the Linux client
 * otherwise asks to be written into a Reply chunk.
 */
#define SVC_RDMA_CM_SEND_SIZE		8192U
/* The longest send buffer a client's Receive Size can ask for */
#define SVC_RDMA_CM_SEND_SIZE_MAX	65536U
u32 svc_rdma_cm_offer_send(u32 wanted, u32 peer_recv);
long svc_rdma_cm_drain_time(unsigned long now, unsigned long end,
			    bool *shared);

/* svc_rdma_cm.c: svcrdma hooks */
void svc_rdma_cm_parse(struct svcxprt_rdma *rdma,
		       const struct rdma_conn_param *param);
void svc_rdma_cm_accept(struct svcxprt_rdma *rdma,
			struct rdma_conn_param *param,
			struct rpcrdma_connect_private *pmsg);
bool svc_rdma_cm_reminv(const struct svcxprt_rdma *rdma);
u32 svc_rdma_cm_send_size(const struct svcxprt_rdma *rdma);
int svc_rdma_cm_check_inline(const struct svcxprt_rdma *rdma,
			     const struct svc_rdma_send_ctxt *sctxt,
			     const struct svc_rdma_pcl *write_pcl,
			     const struct xdr_buf *xdr);
bool svc_rdma_cm_short_reply(struct svcxprt_rdma *rdma,
			     const struct svc_rdma_recv_ctxt *rctxt,
			     const struct xdr_buf *xdr);
unsigned int svc_rdma_cm_bc_max_payload(const struct svc_xprt *xprt);
void svc_rdma_cm_destroy(struct svcxprt_rdma *rdma);
void svc_rdma_cm_flush_qp(struct svcxprt_rdma *rdma);
void svc_rdma_cm_drain_sends(struct svcxprt_rdma *rdma);
void svc_rdma_cm_disconnected(struct svcxprt_rdma *rdma);
void svc_rdma_cm_peer_closed(struct svcxprt_rdma *rdma);
void svc_rdma_cm_refuse_unaccepted(struct svcxprt_rdma *rdma);
int svc_rdma_cm_payload_err(struct svcxprt_rdma *rdma, int err);
void svc_rdma_cm_accept_failed(struct svcxprt_rdma *newxprt);

#endif /* _LINUX_SUNRPC_RPCRDMA_CM_H */
