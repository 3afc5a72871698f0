// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm-probe --fuzz: the connections. The inputs and the oracle
 * are rpcrdma-cm-probe-fuzz.c's; this file sends them and judges what
 * the peer did.
 *
 * Active side: two control connections with the probe's own message,
 * Receiving the least and the most the codec encodes, first learn the
 * server's advertisement, how its Send Size follows the client's
 * Receive Size, and the transport. Then one connection per input.
 * RFC 8797 has the server advertise its own limits (Section 4.2), so
 * every accept must carry a message that decodes, the controls' with
 * the Send Size they predict for that input; or the server rejects
 * the connection. Anything else (a reply that changed or does not
 * decode, no answer, nothing listening any more, an error) is a
 * mismatch.
 *
 * Passive side: each connect request is answered by an accept with
 * the next input; the client either completes the connection, which
 * the probe then ends at once (it serves no RPCs, so the client
 * reconnects), or rejects it. No answer at all, or an accept the
 * local CM refused, is a mismatch. What the client negotiated is not
 * visible from here: each line gives what it must have, in its
 * debugfs line's form, for a script to compare with the client's
 * rpcrdma_cm_negotiate events.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpcrdma-cm-probe.h"

/* What a run counted, by class and by how the connections ended */
struct probe_fuzz_tally {
	unsigned long tried[PROBE_FUZZ_NCLASSES + 1];
	unsigned long bad[PROBE_FUZZ_NCLASSES + 1];
	unsigned long expect[RPCRDMA_PDATA_DISABLED + 1];
	unsigned long inputs, established, rejected, failed, mismatches;
	unsigned long unclean;
	int skipped;			/* corpus files left out */
	const struct probe_fuzz_field *field;
	long long t0;
};

/* A listener's connection and the input it was answered with */
struct probe_fuzz_conn {
	struct probe_conn c;
	struct probe_fuzz_input in;
	struct probe_fuzz_verdict v;	/* the client's expected view */
	char peer[INET6_ADDRSTRLEN + 8];
	bool ended_by_probe;
};

static void probe_fuzz_count(struct probe_fuzz_tally *t,
			     const struct probe_fuzz_input *in,
			     const struct probe_fuzz_verdict *v, bool ok)
{
	t->inputs++;
	t->tried[in->cls]++;
	t->expect[v->status]++;
	if (!ok) {
		t->bad[in->cls]++;
		t->mismatches++;
	}
}

/* One connection's line: "fuzz I class=... result=... verdict=..." and
 * the expected view of the receiver, in text (with --verbose) or JSON
 */
static void probe_fuzz_report(const struct probe_fuzz_input *in,
			      const char *where, const char *result, bool ok,
			      const struct probe_fuzz_verdict *v,
			      const char *why)
{
	char line[1536], kv[256], hex[2 * PROBE_PDATA_MAX + 2];

	if (!opts.json && !opts.verbose && ok)
		return;
	probe_fuzz_kv(kv, sizeof(kv), v);
	probe_fuzz_hex(hex, sizeof(hex), in->blob, in->len);
	snprintf(line, sizeof(line),
		 "fuzz input=%lu class=%s k=%lu len=%zu %s result=%s verdict=%s %s hex=%s%s%s",
		 in->index, probe_fuzz_class_name(in->cls), in->k, in->len,
		 where, result, ok ? "ok" : "mismatch", kv, hex,
		 *why ? " why=" : "", why);
	probe_fuzz_line(line);
}

