// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm-probe --v2: an experimental RPC-over-RDMA Version Two
 * endpoint (draft-cel-nfsv4-rpcrdma-version-two of November 2016) that
 * exchanges transport properties (draft-dnoveck-nfsv4-rpcrdma-xcharext-03).
 * No kernel speaks Version Two; this is a test tool, never a data path.
 *
 *  - The client sends ROPT_CONNPROP first, in an RDMA2_OPTIONAL message
 *    that fits the Version One default of 1024 octets. A Version One
 *    server answers RDMA_ERROR/ERR_VERS, which ends the run (exit 7).
 *  - The listener sends its own ROPT_CONNPROP once the client's first
 *    Version Two message has shown that the client speaks Version Two.
 *  - Both honour the peer's properties through the state machine of
 *    net/sunrpc/xprtrdma/rpcrdma_xchar_sm.c: no Send is longer than the
 *    peer's Receive Buffer Size (or a pending request to lower it);
 *    Calls that do not fit go by Position-Zero Read chunk, Replies
 *    that might not fit get a Reply chunk; Send With Invalidate only
 *    when the requester asked for it.
 *  - --request rbsiz=N sends ROPT_REQPROP and waits for ROPT_RESPROP;
 *    --update rbsiz=N raises this side's size and sends ROPT_UPDPROP
 *    once every receive of the old size is gone (Section 3.1).
 *  - --null SIZE,... sends RPC NULL Calls of those sizes; the listener
 *    echoes each Call's padding, so Replies are as large as Calls.
 *
 * Every message sent or received is one "v2 ..." line on stdout.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpcrdma-cm-probe.h"

/* RPC-over-RDMA Version One, for ERR_VERS */
#define V1_VERSION		1
#define V1_ERROR		4
#define V1_ERR_VERS		1

/* Octets of an RDMA2_MSG/NOMSG header with three empty chunk lists */
#define V2_HDR_MSG		36
/* ONC RPC NULL Call without credentials, and its accepted Reply */
#define V2_RPC_CALL		40
#define V2_RPC_REPLY		24
#define V2_NFS_PROGRAM		100003
#define V2_NFS_V4		4
#define V2_CREDITS		(PROBE_V2_RECVS - 1)

/* Bounds-checked XDR over one buffer */
struct v2_xdr {
	u8 *buf;
	size_t len;
	size_t pos;
	bool bad;
};

static void v2_init(struct v2_xdr *x, const u8 *buf, size_t len,
		    size_t pos)
{
	x->buf = (u8 *)buf;
	x->len = len;
	x->pos = pos;
	x->bad = false;
}

static void v2_put(struct v2_xdr *x, u32 v)
{
	if (x->bad || x->len - x->pos < 4) {
		x->bad = true;
		return;
	}
	x->buf[x->pos] = v >> 24;
	x->buf[x->pos + 1] = v >> 16;
	x->buf[x->pos + 2] = v >> 8;
	x->buf[x->pos + 3] = v;
	x->pos += 4;
}

static u32 v2_get(struct v2_xdr *x)
{
	const u8 *p = x->buf + x->pos;

	if (x->bad || x->len - x->pos < 4) {
		x->bad = true;
		return 0;
	}
	x->pos += 4;
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static u64 v2_get64(struct v2_xdr *x)
{
	u64 hi = v2_get(x);

	return hi << 32 | v2_get(x);
}

/* One "v2 ..." line of KEY=VALUE words, or with --json the same as
 * one JSON object (probe_print_kv_json()): only "why=" may hold blanks,
 * and it comes last.
 */
static void v2_say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (opts.json)
		probe_print_kv_json(line);
	else
		printf("v2 %s\n", line);
}

static const char *v2_role(const struct probe_v2 *v)
{
	return v->client ? "client" : "listener";
}

static u32 v2_dir(const struct probe_v2 *v)
{
	/* Without an RPC payload a requester says CALL, a responder REPLY */
	return v->client ? RPCRDMA_XCHAR_CALL : RPCRDMA_XCHAR_REPLY;
}

static void v2_print_props(const char *who, const struct rpcrdma_xchar_props *p)
{
	v2_say("props=%s rbsiz=%u reqreminv=%d brs=%u", who, p->rbsiz,
	       p->reqreminv, p->brs);
}

/* Send the message at v->send_buf, if it fits what the peer posted */
static int v2_send(struct probe_v2 *v, const char *what, u32 xid, u32 len,
		   u32 inv)
{
	u32 limit = rpcrdma_xchar_ep_send_limit(&v->ep);
	int ret;

	if (len > limit) {
		v->violations++;
		snprintf(v->why, sizeof(v->why),
			 "%s of %u octets does not fit the peer's %u", what,
			 len, limit);
		return -EMSGSIZE;
	}
	ret = probe_v2_send(v, len, inv);
	if (ret)
		return ret;
	v->sends++;
	v2_say("send=%s role=%s xid=%u len=%u limit=%u inv=%u", what,
	       v2_role(v), xid, len, limit, inv);
	return 0;
}

