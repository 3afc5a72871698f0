// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 8797 private data for rpcrdma.ko, shared glue: the steps both
 * roles share, advertise, parse and negotiate.
 *
 * The module parameters, the registry of live connections shown in
 * <debugfs>/rpcrdma_cm/connections, and a tracepoint for each step.
 */

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/spinlock.h>
#include <linux/list.h>
#include <linux/string.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <linux/sunrpc/rpcrdma_cm.h>

#include "rpcrdma_cm_version.h"

#define CREATE_TRACE_POINTS
#include <trace/events/rpcrdma_cm.h>

MODULE_VERSION(RPCRDMA_CM_VERSION);

static bool rpcrdma_cm_pdata = true;
module_param_named(pdata, rpcrdma_cm_pdata, bool, 0644);
MODULE_PARM_DESC(pdata,
		 "Exchange RFC 8797 private data (0: send none and ignore the peer's, as an RFC 8166-only peer with 1024-octet thresholds)");

static bool rpcrdma_cm_remote_invalidate = true;
module_param_named(remote_invalidate, rpcrdma_cm_remote_invalidate, bool,
		   0644);
MODULE_PARM_DESC(remote_invalidate,
		 "Offer remote invalidation (the R bit) when the device supports it");

static bool rpcrdma_cm_short_replies = true;
module_param_named(short_replies, rpcrdma_cm_short_replies, bool, 0644);
MODULE_PARM_DESC(short_replies,
		 "Server: send a Reply inline (RDMA_MSG) instead of writing it into the client's Reply chunk when it fits the negotiated server-to-client threshold (RFC 8166 Section 4.3.3)");

/* SVC_RDMA_CM_SEND_SIZE, 8192, not stock's 4096 (rpcrdma_cm.h) */
static unsigned int rpcrdma_cm_server_send_size = SVC_RDMA_CM_SEND_SIZE;
module_param_named(server_send_size, rpcrdma_cm_server_send_size, uint,
		   0644);
MODULE_PARM_DESC(server_send_size,
		 "Server: largest inline Send (RFC 8797 Send Size) it offers, in octets, never above the client's Receive Size; that connection's send buffers are as long (default 8192; 0, or below sunrpc.svc_rdma.max_req_size: max_req_size, as Debian's module)");

static LIST_HEAD(rpcrdma_cm_conns);
static DEFINE_SPINLOCK(rpcrdma_cm_lock);
static struct dentry *rpcrdma_cm_debugfs;
/* RPCs released after a drain left them pinned (rpcrdma_cm_client.c) */
static atomic_t rpcrdma_cm_stranded = ATOMIC_INIT(0);
/* Client connections closed on UNREACHABLE (rpcrdma_cm_client.c) */
static atomic_t rpcrdma_cm_unreachable = ATOMIC_INIT(0);
/* Connection requests refused as their listener went (svc_rdma_cm.c) */
static atomic_t rpcrdma_cm_unaccepted = ATOMIC_INIT(0);
/* READ replies dropped as their Write chunk's post failed (svc_rdma_cm.c) */
static atomic_t rpcrdma_cm_unposted = ATOMIC_INIT(0);
/* Transports svc_rdma_accept() gave up on, freed (svc_rdma_cm.c, 6.1) */
static atomic_t rpcrdma_cm_accept_failed = ATOMIC_INIT(0);
/* Detaches that waited for posted Work Requests (svc_rdma_cm.c) */
static atomic_t rpcrdma_cm_drained = ATOMIC_INIT(0);
/* ... and found some still posted when the wait ended */
static atomic_t rpcrdma_cm_drain_timeouts = ATOMIC_INIT(0);
/* ... of those, waits cut short by sharing an earlier detach's wait */
static atomic_t rpcrdma_cm_drain_shortened = ATOMIC_INIT(0);
/* Client connections whose server used Send With Invalidate without R */
static atomic_t rpcrdma_cm_swi_without_r = ATOMIC_INIT(0);
/* Client Receives that failed because the Send did not fit */
static atomic_t rpcrdma_cm_recv_too_long = ATOMIC_INIT(0);