static void probe_fuzz_summary(const struct probe_fuzz_tally *t,
			       const char *target, int skipped)
{
	double secs = (probe_now_ms() - t->t0) / 1000.0;
	char line[1024];
	size_t n;
	int i;

	n = snprintf(line, sizeof(line),
		     "fuzz-summary inputs=%lu target=%s seconds=%.1f per_second=%.1f seed=%llu field=%s established=%lu rejected=%lu failed=%lu mismatches=%lu unclean=%lu corpus_left_out=%d",
		     t->inputs, target, secs, secs > 0 ? t->inputs / secs : 0.0,
		     opts.fuzz_seed, t->field ? t->field->name : "?",
		     t->established, t->rejected, t->failed, t->mismatches,
		     t->unclean, skipped);
	for (i = 0; i <= PROBE_FUZZ_NCLASSES && n < sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - n, " %s=%lu/%lu",
			      probe_fuzz_class_name(i), t->tried[i], t->bad[i]);
	for (i = RPCRDMA_PDATA_PRESENT; i < RPCRDMA_PDATA_DISABLED &&
	     n < sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - n, " expect_%s=%lu",
			      rpcrdma_pdata_status_name(i), t->expect[i]);
	probe_fuzz_line(line);
}

static void probe_fuzz_print_seed(const char *side)
{
	char line[256];

	snprintf(line, sizeof(line),
		 "fuzz-start side=%s inputs=%lu seed=%llu seeded=%s", side,
		 opts.fuzz, opts.fuzz_seed, opts.fuzz_seeded ? "yes" : "no");
	if (opts.json)
		probe_print_kv_json(line);
	else
		printf("%s (--seed %llu repeats this run)\n", line,
		       opts.fuzz_seed);
}

static bool probe_fuzz_same(const struct rpcrdma_pdata *a,
			    const struct rpcrdma_pdata *b)
{
	return a->version == b->version && a->remote_inv == b->remote_inv &&
	       a->send_size == b->send_size && a->recv_size == b->recv_size &&
	       a->offset == b->offset;
}

/* One control connection: this probe's own message, with a Receive
 * Size of @recv; @msg is the server's, @f the field. Prints the
 * fuzz-control line (this side's port, the device, the field).
 */
static enum probe_exit probe_fuzz_ask(const struct addrinfo *ai, u32 recv,
				      struct rpcrdma_pdata *msg,
				      const struct probe_fuzz_field **f)
{
	struct rpcrdma_pdata_limits lim = opts.lim;
	enum rpcrdma_pdata_status st;
	u8 pd[RPCRDMA_PDATA_V1_LEN];
	struct probe_outcome o;
	char line[512];

	lim.max_recv = recv;
	rpcrdma_pdata_build(pd, &lim);
	probe_connect_once(ai, pd, sizeof(pd), &o);
	if (o.code != PROBE_OK) {
		probe_err("--fuzz: the control connection (this probe's own message, Receive Size %u) failed: %s",
			  recv, o.why);
		return o.code;
	}
	st = rpcrdma_pdata_parse(o.reply.pdata, o.reply.pdata_len, msg);
	if (st != RPCRDMA_PDATA_PRESENT) {
		probe_err("--fuzz: %s answered the control connection without an RFC 8797 message (%s): nothing to hold its answers to",
			  o.peer, rpcrdma_pdata_status_name(st));
		return PROBE_ERROR;
	}
	*f = probe_fuzz_field_of(o.iwarp, false);
	/* "rxe0 port 1": the device's name is one word */
	o.device[strcspn(o.device, " ")] = '\0';
	snprintf(line, sizeof(line),
		 "fuzz-control peer=%s port=%u device=%s field=%s control_recv=%u server_send=%u server_recv=%u server_r=%d offset=%u",
		 o.peer, o.local_port, o.device, (*f)->name, recv,
		 msg->send_size, msg->recv_size, msg->remote_inv, msg->offset);
	probe_fuzz_line(line);
	return PROBE_OK;
}

/**
 * probe_fuzz_control - The control connections of an active --fuzz or --flood
 * @ai: the server's address
 * @m: OUT: the server, as its answers show it
 * @f: OUT: the field the connect requests' blobs go into
 *
 * RFC 8797 lets a server advertise a Send Size that depends on the
 * client's Receive Size (it never Sends more), and rpcrdma.ko does:
 * max(max_req_size, min(server_send_size, 65536, R)). Two controls,
 * this probe's own message with the smallest and with the largest
 * Receive Size the codec encodes, show that floor and that ceiling,
 * and every other octet of the message, which must not differ.
 *
 * Return: PROBE_OK, or the exit code after a message.
 */