/* An RDMA2_OPTIONAL message around @info */
static int v2_send_opt(struct probe_v2 *v, u32 xid, u32 opttype,
		       const u8 *info, int infolen)
{
	int len, ret;

	if (infolen < 0) {
		snprintf(v->why, sizeof(v->why), "cannot encode %s: %s",
			 rpcrdma_xchar_opt_name(opttype), strerror(-infolen));
		return infolen;
	}
	len = rpcrdma_xchar_encode_opthdr(v->send_buf, PROBE_V2_SLOT, xid,
					  V2_CREDITS, v2_dir(v), opttype,
					  info, infolen);
	if (len < 0) {
		snprintf(v->why, sizeof(v->why), "cannot encode the header");
		return len;
	}
	ret = v2_send(v, rpcrdma_xchar_opt_name(opttype), xid, len, 0);
	if (!ret && opttype <= PROBE_V2_ROPT_MAX)
		v->opt_sent[opttype]++;
	return ret;
}

static int v2_send_connprop(struct probe_v2 *v)
{
	u8 info[256];

	v->connprop_sent = true;
	v2_print_props("own", &v->ep.local);
	return v2_send_opt(v, ++v->xid, RPCRDMA_XCHAR_ROPT_CONNPROP, info,
			   rpcrdma_xchar_ep_connprop(&v->ep, info,
						     sizeof(info)));
}

static int v2_send_answer(struct probe_v2 *v, int opttype,
			  const struct rpcrdma_xchar_answer *ans)
{
	u8 info[256];
	int ilen;

	if (opttype == RPCRDMA_XCHAR_ROPT_UPDPROP) {
		ilen = rpcrdma_xchar_encode_updprop(info, sizeof(info),
						    ans->other, ans->nother);
		v->update_sent = true;
		v2_say("update role=%s rbsiz=%u", v2_role(v),
		       v->ep.local.rbsiz);
		return v2_send_opt(v, ++v->xid, opttype, info, ilen);
	}
	ilen = rpcrdma_xchar_encode_resprop(info, sizeof(info), &ans->done,
					    &ans->rej, ans->other,
					    ans->nother);
	v2_say("answer role=%s xid=%u done=0x%x rej=0x%x other=%u rbsiz=%u",
	       v2_role(v), ans->xid, ans->done.w[0], ans->rej.w[0],
	       ans->nother ? ans->other[0].value : 0, v->ep.local.rbsiz);
	return v2_send_opt(v, ans->xid, opttype, info, ilen);
}

/* Repost @slot, then finish a raise if the old receives are gone */
static int v2_recycle(struct probe_v2 *v, unsigned int slot)
{
	struct rpcrdma_xchar_answer ans;
	int type;

	probe_v2_repost(v, slot);
	type = rpcrdma_xchar_ep_receives_posted(&v->ep,
						probe_v2_smallest_recv(v),
						&ans);
	return type ? v2_send_answer(v, type, &ans) : 0;
}

static int v2_send_error(struct probe_v2 *v, u32 xid, u32 vers, u32 err,
			 u32 a, u32 b)
{
	struct v2_xdr x;

	v2_init(&x, v->send_buf, PROBE_V2_SLOT, 0);
	v2_put(&x, xid);
	v2_put(&x, vers);
	v2_put(&x, V2_CREDITS);
	v2_put(&x, RPCRDMA_XCHAR_PROC_ERROR);
	v2_put(&x, err);
	if (err == RPCRDMA_XCHAR_ERR_VERS ||
	    err == RPCRDMA_XCHAR_ERR_REPLY_RESOURCE) {
		v2_put(&x, a);
		v2_put(&x, b);
	}
	return v2_send(v, vers == 2 ? "RDMA2_ERROR" : "RDMA_ERROR", xid,
		       x.pos, 0);
}

/* Section 2.1: a message that does not decode is an XDR error */
static int v2_bad_xdr(struct probe_v2 *v, u32 xid, const char *what,
		      enum rpcrdma_xchar_status st)
{
	v->violations++;
	v2_say("recv=%s role=%s xid=%u error=%s", what, v2_role(v), xid,
	       rpcrdma_xchar_status_name(st));
	return v2_send_error(v, xid, RPCRDMA_XCHAR_VERSION,
			     RPCRDMA_XCHAR_ERR_BAD_XDR, 0, 0);
}

static int v2_request(struct probe_v2 *v)
{
	struct rpcrdma_xchar_prop want = {
		.which = RPCRDMA_XCHAR_PROP_RBSIZ,
		.value = opts.v2_request_rbsiz,
	};
	u8 info[64];
	int ret;

	v->request_sent = true;
	ret = rpcrdma_xchar_ep_request(&v->ep, ++v->xid, &want, 1);
	if (ret) {
		v2_say("request role=%s rbsiz=%u refused=1 why=%s", v2_role(v),
		       want.value, strerror(-ret));
		return 0;
	}
	v2_say("request role=%s rbsiz=%u", v2_role(v), want.value);
	return v2_send_opt(v, v->xid, RPCRDMA_XCHAR_ROPT_REQPROP, info,
			   rpcrdma_xchar_encode_reqprop(info, sizeof(info),
							&want, 1));
}

static int v2_update(struct probe_v2 *v)
{
	int ret = rpcrdma_xchar_ep_raise_rbsiz(&v->ep, opts.v2_update_rbsiz);

	if (ret) {
		v->update_sent = true;
		v2_say("raise role=%s rbsiz=%u refused=1 why=%s", v2_role(v),
		       opts.v2_update_rbsiz, strerror(-ret));
		return 0;
	}
	v2_say("raise role=%s rbsiz=%u waiting=old-receives", v2_role(v),
	       opts.v2_update_rbsiz);
	return 0;
}

