// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm-probe --v2: the verbs and RDMA-CM side of the experimental
 * RPC-over-RDMA Version Two endpoint. One RC QP per connection, a ring
 * of receive buffers each as large as the largest Receive Buffer Size
 * the endpoint can ever announce (so raising the size needs no new
 * registration, only larger posted lengths), send buffers as large as
 * the largest message either side may send, and two chunk buffers for
 * Position-Zero Read chunks and Reply chunks, registered apart for
 * remote access. Sends wait for their completion; receives that
 * complete meanwhile are queued in order for the protocol side.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rpcrdma-cm-probe.h"

/* Work request IDs: receives carry their slot, the rest their kind */
#define V2_WR_SEND	0x100
#define V2_WR_RDMA	0x200

static void v2_post_recv_slot(struct probe_v2 *v, unsigned int slot)
{
	struct ibv_recv_wr wr = { }, *bad;
	struct ibv_sge sge;
	u32 size = rpcrdma_xchar_ep_post_size(&v->ep);

	sge.addr = (uintptr_t)v->recv_buf[slot];
	sge.length = size;
	sge.lkey = v->mr->lkey;
	wr.wr_id = slot;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	if (ibv_post_recv(v->c.id->qp, &wr, &bad)) {
		v->recv_size[slot] = 0;
		return;
	}
	v->recv_size[slot] = size;
}

/**
 * probe_v2_smallest_recv - Smallest receive buffer posted now
 * @v: endpoint
 *
 * Return: octets; 0 when none is posted.
 */
u32 probe_v2_smallest_recv(const struct probe_v2 *v)
{
	u32 min = 0;
	unsigned int i;

	for (i = 0; i < PROBE_V2_RECVS; i++)
		if (v->recv_size[i] && (!min || v->recv_size[i] < min))
			min = v->recv_size[i];
	return min;
}

/**
 * probe_v2_repost - Post a receive again in a slot that completed
 * @v: endpoint
 * @slot: the slot; it gets the endpoint's current post size
 */
void probe_v2_repost(struct probe_v2 *v, unsigned int slot)
{
	v2_post_recv_slot(v, slot);
}

/**
 * probe_v2_setup - PD, CQ, QP, buffers and the first receives
 * @v: endpoint whose c.id has a device; its ep must be initialised
 *
 * Return: 0 or -errno; what was made stays for probe_v2_teardown().
 */
int probe_v2_setup(struct probe_v2 *v)
{
	struct ibv_qp_init_attr attr = { };
	size_t total = (PROBE_V2_RECVS + 1) * (size_t)PROBE_V2_SLOT;
	unsigned int i;

	v->c.pd = ibv_alloc_pd(v->c.id->verbs);
	if (!v->c.pd)
		return -errno;
	v->c.cq = ibv_create_cq(v->c.id->verbs, 4 * PROBE_V2_RECVS, NULL,
				NULL, 0);
	if (!v->c.cq)
		return -errno;
	attr.qp_type = IBV_QPT_RC;
	attr.send_cq = v->c.cq;
	attr.recv_cq = v->c.cq;
	attr.cap.max_send_wr = 4;
	attr.cap.max_recv_wr = PROBE_V2_RECVS;
	attr.cap.max_send_sge = 1;
	attr.cap.max_recv_sge = 1;
	if (rdma_create_qp(v->c.id, v->c.pd, &attr))
		return -errno;
	v->c.qp = true;

	v->mem = calloc(1, total);
	v->chunk = calloc(2, PROBE_V2_SLOT);
	if (!v->mem || !v->chunk)
		return -ENOMEM;
	v->mr = ibv_reg_mr(v->c.pd, v->mem, total, IBV_ACCESS_LOCAL_WRITE);
	if (!v->mr)
		return -errno;
	/* Only the chunk buffers are open to the peer */
	v->chunk_mr = ibv_reg_mr(v->c.pd, v->chunk, 2 * PROBE_V2_SLOT,
				 IBV_ACCESS_LOCAL_WRITE |
				 IBV_ACCESS_REMOTE_READ |
				 IBV_ACCESS_REMOTE_WRITE);
	if (!v->chunk_mr)
		return -errno;
	for (i = 0; i < PROBE_V2_RECVS; i++)
		v->recv_buf[i] = v->mem + i * (size_t)PROBE_V2_SLOT;
	v->send_buf = v->mem + PROBE_V2_RECVS * (size_t)PROBE_V2_SLOT;
	for (i = 0; i < PROBE_V2_RECVS; i++) {
		v2_post_recv_slot(v, i);
		if (!v->recv_size[i])
			return -EIO;
	}
	return 0;
}