enum probe_exit probe_fuzz_control(const struct addrinfo *ai,
				   struct probe_fuzz_model *m,
				   const struct probe_fuzz_field **f)
{
	struct rpcrdma_pdata lo;
	enum probe_exit ret;

	ret = probe_fuzz_ask(ai, RPCRDMA_PDATA_SIZE_MIN, &lo, f);
	if (!ret)
		ret = probe_fuzz_ask(ai, RPCRDMA_PDATA_SIZE_MAX, &m->ref, f);
	if (ret)
		return ret;
	m->floor = lo.send_size;
	lo.send_size = m->ref.send_size;
	if (!probe_fuzz_same(&lo, &m->ref) || m->floor > m->ref.send_size) {
		probe_err("--fuzz: the server answered the two control connections with R=%d %u/%u at offset %u and R=%d %u/%u at offset %u: only a Send Size that grows with the client's Receive Size is modelled",
			  lo.remote_inv, m->floor, lo.recv_size, lo.offset,
			  m->ref.remote_inv, m->ref.send_size,
			  m->ref.recv_size, m->ref.offset);
		return PROBE_ERROR;
	}
	return PROBE_OK;
}

/**
 * probe_fuzz_reply_ok - Does an established connection's accept carry
 * what the model predicts
 * @o: the connection, established
 * @m: the server, from the control connections
 * @v: the oracle's verdict on the connection's input, for @m
 * @why: OUT: what the accept carried instead, when it did not
 * @why_len: size of @why
 *
 * The server's message must be the controls', with the Send Size they
 * predict for this input's Receive Size (@v->rcv): nothing else a
 * client sends may change it (RFC 8797 Section 4.2).
 *
 * Return: true when it is.
 */
bool probe_fuzz_reply_ok(const struct probe_outcome *o,
			 const struct probe_fuzz_model *m,
			 const struct probe_fuzz_verdict *v, char *why,
			 size_t why_len)
{
	struct rpcrdma_pdata msg, want = m->ref;
	enum rpcrdma_pdata_status st;

	want.send_size = v->rcv.max_send;
	st = rpcrdma_pdata_parse(o->reply.pdata, o->reply.pdata_len, &msg);
	if (st != RPCRDMA_PDATA_PRESENT) {
		snprintf(why, why_len,
			 "the server's accept no longer decodes (%s)",
			 rpcrdma_pdata_status_name(st));
		return false;
	}
	if (!probe_fuzz_same(&msg, &want)) {
		snprintf(why, why_len,
			 "the server advertised R=%d %u/%u at offset %u, where the controls predict R=%d %u/%u at offset %u",
			 msg.remote_inv, msg.send_size, msg.recv_size,
			 msg.offset, want.remote_inv, want.send_size,
			 want.recv_size, want.offset);
		return false;
	}
	return true;
}

/* Judge one active connection and count how it ended.
 * Return: true when the server did what RFC 8797 asks; @why says what
 * it did instead.
 */
static bool probe_fuzz_judge(const struct probe_outcome *o,
			     const struct probe_fuzz_model *m,
			     const struct probe_fuzz_verdict *v,
			     struct probe_fuzz_tally *t, char *why,
			     size_t why_len)
{
	*why = '\0';
	if (o->code == PROBE_OK) {
		t->established++;
		t->unclean += !o->clean_disconnect;
		return probe_fuzz_reply_ok(o, m, v, why, why_len);
	}
	/* a listener's reject is an answer; nothing listening is not */
	if (!strcmp(o->result, "rejected")) {
		t->rejected++;
		return true;
	}
	t->failed++;
	snprintf(why, why_len, "%s", o->why);
	return false;
}

/**
 * probe_fuzz_active - --fuzz N against a server
 * @ai: the server's address
 *
 * Return: PROBE_OK when every connection was answered as RFC 8797 says,
 * PROBE_ERROR on any mismatch, or the control connection's failure.
 */