/* What comes after both CONNPROPs: this side's request and raise */
static int v2_after_connprop(struct probe_v2 *v)
{
	int ret = 0;

	if (!v->connprop_sent || !v->ep.peer_connprop)
		return 0;
	if (opts.v2_request_rbsiz && !v->request_sent)
		ret = v2_request(v);
	if (!ret && opts.v2_update_rbsiz && !v->update_sent &&
	    !v->ep.raise_to)
		ret = v2_update(v);
	return ret;
}

static int v2_on_connprop(struct probe_v2 *v, const struct rpcrdma_xchar_opthdr *h)
{
	struct rpcrdma_xchar_connprop msg;
	enum rpcrdma_xchar_status st;
	int ret;

	st = rpcrdma_xchar_decode_connprop(h->info, h->infolen, &msg);
	if (st)
		return v2_bad_xdr(v, h->xid, "ROPT_CONNPROP", st);
	ret = rpcrdma_xchar_ep_recv_connprop(&v->ep, &msg);
	v2_say("recv=ROPT_CONNPROP role=%s xid=%u props=%u nochg=0x%x%s",
	       v2_role(v), h->xid, msg.start.count, v->ep.peer_fixed,
	       ret ? " ignored=second" : "");
	v2_print_props("peer", &v->ep.peer);
	if (!v->connprop_sent) {
		ret = v2_send_connprop(v);
		if (ret)
			return ret;
	}
	return v2_after_connprop(v);
}

static int v2_on_reqprop(struct probe_v2 *v, const struct rpcrdma_xchar_opthdr *h)
{
	struct rpcrdma_xchar_answer ans;
	struct rpcrdma_xchar_reqprop msg;
	enum rpcrdma_xchar_status st;

	st = rpcrdma_xchar_decode_reqprop(h->info, h->infolen, &msg);
	if (st)
		return v2_bad_xdr(v, h->xid, "ROPT_REQPROP", st);
	v2_say("recv=ROPT_REQPROP role=%s xid=%u props=%u rbsiz=%u",
	       v2_role(v), h->xid, msg.want.count, msg.want.val.rbsiz);
	if (rpcrdma_xchar_ep_recv_reqprop(&v->ep, h->xid, &msg, &ans)) {
		v2_say("defer role=%s xid=%u raise=%u waiting=old-receives",
		       v2_role(v), h->xid, v->ep.raise_to);
		return 0;
	}
	return v2_send_answer(v, RPCRDMA_XCHAR_ROPT_RESPROP, &ans);
}

static int v2_on_resprop(struct probe_v2 *v, const struct rpcrdma_xchar_opthdr *h)
{
	struct rpcrdma_xchar_resprop msg;
	enum rpcrdma_xchar_status st;
	u32 accepted;
	int ret;

	st = rpcrdma_xchar_decode_resprop(h->info, h->infolen, &msg);
	if (st)
		return v2_bad_xdr(v, h->xid, "ROPT_RESPROP", st);
	ret = rpcrdma_xchar_ep_recv_resprop(&v->ep, h->xid, &msg, &accepted);
	v2_say("recv=ROPT_RESPROP role=%s xid=%u accepted=0x%x%s",
	       v2_role(v), h->xid, accepted, ret ? " ignored=no-request" : "");
	v2_print_props("peer", &v->ep.peer);
	return 0;
}

static int v2_on_updprop(struct probe_v2 *v, const struct rpcrdma_xchar_opthdr *h)
{
	struct rpcrdma_xchar_updprop msg;
	enum rpcrdma_xchar_status st;
	int ret;

	st = rpcrdma_xchar_decode_updprop(h->info, h->infolen, &msg);
	if (st)
		return v2_bad_xdr(v, h->xid, "ROPT_UPDPROP", st);
	ret = rpcrdma_xchar_ep_recv_updprop(&v->ep, &msg);
	v2_say("recv=ROPT_UPDPROP role=%s xid=%u%s", v2_role(v), h->xid,
	       ret ? " ignored=before-connprop" : "");
	v2_print_props("peer", &v->ep.peer);
	return 0;
}

static int v2_on_optional(struct probe_v2 *v, const u8 *m, u32 len)
{
	struct rpcrdma_xchar_opthdr h;
	enum rpcrdma_xchar_status st;

	st = rpcrdma_xchar_decode_opthdr(m, len, &h);
	if (st)
		return v2_bad_xdr(v, (u32)m[0] << 24 | m[1] << 16 | m[2] << 8 |
				  m[3], "RDMA2_OPTIONAL", st);
	if (h.opttype <= PROBE_V2_ROPT_MAX)
		v->opt_recv[h.opttype]++;
	switch (h.opttype) {
	case RPCRDMA_XCHAR_ROPT_CONNPROP:
		return v2_on_connprop(v, &h);
	case RPCRDMA_XCHAR_ROPT_REQPROP:
		return v2_on_reqprop(v, &h);
	case RPCRDMA_XCHAR_ROPT_RESPROP:
		return v2_on_resprop(v, &h);
	case RPCRDMA_XCHAR_ROPT_UPDPROP:
		return v2_on_updprop(v, &h);
	}
	v2_say("recv=RDMA2_OPTIONAL role=%s xid=%u opttype=%u error=unknown",
	       v2_role(v), h.xid, h.opttype);
	return v2_send_error(v, h.xid, RPCRDMA_XCHAR_VERSION,
			     RPCRDMA_XCHAR_ERR_INVAL_OPTION, 0, 0);
}