/**
 * rpcrdma_cm_pdata_enabled - Does this module exchange private data
 *
 * Return: the value of the pdata module parameter.
 */
bool rpcrdma_cm_pdata_enabled(void)
{
	return READ_ONCE(rpcrdma_cm_pdata);
}

/**
 * rpcrdma_cm_server_send_size_wanted - Send Size the server offers
 *
 * Return: the value of the server_send_size module parameter.
 */
u32 rpcrdma_cm_server_send_size_wanted(void)
{
	return READ_ONCE(rpcrdma_cm_server_send_size);
}

/**
 * rpcrdma_cm_short_replies_enabled - May the server skip Reply chunks
 *
 * Return: the value of the short_replies module parameter.
 */
bool rpcrdma_cm_short_replies_enabled(void)
{
	return READ_ONCE(rpcrdma_cm_short_replies);
}

/**
 * rpcrdma_cm_reminv_allowed - May this side set the R bit
 * @device: the connection's RDMA device
 *
 * Remote invalidation needs memory management extensions (FRWR).
 * The remote_invalidate module parameter can forbid it.
 *
 * Return: true when the R bit may be advertised.
 */
bool rpcrdma_cm_reminv_allowed(const struct ib_device *device)
{
	if (!READ_ONCE(rpcrdma_cm_remote_invalidate))
		return false;
	return device->attrs.device_cap_flags & IB_DEVICE_MEM_MGT_EXTENSIONS;
}

/**
 * rpcrdma_cm_set_local - Record what this side can handle
 * @conn: connection state
 * @device: the connection's RDMA device
 * @max_send: largest message this side Sends inline, octets
 * @max_recv: largest message this side Receives inline, octets
 *
 * Both roles advertise from here, so the R bit follows one rule:
 * rpcrdma_cm_reminv_allowed().
 */
void rpcrdma_cm_set_local(struct rpcrdma_cm_conn *conn,
			  const struct ib_device *device,
			  u32 max_send, u32 max_recv)
{
	conn->local.max_send = max_send;
	conn->local.max_recv = max_recv;
	conn->local.remote_inv = rpcrdma_cm_reminv_allowed(device);
}

/**
 * rpcrdma_cm_begin - Start a connection's RFC 8797 state
 * @conn: connection state
 * @id: the connection's CM ID
 * @server: true for svcrdma, false for xprtrdma
 *
 * Records the role and the peer's address.
 *
 * Reads the pdata parameter once: advertise and parse run at different
 * CM events, and a write to the parameter between them must not leave
 * this side advertising by one value and parsing by the other (a
 * client that sized its Receives at 1024 while the server negotiated
 * 4096).
 */
void rpcrdma_cm_begin(struct rpcrdma_cm_conn *conn,
		      const struct rdma_cm_id *id, bool server)
{
	conn->server = server;
	conn->pdata = rpcrdma_cm_pdata_enabled();
	memcpy(&conn->peer, &id->route.addr.dst_addr, sizeof(conn->peer));
}

/**
 * rpcrdma_cm_advertise - Build this side's private data message
 * @conn: connection state, begun, with @conn->local filled in
 * @buf: output, at least %RPCRDMA_PDATA_V1_LEN octets
 * @len: output, octets to hand to the CM
 *	 (0 when pdata was 0 as the connection began)
 *
 * The advertised sizes are recorded as the codec will encode them
 * (rounded down to a multiple of 1024, within 1024..262144).
 */
