// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm-probe --flood: connection cycles at volume against a
 * server, in a fixed mix, to see that it comes back to where it was:
 * no connection, no memory and no CM state left over from any of them.
 *
 * Every block of ten cycles holds four good ones (this probe's RFC 8797
 * message, established and disconnected), three hostile ones (the next
 * --fuzz input: established or rejected), one abandoned at the request
 * (the CM ID destroyed up to 100 ms after it, whatever the server did
 * meanwhile), one abandoned at the reply (destroyed once an answer is
 * pending, which is never read, so no RTU is sent) and one refused (a
 * request that offers the server no RDMA Read resources, which
 * svc_rdma_accept() turns down after it has built the transport). The
 * seed shuffles each block and drives the --fuzz generator, so that a
 * run can be repeated exactly.
 *
 * The connections are probe_connect_as()'s, the control connections and
 * the check of each accept --fuzz's (rpcrdma-cm-probe-fuzzrun.c), the
 * lines probe_fuzz_line()'s: only the mix and its bookkeeping are here.
 */

#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "rpcrdma-cm-probe.h"

/* What a cycle was meant to do */
enum probe_flood_kind {
	PROBE_FLOOD_GOOD,
	PROBE_FLOOD_HOSTILE,
	PROBE_FLOOD_ABANDON_REQ,
	PROBE_FLOOD_ABANDON_REP,
	PROBE_FLOOD_REFUSE,
	PROBE_FLOOD_NKINDS,
};

/* What a cycle did, whatever it was meant to do */
enum probe_flood_result {
	PROBE_FLOOD_ESTABLISHED,
	PROBE_FLOOD_REJECTED,
	PROBE_FLOOD_ABANDONED,
	PROBE_FLOOD_FAILED,
};

static const char * const probe_flood_kind_names[PROBE_FLOOD_NKINDS] = {
	[PROBE_FLOOD_GOOD] = "good",
	[PROBE_FLOOD_HOSTILE] = "hostile",
	[PROBE_FLOOD_ABANDON_REQ] = "abandon_req",
	[PROBE_FLOOD_ABANDON_REP] = "abandon_rep",
	[PROBE_FLOOD_REFUSE] = "refuse",
};

static const enum probe_connect_how probe_flood_how[PROBE_FLOOD_NKINDS] = {
	[PROBE_FLOOD_GOOD] = PROBE_CONNECT_FULL,
	[PROBE_FLOOD_HOSTILE] = PROBE_CONNECT_FULL,
	[PROBE_FLOOD_ABANDON_REQ] = PROBE_CONNECT_DROP_REQ,
	[PROBE_FLOOD_ABANDON_REP] = PROBE_CONNECT_DROP_REP,
	[PROBE_FLOOD_REFUSE] = PROBE_CONNECT_NO_READS,
};

/* One block of cycles, before its shuffle: the mix's proportions are
 * exact for every N that is a multiple of the block
 */
#define PROBE_FLOOD_BLOCK	10
static const enum probe_flood_kind probe_flood_mix[PROBE_FLOOD_BLOCK] = {
	PROBE_FLOOD_GOOD, PROBE_FLOOD_GOOD, PROBE_FLOOD_GOOD, PROBE_FLOOD_GOOD,
	PROBE_FLOOD_HOSTILE, PROBE_FLOOD_HOSTILE, PROBE_FLOOD_HOSTILE,
	PROBE_FLOOD_ABANDON_REQ, PROBE_FLOOD_ABANDON_REP, PROBE_FLOOD_REFUSE,
};

/* An abandoned request lives 0..this many ms: from a REQ that may not
 * have left yet, through one queued for an nfsd thread, to one the
 * server has answered (a TCG guest accepts in some tens of ms)
 */
#define PROBE_FLOOD_DROP_MS	100

