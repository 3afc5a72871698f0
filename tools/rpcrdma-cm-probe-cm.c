// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm-probe: the RDMA-CM plumbing both sides share. One event
 * channel, non-blocking, carries every CM event of the run; events are
 * copied and acknowledged at once, so that no code path can leave one
 * unacknowledged and hang rdma_destroy_id(). Each connection gets the
 * smallest RC QP that can carry a --read Call and its Reply.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rpcrdma-cm-probe.h"

#define PROBE_HINT_STACK \
	"is the kernel RDMA stack loaded (ib_uverbs, rdma_ucm; /dev/infiniband)?"
#define PROBE_HINT_DEVICE \
	"load a driver and add a link, e.g. 'modprobe rdma_rxe; " \
	"rdma link add rxe0 type rxe netdev eth0' (soft-RoCE), or siw"

struct rdma_event_channel *channel;

/**
 * probe_check_devices - Find an RDMA device and open the event channel
 *
 * Fails early, and clearly, on a host without any RDMA device: the CM
 * would only report a puzzling address resolution error later.
 *
 * Return: PROBE_OK, PROBE_NODEV or PROBE_ERROR, after a message.
 */
enum probe_exit probe_check_devices(void)
{
	struct ibv_device **list;
	int n = 0;

	list = ibv_get_device_list(&n);
	if (!list) {
		probe_err("no RDMA device: cannot list devices (%s); %s",
			  strerror(errno), PROBE_HINT_STACK);
		return PROBE_NODEV;
	}
	if (!n) {
		probe_err("no RDMA device found; %s", PROBE_HINT_DEVICE);
		ibv_free_device_list(list);
		return PROBE_NODEV;
	}
	ibv_free_device_list(list);

	channel = rdma_create_event_channel();
	if (!channel) {
		int err = errno;

		probe_err("cannot open the RDMA-CM event channel: %s; %s",
			  strerror(err), PROBE_HINT_STACK);
		return err == ENODEV || err == ENOENT ? PROBE_NODEV :
							PROBE_ERROR;
	}
	if (fcntl(channel->fd, F_SETFL,
		  fcntl(channel->fd, F_GETFL) | O_NONBLOCK) < 0) {
		probe_err("fcntl: %s", strerror(errno));
		return PROBE_ERROR;
	}
	return PROBE_OK;
}

/**
 * probe_now_ms - Milliseconds on a clock that never jumps
 *
 * Return: CLOCK_MONOTONIC in ms, for deadlines and durations only.
 */
long long probe_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/**
 * probe_next_event - Next CM event on the channel, copied and acknowledged
 * @timeout_ms: how long to wait; < 0 waits for ever
 * @out: OUT: the event, with a copy of its private data
 *
 * Return: 0, -ETIMEDOUT, or another -errno.
 */
int probe_next_event(int timeout_ms, struct probe_event *out)
{
	long long deadline = probe_now_ms() + timeout_ms;
	struct pollfd pfd = { .fd = channel->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int n, wait;

	for (;;) {
		if (!rdma_get_cm_event(channel, &ev))
			break;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		wait = -1;
		if (timeout_ms >= 0) {
			long long left = deadline - probe_now_ms();

			if (left <= 0)
				return -ETIMEDOUT;
			wait = left;
		}
		n = poll(&pfd, 1, wait);
		if (n < 0 && errno != EINTR)
			return -errno;
	}

	memset(out, 0, sizeof(*out));
	out->type = ev->event;
	out->status = ev->status;
	out->id = ev->id;
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST ||
	    ev->event == RDMA_CM_EVENT_CONNECT_RESPONSE ||
	    ev->event == RDMA_CM_EVENT_ESTABLISHED ||
	    ev->event == RDMA_CM_EVENT_REJECTED) {
		out->has_pdata = ev->param.conn.private_data;
		out->pdata_len = ev->param.conn.private_data_len;
		if (!out->has_pdata)
			out->pdata_len = 0;
		if (out->pdata_len)
			memcpy(out->pdata, ev->param.conn.private_data,
			       out->pdata_len);
	}
	rdma_ack_cm_event(ev);

	/* --fuzz, --flood: one line per connection says enough; five
	 * per input would be half a million lines for a run of 100000
	 */
	if (opts.verbose && !opts.json && !opts.fuzz && !opts.flood)
		fprintf(stderr, "%s: event %s, status %d, %zu octets of private data\n",
			prog, rdma_event_str(out->type), out->status,
			out->pdata_len);
	return 0;
}

/**
 * probe_make_qp - Give @c a PD, a CQ and an RC QP on its id's device
 * @c: connection whose id has an address (c->id->verbs is set)
 *
 * One Send and one Receive at a time: enough for a --read Call and its
 * Reply. What was made before a failure stays in @c for
 * probe_drop_conn().
 *
 * Return: 0 or -errno.
 */
int probe_make_qp(struct probe_conn *c)
{
	struct ibv_qp_init_attr attr;

	c->pd = ibv_alloc_pd(c->id->verbs);
	if (!c->pd)
		return -errno;
	c->cq = ibv_create_cq(c->id->verbs, 2, NULL, NULL, 0);
	if (!c->cq)
		return -errno;
	memset(&attr, 0, sizeof(attr));
	attr.qp_type = IBV_QPT_RC;
	attr.send_cq = c->cq;
	attr.recv_cq = c->cq;
	attr.cap.max_send_wr = 1;
	attr.cap.max_recv_wr = 1;
	attr.cap.max_send_sge = 1;
	attr.cap.max_recv_sge = 1;
	if (rdma_create_qp(c->id, c->pd, &attr))
		return -errno;
	c->qp = true;
	return 0;
}

/**
 * probe_drop_conn - Release everything @c holds, and clear it
 * @c: connection; the id's events must all have been acknowledged
 */
void probe_drop_conn(struct probe_conn *c)
{
	if (c->qp)
		rdma_destroy_qp(c->id);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	if (c->id)
		rdma_destroy_id(c->id);
	memset(c, 0, sizeof(*c));
}

/**
 * probe_wait_on - Wait for an event on @id, skipping events for other ids
 * @id: the CM id of interest
 * @timeout_ms: how long to wait for it, in all
 * @ev: OUT: the event
 *
 * Return: 0, -ETIMEDOUT, or another -errno.
 */
int probe_wait_on(struct rdma_cm_id *id, int timeout_ms,
		  struct probe_event *ev)
{
	long long deadline = probe_now_ms() + timeout_ms;
	long long left;
	int ret;

	do {
		left = deadline - probe_now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		ret = probe_next_event(left, ev);
	} while (!ret && ev->id != id);
	return ret;
}

/**
 * probe_conn_param - Connection parameters for a connect or an accept
 * @param: OUT: filled in
 * @pd: the private data to send
 * @pd_len: its length; 0 sends none (no buffer at all, not an empty one)
 *
 * One RDMA Read in flight each way: the probe's own Calls carry no
 * chunks. An RNR retry count of 7 means no limit (InfiniBand): a Send
 * is never lost to a peer that is slow to post its Receive.
 */
void probe_conn_param(struct rdma_conn_param *param, const u8 *pd,
		      size_t pd_len)
{
	memset(param, 0, sizeof(*param));
	param->private_data = pd_len ? pd : NULL;
	param->private_data_len = pd_len;
	param->responder_resources = 1;
	param->initiator_depth = 1;
	param->rnr_retry_count = 7;
}
