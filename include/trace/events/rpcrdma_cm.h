/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints for RFC 8797 private data exchange.
 *
 * Upstream's rpcrdma:xprtrdma_inline_thresh still reports the client's
 * negotiated values; these events cover both roles, the server
 * included, and the replies the server refuses to Send inline.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rpcrdma_cm

#if !defined(_TRACE_RPCRDMA_CM_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_RPCRDMA_CM_H

#include <linux/tracepoint.h>
#include <linux/in6.h>
#include <linux/sunrpc/rpcrdma_cm.h>

TRACE_DEFINE_ENUM(RPCRDMA_PDATA_PRESENT);
TRACE_DEFINE_ENUM(RPCRDMA_PDATA_NO_DATA);
TRACE_DEFINE_ENUM(RPCRDMA_PDATA_NO_IDENT);
TRACE_DEFINE_ENUM(RPCRDMA_PDATA_TRUNCATED);
TRACE_DEFINE_ENUM(RPCRDMA_PDATA_BAD_VERSION);
TRACE_DEFINE_ENUM(RPCRDMA_PDATA_DISABLED);

#define show_rpcrdma_pdata_status(x)					\
	__print_symbolic(x,						\
		{ RPCRDMA_PDATA_PRESENT,	"present" },		\
		{ RPCRDMA_PDATA_NO_DATA,	"no_data" },		\
		{ RPCRDMA_PDATA_NO_IDENT,	"no_ident" },		\
		{ RPCRDMA_PDATA_TRUNCATED,	"truncated" },		\
		{ RPCRDMA_PDATA_BAD_VERSION,	"bad_version" },	\
		{ RPCRDMA_PDATA_DISABLED,	"disabled" })

#define show_rpcrdma_cm_role(server)	((server) ? "server" : "client")

/*
 * parse: the peer's message (local_* are 0 on a server, which parses
 * before it knows its own limits). negotiate: everything, with the
 * thresholds this side uses: send = largest message it may Send,
 * recv = largest message the peer may Send to it.
 */
DECLARE_EVENT_CLASS(rpcrdma_cm_class,
		    TP_PROTO(const struct rpcrdma_cm_conn *conn),
		    TP_ARGS(conn),
		    TP_STRUCT__entry(__array(unsigned char, addr,
					     sizeof(struct sockaddr_in6))
				     __field(bool, server)
				     __field(unsigned long, status)
				     __field(u32, peer_send)
				     __field(u32, peer_recv)
				     __field(bool, peer_r)
				     __field(u32, local_send)
				     __field(u32, local_recv)
				     __field(bool, local_r)
				     __field(u32, send_thresh)
				     __field(u32, recv_thresh)
				     __field(bool, reminv)),
		    TP_fast_assign(bool present =
					conn->status == RPCRDMA_PDATA_PRESENT;

				   memcpy(__entry->addr, &conn->peer,
					  sizeof(__entry->addr));
				   __entry->server = conn->server;
				   __entry->status = conn->status;
				   __entry->peer_send = present ?
					conn->peer_msg.send_size :
					RPCRDMA_PDATA_SIZE_MIN;
				   __entry->peer_recv = present ?
					conn->peer_msg.recv_size :
					RPCRDMA_PDATA_SIZE_MIN;
				   __entry->peer_r = present &&
					conn->peer_msg.remote_inv;
				   __entry->local_send = conn->local.max_send;
				   __entry->local_recv = conn->local.max_recv;
				   __entry->local_r = conn->local.remote_inv;
				   __entry->send_thresh = conn->res.send_thresh;
				   __entry->recv_thresh = conn->res.recv_thresh;
				   __entry->reminv = conn->res.remote_inv;),
		    TP_printk("role=%s peer=%pISpc peer_pdata=%s peer_send=%u peer_recv=%u peer_r=%u local_send=%u local_recv=%u local_r=%u send=%u recv=%u reminv=%u",
			      show_rpcrdma_cm_role(__entry->server),
			      __entry->addr,
			      show_rpcrdma_pdata_status(__entry->status),
			      __entry->peer_send, __entry->peer_recv,
			      __entry->peer_r, __entry->local_send,
			      __entry->local_recv, __entry->local_r,
			      __entry->send_thresh, __entry->recv_thresh,
			      __entry->reminv)
);

#define DEFINE_RPCRDMA_CM_EVENT(name)					\
	DEFINE_EVENT(rpcrdma_cm_class, rpcrdma_cm_##name,		\
		     TP_PROTO(const struct rpcrdma_cm_conn *conn),	\
		     TP_ARGS(conn))

DEFINE_RPCRDMA_CM_EVENT(parse);
DEFINE_RPCRDMA_CM_EVENT(negotiate);

/* advertise: what this side puts in its CM private data (len 0: none) */
TRACE_EVENT(rpcrdma_cm_advertise,
	    TP_PROTO(const struct rpcrdma_cm_conn *conn, unsigned int len),
	    TP_ARGS(conn, len),
	    TP_STRUCT__entry(__array(unsigned char, addr,
				     sizeof(struct sockaddr_in6))
			     __field(bool, server)
			     __field(unsigned int, len)
			     __field(u32, local_send)
			     __field(u32, local_recv)
			     __field(bool, local_r)),
	    TP_fast_assign(memcpy(__entry->addr, &conn->peer,
				  sizeof(__entry->addr));
			   __entry->server = conn->server;
			   __entry->len = len;
			   __entry->local_send = conn->local.max_send;
			   __entry->local_recv = conn->local.max_recv;
			   __entry->local_r = conn->local.remote_inv;),
	    TP_printk("role=%s peer=%pISpc len=%u local_send=%u local_recv=%u local_r=%u",
		      show_rpcrdma_cm_role(__entry->server), __entry->addr,
		      __entry->len, __entry->local_send, __entry->local_recv,
		      __entry->local_r)
);

