// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm-probe: the active side. Connect to the server the way an
 * NFS/RDMA client does (resolve the address, then the route, then
 * connect with this host's private data), keep what the server's CM
 * reply carried, run the --read Calls, and disconnect; --repeat does
 * it again and counts. Every failure is classified into an exit code,
 * with a reason an administrator can act on.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rpcrdma-cm-probe.h"

/* extra wait for the CM to report its own resolution timeout, ms */
#define PROBE_GRACE		1000

static bool probe_is_loopback(const char *addr)
{
	return !strncmp(addr, "127.", 4) || !strncmp(addr, "[::1]", 5);
}

static void probe_fail(struct probe_outcome *o, enum probe_exit code,
		       const char *result, const char *fmt, ...)
{
	va_list ap;

	o->code = code;
	o->result = result;
	va_start(ap, fmt);
	vsnprintf(o->why, sizeof(o->why), fmt, ap);
	va_end(ap);
}

/* An IB CM reject reason, or -errno from iWARP */
static void probe_rejected(struct probe_outcome *o, int status)
{
	if (status == 8 || status == -ECONNREFUSED)
		probe_fail(o, PROBE_REJECTED, "refused",
			   "connection refused: nothing listening on port %s (reject status %d)",
			   opts.port, status);
	else
		probe_fail(o, PROBE_REJECTED, "rejected",
			   "connection rejected by the server (reject status %d)",
			   status);
}

/* Address or route resolution ended in -@err: reported by the CM, or
 * -ETIMEDOUT from the probe's own wait when @waited is set
 */
static void probe_resolve_failed(struct probe_outcome *o, const char *what,
				 int err, bool waited)
{
	if (waited && err == -ETIMEDOUT)
		probe_fail(o, PROBE_TIMEOUT, "timeout",
			   "%s resolution for %s did not finish in %d ms",
			   what, o->peer, opts.timeout_ms + PROBE_GRACE);
	else if (err == -ENODEV || err == -EADDRNOTAVAIL)
		probe_fail(o, PROBE_NODEV, "nodev",
			   "no RDMA device on the route to %s (%s resolution: %s)%s",
			   o->peer, what, strerror(-err),
			   probe_is_loopback(o->peer) ?
			   "; use the address of an interface with an RDMA link" :
			   "");
	else
		probe_fail(o, PROBE_UNREACHABLE, "unreachable",
			   "%s is unreachable (%s resolution: %s)", o->peer,
			   what, strerror(-err));
}

/* Finish a resolution step: @ret is what rdma_resolve_addr() or
 * rdma_resolve_route() just returned (errno still set). Wait for @want
 * and report a failure of the @what resolution in @o.
 * Return: 0 when @want arrived, else a negative errno.
 */
static int probe_resolved(struct rdma_cm_id *id, int ret,
			  enum rdma_cm_event_type want, const char *what,
			  struct probe_outcome *o)
{
	struct probe_event ev;
	bool waited = false;

	if (ret) {
		ret = -errno;
	} else {
		ret = probe_wait_on(id, opts.timeout_ms + PROBE_GRACE, &ev);
		waited = ret == -ETIMEDOUT;
		if (!ret && ev.type != want)
			ret = ev.status < 0 ? ev.status : -EHOSTUNREACH;
	}
	if (ret)
		probe_resolve_failed(o, what, ret, waited);
	return ret;
}

/* Set by a signal handler: a lock-free atomic is safe there (C11
 * 7.14.1.1) and, unlike a plain int, is re-read on every loop test.
 */
static atomic_bool probe_released;

static void probe_release(int sig)
{
	(void)sig;
	atomic_store(&probe_released, true);
}

/**
 * probe_catch_release - Let SIGUSR1 end a --hold early
 *
 * A script that has seen what it wanted need not wait out the whole
 * hold. Installed at start, so that a signal sent before the hold
 * begins is remembered, not fatal.
 */
void probe_catch_release(void)
{
	struct sigaction sa = { .sa_handler = probe_release };

	/* no SA_RESTART: the signal interrupts nanosleep() */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
}

/* --hold: stay connected MS milliseconds unless released */
static void probe_hold(void)
{
	struct timespec ts = {
		.tv_sec = opts.hold_ms / 1000,
		.tv_nsec = (opts.hold_ms % 1000) * 1000000,
	};

	while (!atomic_load(&probe_released) && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* --read: the Calls, in order, on the connection @c. The Receive for
 * each Reply is exactly the Receive Size this host advertised in @pd
 * (1024 when it advertised none), as the RFC lets a client size it;
 * with --no-reply-buffer none is posted (a size of 0).
 */
static void probe_do_reads(struct probe_conn *c, const u8 *pd, size_t pd_len,
			   struct probe_outcome *o)
{
	struct rpcrdma_pdata_limits local;
	unsigned int i;

	probe_limits_of(pd, pd_len, &local);
	for (i = 0; i < opts.nreads; i++) {
		o->nreads++;
		if (probe_read_run(c->pd, c->cq, c->id->qp,
				   opts.no_reply_buffer ? 0 : local.max_recv,
				   &opts.reads[i], 0x52840000 + i,
				   opts.timeout_ms, &o->reads[i])) {
			o->read_failed = true;
			break;	/* the QP is in error: nothing more gets through */
		}
	}
}

/* Resolve the address and the route to @ai, then make the QP: all
 * that comes before the connect request. Return: 0, or -1 with @o set.
 */
static int probe_prepare(struct probe_conn *c, const struct addrinfo *ai,
			 struct probe_outcome *o)
{
	int ret;

	/* The CM gets --timeout for resolution and reports its own error;
	 * the probe waits a little longer so that the CM's reason wins.
	 */
	ret = rdma_resolve_addr(c->id, NULL, ai->ai_addr, opts.timeout_ms);
	if (probe_resolved(c->id, ret, RDMA_CM_EVENT_ADDR_RESOLVED, "address",
			   o))
		return -1;
	probe_device_str(c->id, o->device, sizeof(o->device));
	o->iwarp = c->id->verbs &&
		   c->id->verbs->device->transport_type == IBV_TRANSPORT_IWARP;
	o->local_port = ntohs(rdma_get_src_port(c->id));

	ret = rdma_resolve_route(c->id, opts.timeout_ms);
	if (probe_resolved(c->id, ret, RDMA_CM_EVENT_ROUTE_RESOLVED, "route",
			   o))
		return -1;

	ret = probe_make_qp(c);
	if (ret) {
		probe_fail(o, PROBE_ERROR, "error",
			   "cannot create a QP on %s: %s", o->device,
			   strerror(-ret));
		return -1;
	}
	return 0;
}

/* Sleep @ms milliseconds; a signal (SIGUSR1) does not cut it short */
static void probe_sleep_ms(int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* --flood: leave a connection before it is established. The CM event
 * that answers the request is never read: reading it is what has
 * librdmacm move the QP to RTS and send the RTU, so the server stays
 * in the state the request or its REP left it in until the caller's
 * rdma_destroy_id() ends it (a REJ on IB and RoCE, a reset on
 * iWARP). DROP_REQ waits @drop_ms first, whatever arrives meanwhile;
 * DROP_REP waits until an answer is pending.
 * Return: -1 (not established), with @o saying "abandoned" or why not.
 */
static int probe_abandon(struct probe_conn *c, enum probe_connect_how how,
			 int drop_ms, struct probe_outcome *o)
{
	struct pollfd pfd = { .fd = c->id->channel->fd, .events = POLLIN };
	int n;

	if (how == PROBE_CONNECT_DROP_REQ) {
		probe_sleep_ms(drop_ms);
		probe_fail(o, PROBE_OK, "abandoned",
			   "request left after %d ms", drop_ms);
		return -1;
	}
	do {
		n = poll(&pfd, 1, opts.timeout_ms);
	} while (n < 0 && errno == EINTR);
	if (n > 0)
		probe_fail(o, PROBE_OK, "abandoned",
			   "the answer left unread, no RTU sent");
	else if (!n)
		probe_fail(o, PROBE_TIMEOUT, "timeout",
			   "no answer from %s within %d ms", o->peer,
			   opts.timeout_ms);
	else
		probe_fail(o, PROBE_ERROR, "error", "poll: %s",
			   strerror(errno));
	return -1;
}

/* Send the connect request with @pd and wait for the server's answer;
 * an accept or a reject, with its private data, is kept in @o->reply.
 * @how may offer no responder resources, or leave before the answer.
 * Return: 0 when established, else -1 with @o set.
 */
static int probe_request(struct probe_conn *c, const u8 *pd, size_t pd_len,
			 enum probe_connect_how how, int drop_ms,
			 struct probe_outcome *o)
{
	struct rdma_conn_param param;
	struct probe_event ev;
	int ret;

	probe_conn_param(&param, pd, pd_len);
	param.retry_count = 7;
	/* The server's CM hands this over as the request's initiator
	 * depth, the RDMA Reads it may have in flight towards this side;
	 * svc_rdma_accept() refuses a connection that allows none.
	 */
	if (how == PROBE_CONNECT_NO_READS)
		param.responder_resources = 0;
	if (rdma_connect(c->id, &param)) {
		ret = errno;
		probe_fail(o, PROBE_ERROR, "error",
			   "rdma_connect to %s with %zu octets of private data: %s%s",
			   o->peer, pd_len, strerror(ret),
			   ret == EINVAL && pd_len > PROBE_RANDOM_MAX ?
			   " (an IB/RoCE connect request carries at most 56)" :
			   "");
		return -1;
	}
	if (how == PROBE_CONNECT_DROP_REQ || how == PROBE_CONNECT_DROP_REP)
		return probe_abandon(c, how, drop_ms, o);
	ret = probe_wait_on(c->id, opts.timeout_ms, &ev);
	if (ret == -ETIMEDOUT) {
		probe_fail(o, PROBE_TIMEOUT, "timeout",
			   "no answer from %s within %d ms", o->peer,
			   opts.timeout_ms);
		return -1;
	}
	if (ret) {
		probe_fail(o, PROBE_ERROR, "error", "CM event: %s",
			   strerror(-ret));
		return -1;
	}
	o->reply = ev;
	switch (ev.type) {
	case RDMA_CM_EVENT_ESTABLISHED:
		o->have_reply = true;
		return 0;
	case RDMA_CM_EVENT_REJECTED:
		o->have_reply = true;
		probe_rejected(o, ev.status);
		return -1;
	case RDMA_CM_EVENT_UNREACHABLE:
		probe_fail(o, PROBE_UNREACHABLE, "unreachable",
			   "%s is unreachable (status %d%s%s)", o->peer,
			   ev.status, ev.status < 0 ? ": " : "",
			   ev.status < 0 ? strerror(-ev.status) : "");
		return -1;
	default:
		probe_fail(o, PROBE_ERROR, "error",
			   "connecting to %s: unexpected %s (status %d)",
			   o->peer, rdma_event_str(ev.type), ev.status);
		return -1;
	}
}

/* Disconnect an established connection. Not clean (only the reason in
 * @o->why, the exit code stays 0) when the CM does not confirm it.
 */
static void probe_disconnect(struct probe_conn *c, struct probe_outcome *o)
{
	struct probe_event ev;
	int ret;

	if (rdma_disconnect(c->id)) {
		snprintf(o->why, sizeof(o->why), "rdma_disconnect: %s",
			 strerror(errno));
		return;
	}
	ret = probe_wait_on(c->id, opts.timeout_ms, &ev);
	if (!ret && ev.type == RDMA_CM_EVENT_DISCONNECTED)
		o->clean_disconnect = true;
	else
		snprintf(o->why, sizeof(o->why),
			 "no DISCONNECTED event after rdma_disconnect (%s)",
			 ret ? strerror(-ret) : rdma_event_str(ev.type));
}

/**
 * probe_connect_as - One active connection attempt, ended as @how says
 * @ai: the server's address
 * @pd: the private data to send
 * @pd_len: its length
 * @how: PROBE_CONNECT_FULL for probe_connect_once()'s whole cycle;
 *       NO_READS offers the server no RDMA Read resources; DROP_REQ and
 *       DROP_REP destroy the CM ID before the connection is established
 * @drop_ms: DROP_REQ: how long after the request, in ms
 * @o: OUT: how it ended; "abandoned" (exit code PROBE_OK) for a drop
 *
 * --flood's kinds of cycle share every step with probe_connect_once(),
 * so that they differ only where they are meant to.
 */
void probe_connect_as(const struct addrinfo *ai, const u8 *pd, size_t pd_len,
		      enum probe_connect_how how, int drop_ms,
		      struct probe_outcome *o)
{
	struct probe_conn c = { };

	memset(o, 0, sizeof(*o));
	o->code = PROBE_OK;
	o->result = "established";
	probe_addr_str(ai->ai_addr, o->peer, sizeof(o->peer));

	if (rdma_create_id(channel, &c.id, NULL, RDMA_PS_TCP)) {
		probe_fail(o, PROBE_ERROR, "error", "rdma_create_id: %s",
			   strerror(errno));
		return;
	}
	if (!probe_prepare(&c, ai, o) &&
	    !probe_request(&c, pd, pd_len, how, drop_ms, o)) {
		probe_do_reads(&c, pd, pd_len, o);
		probe_hold();
		probe_disconnect(&c, o);
	}
	probe_drop_conn(&c);
}

/**
 * probe_connect_once - One active connection, from resolution to disconnect
 * @ai: the server's address
 * @pd: the private data to send
 * @pd_len: its length
 * @o: OUT: how it ended, with the server's reply
 *
 * Resolve, connect with @pd, keep the reply's private data, run the
 * --read Calls, disconnect: --repeat and --fuzz make many of these.
 */
void probe_connect_once(const struct addrinfo *ai, const u8 *pd,
			size_t pd_len, struct probe_outcome *o)
{
	probe_connect_as(ai, pd, pd_len, PROBE_CONNECT_FULL, 0, o);
}

/**
 * probe_rand - splitmix64: a small generator whose output depends on the seed only
 * @state: the generator's state, advanced
 *
 * Return: the next 64 random bits.
 */
u64 probe_rand(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Random private data; half the time it carries the Format Identifier
 * somewhere (maybe truncated, usually version 1) so that the peer's
 * search and checks are exercised, not only its "no identifier" path.
 */
static size_t probe_random_pdata(u64 *state, u8 *buf)
{
	static const u8 ident[4] = { 0xf6, 0xab, 0x0e, 0x18 };
	size_t len = probe_rand(state) % (PROBE_RANDOM_MAX + 1);
	size_t i, off;

	for (i = 0; i < len; i++)
		buf[i] = probe_rand(state);
	if (len >= 4 && probe_rand(state) % 2) {
		off = probe_rand(state) % (len - 3);
		memcpy(buf + off, ident, 4);
		if (off + 4 < len && probe_rand(state) % 4)
			buf[off + 4] = RPCRDMA_PDATA_VERSION;
	}
	return len;
}

/* Count how a cycle ended, for the --repeat summary */
static void probe_count(struct probe_tally *t, const struct probe_outcome *o)
{
	if (o->code == PROBE_OK) {
		t->established++;
		t->unclean += !o->clean_disconnect;
	} else if (!strcmp(o->result, "rejected")) {
		t->rejected++;
	} else if (!strcmp(o->result, "refused")) {
		t->refused++;
	} else if (o->code == PROBE_TIMEOUT) {
		t->timeouts++;
	} else {
		t->errors++;
	}
}

/**
 * probe_active - Run the active side: one connection, or --repeat N
 * @ai: the server's address
 *
 * Return: the exit code. Without --repeat, the connection's (and
 * PROBE_ERROR when a --read Call got no Reply); with it, PROBE_OK when
 * every cycle was established or rejected, else the last other failure.
 */
enum probe_exit probe_active(const struct addrinfo *ai)
{
	struct probe_tally t = { };
	enum probe_exit worst = PROBE_OK;
	struct probe_outcome o;
	u64 state = opts.seed;
	u8 pd[PROBE_PDATA_MAX];
	unsigned long i, cycles;
	size_t pd_len;
	long long t0;

	pd_len = probe_local_pdata(pd);
	cycles = opts.repeat ? opts.repeat : 1;
	t0 = probe_now_ms();
	for (i = 0; i < cycles; i++) {
		if (opts.random)
			pd_len = probe_random_pdata(&state, pd);
		probe_connect_once(ai, pd, pd_len, &o);
		probe_print_outcome(&o, pd, pd_len, opts.repeat ? (long)i : -1);
		fflush(stdout);
		probe_count(&t, &o);
		/* a listener's reject is an answer; nobody listening is not */
		if (o.code != PROBE_OK && strcmp(o.result, "rejected"))
			worst = o.code;
		/* no device or no route will not get better: stop there */
		if (o.code == PROBE_NODEV ||
		    (o.code == PROBE_UNREACHABLE && !t.established))
			break;
	}
	if (!opts.repeat)
		return o.code == PROBE_OK && o.read_failed ? PROBE_ERROR :
							     o.code;

	t.secs = (probe_now_ms() - t0) / 1000.0;
	if (i < cycles)
		i++;	/* the loop stopped early, after cycle i */
	t.cycles = i;
	probe_print_tally(&t);
	/* established or rejected are both answers; anything else fails */
	return worst;
}
