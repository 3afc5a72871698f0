// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm-probe --v2: an experimental RPC-over-RDMA Version Two
 * endpoint that exchanges transport properties
 * (draft-dnoveck-nfsv4-rpcrdma-xcharext-03). Its headers and error codes
 * are those of draft-cel-nfsv4-rpcrdma-version-two-01, the revision
 * xcharext-03 cites, or with --base 2016-11-10 those of the authors'
 * later working copy (struct rpcrdma_xchar_base), never a mix.
 * No kernel speaks Version Two; this is a test tool, never a data path.
 *
 *  - The client sends ROPT_CONNPROP first, in an RDMA2_OPTIONAL message
 *    that fits the Version One default of 1024 octets. A Version One
 *    server answers RDMA_ERROR/ERR_VERS, which ends the run (exit 7).
 *  - The listener sends its own ROPT_CONNPROP once the client's first
 *    Version Two message has shown that the client speaks Version Two.
 *  - A peer without the extension answers RDMA2_ERR_INVAL_OPTION: the
 *    state machine drops what was pending, and the exchange goes on
 *    with the defaults, sending no more property messages. --no-props
 *    makes this side such a peer: it sends none and refuses each.
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

/* What a Reply chunk of one segment adds to an RDMA2_MSG header */
#define V2_HDR_REPLY_CHUNK	20
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