enum probe_exit probe_fuzz_active(const struct addrinfo *ai)
{
	struct probe_fuzz_tally t = { };
	struct probe_fuzz_verdict v;
	struct probe_fuzz_input in;
	struct probe_fuzz_model m;
	struct probe_outcome o;
	char why[256], where[32];
	unsigned long i, unanswered = 0;
	enum probe_exit ret;
	int skipped;
	bool ok;

	probe_fuzz_print_seed("client");
	ret = probe_fuzz_control(ai, &m, &t.field);
	if (ret)
		return ret;
	skipped = probe_fuzz_load_corpus(t.field);
	if (skipped < 0)
		return PROBE_USAGE;
	t.t0 = probe_now_ms();
	for (i = 0; i < opts.fuzz; i++) {
		probe_fuzz_make(t.field, i, &in);
		probe_fuzz_expect_server(t.field, in.blob, in.len, &m, &v);
		probe_connect_once(ai, in.blob, in.len, &o);
		ok = probe_fuzz_judge(&o, &m, &v, &t, why, sizeof(why));
		probe_fuzz_count(&t, &in, &v, ok);
		snprintf(where, sizeof(where), "port=%u", o.local_port);
		probe_fuzz_report(&in, where, o.result, ok, &v, why);
		unanswered = o.code == PROBE_OK ||
			     !strcmp(o.result, "rejected") ? 0 : unanswered + 1;
		if (o.code == PROBE_NODEV) {
			probe_err("--fuzz: stopping after input %lu: no RDMA device",
				  i);
			break;
		}
		if (unanswered == PROBE_FUZZ_GIVE_UP) {
			probe_err("--fuzz: stopping after input %lu: no answer to %d connections in a row",
				  i, PROBE_FUZZ_GIVE_UP);
			break;
		}
	}
	probe_fuzz_summary(&t, opts.target, skipped);
	return t.mismatches ? PROBE_ERROR : PROBE_OK;
}

/* End @fc: report, count, free */
static void probe_fuzz_conn_done(struct probe_fuzz_tally *t,
				 struct probe_fuzz_conn *fc,
				 const char *result, bool ok, const char *why)
{
	char where[INET6_ADDRSTRLEN + 16];

	snprintf(where, sizeof(where), "peer=%s", fc->peer);
	probe_fuzz_count(t, &fc->in, &fc->v, ok);
	probe_fuzz_report(&fc->in, where, result, ok, &fc->v, why);
	probe_drop_conn(&fc->c);
	free(fc);
}

/* A connect request: answer it with input @index in the accept */
static void probe_fuzz_on_request(struct probe_fuzz_tally *t,
				  const struct probe_event *ev,
				  unsigned long index)
{
	struct rpcrdma_pdata_limits client;
	struct rdma_conn_param param;
	struct probe_fuzz_conn *fc;
	char why[128];
	int ret;

	fc = calloc(1, sizeof(*fc));
	if (!fc) {
		rdma_reject(ev->id, NULL, 0);
		rdma_destroy_id(ev->id);
		probe_err("out of memory");
		return;
	}
	fc->c.id = ev->id;
	fc->c.num = index;
	fc->c.id->context = fc;
	probe_addr_str(rdma_get_peer_addr(fc->c.id), fc->peer, sizeof(fc->peer));
	if (!t->field) {
		/* the transport is known now: the corpus again, for it */
		t->field = probe_fuzz_field_of(fc->c.id->verbs &&
					       fc->c.id->verbs->device->transport_type ==
					       IBV_TRANSPORT_IWARP, true);
		t->skipped = probe_fuzz_load_corpus(t->field);
	}
	probe_fuzz_make(t->field, index, &fc->in);
	/* the client negotiates with its own limits, as its request said */
	probe_limits_of(ev->pdata, ev->pdata_len, &client);
	probe_fuzz_expect(t->field, fc->in.blob, fc->in.len, &client, &fc->v);

	ret = probe_make_qp(&fc->c);
	if (!ret) {
		probe_conn_param(&param, fc->in.blob, fc->in.len);
		ret = rdma_accept(fc->c.id, &param) ? -errno : 0;
	}
	if (ret) {
		rdma_reject(fc->c.id, NULL, 0);
		snprintf(why, sizeof(why), "accept with %zu octets: %s",
			 fc->in.len, strerror(-ret));
		t->failed++;
		probe_fuzz_conn_done(t, fc, "error", false, why);
	}
}