/* The chunk lists of an RDMA2_MSG or RDMA2_NOMSG header */
struct v2_chunks {
	u32 dir;
	u32 inv;
	bool pos0;			/* a Read segment at position 0 */
	u32 read_handle, read_len;
	u64 read_off;
	bool reply;			/* a Reply chunk, first segment */
	u32 reply_handle, reply_len;
	u64 reply_off;
};

static void v2_get_chunks(struct v2_xdr *x, struct v2_chunks *ck)
{
	u32 n, pos;

	memset(ck, 0, sizeof(*ck));
	ck->dir = v2_get(x);
	ck->inv = v2_get(x);
	while (!x->bad && v2_get(x)) {
		pos = v2_get(x);
		if (!pos && !ck->pos0) {
			ck->pos0 = true;
			ck->read_handle = v2_get(x);
			ck->read_len = v2_get(x);
			ck->read_off = v2_get64(x);
			continue;
		}
		v2_get(x);
		v2_get(x);
		v2_get64(x);
	}
	while (!x->bad && v2_get(x)) {
		n = v2_get(x);
		if (n > x->len / 16)
			x->bad = true;
		while (!x->bad && n--) {
			v2_get(x);
			v2_get(x);
			v2_get64(x);
		}
	}
	if (!x->bad && v2_get(x)) {
		n = v2_get(x);
		if (n > x->len / 16)
			x->bad = true;
		while (!x->bad && n--) {
			u32 h = v2_get(x), l = v2_get(x);
			u64 o = v2_get64(x);

			if (ck->reply)
				continue;
			ck->reply = true;
			ck->reply_handle = h;
			ck->reply_len = l;
			ck->reply_off = o;
		}
	}
}

/* Three empty chunk lists, or a Reply chunk of @reply_len */
static void v2_put_chunks(struct v2_xdr *x, u32 dir, u32 inv,
			  const struct v2_chunks *ck)
{
	v2_put(x, dir);
	v2_put(x, inv);
	if (ck && ck->pos0) {
		v2_put(x, 1);
		v2_put(x, 0);
		v2_put(x, ck->read_handle);
		v2_put(x, ck->read_len);
		v2_put(x, ck->read_off >> 32);
		v2_put(x, ck->read_off);
	}
	v2_put(x, 0);			/* end of the Read list */
	v2_put(x, 0);			/* no Write list */
	if (ck && ck->reply) {
		v2_put(x, 1);
		v2_put(x, 1);
		v2_put(x, ck->reply_handle);
		v2_put(x, ck->reply_len);
		v2_put(x, ck->reply_off >> 32);
		v2_put(x, ck->reply_off);
	} else {
		v2_put(x, 0);
	}
}

