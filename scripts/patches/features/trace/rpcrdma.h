/* SPDX-License-Identifier: GPL-2.0 */
/**
 ** RFC 8797 private data
 **/

TRACE_DEFINE_ENUM(RPCRDMA_PDATA_PRESENT);
TRACE_DEFINE_ENUM(RPCRDMA_PDATA_NO_DATA);
TRACE_DEFINE_ENUM(RPCRDMA_PDATA_NO_IDENT);
TRACE_DEFINE_ENUM(RPCRDMA_PDATA_TRUNCATED);
TRACE_DEFINE_ENUM(RPCRDMA_PDATA_BAD_VERSION);

#define show_rpcrdma_pdata_status(x)					\
	__print_symbolic(x,						\
		{ RPCRDMA_PDATA_PRESENT,	"present" },		\
		{ RPCRDMA_PDATA_NO_DATA,	"none" },		\
		{ RPCRDMA_PDATA_NO_IDENT,	"no_ident" },		\
		{ RPCRDMA_PDATA_TRUNCATED,	"truncated" },		\
		{ RPCRDMA_PDATA_BAD_VERSION,	"bad_version" })

/*
 * The outcome of a connection's exchange, once per connection: what
 * the peer sent (its sizes are the RFC 8166 defaults when it sent no
 * usable message), what this side advertised, and the thresholds it
 * uses: send is the largest message it may Send, recv the largest
 * the peer may Send to it.
 */
DECLARE_EVENT_CLASS(rpcrdma_cm_negotiate_class,
	TP_PROTO(
		const struct rpcrdma_cm_conn *conn
	),

	TP_ARGS(conn),

	TP_STRUCT__entry(
		__array(unsigned char, addr, sizeof(struct sockaddr_in6))
		__field(unsigned long, status)
		__field(u32, peer_send)
		__field(u32, peer_recv)
		__field(bool, peer_inv)
		__field(u32, local_send)
		__field(u32, local_recv)
		__field(bool, local_inv)
		__field(u32, send)
		__field(u32, recv)
		__field(bool, remote_inv)
	),

	TP_fast_assign(
		bool present = conn->status == RPCRDMA_PDATA_PRESENT;

		memcpy(__entry->addr, &conn->peer, sizeof(struct sockaddr_in6));
		__entry->status = conn->status;
		__entry->peer_send = present ? conn->peer_msg.send_size :
					       RPCRDMA_PDATA_SIZE_MIN;
		__entry->peer_recv = present ? conn->peer_msg.recv_size :
					       RPCRDMA_PDATA_SIZE_MIN;
		__entry->peer_inv = present && conn->peer_msg.remote_inv;
		__entry->local_send = conn->local.max_send;
		__entry->local_recv = conn->local.max_recv;
		__entry->local_inv = conn->local.remote_inv;
		__entry->send = conn->res.send_thresh;
		__entry->recv = conn->res.recv_thresh;
		__entry->remote_inv = conn->res.remote_inv;
	),

	TP_printk("peer=%pISpc pdata=%s peer send/recv=%u/%u R=%u, local send/recv=%u/%u R=%u, neg send/recv=%u/%u remote_inv=%u",
		__entry->addr, show_rpcrdma_pdata_status(__entry->status),
		__entry->peer_send, __entry->peer_recv, __entry->peer_inv,
		__entry->local_send, __entry->local_recv, __entry->local_inv,
		__entry->send, __entry->recv, __entry->remote_inv
	)
);

#define DEFINE_CM_NEGOTIATE_EVENT(name)					\
	DEFINE_EVENT(rpcrdma_cm_negotiate_class, name,			\
		TP_PROTO(						\
			const struct rpcrdma_cm_conn *conn		\
		),							\
		TP_ARGS(conn))

DEFINE_CM_NEGOTIATE_EVENT(xprtrdma_cm_negotiate);
DEFINE_CM_NEGOTIATE_EVENT(svcrdma_cm_negotiate);

/*
 * A server Send measured against the server-to-client threshold:
 * length is its inline size, transport header included.
 */
DECLARE_EVENT_CLASS(svcrdma_cm_reply_class,
	TP_PROTO(
		const struct rpcrdma_cm_conn *conn,
		unsigned int length
	),

	TP_ARGS(conn, length),

	TP_STRUCT__entry(
		__array(unsigned char, addr, sizeof(struct sockaddr_in6))
		__field(unsigned int, length)
		__field(u32, send)
	),

	TP_fast_assign(
		memcpy(__entry->addr, &conn->peer, sizeof(struct sockaddr_in6));
		__entry->length = length;
		__entry->send = conn->res.send_thresh;
	),

	TP_printk("peer=%pISpc length=%u send=%u",
		__entry->addr, __entry->length, __entry->send
	)
);

#define DEFINE_CM_REPLY_EVENT(name)					\
	DEFINE_EVENT(svcrdma_cm_reply_class, name,			\
		TP_PROTO(						\
			const struct rpcrdma_cm_conn *conn,		\
			unsigned int length				\
		),							\
		TP_ARGS(conn, length))

DEFINE_CM_REPLY_EVENT(svcrdma_cm_inline_too_large);
DEFINE_CM_REPLY_EVENT(svcrdma_cm_short_reply);
DEFINE_CM_REPLY_EVENT(svcrdma_cm_reply_chunk);

TRACE_EVENT(svcrdma_cm_refuse_unaccepted,
	TP_PROTO(
		const char *peer
	),

	TP_ARGS(peer),

	TP_STRUCT__entry(
		__string(addr, peer)
	),

	TP_fast_assign(
		__assign_str(addr);
	),

	TP_printk("addr=%s", __get_str(addr))
);

TRACE_EVENT(xprtrdma_cm_swi_without_r,
	TP_PROTO(
		const struct rpcrdma_cm_conn *conn,
		u32 rkey
	),

	TP_ARGS(conn, rkey),

	TP_STRUCT__entry(
		__array(unsigned char, addr, sizeof(struct sockaddr_in6))
		__field(u32, rkey)
	),

	TP_fast_assign(
		memcpy(__entry->addr, &conn->peer, sizeof(struct sockaddr_in6));
		__entry->rkey = rkey;
	),

	TP_printk("peer=%pISpc rkey=0x%08x",
		__entry->addr, __entry->rkey
	)
);

TRACE_EVENT(xprtrdma_cm_recv_too_long,
	TP_PROTO(
		const struct rpcrdma_cm_conn *conn,
		int status
	),

	TP_ARGS(conn, status),

	TP_STRUCT__entry(
		__array(unsigned char, addr, sizeof(struct sockaddr_in6))
		__field(int, status)
		__field(u32, recv)
	),

	TP_fast_assign(
		memcpy(__entry->addr, &conn->peer, sizeof(struct sockaddr_in6));
		__entry->status = status;
		__entry->recv = conn->res.recv_thresh;
	),

	TP_printk("peer=%pISpc status=%s (%d) recv=%u",
		__entry->addr, rdma_show_wc_status(__entry->status),
		__entry->status, __entry->recv
	)
);