void rpcrdma_cm_advertise(struct rpcrdma_cm_conn *conn, void *buf, u8 *len)
{
	conn->local.max_send = rpcrdma_pdata_clamp_size(conn->local.max_send);
	conn->local.max_recv = rpcrdma_pdata_clamp_size(conn->local.max_recv);
	if (conn->pdata) {
		rpcrdma_pdata_build(buf, &conn->local);
		*len = RPCRDMA_PDATA_V1_LEN;
	} else {
		conn->local.remote_inv = false;
		*len = 0;
	}
	trace_rpcrdma_cm_advertise(conn, *len);
}

/**
 * rpcrdma_cm_parse - Search the peer's private data for RFC 8797
 * @conn: connection state, begun
 * @param: connection parameters from the CM event
 *
 * When pdata was 0 as the connection began, the peer's data is ignored
 * and the status is "disabled".
 */
void rpcrdma_cm_parse(struct rpcrdma_cm_conn *conn,
		      const struct rdma_conn_param *param)
{
	if (!conn->pdata)
		conn->status = RPCRDMA_PDATA_DISABLED;
	else
		conn->status = rpcrdma_pdata_parse(param->private_data,
						   param->private_data_len,
						   &conn->peer_msg);
	trace_rpcrdma_cm_parse(conn);
}

/**
 * rpcrdma_cm_negotiate - Compute the connection's thresholds
 * @conn: connection state, parsed and with @conn->local filled in
 */
void rpcrdma_cm_negotiate(struct rpcrdma_cm_conn *conn)
{
	const struct rpcrdma_pdata *peer = NULL;

	if (conn->status == RPCRDMA_PDATA_PRESENT)
		peer = &conn->peer_msg;
	rpcrdma_pdata_negotiate(&conn->local, peer, &conn->res);
	trace_rpcrdma_cm_negotiate(conn);
}

/**
 * rpcrdma_cm_link - Show a connection in debugfs
 * @conn: connection state, negotiated
 */
void rpcrdma_cm_link(struct rpcrdma_cm_conn *conn)
{
	spin_lock(&rpcrdma_cm_lock);
	if (!conn->linked) {
		list_add_tail(&conn->list, &rpcrdma_cm_conns);
		conn->linked = true;
	}
	spin_unlock(&rpcrdma_cm_lock);
}

/**
 * rpcrdma_cm_unlink - Stop showing a connection in debugfs
 * @conn: connection state; may never have been linked
 */
void rpcrdma_cm_unlink(struct rpcrdma_cm_conn *conn)
{
	spin_lock(&rpcrdma_cm_lock);
	if (conn->linked) {
		list_del(&conn->list);
		conn->linked = false;
	}
	spin_unlock(&rpcrdma_cm_lock);
}