/* The listener's side of a NULL Call: answer with the padding echoed */
static int v2_answer_call(struct probe_v2 *v, const u8 *m, u32 len, u32 proc)
{
	u8 *rpc_out = v->chunk + PROBE_V2_SLOT;
	struct v2_chunks ck, out = { };
	u32 xid, rpc_len, pad, inv, hdr, need;
	struct v2_xdr x, call, rep;
	const u8 *rpc;
	int ret;

	v2_init(&x, m, len, 0);
	xid = v2_get(&x);
	v2_get(&x);
	v2_get(&x);
	v2_get(&x);
	v2_get_chunks(&x, &ck);
	if (x.bad)
		return v2_bad_xdr(v, xid, "RDMA2_MSG", RPCRDMA_XCHAR_BAD_XDR);
	if (proc == RPCRDMA_XCHAR_PROC_NOMSG) {
		if (!ck.pos0 || ck.read_len > PROBE_V2_SLOT)
			return v2_bad_xdr(v, xid, "RDMA2_NOMSG",
					  RPCRDMA_XCHAR_BAD_XDR);
		ret = probe_v2_rdma(v, false, v->chunk, ck.read_len,
				    ck.read_handle, ck.read_off);
		if (ret)
			return ret;
		rpc = v->chunk;
		rpc_len = ck.read_len;
	} else {
		rpc = m + x.pos;
		rpc_len = len - x.pos;
	}
	v2_say("recv=%s role=%s xid=%u len=%u rpc=%u call=%s reply-chunk=%u inv=%u",
	       proc == RPCRDMA_XCHAR_PROC_NOMSG ? "RDMA2_NOMSG" : "RDMA2_MSG",
	       v2_role(v), xid, len, rpc_len, ck.pos0 ? "pos0" : "inline",
	       ck.reply ? ck.reply_len : 0, ck.inv);

	v->nulls++;
	v->pos0 += ck.pos0;
	v2_init(&call, (u8 *)rpc, rpc_len, 0);
	if (v2_get(&call) != xid || v2_get(&call) != 0 || rpc_len < V2_RPC_CALL)
		return v2_bad_xdr(v, xid, "RPC-Call", RPCRDMA_XCHAR_BAD_XDR);
	pad = rpc_len - V2_RPC_CALL;

	v2_init(&rep, rpc_out, PROBE_V2_SLOT, 0);
	v2_put(&rep, xid);
	v2_put(&rep, 1);		/* REPLY */
	v2_put(&rep, 0);		/* MSG_ACCEPTED */
	v2_put(&rep, 0);		/* verifier AUTH_NONE */
	v2_put(&rep, 0);
	v2_put(&rep, 0);		/* SUCCESS */
	memcpy(rpc_out + rep.pos, rpc + V2_RPC_CALL, pad);
	rpc_len = rep.pos + pad;

	inv = rpcrdma_xchar_ep_may_send_inv(&v->ep, ck.inv) ? ck.inv : 0;
	v2_init(&x, v->send_buf, PROBE_V2_SLOT, 0);
	v2_put(&x, xid);
	v2_put(&x, RPCRDMA_XCHAR_VERSION);
	v2_put(&x, V2_CREDITS);
	need = V2_HDR_MSG + rpc_len;
	if (!rpcrdma_xchar_ep_reply_needs_chunk(&v->ep, need)) {
		v2_put(&x, RPCRDMA_XCHAR_PROC_MSG);
		v2_put_chunks(&x, RPCRDMA_XCHAR_REPLY, inv, NULL);
		memcpy(v->send_buf + x.pos, rpc_out, rpc_len);
		return v2_send(v, "RDMA2_MSG reply=inline", xid,
			       x.pos + rpc_len, inv);
	}
	if (!ck.reply || ck.reply_len < rpc_len) {
		v2_say("reply role=%s xid=%u len=%u error=no-reply-chunk",
		       v2_role(v), xid, need);
		return v2_send_error(v, xid, RPCRDMA_XCHAR_VERSION,
				     RPCRDMA_XCHAR_ERR_REPLY_RESOURCE, 1,
				     rpc_len);
	}
	ret = probe_v2_rdma(v, true, rpc_out, rpc_len, ck.reply_handle,
			    ck.reply_off);
	if (ret)
		return ret;
	out.reply = true;
	out.reply_handle = ck.reply_handle;
	out.reply_len = rpc_len;
	out.reply_off = ck.reply_off;
	v2_put(&x, RPCRDMA_XCHAR_PROC_NOMSG);
	v2_put_chunks(&x, RPCRDMA_XCHAR_REPLY, inv, &out);
	hdr = x.pos;
	v->reply_chunks++;
	return v2_send(v, "RDMA2_NOMSG reply=chunk", xid, hdr, inv);
}

/* RDMA_ERROR/ERR_VERS, whatever its rdma_vers: RFC 8166 Section 4.5
 * (and the Version Two draft) copy it from the failing message, so a
 * Version One server answers a Version Two message with rdma_vers 2.
 * Return: 1 (stop) when @m is one, else 0.
 */
static int v2_on_err_vers(struct probe_v2 *v, const u8 *m, u32 len)
{
	u32 xid, vers, proc, err;
	struct v2_xdr x;

	v2_init(&x, m, len, 0);
	xid = v2_get(&x);
	vers = v2_get(&x);
	v2_get(&x);
	proc = v2_get(&x);
	err = v2_get(&x);
	if (x.bad || proc != RPCRDMA_XCHAR_PROC_ERROR ||
	    err != RPCRDMA_XCHAR_ERR_VERS)
		return 0;
	v->err_low = v2_get(&x);
	v->err_high = v2_get(&x);
	if (x.bad)
		return 0;
	v->err_vers = true;
	v2_say("recv=RDMA_ERROR role=%s xid=%u vers=%u len=%u err=ERR_VERS low=%u high=%u",
	       v2_role(v), xid, vers, len, v->err_low, v->err_high);
	return 1;
}

/* A message of another version: this listener speaks Version Two only */
static int v2_on_other_version(struct probe_v2 *v, const u8 *m, u32 len,
			       u32 vers, u32 proc)
{
	u32 xid = (u32)m[0] << 24 | m[1] << 16 | m[2] << 8 | m[3];

	v2_say("recv=version-%u role=%s xid=%u proc=%u len=%u", vers,
	       v2_role(v), xid, proc, len);
	if (v->client)
		return 0;
	return v2_send_error(v, xid, vers, RPCRDMA_XCHAR_ERR_VERS,
			     RPCRDMA_XCHAR_VERSION, RPCRDMA_XCHAR_VERSION);
}

/* One received message that is not the Reply a Call waits for.
 * Return: 0, 1 to stop (ERR_VERS), or -errno.
 */