/* A run: what the control connections learnt, the generator, the counts */
struct probe_flood_run {
	const struct addrinfo *ai;
	struct probe_fuzz_model model;	/* what the accepts must carry */
	const struct probe_fuzz_field *field;
	u8 good[PROBE_PDATA_MAX];
	size_t good_len;
	u64 state;			/* shuffles and drop times */
	enum probe_flood_kind order[PROBE_FLOOD_BLOCK];
	unsigned long hostile;		/* --fuzz inputs used so far */
	unsigned long unanswered;	/* failures in a row */
	unsigned long cycles;
	unsigned long kind[PROBE_FLOOD_NKINDS];
	unsigned long unexpected[PROBE_FLOOD_NKINDS];
	unsigned long established, rejected, abandoned, failed, unclean;
	unsigned int quarters;		/* progress lines printed */
	long long t0;
};

/* The next block's order: probe_flood_mix, shuffled (Fisher-Yates) */
static void probe_flood_shuffle(struct probe_flood_run *r)
{
	enum probe_flood_kind k;
	unsigned int i, j;

	memcpy(r->order, probe_flood_mix, sizeof(r->order));
	for (i = PROBE_FLOOD_BLOCK - 1; i > 0; i--) {
		j = probe_rand(&r->state) % (i + 1);
		k = r->order[i];
		r->order[i] = r->order[j];
		r->order[j] = k;
	}
}

/* Over iWARP a listener's reject reaches the client as ECONNREFUSED,
 * which probe_rejected() names "refused": the same answer as nothing
 * listening. Over IB and RoCE the two differ (REJ reason 28, 8).
 */
static enum probe_flood_result probe_flood_result_of(const struct probe_outcome *o)
{
	if (o->code == PROBE_OK)
		return strcmp(o->result, "abandoned") ? PROBE_FLOOD_ESTABLISHED :
							PROBE_FLOOD_ABANDONED;
	if (o->code == PROBE_REJECTED &&
	    (!strcmp(o->result, "rejected") || o->iwarp))
		return PROBE_FLOOD_REJECTED;
	return PROBE_FLOOD_FAILED;
}

/* Did cycle @o, which sent @pd, do what its kind @k asks of the
 * server? Good and hostile ones are judged as --fuzz judges them: an
 * accept with the message the controls predict for @pd, or (hostile
 * only) a reject. Return: true if so, else false with @why set.
 */
static bool probe_flood_judge(const struct probe_flood_run *r,
			      enum probe_flood_kind k, const u8 *pd,
			      size_t pd_len, const struct probe_outcome *o,
			      enum probe_flood_result res, char *why,
			      size_t why_len)
{
	struct probe_fuzz_verdict v;
	bool ok;

	switch (k) {
	case PROBE_FLOOD_GOOD:
	case PROBE_FLOOD_HOSTILE:
		probe_fuzz_expect_server(r->field, pd, pd_len, &r->model, &v);
		if (res == PROBE_FLOOD_ESTABLISHED)
			return probe_fuzz_reply_ok(o, &r->model, &v, why,
						   why_len);
		ok = k == PROBE_FLOOD_HOSTILE && res == PROBE_FLOOD_REJECTED;
		break;
	case PROBE_FLOOD_REFUSE:
		ok = res == PROBE_FLOOD_REJECTED;
		break;
	default:
		ok = res == PROBE_FLOOD_ABANDONED;
		break;
	}
	if (!ok)
		snprintf(why, why_len, "a %s cycle ended %s%s%s",
			 probe_flood_kind_names[k], o->result,
			 *o->why ? ": " : "", o->why);
	return ok;
}

static void probe_flood_count(struct probe_flood_run *r,
			      enum probe_flood_kind k,
			      const struct probe_outcome *o,
			      enum probe_flood_result res, bool ok)
{
	r->cycles++;
	r->kind[k]++;
	r->unexpected[k] += !ok;
	switch (res) {
	case PROBE_FLOOD_ESTABLISHED:
		r->established++;
		r->unclean += !o->clean_disconnect;
		break;
	case PROBE_FLOOD_REJECTED:
		r->rejected++;
		break;
	case PROBE_FLOOD_ABANDONED:
		r->abandoned++;
		break;
	default:
		r->failed++;
		break;
	}
	/* a request left at once hears nothing by design: it neither
	 * breaks a run of failures nor adds to one
	 */
	if (res == PROBE_FLOOD_FAILED)
		r->unanswered++;
	else if (k != PROBE_FLOOD_ABANDON_REQ)
		r->unanswered = 0;
}