static u32 v2_xid_of(const u8 *m)
{
	return (u32)m[0] << 24 | m[1] << 16 | m[2] << 8 | m[3];
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

/* The base as logs name it: "01" alone would read as a number */
static const char *v2_base_name(const struct probe_v2 *v)
{
	return v->base->id == RPCRDMA_XCHAR_BASE_WC ? "working-copy-2016-11-10" :
						     "version-two-01";
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
	u32 xid = ++v->xid;
	u8 info[256];

	v->connprop_sent = true;
	v2_print_props("own", &v->ep.local);
	return v2_send_opt(v, xid, RPCRDMA_XCHAR_ROPT_CONNPROP, info,
			   rpcrdma_xchar_ep_connprop(&v->ep, xid, info,
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

/* An RDMA2_ERROR with a code of this side's base; @a and @b go out
 * only with the codes that carry them
 */
static int v2_send_error(struct probe_v2 *v, u32 xid, u32 vers, u32 err,
			 u32 a, u32 b)
{
	struct rpcrdma_xchar_errhdr e = {
		.xid = xid, .vers = vers, .credit = V2_CREDITS, .err = err,
		.arg = { a, b },
	};
	char what[64];
	int len;

	len = rpcrdma_xchar_encode_error(v->base, v->send_buf, PROBE_V2_SLOT,
					 &e);
	if (len < 0) {
		snprintf(v->why, sizeof(v->why), "cannot encode rdma_err %u",
			 err);
		return len;
	}
	if (err == v->base->err_inval_option)
		v->inval_sent++;
	snprintf(what, sizeof(what), "%s err=%s",
		 vers == 2 ? "RDMA2_ERROR" : "RDMA_ERROR",
		 rpcrdma_xchar_err_name(v->base, err));
	return v2_send(v, what, xid, len, 0);
}

/* Section 2.1: a message that does not decode is an XDR error */
static int v2_bad_xdr(struct probe_v2 *v, u32 xid, const char *what,
		      enum rpcrdma_xchar_status st)
{
	v->violations++;
	v2_say("recv=%s role=%s xid=%u error=%s", what, v2_role(v), xid,
	       rpcrdma_xchar_status_name(st));
	return v2_send_error(v, xid, RPCRDMA_XCHAR_VERSION,
			     v->base->err_bad_xdr, 0, 0);
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
	ret = rpcrdma_xchar_ep_request(&v->ep, v->xid + 1, &want, 1);
	if (ret) {
		v2_say("request role=%s rbsiz=%u refused=1 why=%s", v2_role(v),
		       want.value, strerror(-ret));
		return 0;
	}
	v->xid++;
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

/* What follows this side's CONNPROP: its request and its raise. The
 * client waits for the listener's answer to it, a CONNPROP or a
 * refusal, as it may have one message outstanding until a first reply
 * (version-two-01, Protocol Version Negotiation); the listener goes on
 * at once, since a request need not wait for the peer's CONNPROP.
 */
static int v2_after_connprop(struct probe_v2 *v)
{
	int ret = 0;

	if (!v->connprop_sent ||
	    (v->client && !v->ep.peer_connprop && !v->ep.peer_lacks))
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
	v2_say("recv=ROPT_CONNPROP role=%s xid=%u props=%u nochg=0x%x absent=0x%x%s",
	       v2_role(v), h->xid, msg.start.count, v->ep.peer_nochg,
	       v->ep.peer_absent, ret ? " ignored=second" : "");
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
	int ret;

	st = rpcrdma_xchar_decode_reqprop(h->info, h->infolen, &msg);
	if (st)
		return v2_bad_xdr(v, h->xid, "ROPT_REQPROP", st);
	ret = rpcrdma_xchar_ep_recv_reqprop(&v->ep, h->xid, &msg, &ans);
	v2_say("recv=ROPT_REQPROP role=%s xid=%u props=%u rbsiz=%u%s",
	       v2_role(v), h->xid, msg.want.count, msg.want.val.rbsiz,
	       ret < 0 ? " ignored=peer-refused-ours" : "");
	if (ret < 0)
		return 0;
	if (ret) {
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
		return v2_bad_xdr(v, v2_xid_of(m), "RDMA2_OPTIONAL", st);
	if (h.opttype <= PROBE_V2_ROPT_MAX)
		v->opt_recv[h.opttype]++;
	if (opts.v2_no_props) {
		v2_say("recv=RDMA2_OPTIONAL role=%s xid=%u opttype=%u error=no-properties",
		       v2_role(v), h.xid, h.opttype);
		return v2_send_error(v, h.xid, RPCRDMA_XCHAR_VERSION,
				     v->base->err_inval_option, 0, 0);
	}
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
			     v->base->err_inval_option, 0, 0);
}

/* The RPC Call of @ck: inline after the header, or read from its
 * Position-Zero chunk (checked by the caller) into v->chunk
 */
static int v2_call_payload(struct probe_v2 *v, const u8 *m, u32 len,
			   const struct rpcrdma_xchar_msghdr *ck,
			   const u8 **rpc, u32 *rpc_len)
{
	int ret;

	if (ck->proc == RPCRDMA_XCHAR_PROC_MSG) {
		*rpc = m + ck->hdrlen;
		*rpc_len = len - ck->hdrlen;
		return 0;
	}
	ret = probe_v2_rdma(v, false, v->chunk, ck->read.length,
			    ck->read.handle, ck->read.offset);
	*rpc = v->chunk;
	*rpc_len = ck->read.length;
	return ret;
}

/* The Reply to @ck, @rpc_len octets at @rpc_out: inline when it fits
 * the requester's receives, else through the Reply chunk it offered;
 * @hdr_inv goes into its rdma_inv_handle, @inv (0: none) is invalidated
 */
static int v2_send_reply(struct probe_v2 *v,
			 const struct rpcrdma_xchar_msghdr *ck,
			 const u8 *rpc_out, u32 rpc_len, u32 hdr_inv, u32 inv)
{
	struct rpcrdma_xchar_msghdr out = {
		.xid = ck->xid, .credit = V2_CREDITS,
		.proc = RPCRDMA_XCHAR_PROC_MSG, .dir = RPCRDMA_XCHAR_REPLY,
		.inv_handle = v->base->inv_handle ? hdr_inv : 0,
	};
	u32 need = v->base->msg_hdrlen + rpc_len;
	int hdr, ret;

	if (!rpcrdma_xchar_ep_reply_needs_chunk(&v->ep, need)) {
		hdr = rpcrdma_xchar_encode_msghdr(v->base, v->send_buf,
						  PROBE_V2_SLOT, &out);
		if (hdr < 0 || hdr + rpc_len > PROBE_V2_SLOT)
			return -EINVAL;
		memcpy(v->send_buf + hdr, rpc_out, rpc_len);
		return v2_send(v, "RDMA2_MSG reply=inline", ck->xid,
			       hdr + rpc_len, inv);
	}
	if (!ck->reply || !ck->nreply || ck->reply_seg.length < rpc_len) {
		v2_say("reply role=%s xid=%u len=%u error=no-reply-chunk",
		       v2_role(v), ck->xid, need);
		return v2_send_error(v, ck->xid, RPCRDMA_XCHAR_VERSION,
				     v->base->err_reply_resource, 1, rpc_len);
	}
	ret = probe_v2_rdma(v, true, (u8 *)rpc_out, rpc_len,
			    ck->reply_seg.handle, ck->reply_seg.offset);
	if (ret)
		return ret;
	out.proc = RPCRDMA_XCHAR_PROC_NOMSG;
	out.reply = true;
	out.nreply = 1;
	out.reply_seg = ck->reply_seg;
	out.reply_seg.length = rpc_len;
	hdr = rpcrdma_xchar_encode_msghdr(v->base, v->send_buf, PROBE_V2_SLOT,
					  &out);
	if (hdr < 0)
		return hdr;
	v->reply_chunks++;
	return v2_send(v, "RDMA2_NOMSG reply=chunk", ck->xid, hdr, inv);
}

/* The handle a Call offers for remote invalidation: its rdma_inv_handle
 * under the working copy; under -01, which has none, one of the chunks
 * the Reply is for (Section 3.2 asks for "non-empty chunk lists")
 */
static u32 v2_offered_handle(const struct probe_v2 *v,
			     const struct rpcrdma_xchar_msghdr *ck)
{
	if (v->base->inv_handle)
		return ck->inv_handle;
	if (ck->reply && ck->nreply)
		return ck->reply_seg.handle;
	return ck->pos0 ? ck->read.handle : 0;
}

/* The listener's side of a NULL Call: answer with the padding echoed */
static int v2_answer_call(struct probe_v2 *v, const u8 *m, u32 len)
{
	u8 *rpc_out = v->chunk + PROBE_V2_SLOT;
	struct rpcrdma_xchar_msghdr ck;
	enum rpcrdma_xchar_status st;
	u32 rpc_len, pad, offer, hdr_inv;
	struct v2_xdr call, rep;
	const u8 *rpc;
	bool swi;
	int ret;

	st = rpcrdma_xchar_decode_msghdr(v->base, m, len, &ck);
	if (st)
		return v2_bad_xdr(v, v2_xid_of(m), "RDMA2_MSG", st);
	if (ck.proc == RPCRDMA_XCHAR_PROC_NOMSG &&
	    (!ck.pos0 || ck.read.length > PROBE_V2_SLOT))
		return v2_bad_xdr(v, ck.xid, "RDMA2_NOMSG",
				  RPCRDMA_XCHAR_BAD_XDR);
	ret = v2_call_payload(v, m, len, &ck, &rpc, &rpc_len);
	if (ret)
		return ret;
	v2_say("recv=%s role=%s xid=%u len=%u rpc=%u call=%s reply-chunk=%u inv=%u",
	       ck.proc == RPCRDMA_XCHAR_PROC_NOMSG ? "RDMA2_NOMSG" : "RDMA2_MSG",
	       v2_role(v), ck.xid, len, rpc_len, ck.pos0 ? "pos0" : "inline",
	       ck.reply && ck.nreply ? ck.reply_seg.length : 0, ck.inv_handle);

	v->nulls++;
	v->pos0 += ck.pos0;
	v2_init(&call, (u8 *)rpc, rpc_len, 0);
	if (v2_get(&call) != ck.xid || v2_get(&call) != 0 ||
	    rpc_len < V2_RPC_CALL)
		return v2_bad_xdr(v, ck.xid, "RPC-Call", RPCRDMA_XCHAR_BAD_XDR);
	pad = rpc_len - V2_RPC_CALL;

	v2_init(&rep, rpc_out, PROBE_V2_SLOT, 0);
	v2_put(&rep, ck.xid);
	v2_put(&rep, 1);		/* REPLY */
	v2_put(&rep, 0);		/* MSG_ACCEPTED */
	v2_put(&rep, 0);		/* verifier AUTH_NONE */
	v2_put(&rep, 0);
	v2_put(&rep, 0);		/* SUCCESS */
	memcpy(rpc_out + rep.pos, rpc + V2_RPC_CALL, pad);

	offer = v2_offered_handle(v, &ck);
	hdr_inv = rpcrdma_xchar_ep_reply_inv(&v->ep, offer, &swi);
	return v2_send_reply(v, &ck, rpc_out, rep.pos + pad, hdr_inv,
			     swi ? offer : 0);
}

/* RDMA_ERROR/ERR_VERS, whatever its rdma_vers: RFC 8166 Section 4.5
 * (and the Version Two drafts) copy it from the failing message, so a
 * Version One server answers a Version Two message with rdma_vers 2.
 * Return: 1 (stop) when @m is one, else 0.
 */
static int v2_on_err_vers(struct probe_v2 *v, const u8 *m, u32 len)
{
	struct rpcrdma_xchar_errhdr e;

	if (rpcrdma_xchar_decode_error(v->base, m, len, &e) ||
	    e.err != v->base->err_vers)
		return 0;
	v->err_low = e.arg[0];
	v->err_high = e.arg[1];
	v->err_vers = true;
	v2_say("recv=RDMA_ERROR role=%s xid=%u vers=%u len=%u err=ERR_VERS low=%u high=%u",
	       v2_role(v), e.xid, e.vers, len, v->err_low, v->err_high);
	return 1;
}

/* The peer lacks the extension (xcharext-03 Section 4): the state
 * machine drops what was pending, the exchange goes on with defaults
 */
static int v2_on_inval_option(struct probe_v2 *v,
			      const struct rpcrdma_xchar_errhdr *e, u32 len)
{
	int ret = rpcrdma_xchar_ep_recv_inval_option(&v->ep, e->xid);

	v->inval_recv++;
	v2_say("recv=RDMA2_ERROR role=%s xid=%u len=%u err=%s %s", v2_role(v),
	       e->xid, len, rpcrdma_xchar_err_name(v->base, e->err),
	       ret ? "ignored=not-ours" : "peer=no-properties");
	if (ret)
		return 0;
	v2_print_props("peer", &v->ep.peer);
	return v2_after_connprop(v);
}

/* An RDMA2_ERROR that answers none of this side's Calls */
static int v2_on_error(struct probe_v2 *v, const u8 *m, u32 len)
{
	struct rpcrdma_xchar_errhdr e;
	enum rpcrdma_xchar_status st;

	st = rpcrdma_xchar_decode_error(v->base, m, len, &e);
	if (st) {
		/* RFC 8166 4.5: an RDMA_ERROR that does not decode is dropped */
		v->violations++;
		v2_say("recv=RDMA2_ERROR role=%s xid=%u len=%u error=%s",
		       v2_role(v), v2_xid_of(m), len,
		       rpcrdma_xchar_status_name(st));
		return 0;
	}
	if (e.err == v->base->err_inval_option)
		return v2_on_inval_option(v, &e, len);
	v2_say("recv=RDMA2_ERROR role=%s xid=%u len=%u err=%s", v2_role(v),
	       e.xid, len, rpcrdma_xchar_err_name(v->base, e.err));
	return 0;
}

/* A message of another version: this listener speaks Version Two only */
static int v2_on_other_version(struct probe_v2 *v, const u8 *m, u32 len,
			       u32 vers, u32 proc)
{
	u32 xid = v2_xid_of(m);

	v2_say("recv=version-%u role=%s xid=%u proc=%u len=%u", vers,
	       v2_role(v), xid, proc, len);
	if (v->client)
		return 0;
	return v2_send_error(v, xid, vers, v->base->err_vers,
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
		if (!v->client && !v->connprop_sent && !opts.v2_no_props &&
		    proc != RPCRDMA_XCHAR_PROC_OPTIONAL) {
			int ret = v2_send_connprop(v);

			if (!ret)
				ret = v2_after_connprop(v);
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
			return v2_answer_call(v, m, len);
		break;
	case RPCRDMA_XCHAR_PROC_ERROR:
		return v2_on_error(v, m, len);
	}
	v2_say("recv=proc-%u role=%s len=%u error=unexpected", proc,
	       v2_role(v), len);
	return v2_send_error(v, v2_xid_of(m), RPCRDMA_XCHAR_VERSION,
			     v->base->err_inval_proc, 0, 0);
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
static int v2_next_reply(struct probe_v2 *v, u32 xid, struct probe_v2_rx *rx,
			 u32 *proc)
{
	const u8 *m;
	int ret;

	for (;;) {
		ret = probe_v2_next(v, opts.timeout_ms, rx);
		if (ret) {
			snprintf(v->why, sizeof(v->why),
				 "no Reply to NULL xid %u: %s", xid,
				 strerror(-ret));
			return ret;
		}
		v->recvs++;
		m = v->recv_buf[rx->slot];
		if (v2_is_reply(m, rx->len, xid, proc))
			return 0;
		ret = v2_dispatch(v, m, rx->len);
		if (!ret)
			ret = v2_recycle(v, rx->slot);
		if (ret)
			return ret;
	}
}

/* An RDMA2_ERROR in place of the Reply to NULL @xid; 1 for ERR_VERS,
 * which a client without the extension meets on its first Call
 */
static int v2_null_error(struct probe_v2 *v, u32 xid,
			 const struct probe_v2_rx *rx)
{
	struct rpcrdma_xchar_errhdr e = { };

	if (v2_on_err_vers(v, v->recv_buf[rx->slot], rx->len)) {
		v2_recycle(v, rx->slot);
		return 1;
	}
	rpcrdma_xchar_decode_error(v->base, v->recv_buf[rx->slot], rx->len,
				   &e);
	v2_say("recv=RDMA2_ERROR role=client xid=%u len=%u err=%s", xid,
	       rx->len, rpcrdma_xchar_err_name(v->base, e.err));
	snprintf(v->why, sizeof(v->why), "NULL xid %u: RDMA2_ERROR", xid);
	v2_recycle(v, rx->slot);
	return -EPROTO;
}

/* The Reply to NULL @xid, with @pad octets of its Call echoed */
static int v2_null_reply(struct probe_v2 *v, u32 xid, u32 pad)
{
	struct rpcrdma_xchar_msghdr ck;
	enum rpcrdma_xchar_status st;
	struct probe_v2_rx rx;
	const u8 *m, *rpc;
	u32 proc, rpc_len;
	bool ok;
	int ret;

	ret = v2_next_reply(v, xid, &rx, &proc);
	if (ret)
		return ret;
	if (proc == RPCRDMA_XCHAR_PROC_ERROR)
		return v2_null_error(v, xid, &rx);
	m = v->recv_buf[rx.slot];
	st = rpcrdma_xchar_decode_msghdr(v->base, m, rx.len, &ck);
	if (proc == RPCRDMA_XCHAR_PROC_NOMSG) {
		rpc = v->chunk + PROBE_V2_SLOT;
		rpc_len = ck.reply && ck.nreply ? ck.reply_seg.length : 0;
	} else {
		rpc = m + ck.hdrlen;
		rpc_len = st ? 0 : rx.len - ck.hdrlen;
	}
	ok = !st && rpc_len <= PROBE_V2_SLOT &&
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

/* Build the RPC NULL Call @xid with @pad octets of padding in v->chunk,
 * where a Read chunk can expose it
 */
static void v2_build_null(struct probe_v2 *v, u32 xid, u32 pad)
{
	struct v2_xdr x;
	u32 i;

	v2_init(&x, v->chunk, PROBE_V2_SLOT, 0);
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
}

/* The client's NULL Call of about @size octets and its Reply */
static int v2_null_call(struct probe_v2 *v, u32 size)
{
	u32 hdrlen = v->base->msg_hdrlen;
	u32 pad = size > hdrlen + V2_RPC_CALL ?
		  (size - hdrlen - V2_RPC_CALL + 3) & ~3U : 0;
	u32 xid = ++v->xid, rpc_len = V2_RPC_CALL + pad, max_reply;
	struct rpcrdma_xchar_msghdr ck = {
		.xid = xid, .credit = V2_CREDITS,
		.proc = RPCRDMA_XCHAR_PROC_MSG, .dir = RPCRDMA_XCHAR_CALL,
	};
	int len, ret;

	if (rpc_len > PROBE_V2_SLOT - 128) {
		snprintf(v->why, sizeof(v->why), "--null %u: too large", size);
		return -EINVAL;
	}
	v2_build_null(v, xid, pad);
	max_reply = hdrlen + V2_RPC_REPLY + pad;
	if (rpcrdma_xchar_ep_call_needs_reply_chunk(&v->ep, max_reply)) {
		ck.reply = true;
		ck.nreply = 1;
		ck.reply_seg.handle = v->chunk_mr->rkey;
		ck.reply_seg.length = V2_RPC_REPLY + pad;
		ck.reply_seg.offset = (uintptr_t)(v->chunk + PROBE_V2_SLOT);
		hdrlen += V2_HDR_REPLY_CHUNK;
	}
	if (rpcrdma_xchar_ep_call_needs_pos0(&v->ep, hdrlen + rpc_len)) {
		ck.proc = RPCRDMA_XCHAR_PROC_NOMSG;
		ck.nreads = 1;
		ck.pos0 = true;
		ck.read.handle = v->chunk_mr->rkey;
		ck.read.length = rpc_len;
		ck.read.offset = (uintptr_t)v->chunk;
	}
	/* No remotely invalidatable handle: rdma_inv_handle stays 0 */
	len = rpcrdma_xchar_encode_msghdr(v->base, v->send_buf, PROBE_V2_SLOT,
					  &ck);
	if (len < 0)
		return len;
	if (!ck.pos0) {
		memcpy(v->send_buf + len, v->chunk, rpc_len);
		len += rpc_len;
	}
	ret = v2_send(v, ck.pos0 ? "RDMA2_NOMSG call=pos0" :
		      "RDMA2_MSG call=inline", xid, len, 0);
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
	v2_say("sent role=%s connprop=%u reqprop=%u resprop=%u updprop=%u inval-option=%u",
	       v2_role(v), s[1], s[2], s[3], s[4], v->inval_sent);
	v2_say("received role=%s connprop=%u reqprop=%u resprop=%u updprop=%u inval-option=%u",
	       v2_role(v), r[1], r[2], r[3], r[4], v->inval_recv);
	v2_say("nulls role=%s calls=%u pos0=%u reply-chunks=%u echo-ok=%u echo-bad=%u",
	       v2_role(v), v->nulls, v->pos0, v->reply_chunks, v->echo_ok,
	       v->echo_bad);
	v2_say("final role=%s ignored=%u own-rbsiz=%u peer-rbsiz=%u limit=%u%s%s",
	       v2_role(v), v->ep.ignored, v->ep.local.rbsiz, v->ep.peer.rbsiz,
	       rpcrdma_xchar_ep_send_limit(&v->ep), v->why[0] ? " why=" : "",
	       v->why);
}

/* A Version One server answered ERR_VERS */
static enum probe_exit v2_not_v2(const struct probe_v2 *v)
{
	v2_summary(v, "not-v2");
	return PROBE_NOT_V2;
}

/* The client's run on an established connection */
static enum probe_exit v2_client_run(struct probe_v2 *v)
{
	unsigned int i, pings;
	int ret;

	ret = opts.v2_no_props ? 0 : v2_send_connprop(v);
	while (!ret && v->connprop_sent && !v->ep.peer_connprop &&
	       !v->ep.peer_lacks && !v->err_vers)
		ret = v2_step(v, opts.timeout_ms);
	if (ret == 1 || v->err_vers)
		return v2_not_v2(v);
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
	if (ret == 1 || v->err_vers)
		return v2_not_v2(v);
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
	struct probe_v2 v = {
		.client = true,
		.base = rpcrdma_xchar_base_get(opts.v2_base),
	};
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
	v2_say("connected role=client peer=%s:%s base=%s props=%s", opts.host,
	       opts.port, v2_base_name(&v), opts.v2_no_props ? "off" : "on");
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
		struct probe_v2 v = {
			.client = false,
			.base = rpcrdma_xchar_base_get(opts.v2_base),
		};

		if (rpcrdma_xchar_ep_init(&v.ep, &opts.v2_lim)) {
			probe_err("--rbsiz/--rbsiz-max: not a valid Receive Buffer Size");
			code = PROBE_USAGE;
			break;
		}
		code = probe_v2_accept(&v, opts.wait_s ? opts.wait_s * 1000 :
						       -1);
		if (code == PROBE_OK) {
			v2_say("connected role=listener num=%lu base=%s props=%s",
			       n + 1, v2_base_name(&v),
			       opts.v2_no_props ? "off" : "on");
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