static int v2_dispatch(struct probe_v2 *v, const u8 *m, u32 len)
{
	u32 vers, proc;

	if (len < 16) {
		v->violations++;
		v2_say("recv=short role=%s len=%u", v2_role(v), len);
		return 0;
	}
	vers = (u32)m[4] << 24 | m[5] << 16 | m[6] << 8 | m[7];
	proc = (u32)m[12] << 24 | m[13] << 16 | m[14] << 8 | m[15];
	if (v->client && v2_on_err_vers(v, m, len))
		return 1;
	if (vers != RPCRDMA_XCHAR_VERSION)
		return v2_on_other_version(v, m, len, vers, proc);
	if (!v->peer_v2) {
		v->peer_v2 = true;
		/* the listener speaks only once it knows the client's version */
		if (!v->client && !v->connprop_sent &&
		    proc != RPCRDMA_XCHAR_PROC_OPTIONAL) {
			int ret = v2_send_connprop(v);

			if (ret)
				return ret;
		}
	}
	switch (proc) {
	case RPCRDMA_XCHAR_PROC_OPTIONAL:
		return v2_on_optional(v, m, len);
	case RPCRDMA_XCHAR_PROC_MSG:
	case RPCRDMA_XCHAR_PROC_NOMSG:
		if (!v->client)
			return v2_answer_call(v, m, len, proc);
		break;
	case RPCRDMA_XCHAR_PROC_ERROR:
		v2_say("recv=RDMA2_ERROR role=%s len=%u err=%u", v2_role(v),
		       len, len >= 20 ? (u32)m[19] : 0);
		return 0;
	}
	v2_say("recv=proc-%u role=%s len=%u error=unexpected", proc,
	       v2_role(v), len);
	return v2_send_error(v, (u32)m[0] << 24 | m[1] << 16 | m[2] << 8 | m[3],
			     RPCRDMA_XCHAR_VERSION,
			     RPCRDMA_XCHAR_ERR_INVAL_PROC, 0, 0);
}

/* Take in the next message, whatever it is, and repost its receive */
static int v2_step(struct probe_v2 *v, int timeout_ms)
{
	struct probe_v2_rx rx;
	int ret, ret2;

	ret = probe_v2_next(v, timeout_ms, &rx);
	if (ret)
		return ret;
	v->recvs++;
	ret = v2_dispatch(v, v->recv_buf[rx.slot], rx.len);
	ret2 = v2_recycle(v, rx.slot);
	return ret ? ret : ret2;
}

/* Is @m (@len octets) the header of the Reply to @xid? */
static bool v2_is_reply(const u8 *m, u32 len, u32 xid, u32 *proc)
{
	struct v2_xdr x;

	v2_init(&x, m, len, 0);
	if (v2_get(&x) != xid || v2_get(&x) != RPCRDMA_XCHAR_VERSION)
		return false;
	v2_get(&x);
	*proc = v2_get(&x);
	return !x.bad && *proc != RPCRDMA_XCHAR_PROC_OPTIONAL;
}

/* The RPC Reply to NULL @xid, with the Call's @pad octets echoed */
static bool v2_reply_ok(const u8 *rpc, u32 len, u32 xid, u32 pad)
{
	struct v2_xdr x;
	u32 i;

	v2_init(&x, rpc, len, 0);
	if (len != V2_RPC_REPLY + pad || v2_get(&x) != xid ||
	    v2_get(&x) != 1 || v2_get(&x) || v2_get(&x) || v2_get(&x) ||
	    v2_get(&x))
		return false;
	for (i = 0; i < pad; i++)
		if (rpc[V2_RPC_REPLY + i] != (u8)(i * 7 + xid))
			return false;
	return true;
}

/* Wait for the Reply to NULL @xid; what else comes is dispatched */
static int v2_null_reply(struct probe_v2 *v, u32 xid, u32 pad)
{
	struct v2_chunks ck;
	struct probe_v2_rx rx;
	struct v2_xdr x;
	const u8 *m, *rpc;
	u32 proc, rpc_len;
	bool ok;
	int ret;

	for (;;) {
		ret = probe_v2_next(v, opts.timeout_ms, &rx);
		if (ret) {
			snprintf(v->why, sizeof(v->why),
				 "no Reply to NULL xid %u: %s", xid,
				 strerror(-ret));
			return ret;
		}
		v->recvs++;
		m = v->recv_buf[rx.slot];
		if (v2_is_reply(m, rx.len, xid, &proc))
			break;
		ret = v2_dispatch(v, m, rx.len);
		if (!ret)
			ret = v2_recycle(v, rx.slot);
		if (ret)
			return ret;
	}
	v2_init(&x, (u8 *)m, rx.len, 16);
	if (proc == RPCRDMA_XCHAR_PROC_ERROR) {
		v2_say("recv=RDMA2_ERROR role=client xid=%u err=%u", xid,
		       v2_get(&x));
		snprintf(v->why, sizeof(v->why), "NULL xid %u: RDMA2_ERROR",
			 xid);
		v2_recycle(v, rx.slot);
		return -EPROTO;
	}
	v2_get_chunks(&x, &ck);
	if (proc == RPCRDMA_XCHAR_PROC_NOMSG) {
		rpc = v->chunk + PROBE_V2_SLOT;
		rpc_len = ck.reply ? ck.reply_len : 0;
	} else {
		rpc = m + x.pos;
		rpc_len = x.bad ? 0 : rx.len - (u32)x.pos;
	}
	ok = !x.bad && rpc_len <= PROBE_V2_SLOT &&
	     v2_reply_ok(rpc, rpc_len, xid, pad);
	v2_say("recv=%s role=client xid=%u len=%u reply=%s rpc=%u echo=%s invalidated=%d",
	       proc == RPCRDMA_XCHAR_PROC_NOMSG ? "RDMA2_NOMSG" : "RDMA2_MSG",
	       xid, rx.len, proc == RPCRDMA_XCHAR_PROC_NOMSG ? "chunk" :
	       "inline", rpc_len, ok ? "ok" : "bad", rx.inv);
	ret = v2_recycle(v, rx.slot);
	v->echo_ok += ok;
	v->echo_bad += !ok;
	v->reply_chunks += proc == RPCRDMA_XCHAR_PROC_NOMSG;
	if (!ok) {
		v->violations++;
		snprintf(v->why, sizeof(v->why), "NULL xid %u: bad Reply",
			 xid);
		return -EPROTO;
	}
	return ret;
}