/* One cycle's line, with --verbose or --json, and always when it did
 * not do what its kind asks: "flood cycle=I kind=K result=R ..."
 */
static void probe_flood_report(unsigned long i, enum probe_flood_kind k,
			       const struct probe_outcome *o, bool ok,
			       const struct probe_fuzz_input *in, int drop_ms,
			       const char *why)
{
	char line[1536], hex[2 * PROBE_PDATA_MAX + 2];
	size_t n;

	if (!opts.json && !opts.verbose && ok)
		return;
	n = snprintf(line, sizeof(line),
		     "flood cycle=%lu kind=%s result=%s verdict=%s port=%u", i,
		     probe_flood_kind_names[k], o->result,
		     ok ? "ok" : "unexpected", o->local_port);
	if (in && n < sizeof(line)) {
		probe_fuzz_hex(hex, sizeof(hex), in->blob, in->len);
		n += snprintf(line + n, sizeof(line) - n,
			      " input=%lu class=%s len=%zu hex=%s", in->index,
			      probe_fuzz_class_name(in->cls), in->len, hex);
	}
	if (k == PROBE_FLOOD_ABANDON_REQ && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, " after_ms=%d",
			      drop_ms);
	if (*why && n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, " why=%s", why);
	probe_fuzz_line(line);
}

static double probe_flood_secs(const struct probe_flood_run *r)
{
	return (probe_now_ms() - r->t0) / 1000.0;
}

static double probe_flood_rate(unsigned long n, double secs)
{
	return secs > 0 ? n / secs : 0.0;
}

static unsigned long probe_flood_unexpected(const struct probe_flood_run *r)
{
	unsigned long n = 0;
	int k;

	for (k = 0; k < PROBE_FLOOD_NKINDS; k++)
		n += r->unexpected[k];
	return n;
}

/* A line at each quarter of the run, so that a script can measure the
 * server while the flood goes on, at points that do not depend on speed
 */
static void probe_flood_progress(struct probe_flood_run *r)
{
	double secs;
	char line[256];

	while (r->quarters < 3 && r->cycles * 4 >= opts.flood * (r->quarters + 1)) {
		r->quarters++;
		secs = probe_flood_secs(r);
		snprintf(line, sizeof(line),
			 "flood-progress quarter=%u cycles=%lu of=%lu seconds=%.1f per_second=%.1f unexpected=%lu",
			 r->quarters, r->cycles, opts.flood, secs,
			 probe_flood_rate(r->cycles, secs),
			 probe_flood_unexpected(r));
		probe_fuzz_line(line);
	}
}

/* The run's last line: totals and rates, per kind tried/unexpected */
static void probe_flood_summary(const struct probe_flood_run *r)
{
	double secs = probe_flood_secs(r);
	char line[1024];
	size_t n;
	int k;

	n = snprintf(line, sizeof(line),
		     "flood-summary cycles=%lu target=%s seconds=%.1f per_second=%.1f seed=%llu field=%s",
		     r->cycles, opts.target, secs,
		     probe_flood_rate(r->cycles, secs), opts.fuzz_seed,
		     r->field ? r->field->name : "?");
	for (k = 0; k < PROBE_FLOOD_NKINDS && n < sizeof(line); k++)
		n += snprintf(line + n, sizeof(line) - n, " %s=%lu/%lu",
			      probe_flood_kind_names[k], r->kind[k],
			      r->unexpected[k]);
	if (n < sizeof(line))
		snprintf(line + n, sizeof(line) - n,
			 " established=%lu established_per_second=%.1f rejected=%lu rejected_per_second=%.1f abandoned=%lu abandoned_per_second=%.1f failed=%lu unexpected=%lu unclean=%lu",
			 r->established, probe_flood_rate(r->established, secs),
			 r->rejected, probe_flood_rate(r->rejected, secs),
			 r->abandoned, probe_flood_rate(r->abandoned, secs),
			 r->failed, probe_flood_unexpected(r), r->unclean);
	probe_fuzz_line(line);
}