/**
 * probe_v2_teardown - Release what probe_v2_setup() made, and the id
 * @v: endpoint
 */
void probe_v2_teardown(struct probe_v2 *v)
{
	if (v->c.qp)
		rdma_destroy_qp(v->c.id);
	v->c.qp = false;
	if (v->mr)
		ibv_dereg_mr(v->mr);
	if (v->chunk_mr)
		ibv_dereg_mr(v->chunk_mr);
	v->mr = NULL;
	v->chunk_mr = NULL;
	free(v->mem);
	free(v->chunk);
	v->mem = NULL;
	v->chunk = NULL;
	probe_drop_conn(&v->c);
}

/* One completion. Receives go to the queue; returns 1 when one was
 * taken, 0 when none was there, -errno when the connection failed.
 */
static int v2_poll_once(struct probe_v2 *v)
{
	struct ibv_wc wc;
	int n;

	n = ibv_poll_cq(v->c.cq, 1, &wc);
	if (n <= 0)
		return n < 0 ? -EIO : 0;
	if (wc.status != IBV_WC_SUCCESS) {
		snprintf(v->why, sizeof(v->why), "%s completed with '%s'",
			 wc.wr_id == V2_WR_SEND ? "a Send" :
			 wc.wr_id == V2_WR_RDMA ? "an RDMA Read/Write" :
			 "a Receive", ibv_wc_status_str(wc.status));
		v->broken = true;
		return -EIO;
	}
	if (wc.wr_id == V2_WR_SEND) {
		v->send_busy = false;
	} else if (wc.wr_id == V2_WR_RDMA) {
		v->rdma_busy = false;
	} else if (wc.wr_id < PROBE_V2_RECVS &&
		   v->rx_count < PROBE_V2_RECVS) {
		v->rx[(v->rx_head + v->rx_count) % PROBE_V2_RECVS] =
			(struct probe_v2_rx){ wc.wr_id, wc.byte_len,
					      wc.wc_flags & IBV_WC_WITH_INV };
		v->rx_count++;
		v->recv_size[wc.wr_id] = 0;
	}
	return 1;
}

/* Poll until @done says so or @timeout_ms passes */
static int v2_poll_until(struct probe_v2 *v, const bool *busy,
			 int timeout_ms)
{
	long long deadline = probe_now_ms() + timeout_ms;
	int ret;

	while (*busy) {
		ret = v2_poll_once(v);
		if (ret < 0)
			return ret;
		if (ret)
			continue;
		if (probe_now_ms() > deadline) {
			snprintf(v->why, sizeof(v->why),
				 "no completion within %d ms", timeout_ms);
			return -ETIMEDOUT;
		}
		usleep(200);
	}
	return 0;
}

/**
 * probe_v2_send - Send the @len octets at the start of v->send_buf
 * @v: endpoint
 * @len: message length
 * @inv_rkey: Send With Invalidate of this handle; 0 for a plain Send
 *
 * Waits for the Send's completion.
 *
 * Return: 0 or -errno (v->why says what happened).
 */
int probe_v2_send(struct probe_v2 *v, u32 len, u32 inv_rkey)
{
	struct ibv_send_wr wr = { }, *bad;
	struct ibv_sge sge;

	sge.addr = (uintptr_t)v->send_buf;
	sge.length = len;
	sge.lkey = v->mr->lkey;
	wr.wr_id = V2_WR_SEND;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = inv_rkey ? IBV_WR_SEND_WITH_INV : IBV_WR_SEND;
	wr.invalidate_rkey = inv_rkey;
	wr.send_flags = IBV_SEND_SIGNALED;
	v->send_busy = true;
	if (ibv_post_send(v->c.id->qp, &wr, &bad)) {
		v->send_busy = false;
		snprintf(v->why, sizeof(v->why), "cannot post a Send: %s",
			 strerror(errno));
		return -EIO;
	}
	return v2_poll_until(v, &v->send_busy, opts.timeout_ms);
}

/**
 * probe_v2_rdma - RDMA Read from, or Write to, the peer's chunk
 * @v: endpoint
 * @write: true for a Write from @local, false for a Read into it
 * @local: octets in v->chunk
 * @len: how many
 * @rkey: the segment's handle
 * @raddr: the segment's offset
 *
 * Return: 0 or -errno.
 */