/* The client's NULL Call of about @size octets and its Reply */
static int v2_null_call(struct probe_v2 *v, u32 size)
{
	u32 pad = size > V2_HDR_MSG + V2_RPC_CALL ?
		  (size - V2_HDR_MSG - V2_RPC_CALL + 3) & ~3U : 0;
	u32 xid = ++v->xid, rpc_len = V2_RPC_CALL + pad, i, max_reply;
	struct v2_chunks ck = { };
	struct v2_xdr x;
	u32 call_hdr;
	int ret;

	v2_init(&x, v->chunk, PROBE_V2_SLOT, 0);
	if (rpc_len > PROBE_V2_SLOT - 64) {
		snprintf(v->why, sizeof(v->why), "--null %u: too large", size);
		return -EINVAL;
	}
	/* the RPC Call, built where a Read chunk can expose it */
	v2_put(&x, xid);
	v2_put(&x, 0);			/* CALL */
	v2_put(&x, 2);
	v2_put(&x, V2_NFS_PROGRAM);
	v2_put(&x, V2_NFS_V4);
	v2_put(&x, 0);			/* NULL */
	for (i = 0; i < 4; i++)		/* AUTH_NONE credential, verifier */
		v2_put(&x, 0);
	for (i = 0; i < pad; i++)
		v->chunk[x.pos + i] = (u8)(i * 7 + xid);

	max_reply = V2_HDR_MSG + V2_RPC_REPLY + pad;
	if (rpcrdma_xchar_ep_call_needs_reply_chunk(&v->ep, max_reply)) {
		ck.reply = true;
		ck.reply_handle = v->chunk_mr->rkey;
		ck.reply_len = V2_RPC_REPLY + pad;
		ck.reply_off = (uintptr_t)(v->chunk + PROBE_V2_SLOT);
	}
	call_hdr = V2_HDR_MSG + (ck.reply ? 20 : 0);
	if (rpcrdma_xchar_ep_call_needs_pos0(&v->ep, call_hdr + rpc_len)) {
		ck.pos0 = true;
		ck.read_handle = v->chunk_mr->rkey;
		ck.read_len = rpc_len;
		ck.read_off = (uintptr_t)v->chunk;
	}
	v2_init(&x, v->send_buf, PROBE_V2_SLOT, 0);
	v2_put(&x, xid);
	v2_put(&x, RPCRDMA_XCHAR_VERSION);
	v2_put(&x, V2_CREDITS);
	v2_put(&x, ck.pos0 ? RPCRDMA_XCHAR_PROC_NOMSG : RPCRDMA_XCHAR_PROC_MSG);
	/* No remotely invalidatable handle: rdma_inv_handle stays 0 */
	v2_put_chunks(&x, RPCRDMA_XCHAR_CALL, 0, &ck);
	if (!ck.pos0) {
		memcpy(v->send_buf + x.pos, v->chunk, rpc_len);
		x.pos += rpc_len;
	}
	ret = v2_send(v, ck.pos0 ? "RDMA2_NOMSG call=pos0" :
		      "RDMA2_MSG call=inline", xid, x.pos, 0);
	if (ret)
		return ret;
	v->nulls++;
	v->pos0 += ck.pos0;

	return v2_null_reply(v, xid, pad);
}

static void v2_summary(const struct probe_v2 *v, const char *result)
{
	const u32 *s = v->opt_sent, *r = v->opt_recv;

	v2_say("result=%s role=%s sends=%lu recvs=%lu violations=%lu",
	       result, v2_role(v), v->sends, v->recvs, v->violations);
	v2_say("sent role=%s connprop=%u reqprop=%u resprop=%u updprop=%u",
	       v2_role(v), s[1], s[2], s[3], s[4]);
	v2_say("received role=%s connprop=%u reqprop=%u resprop=%u updprop=%u",
	       v2_role(v), r[1], r[2], r[3], r[4]);
	v2_say("nulls role=%s calls=%u pos0=%u reply-chunks=%u echo-ok=%u echo-bad=%u",
	       v2_role(v), v->nulls, v->pos0, v->reply_chunks, v->echo_ok,
	       v->echo_bad);
	v2_say("final role=%s ignored=%u own-rbsiz=%u peer-rbsiz=%u limit=%u%s%s",
	       v2_role(v), v->ep.ignored, v->ep.local.rbsiz, v->ep.peer.rbsiz,
	       rpcrdma_xchar_ep_send_limit(&v->ep), v->why[0] ? " why=" : "",
	       v->why);
}

/* The client's run on an established connection */
static enum probe_exit v2_client_run(struct probe_v2 *v)
{
	unsigned int i, pings;
	int ret;