static void probe_flood_print_start(void)
{
	char line[256];

	snprintf(line, sizeof(line),
		 "flood-start cycles=%lu seed=%llu seeded=%s block=%d good=4 hostile=3 abandon_req=1 abandon_rep=1 refuse=1",
		 opts.flood, opts.fuzz_seed, opts.fuzz_seeded ? "yes" : "no",
		 PROBE_FLOOD_BLOCK);
	if (opts.json)
		probe_print_kv_json(line);
	else
		printf("%s (--seed %llu repeats this run)\n", line,
		       opts.fuzz_seed);
}

/* Cycle @i. Return: false when the run must stop there */
static bool probe_flood_cycle(struct probe_flood_run *r, unsigned long i)
{
	struct probe_fuzz_input in;
	enum probe_flood_result res;
	enum probe_flood_kind k;
	struct probe_outcome o;
	const u8 *pd = r->good;
	size_t pd_len = r->good_len;
	char why[512] = "";
	int drop_ms = 0;
	bool ok;

	if (i % PROBE_FLOOD_BLOCK == 0)
		probe_flood_shuffle(r);
	k = r->order[i % PROBE_FLOOD_BLOCK];
	if (k == PROBE_FLOOD_HOSTILE) {
		probe_fuzz_make(r->field, r->hostile++, &in);
		pd = in.blob;
		pd_len = in.len;
	} else if (k == PROBE_FLOOD_ABANDON_REQ) {
		drop_ms = probe_rand(&r->state) % (PROBE_FLOOD_DROP_MS + 1);
	}
	probe_connect_as(r->ai, pd, pd_len, probe_flood_how[k], drop_ms, &o);
	res = probe_flood_result_of(&o);
	ok = probe_flood_judge(r, k, pd, pd_len, &o, res, why, sizeof(why));
	probe_flood_count(r, k, &o, res, ok);
	probe_flood_report(i, k, &o, ok, k == PROBE_FLOOD_HOSTILE ? &in : NULL,
			   drop_ms, why);
	probe_flood_progress(r);
	if (o.code == PROBE_NODEV) {
		probe_err("--flood: stopping after cycle %lu: no RDMA device", i);
		return false;
	}
	if (r->unanswered == PROBE_FUZZ_GIVE_UP) {
		probe_err("--flood: stopping after cycle %lu: no answer to %d connections in a row",
			  i, PROBE_FUZZ_GIVE_UP);
		return false;
	}
	return true;
}

/**
 * probe_flood_active - --flood N against a server
 * @ai: the server's address
 *
 * The control connections first (--fuzz's), then N cycles of the mix.
 *
 * Return: PROBE_OK when every cycle ended as its kind asks, PROBE_ERROR
 * when one did not, or the control connection's failure.
 */
enum probe_exit probe_flood_active(const struct addrinfo *ai)
{
	struct probe_flood_run r = { .ai = ai, .state = opts.fuzz_seed };
	enum probe_exit ret;
	unsigned long i;

	probe_flood_print_start();
	ret = probe_fuzz_control(ai, &r.model, &r.field);
	if (ret)
		return ret;
	r.good_len = probe_local_pdata(r.good);
	r.t0 = probe_now_ms();
	for (i = 0; i < opts.flood; i++)
		if (!probe_flood_cycle(&r, i))
			break;
	probe_flood_summary(&r);
	return probe_flood_unexpected(&r) ? PROBE_ERROR : PROBE_OK;
}