int probe_v2_rdma(struct probe_v2 *v, bool write, u8 *local, u32 len,
		  u32 rkey, u64 raddr)
{
	struct ibv_send_wr wr = { }, *bad;
	struct ibv_sge sge;

	sge.addr = (uintptr_t)local;
	sge.length = len;
	sge.lkey = v->chunk_mr->lkey;
	wr.wr_id = V2_WR_RDMA;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	v->rdma_busy = true;
	if (ibv_post_send(v->c.id->qp, &wr, &bad)) {
		v->rdma_busy = false;
		snprintf(v->why, sizeof(v->why), "cannot post an RDMA %s: %s",
			 write ? "Write" : "Read", strerror(errno));
		return -EIO;
	}
	return v2_poll_until(v, &v->rdma_busy, opts.timeout_ms);
}

/* Connect requests that came while the listener was busy with a
 * connection: probe_v2_accept() takes them up in the order they came.
 * One event channel carries every id's events, so no wait of the
 * listener may drop one; as many wait as rdma_listen()'s backlog.
 */
static struct probe_event v2_waiting[PROBE_V2_BACKLOG];
static unsigned int v2_nwaiting;

static void v2_hold_request(const struct probe_event *ev)
{
	if (v2_nwaiting == PROBE_V2_BACKLOG) {
		rdma_reject(ev->id, NULL, 0);
		rdma_destroy_id(ev->id);
		return;
	}
	v2_waiting[v2_nwaiting++] = *ev;
}

/* probe_wait_on(), except that connect requests wait their turn */
static int v2_wait_on(struct rdma_cm_id *id, int timeout_ms,
		      struct probe_event *ev)
{
	long long deadline = probe_now_ms() + timeout_ms;
	long long left;
	int ret;

	for (;;) {
		left = deadline - probe_now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		ret = probe_next_event(left, ev);
		if (ret || ev->id == id)
			return ret;
		if (ev->type == RDMA_CM_EVENT_CONNECT_REQUEST)
			v2_hold_request(ev);
	}
}

/* CM events while a connection runs: its DISCONNECTED ends it */
static int v2_cm_event(struct probe_v2 *v)
{
	struct probe_event ev;

	if (probe_next_event(0, &ev))
		return 0;
	if (ev.type == RDMA_CM_EVENT_CONNECT_REQUEST) {
		v2_hold_request(&ev);
		return 0;
	}
	if (ev.id == v->c.id && ev.type == RDMA_CM_EVENT_DISCONNECTED) {
		v->peer_gone = true;
		snprintf(v->why, sizeof(v->why), "the peer disconnected");
		return -ECONNRESET;
	}
	return 0;
}

/**
 * probe_v2_next - The next received message, in arrival order
 * @v: endpoint
 * @timeout_ms: how long to wait
 * @rx: OUT: its slot, length and whether it invalidated a handle
 *
 * The slot stays unposted until probe_v2_repost().
 *
 * Return: 0, -ETIMEDOUT, or -EIO when the connection failed (a flush
 * when the peer disconnects).
 */
int probe_v2_next(struct probe_v2 *v, int timeout_ms, struct probe_v2_rx *rx)
{
	long long deadline = probe_now_ms() + timeout_ms;
	int ret;

	while (!v->rx_count) {
		ret = v2_poll_once(v);
		if (ret < 0)
			return ret;
		if (ret)
			continue;
		ret = v2_cm_event(v);
		if (ret)
			return ret;
		if (probe_now_ms() > deadline)
			return -ETIMEDOUT;
		usleep(200);
	}
	*rx = v->rx[v->rx_head];
	v->rx_head = (v->rx_head + 1) % PROBE_V2_RECVS;
	v->rx_count--;
	return 0;
}

/**
 * probe_v2_connect - Connect to @ai without private data
 * @v: endpoint, its id created on the run's channel
 * @ai: the server
 *
 * Return: PROBE_OK, or an exit code with v->why set.
 */