/* An event on connection @fc; @fc is freed when it ends */
static void probe_fuzz_on_event(struct probe_fuzz_tally *t,
				struct probe_fuzz_conn *fc,
				const struct probe_event *ev)
{
	char why[128];

	switch (ev->type) {
	case RDMA_CM_EVENT_ESTABLISHED:
		/* the client took the accept; the probe serves no RPCs */
		t->established++;
		fc->c.established = true;
		fc->ended_by_probe = true;
		rdma_disconnect(fc->c.id);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		if (!fc->ended_by_probe)
			rdma_disconnect(fc->c.id);
		probe_fuzz_conn_done(t, fc, fc->ended_by_probe ? "established" :
				     "client-disconnected", true, "");
		break;
	case RDMA_CM_EVENT_REJECTED:
		t->rejected++;
		probe_fuzz_conn_done(t, fc, "client-rejected", true, "");
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		t->failed++;
		snprintf(why, sizeof(why),
			 "%s (status %d): the client never completed it",
			 rdma_event_str(ev->type), ev->status);
		probe_fuzz_conn_done(t, fc, "error", false, why);
		break;
	default:
		break;
	}
}

/**
 * probe_fuzz_listen - --listen --fuzz N: answer N clients with the inputs
 * @ai: the address and port to listen on
 *
 * Requests beyond the N-th are rejected and not counted.
 *
 * Return: PROBE_OK when every connection ended as a client may end it,
 * PROBE_ERROR on any mismatch, PROBE_TIMEOUT when --wait passed first.
 */
enum probe_exit probe_fuzz_listen(const struct addrinfo *ai)
{
	struct probe_fuzz_tally t = { };
	unsigned long requests = 0, done = 0;
	struct rdma_cm_id *listen_id;
	char where[INET6_ADDRSTRLEN + 8];
	struct probe_fuzz_conn *fc;
	struct probe_event ev;
	enum probe_exit ret;
	int err;

	/* the field is known at the first request only: a corpus that
	 * cannot be read is a usage error before anything starts
	 */
	if (probe_fuzz_load_corpus(probe_fuzz_field_of(true, true)) < 0)
		return PROBE_USAGE;
	ret = probe_listen_on(ai, &listen_id, where, sizeof(where));
	if (ret)
		return ret;
	probe_fuzz_print_seed("listener");
	probe_print_listening(where);
	t.t0 = probe_now_ms();
	while (!ret && done < opts.fuzz) {
		err = probe_next_event(opts.wait_s ? opts.wait_s * 1000 : -1,
				       &ev);
		if (err == -ETIMEDOUT) {
			probe_err("no CM event for %ld s; giving up",
				  opts.wait_s);
			ret = PROBE_TIMEOUT;
		} else if (err) {
			probe_err("CM event channel: %s", strerror(-err));
			ret = PROBE_ERROR;
		} else if (ev.type == RDMA_CM_EVENT_CONNECT_REQUEST) {
			if (requests == opts.fuzz) {
				rdma_reject(ev.id, NULL, 0);
				rdma_destroy_id(ev.id);
				continue;
			}
			probe_fuzz_on_request(&t, &ev, requests++);
		} else if (ev.type == RDMA_CM_EVENT_DEVICE_REMOVAL) {
			probe_err("the RDMA device went away");
			ret = PROBE_NODEV;
		} else if (ev.id && ev.id != listen_id && ev.id->context) {
			fc = ev.id->context;
			probe_fuzz_on_event(&t, fc, &ev);
		}
		done = t.inputs;
	}
	probe_fuzz_summary(&t, where, t.skipped);
	rdma_destroy_id(listen_id);
	if (ret)
		return ret;
	return t.mismatches ? PROBE_ERROR : PROBE_OK;
}