	ret = v2_send_connprop(v);
	while (!ret && !v->ep.peer_connprop && !v->err_vers)
		ret = v2_step(v, opts.timeout_ms);
	if (ret == 1 || v->err_vers) {
		v2_summary(v, "not-v2");
		return PROBE_NOT_V2;
	}
	/* Section 3.1: a raise is announced once every receive of the old
	 * size is gone, ours or the peer's (a raise it was asked for is
	 * answered then). Small Calls, and their Replies, use them up.
	 */
	for (pings = 0; !ret && (v->ep.req_pending || v->ep.raise_to) &&
	     pings < 3 * PROBE_V2_RECVS; pings++)
		ret = v2_null_call(v, 0);
	if (!ret && (v->ep.req_pending || v->ep.raise_to)) {
		snprintf(v->why, sizeof(v->why), "%s after %u NULL Calls",
			 v->ep.req_pending ? "no ROPT_RESPROP" :
			 "receives of the old size still posted", pings);
		ret = -ETIMEDOUT;
	}
	for (i = 0; !ret && i < opts.v2_nnull; i++)
		ret = v2_null_call(v, opts.v2_null[i]);
	/* and what the peer asked for meanwhile (a deferred answer) */
	for (pings = 0; !ret && v->ep.raise_to &&
	     pings < 3 * PROBE_V2_RECVS; pings++)
		ret = v2_null_call(v, 0);
	if (ret) {
		if (!v->why[0])
			snprintf(v->why, sizeof(v->why), "%s", strerror(-ret));
		v2_summary(v, "error");
		return ret == -ETIMEDOUT ? PROBE_TIMEOUT : PROBE_ERROR;
	}
	v2_summary(v, v->violations ? "violations" : "ok");
	return v->violations ? PROBE_ERROR : PROBE_OK;
}

/**
 * probe_v2_active - Run the Version Two client against @ai
 * @ai: the server
 *
 * Return: an exit code; PROBE_NOT_V2 when the server answered ERR_VERS.
 */
enum probe_exit probe_v2_active(const struct addrinfo *ai)
{
	struct probe_v2 v = { .client = true };
	enum probe_exit code;
	bool clean;

	if (rpcrdma_xchar_ep_init(&v.ep, &opts.v2_lim)) {
		probe_err("--rbsiz/--rbsiz-max: not a valid Receive Buffer Size");
		return PROBE_USAGE;
	}
	if (rdma_create_id(channel, &v.c.id, NULL, RDMA_PS_TCP)) {
		probe_err("rdma_create_id: %s", strerror(errno));
		return PROBE_ERROR;
	}
	code = probe_v2_connect(&v, ai);
	if (code != PROBE_OK) {
		v2_summary(&v, "not-connected");
		probe_v2_teardown(&v);
		return code;
	}
	v2_say("connected role=client peer=%s:%s", opts.host, opts.port);
	code = v2_client_run(&v);
	clean = probe_v2_disconnect(&v);
	v2_say("disconnected role=client clean=%d", clean);
	probe_v2_teardown(&v);
	return code;
}

/* One accepted connection, until the client goes */
static void v2_serve(struct probe_v2 *v)
{
	int ret;

	do {
		ret = v2_step(v, 3600 * 1000);
	} while (ret >= 0);
	/* the client's disconnect is how a connection ends */
	if (v->peer_gone || (v->broken && strcasestr(v->why, "flush")))
		v->why[0] = '\0';
	v2_summary(v, v->violations ? "violations" : "ok");
	probe_v2_disconnect(v);
}

/**
 * probe_v2_listen - Run the Version Two listener on @ai
 * @ai: address and port to listen on
 *
 * Serves connections one after another, without restarting: --count of
 * them (or for ever), until --wait seconds pass without a connect
 * request. Requests that come while one is served wait their turn
 * (PROBE_V2_BACKLOG of them); one that fails before it is established
 * counts as served, and the next is taken.
 *
 * Return: an exit code.
 */
enum probe_exit probe_v2_listen(const struct addrinfo *ai)
{
	struct rdma_cm_id *lid;
	enum probe_exit code = PROBE_OK;
	unsigned long n;

	if (rdma_create_id(channel, &lid, NULL, RDMA_PS_TCP)) {
		probe_err("rdma_create_id: %s", strerror(errno));
		return PROBE_ERROR;
	}
	if (rdma_bind_addr(lid, ai->ai_addr) ||
	    rdma_listen(lid, PROBE_V2_BACKLOG)) {
		probe_err("cannot listen on %s:%s: %s", opts.host, opts.port,
			  strerror(errno));
		rdma_destroy_id(lid);
		return PROBE_ERROR;
	}
	v2_say("listening role=listener on=%s:%s", opts.host, opts.port);
	for (n = 0; !opts.count || n < opts.count; n++) {
		struct probe_v2 v = { .client = false };

		if (rpcrdma_xchar_ep_init(&v.ep, &opts.v2_lim)) {
			probe_err("--rbsiz/--rbsiz-max: not a valid Receive Buffer Size");
			code = PROBE_USAGE;
			break;
		}
		code = probe_v2_accept(&v, opts.wait_s ? opts.wait_s * 1000 :
						       -1);
		if (code == PROBE_OK) {
			v2_say("connected role=listener num=%lu", n + 1);
			v2_serve(&v);
		} else {
			v2_summary(&v, "not-connected");
		}
		if (!v.c.id)
			break;
		probe_v2_teardown(&v);
		code = PROBE_OK;
	}
	rdma_destroy_id(lid);
	return code;
}