enum probe_exit probe_v2_connect(struct probe_v2 *v,
				 const struct addrinfo *ai)
{
	struct rdma_conn_param param;
	struct probe_event ev;
	int ret;

	if (rdma_resolve_addr(v->c.id, NULL, ai->ai_addr, opts.timeout_ms) ||
	    probe_wait_on(v->c.id, opts.timeout_ms + 1000, &ev) ||
	    ev.type != RDMA_CM_EVENT_ADDR_RESOLVED ||
	    rdma_resolve_route(v->c.id, opts.timeout_ms) ||
	    probe_wait_on(v->c.id, opts.timeout_ms + 1000, &ev) ||
	    ev.type != RDMA_CM_EVENT_ROUTE_RESOLVED) {
		snprintf(v->why, sizeof(v->why), "cannot resolve a route to %.64s",
			 opts.host);
		return PROBE_UNREACHABLE;
	}
	ret = probe_v2_setup(v);
	if (ret) {
		snprintf(v->why, sizeof(v->why), "cannot set up the QP: %s",
			 strerror(-ret));
		return PROBE_ERROR;
	}
	/* RFC 8797 private data is Version One's; Version Two sends none */
	probe_conn_param(&param, NULL, 0);
	param.retry_count = 7;
	if (rdma_connect(v->c.id, &param)) {
		snprintf(v->why, sizeof(v->why), "rdma_connect: %s",
			 strerror(errno));
		return PROBE_ERROR;
	}
	ret = probe_wait_on(v->c.id, opts.timeout_ms, &ev);
	if (ret == -ETIMEDOUT) {
		snprintf(v->why, sizeof(v->why), "no answer within %d ms",
			 opts.timeout_ms);
		return PROBE_TIMEOUT;
	}
	if (ret || ev.type != RDMA_CM_EVENT_ESTABLISHED) {
		snprintf(v->why, sizeof(v->why), "not established: %s",
			 ret ? strerror(-ret) : rdma_event_str(ev.type));
		return ev.type == RDMA_CM_EVENT_REJECTED ? PROBE_REJECTED :
							   PROBE_ERROR;
	}
	return PROBE_OK;
}

/**
 * probe_v2_disconnect - Disconnect and wait for the CM to confirm
 * @v: endpoint
 *
 * Return: true when the DISCONNECTED event came.
 */
bool probe_v2_disconnect(struct probe_v2 *v)
{
	struct probe_event ev;

	/* after the peer's DREQ this sends the DREP, and that is all */
	rdma_disconnect(v->c.id);
	if (v->peer_gone)
		return true;
	return !v2_wait_on(v->c.id, opts.timeout_ms, &ev) &&
	       ev.type == RDMA_CM_EVENT_DISCONNECTED;
}

/**
 * probe_v2_accept - Take the next connect request and accept it
 * @v: endpoint to fill; c.id becomes the new connection's id
 * @timeout_ms: how long to wait for a request, -1 for ever
 *
 * A request that came while an earlier connection was served is taken
 * first, in the order they came.
 *
 * Return: PROBE_OK, PROBE_TIMEOUT, or PROBE_ERROR with v->why set;
 * v->c.id is set once a request was taken, whatever happened next.
 */
enum probe_exit probe_v2_accept(struct probe_v2 *v, int timeout_ms)
{
	struct rdma_conn_param param;
	struct probe_event ev = { .type = RDMA_CM_EVENT_ADDR_ERROR };
	int ret;

	if (v2_nwaiting) {
		ev = v2_waiting[0];
		v2_nwaiting--;
		memmove(v2_waiting, v2_waiting + 1,
			v2_nwaiting * sizeof(v2_waiting[0]));
	}
	while (ev.type != RDMA_CM_EVENT_CONNECT_REQUEST) {
		ret = probe_next_event(timeout_ms, &ev);
		if (ret == -ETIMEDOUT)
			return PROBE_TIMEOUT;
		if (ret) {
			snprintf(v->why, sizeof(v->why), "CM event: %s",
				 strerror(-ret));
			return PROBE_ERROR;
		}
	}
	v->c.id = ev.id;
	ret = probe_v2_setup(v);
	if (ret) {
		rdma_reject(v->c.id, NULL, 0);
		snprintf(v->why, sizeof(v->why), "cannot set up the QP: %s",
			 strerror(-ret));
		return PROBE_ERROR;
	}
	probe_conn_param(&param, NULL, 0);
	if (rdma_accept(v->c.id, &param)) {
		snprintf(v->why, sizeof(v->why), "rdma_accept: %s",
			 strerror(errno));
		rdma_reject(v->c.id, NULL, 0);
		return PROBE_ERROR;
	}
	ret = v2_wait_on(v->c.id, opts.timeout_ms, &ev);
	if (ret || ev.type != RDMA_CM_EVENT_ESTABLISHED) {
		snprintf(v->why, sizeof(v->why), "not established: %s",
			 ret ? strerror(-ret) : rdma_event_str(ev.type));
		return PROBE_ERROR;
	}
	return PROBE_OK;
}