static int rpcrdma_cm_connections_show(struct seq_file *m, void *v)
{
	const struct rpcrdma_cm_conn *conn;
	bool present;

	spin_lock(&rpcrdma_cm_lock);
	list_for_each_entry(conn, &rpcrdma_cm_conns, list) {
		present = conn->status == RPCRDMA_PDATA_PRESENT;
		seq_printf(m, "role=%s peer=%pISpc peer_pdata=%s%s peer_send=%u peer_recv=%u peer_r=%u send=%u recv=%u reminv=%u",
			   conn->server ? "server" : "client", &conn->peer,
			   present ? "present" : "absent:",
			   present ? "" : rpcrdma_pdata_status_name(conn->status),
			   present ? conn->peer_msg.send_size :
				     RPCRDMA_PDATA_SIZE_MIN,
			   present ? conn->peer_msg.recv_size :
				     RPCRDMA_PDATA_SIZE_MIN,
			   present && conn->peer_msg.remote_inv,
			   conn->res.send_thresh, conn->res.recv_thresh,
			   conn->res.remote_inv);
		if (conn->server)
			seq_printf(m, " reply_chunks=%ld short_replies=%ld",
				   atomic_long_read(&conn->reply_chunks),
				   atomic_long_read(&conn->short_replies));
		if (!conn->server)
			seq_printf(m, " recv_inv=%ld swi_without_r=%ld recv_too_long=%ld",
				   atomic_long_read(&conn->recv_inv),
				   atomic_long_read(&conn->swi_without_r),
				   atomic_long_read(&conn->recv_too_long));
		seq_putc(m, '\n');
	}
	spin_unlock(&rpcrdma_cm_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rpcrdma_cm_connections);

/**
 * rpcrdma_cm_count_stranded - Account RPCs released from a lost LOCAL_INV
 * @n: how many one disconnect released
 *
 * The total is <debugfs>/rpcrdma_cm/stranded; any value but 0 means a
 * device lost Work Request completions (see
 * rpcrdma_cm_client_unpin_stranded()).
 */
void rpcrdma_cm_count_stranded(unsigned int n)
{
	atomic_add(n, &rpcrdma_cm_stranded);
}

/**
 * rpcrdma_cm_count_unreachable - Account a connection closed on UNREACHABLE
 *
 * The total is <debugfs>/rpcrdma_cm/unreachable: client connections
 * that rdma_cm reported unreachable while established (a neighbour
 * entry for the server that failed or changed its address), each
 * closed and connected again (see rpcrdma_cm_client_unreachable()).
 */
void rpcrdma_cm_count_unreachable(void)
{
	atomic_inc(&rpcrdma_cm_unreachable);
}

/**
 * rpcrdma_cm_count_unaccepted - Account refused connection requests
 * @n: how many one listener's teardown refused
 *
 * The total is <debugfs>/rpcrdma_cm/unaccepted: requests that arrived
 * as nfsd shut down (see svc_rdma_cm_refuse_unaccepted()).
 */
void rpcrdma_cm_count_unaccepted(unsigned int n)
{
	atomic_add(n, &rpcrdma_cm_unaccepted);
}

/**
 * rpcrdma_cm_count_unposted - Account a READ payload that was not posted
 *
 * The total is <debugfs>/rpcrdma_cm/unposted: READ replies whose Write
 * chunk could not be posted because the connection was going, and which
 * were dropped with it (see svc_rdma_cm_payload_err()).
 */
void rpcrdma_cm_count_unposted(void)
{
	atomic_inc(&rpcrdma_cm_unposted);
}

/**
 * rpcrdma_cm_count_accept_failed - Account a transport accept gave up on
 *
 * The total is <debugfs>/rpcrdma_cm/accept_failed: new server
 * transports whose accept failed and which are freed rather than
 * leaked (see svc_rdma_cm_accept_failed()).
 */
void rpcrdma_cm_count_accept_failed(void)
{
	atomic_inc(&rpcrdma_cm_accept_failed);
}

/**
 * rpcrdma_cm_count_drained - Account a detach that waited for its Sends
 * @completed: the posted Work Requests all completed within the wait
 * @shared: the wait shared an earlier detach's, and could be shorter
 *
 * The totals are <debugfs>/rpcrdma_cm/drained, detaches that found
 * Work Requests posted and waited for them; drain_timeouts, those
 * whose wait ended with some still posted; and drain_shortened, those
 * of the timeouts whose wait was shared (see svc_rdma_cm_drain_sends()).
 */
void rpcrdma_cm_count_drained(bool completed, bool shared)
{
	atomic_inc(&rpcrdma_cm_drained);
	if (completed)
		return;
	atomic_inc(&rpcrdma_cm_drain_timeouts);
	if (shared)
		atomic_inc(&rpcrdma_cm_drain_shortened);
}

/**
 * rpcrdma_cm_recv_done - Account what a client Receive shows of the server
 * @conn: the client connection's state
 * @status: the Receive's completion status (enum ib_wc_status)
 * @wc_flags: the completion's flags, valid only when @status is success
 * @inv_rkey: the R_key the server's Send invalidated, when it did
 *
 * RFC 8797 Section 4.1 allows Send With Invalidate only when both
 * sides set R. A server that advertises R=0 yet uses it whenever the
 * client set R (svcrdma before it advertised R) shows only here, at the
 * client. A Send longer than the Receive buffer (a server that ignored
 * the Receive Size) fails the Receive with a length error, or on rxe a
 * QP operation error, and the connection is lost right after. Both are
 * traced.
 *
 * Each such Receive is counted on the connection, and the connection
 * once in <debugfs>/rpcrdma_cm/swi_without_r; Receives too long count
 * in recv_too_long, on the connection and in total.
 */
void rpcrdma_cm_recv_done(struct rpcrdma_cm_conn *conn, int status,
			  int wc_flags, u32 inv_rkey)
{
	if (status == IB_WC_LOC_LEN_ERR || status == IB_WC_LOC_QP_OP_ERR) {
		atomic_long_inc(&conn->recv_too_long);
		atomic_inc(&rpcrdma_cm_recv_too_long);
		trace_rpcrdma_cm_recv_too_long(conn, status);
		return;
	}
	if (status != IB_WC_SUCCESS || !(wc_flags & IB_WC_WITH_INVALIDATE))
		return;
	atomic_long_inc(&conn->recv_inv);
	if (conn->res.remote_inv)
		return;
	if (atomic_long_inc_return(&conn->swi_without_r) == 1)
		atomic_inc(&rpcrdma_cm_swi_without_r);
	trace_rpcrdma_cm_swi_without_r(conn, inv_rkey);
}

/**
 * rpcrdma_cm_init - Set up the debugfs view
 *
 * Return: always 0: debugfs is optional, and failing to create it
 * does not stop the module.
 */
int rpcrdma_cm_init(void)
{
	rpcrdma_cm_debugfs = debugfs_create_dir("rpcrdma_cm", NULL);
	debugfs_create_file("connections", 0444, rpcrdma_cm_debugfs, NULL,
			    &rpcrdma_cm_connections_fops);
	debugfs_create_atomic_t("stranded", 0444, rpcrdma_cm_debugfs,
				&rpcrdma_cm_stranded);
	debugfs_create_atomic_t("unreachable", 0444, rpcrdma_cm_debugfs,
				&rpcrdma_cm_unreachable);
	debugfs_create_atomic_t("unaccepted", 0444, rpcrdma_cm_debugfs,
				&rpcrdma_cm_unaccepted);
	debugfs_create_atomic_t("unposted", 0444, rpcrdma_cm_debugfs,
				&rpcrdma_cm_unposted);
	debugfs_create_atomic_t("accept_failed", 0444, rpcrdma_cm_debugfs,
				&rpcrdma_cm_accept_failed);
	debugfs_create_atomic_t("drained", 0444, rpcrdma_cm_debugfs,
				&rpcrdma_cm_drained);
	debugfs_create_atomic_t("drain_timeouts", 0444, rpcrdma_cm_debugfs,
				&rpcrdma_cm_drain_timeouts);
	debugfs_create_atomic_t("drain_shortened", 0444, rpcrdma_cm_debugfs,
				&rpcrdma_cm_drain_shortened);
	debugfs_create_atomic_t("swi_without_r", 0444, rpcrdma_cm_debugfs,
				&rpcrdma_cm_swi_without_r);
	debugfs_create_atomic_t("recv_too_long", 0444, rpcrdma_cm_debugfs,
				&rpcrdma_cm_recv_too_long);
	return 0;
}

/**
 * rpcrdma_cm_exit - Tear down the debugfs view
 *
 * Every connection holds a reference on the module, so the registry
 * is empty by the time the module is unloaded.
 */
void rpcrdma_cm_exit(void)
{
	debugfs_remove_recursive(rpcrdma_cm_debugfs);
	rpcrdma_cm_debugfs = NULL;
	WARN_ON_ONCE(!list_empty(&rpcrdma_cm_conns));
}