/*
 * A server Send measured against the server-to-client threshold:
 * length is its inline size (transport header included), send the
 * threshold. inline_too_large: refused (a Reply becomes ERR_CHUNK).
 * For a Call that offered a Reply chunk: short_reply when the Reply
 * went inline as RDMA_MSG (RFC 8166 Section 4.3.3), reply_chunk when
 * the Reply chunk carried it.
 */
DECLARE_EVENT_CLASS(rpcrdma_cm_reply_class,
		    TP_PROTO(const struct rpcrdma_cm_conn *conn,
			     unsigned int length),
		    TP_ARGS(conn, length),
		    TP_STRUCT__entry(__array(unsigned char, addr,
					     sizeof(struct sockaddr_in6))
				     __field(unsigned int, length)
				     __field(u32, send_thresh)),
		    TP_fast_assign(memcpy(__entry->addr, &conn->peer,
					  sizeof(__entry->addr));
				   __entry->length = length;
				   __entry->send_thresh = conn->res.send_thresh;),
		    TP_printk("peer=%pISpc length=%u send=%u",
			      __entry->addr, __entry->length,
			      __entry->send_thresh)
);

#define DEFINE_RPCRDMA_CM_REPLY_EVENT(name)				\
	DEFINE_EVENT(rpcrdma_cm_reply_class, name,			\
		     TP_PROTO(const struct rpcrdma_cm_conn *conn,	\
			      unsigned int length),			\
		     TP_ARGS(conn, length))

DEFINE_RPCRDMA_CM_REPLY_EVENT(rpcrdma_cm_inline_too_large);
DEFINE_RPCRDMA_CM_REPLY_EVENT(rpcrdma_cm_short_reply);
DEFINE_RPCRDMA_CM_REPLY_EVENT(rpcrdma_cm_reply_chunk);

/*
 * What a client Receive shows of its server. swi_without_r: the
 * server's Send invalidated rkey although remote invalidation was not
 * negotiated (RFC 8797 Section 4.1); count is the connection's total.
 * recv_too_long: the Receive failed with status because the Send did
 * not fit its buffer (recv is the negotiated threshold).
 */
TRACE_EVENT(rpcrdma_cm_swi_without_r,
	    TP_PROTO(const struct rpcrdma_cm_conn *conn, u32 rkey),
	    TP_ARGS(conn, rkey),
	    TP_STRUCT__entry(__array(unsigned char, addr,
				     sizeof(struct sockaddr_in6))
			     __field(u32, rkey)
			     __field(long, count)),
	    TP_fast_assign(memcpy(__entry->addr, &conn->peer,
				  sizeof(__entry->addr));
			   __entry->rkey = rkey;
			   __entry->count = atomic_long_read(&conn->swi_without_r);),
	    TP_printk("peer=%pISpc rkey=0x%08x count=%ld",
		      __entry->addr, __entry->rkey, __entry->count)
);

TRACE_EVENT(rpcrdma_cm_recv_too_long,
	    TP_PROTO(const struct rpcrdma_cm_conn *conn, int status),
	    TP_ARGS(conn, status),
	    TP_STRUCT__entry(__array(unsigned char, addr,
				     sizeof(struct sockaddr_in6))
			     __field(int, status)
			     __field(u32, recv_thresh)),
	    TP_fast_assign(memcpy(__entry->addr, &conn->peer,
				  sizeof(__entry->addr));
			   __entry->status = status;
			   __entry->recv_thresh = conn->res.recv_thresh;),
	    TP_printk("peer=%pISpc status=%d recv=%u",
		      __entry->addr, __entry->status, __entry->recv_thresh)
);

/*
 * A client RPC still pinned by its reply after the transport's queues
 * were drained: the device never completed the LOCAL_INV chain that
 * was to release it. task and xid name the RPC that is sent again.
 */
TRACE_EVENT(rpcrdma_cm_unpin_stranded,
	    TP_PROTO(unsigned int task_id, u32 xid),
	    TP_ARGS(task_id, xid),
	    TP_STRUCT__entry(__field(unsigned int, task_id)
			     __field(u32, xid)),
	    TP_fast_assign(__entry->task_id = task_id;
			   __entry->xid = xid;),
	    TP_printk("task:%08x xid=0x%08x", __entry->task_id, __entry->xid)
);

/*
 * A client connection closed because rdma_cm reported its server
 * unreachable while it was established: a neighbour entry for the
 * server failed to resolve or changed its address.
 */
TRACE_EVENT(rpcrdma_cm_unreachable,
	    TP_PROTO(const struct sockaddr *peer),
	    TP_ARGS(peer),
	    TP_STRUCT__entry(__array(u8, addr, sizeof(struct sockaddr_in6))),
	    TP_fast_assign(memcpy(__entry->addr, peer, sizeof(__entry->addr));),
	    TP_printk("peer=%pISpc", __entry->addr)
);

/*
 * A connection request its listener queued but never accepted, refused
 * as the listener is freed (nfsd shutting down). peer names the client.
 */
TRACE_EVENT(svc_rdma_cm_refuse_unaccepted,
	    TP_PROTO(const char *peer),
	    TP_ARGS(peer),
	    /* a fixed array: __assign_str() changed its arguments in 6.10 */
	    TP_STRUCT__entry(__array(char, peer, 64)),
	    TP_fast_assign(strscpy(__entry->peer, peer, sizeof(__entry->peer));),
	    TP_printk("peer=%s", __entry->peer)
);

#endif /* _TRACE_RPCRDMA_CM_H */

#include <trace/define_trace.h>
