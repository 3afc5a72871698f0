// SPDX-License-Identifier: GPL-2.0
/*
 * RPC-over-RDMA Version Two transport properties: one endpoint's
 * property state (draft-dnoveck-nfsv4-rpcrdma-xcharext-03).
 *
 * The draft says what a peer may assume and when; it leaves the order
 * of events to implementations. This file fixes that order in one
 * place, so the probe's endpoint and the tests agree on it:
 *
 *  - a peer's properties are the defaults of Table 1 until its
 *    ROPT_CONNPROP arrives; those it leaves out may not change
 *    afterwards, nor be asked to; those it names in opticonnpr_nochg
 *    are only "not expected to change" (Section 4.1);
 *  - this endpoint's Receive Buffer Size is raised only once every
 *    receive posted at the old size is gone, and only then is the peer
 *    told; it is lowered only when the peer asks (Section 3.1);
 *  - while this endpoint's request to lower the peer's Receive Buffer
 *    Size is pending, it sends at the lower size (Section 3.1);
 *  - a ROPT_RESPROP is matched to the one outstanding ROPT_REQPROP by
 *    rdma_xid, and a property its subsets do not place exactly once
 *    counts as rejected (Section 4.3);
 *  - a peer that answers this endpoint's CONNPROP or REQPROP with
 *    RDMA2_ERR_INVAL_OPTION lacks the extension (Section 4): what was
 *    pending is dropped, the defaults stay in force for what it never
 *    said, and no property message goes to it again.
 */

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/sunrpc/rpcrdma_xchar.h>
#include <linux/sunrpc/rpcrdma_xchar_sm.h>

#define XCHAR_ALL_PROPS	(BIT(RPCRDMA_XCHAR_PROP_RBSIZ) | \
			 BIT(RPCRDMA_XCHAR_PROP_REQREMINV) | \
			 BIT(RPCRDMA_XCHAR_PROP_BRS))

static u32 xchar_get(const struct rpcrdma_xchar_props *val, u32 which)
{
	switch (which) {
	case RPCRDMA_XCHAR_PROP_RBSIZ:
		return val->rbsiz;
	case RPCRDMA_XCHAR_PROP_REQREMINV:
		return val->reqreminv;
	}
	return val->brs;
}

static void xchar_put(struct rpcrdma_xchar_props *val, u32 which, u32 v)
{
	switch (which) {
	case RPCRDMA_XCHAR_PROP_RBSIZ:
		val->rbsiz = v;
		break;
	case RPCRDMA_XCHAR_PROP_REQREMINV:
		val->reqreminv = v;
		break;
	case RPCRDMA_XCHAR_PROP_BRS:
		val->brs = v;
		break;
	}
}

/**
 * rpcrdma_xchar_ep_init - Set up an endpoint's property state
 * @ep: state to initialise
 * @lim: what the endpoint can do
 *
 * Both sides start from the defaults of Table 1. A Receive Buffer
 * Size below the default is refused: the peer assumes 4096 octets
 * until it learns otherwise, and Section 3.1 allows a smaller size
 * only at the peer's request.
 *
 * Return: 0, or -EINVAL for limits the draft cannot express.
 */
int rpcrdma_xchar_ep_init(struct rpcrdma_xchar_ep *ep,
			  const struct rpcrdma_xchar_limits *lim)
{
	if (lim->rbsiz < RPCRDMA_XCHAR_DEFAULT_RBSIZ ||
	    lim->rbsiz > lim->rbsiz_max ||
	    lim->brs > RPCRDMA_XCHAR_BKREQSUP_GENL ||
	    (lim->fixed & ~XCHAR_ALL_PROPS))
		return -EINVAL;
	memset(ep, 0, sizeof(*ep));
	ep->lim = *lim;
	ep->local.rbsiz = lim->rbsiz;
	ep->local.reqreminv = lim->reqreminv;
	ep->local.brs = lim->brs;
	rpcrdma_xchar_defaults(&ep->peer);
	return 0;
}

/**
 * rpcrdma_xchar_ep_connprop - Encode this endpoint's ROPT_CONNPROP
 * @ep: endpoint
 * @xid: the rdma_xid it goes out with
 * @buf: output: rdma_optinfo
 * @len: room in @buf
 *
 * All three basic properties, in propid order, so that position N
 * holds propid N + 1; opticonnpr_nochg names the fixed ones. @xid is
 * kept, to recognise the peer's RDMA2_ERR_INVAL_OPTION to it.
 *
 * Return: octets written; -EALREADY when sent before; -EOPNOTSUPP when
 * the peer lacks the extension; or a negative errno from the encoder.
 */
int rpcrdma_xchar_ep_connprop(struct rpcrdma_xchar_ep *ep, u32 xid, void *buf,
			      size_t len)
{
	struct rpcrdma_xchar_prop start[RPCRDMA_XCHAR_PROP_MAX];
	struct rpcrdma_xchar_mask nochg = { };
	u32 which;
	int ret;

	if (ep->peer_lacks)
		return -EOPNOTSUPP;
	if (ep->connprop_sent)
		return -EALREADY;

	for (which = 1; which <= RPCRDMA_XCHAR_PROP_MAX; which++) {
		start[which - 1].which = which;
		start[which - 1].dflt = false;
		start[which - 1].value = xchar_get(&ep->local, which);
		if (ep->lim.fixed & BIT(which))
			rpcrdma_xchar_mask_set(&nochg, which - 1);
	}
	ret = rpcrdma_xchar_encode_connprop(buf, len, start,
					    RPCRDMA_XCHAR_PROP_MAX, &nochg);
	if (ret < 0)
		return ret;
	ep->connprop_sent = true;
	ep->connprop_xid = xid;
	return ret;
}

/* An answer to this endpoint's CONNPROP, or to its pending REQPROP */
static bool xchar_is_ours(const struct rpcrdma_xchar_ep *ep, u32 xid)
{
	return (ep->connprop_sent && xid == ep->connprop_xid) ||
	       ((ep->req_pending || ep->peer_lacks) && xid == ep->req_xid &&
		ep->nreq);
}

/**
 * rpcrdma_xchar_ep_recv_inval_option - The peer refused a property message
 * @ep: endpoint
 * @xid: rdma_xid of its RDMA2_ERROR with RDMA2_ERR_INVAL_OPTION
 *
 * Section 4: a peer without the extension answers every ROPT message
 * so, "as if every request were rejected". A refused CONNPROP means the
 * peer took in none of this endpoint's properties, and a peer that
 * does not take REQPROP would leave any later request unanswered, so
 * either ends the exchange: the pending request counts as rejected,
 * a raise under way is abandoned (it was never announced), the peer's
 * properties stay as they are (Table 1 defaults, unless its CONNPROP
 * came) and nothing of the extension is sent to it again. A second
 * refusal, of a request that crossed the first, changes nothing.
 *
 * Return: 0, or -ENOENT when @xid is none of this endpoint's property
 * messages (the error is then ignored and counted).
 */
int rpcrdma_xchar_ep_recv_inval_option(struct rpcrdma_xchar_ep *ep, u32 xid)
{
	if (!xchar_is_ours(ep, xid)) {
		ep->ignored++;
		return -ENOENT;
	}
	ep->peer_lacks = true;
	ep->req_pending = false;
	ep->req_rbsiz = 0;
	ep->raise_to = 0;
	ep->raise_answer = false;
	return 0;
}

/**
 * rpcrdma_xchar_ep_recv_connprop - Take in the peer's ROPT_CONNPROP
 * @ep: endpoint
 * @msg: decoded optinfo_connprop
 *
 * Section 4.1: properties left out keep their default and "are not
 * allowed to change"; those in opticonnpr_nochg are "not expected to
 * change", which is advice, not a rule. A second CONNPROP on the
 * connection is ignored (the draft is silent; applying it would undo
 * what the first one fixed).
 *
 * Return: 0, or -EALREADY for a second CONNPROP.
 */
int rpcrdma_xchar_ep_recv_connprop(struct rpcrdma_xchar_ep *ep,
				   const struct rpcrdma_xchar_connprop *msg)
{
	const struct rpcrdma_xchar_propset *set = &msg->start;
	u32 which;

	if (ep->peer_connprop) {
		ep->ignored++;
		return -EALREADY;
	}
	ep->peer_connprop = true;
	ep->peer_absent = 0;
	ep->peer_nochg = 0;
	for (which = 1; which <= RPCRDMA_XCHAR_PROP_MAX; which++) {
		if (!rpcrdma_xchar_propset_has(set, which))
			ep->peer_absent |= BIT(which);
		else if (rpcrdma_xchar_subset_test(&msg->nochg,
						   set->pos[which]))
			ep->peer_nochg |= BIT(which);
		xchar_put(&ep->peer, which, xchar_get(&set->val, which));
	}
	return 0;
}

/**
 * rpcrdma_xchar_ep_recv_updprop - Take in the peer's ROPT_UPDPROP
 * @ep: endpoint
 * @msg: decoded optinfo_updprop
 *
 * Each property takes its new value, one in opticonnpr_nochg too: the
 * peer has changed it after all, and a sender that kept the old value
 * could break it. A propval for a property its CONNPROP left out is
 * ignored and counted (Section 4.1). An UPDPROP before the peer's
 * CONNPROP is ignored as a whole: until then it is unknown which
 * properties may change.
 *
 * Return: 0, or -EPROTO when no CONNPROP came first.
 */
int rpcrdma_xchar_ep_recv_updprop(struct rpcrdma_xchar_ep *ep,
				  const struct rpcrdma_xchar_updprop *msg)
{
	u32 which;

	if (!ep->peer_connprop) {
		ep->ignored++;
		return -EPROTO;
	}
	for (which = 1; which <= RPCRDMA_XCHAR_PROP_MAX; which++) {
		if (!rpcrdma_xchar_propset_has(&msg->now, which))
			continue;
		if (ep->peer_absent & BIT(which)) {
			ep->ignored++;
			continue;
		}
		xchar_put(&ep->peer, which, xchar_get(&msg->now.val, which));
	}
	return 0;
}

/* The value a requested propval stands for */
static u32 xchar_wanted(const struct rpcrdma_xchar_prop *p)
{
	struct rpcrdma_xchar_props val;

	if (!p->dflt)
		return p->value;
	rpcrdma_xchar_defaults(&val);
	return xchar_get(&val, p->which);
}

static int xchar_check_request(const struct rpcrdma_xchar_ep *ep,
			       const struct rpcrdma_xchar_prop *want, u32 n)
{
	u32 seen = 0, i, which;

	if (!n || n > RPCRDMA_XCHAR_PROP_MAX || !want)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		which = want[i].which;
		if (which < 1 || which > RPCRDMA_XCHAR_PROP_MAX ||
		    (seen & BIT(which)))
			return -EINVAL;
		seen |= BIT(which);
		if (which == RPCRDMA_XCHAR_PROP_RBSIZ &&
		    xchar_wanted(&want[i]) < RPCRDMA_XCHAR_RBSIZ_MIN)
			return -EINVAL;
		if (ep->peer_absent & BIT(which))
			return -EPERM;
	}
	return 0;
}

/**
 * rpcrdma_xchar_ep_request - Record this endpoint's ROPT_REQPROP
 * @ep: endpoint
 * @xid: the rdma_xid the request goes out with
 * @want: optreqpr_want, which the caller then encodes
 * @n: entries of @want
 *
 * One request at a time, for basic properties only, and a Receive
 * Buffer Size no smaller than %RPCRDMA_XCHAR_RBSIZ_MIN. Section 3 lets
 * a partner "always request a change": before the peer's CONNPROP
 * (every property has its default until then) and for a property in
 * its opticonnpr_nochg, which it may reject. Only a property its
 * CONNPROP left out is refused here, as Section 4.1 says "the peer
 * should not request changes in such properties". A request to lower
 * the peer's Receive Buffer Size lowers the send limit at once (3.1).
 *
 * Return: 0; -EOPNOTSUPP when the peer lacks the extension; -EBUSY
 * while a request is pending; -EPERM for a property its CONNPROP left
 * out; -EINVAL otherwise.
 */
int rpcrdma_xchar_ep_request(struct rpcrdma_xchar_ep *ep, u32 xid,
			     const struct rpcrdma_xchar_prop *want, u32 n)
{
	u32 i, size;
	int ret;

	if (ep->peer_lacks)
		return -EOPNOTSUPP;
	if (ep->req_pending)
		return -EBUSY;
	ret = xchar_check_request(ep, want, n);
	if (ret)
		return ret;
	ep->req_pending = true;
	ep->req_xid = xid;
	ep->nreq = n;
	ep->req_rbsiz = 0;
	for (i = 0; i < n; i++) {
		ep->req[i] = want[i];
		if (want[i].which != RPCRDMA_XCHAR_PROP_RBSIZ)
			continue;
		size = xchar_wanted(&want[i]);
		if (size < ep->peer.rbsiz)
			ep->req_rbsiz = size;
	}
	return 0;
}

/* How the peer disposed of request position @pos (Section 4.3):
 * exactly one of done, rejected or a new value in optrespr_other,
 * anything else counts as rejected. Returns true with @value set when
 * the property changed.
 */
static bool xchar_disposition(const struct rpcrdma_xchar_resprop *msg,
			      u32 pos, const struct rpcrdma_xchar_prop *asked,
			      u32 *value)
{
	bool done = rpcrdma_xchar_subset_test(&msg->done, pos);
	bool rej = rpcrdma_xchar_subset_test(&msg->rej, pos);
	bool other = rpcrdma_xchar_propset_has(&msg->other, asked->which);

	if (done + rej + other != 1 || rej)
		return false;
	*value = done ? xchar_wanted(asked) :
			xchar_get(&msg->other.val, asked->which);
	return true;
}

/**
 * rpcrdma_xchar_ep_recv_resprop - Take in the answer to this endpoint's request
 * @ep: endpoint
 * @xid: rdma_xid of the ROPT_RESPROP
 * @msg: decoded optinfo_resprop
 * @accepted: output: BIT(propid) of the properties that changed
 *
 * Properties in optrespr_other that were not asked for are ignored
 * (Section 4.3 "MUST ignore") and counted. Whatever the answer, the
 * request is no longer pending, so the send limit is the peer's
 * Receive Buffer Size again.
 *
 * Return: 0, or -ENOENT when no request with @xid is pending.
 */
int rpcrdma_xchar_ep_recv_resprop(struct rpcrdma_xchar_ep *ep, u32 xid,
				  const struct rpcrdma_xchar_resprop *msg,
				  u32 *accepted)
{
	u32 asked = 0, i, which, value;

	*accepted = 0;
	if (!ep->req_pending || xid != ep->req_xid) {
		ep->ignored++;
		return -ENOENT;
	}
	for (i = 0; i < ep->nreq; i++) {
		which = ep->req[i].which;
		asked |= BIT(which);
		if (!xchar_disposition(msg, i, &ep->req[i], &value))
			continue;
		xchar_put(&ep->peer, which, value);
		*accepted |= BIT(which);
	}
	for (which = 1; which <= RPCRDMA_XCHAR_PROP_MAX; which++)
		if (rpcrdma_xchar_propset_has(&msg->other, which) &&
		    !(asked & BIT(which)))
			ep->ignored++;
	ep->req_pending = false;
	ep->req_rbsiz = 0;
	return 0;
}

static void xchar_answer_other(struct rpcrdma_xchar_answer *ans, u32 which,
			       u32 value)
{
	ans->other[ans->nother].which = which;
	ans->other[ans->nother].dflt = false;
	ans->other[ans->nother].value = value;
	ans->nother++;
}

/* A request to change this endpoint's Receive Buffer Size to @size.
 * Lowering takes effect at once: the peer has sent at no more than
 * @size since it asked. Raising waits for the old receives (3.1), so
 * the answer is deferred; the return value says so.
 */
static bool xchar_answer_rbsiz(struct rpcrdma_xchar_ep *ep, u32 pos, u32 size,
			       struct rpcrdma_xchar_answer *ans)
{
	u32 cur = ep->local.rbsiz, got;

	if (size < cur) {
		got = max(size, RPCRDMA_XCHAR_RBSIZ_MIN);
		ep->raise_to = 0;
	} else {
		got = min(size, ep->lim.rbsiz_max);
	}
	if (got == cur) {
		rpcrdma_xchar_mask_set(size == cur ? &ans->done : &ans->rej,
				       pos);
		return false;
	}
	if (got == size)
		rpcrdma_xchar_mask_set(&ans->done, pos);
	else
		xchar_answer_other(ans, RPCRDMA_XCHAR_PROP_RBSIZ, got);
	if (got < cur) {
		ep->local.rbsiz = got;
		return false;
	}
	ep->raise_to = got;
	return true;
}

/* Requester Remote Invalidation and Backward Request Support: this
 * endpoint takes any value up to what it can do.
 */
static void xchar_answer_flag(struct rpcrdma_xchar_ep *ep, u32 which,
			      u32 pos, u32 value,
			      struct rpcrdma_xchar_answer *ans)
{
	u32 can = which == RPCRDMA_XCHAR_PROP_REQREMINV ? ep->lim.reqreminv :
							  ep->lim.brs;

	if (value > can) {
		rpcrdma_xchar_mask_set(&ans->rej, pos);
		return;
	}
	xchar_put(&ep->local, which, value);
	rpcrdma_xchar_mask_set(&ans->done, pos);
}

/**
 * rpcrdma_xchar_ep_recv_reqprop - Decide on the peer's ROPT_REQPROP
 * @ep: endpoint
 * @xid: its rdma_xid, which the answer carries
 * @msg: decoded optinfo_reqprop
 * @ans: output: the ROPT_RESPROP to send now, unless deferred
 *
 * Unknown propids and fixed properties are rejected. A smaller
 * Receive Buffer Size is granted down to %RPCRDMA_XCHAR_RBSIZ_MIN (a
 * partial grant goes into optrespr_other), a larger one up to the
 * largest this endpoint can post; a larger one is answered only when
 * every receive of the old size is gone, see
 * rpcrdma_xchar_ep_receives_posted(). While such an answer is
 * outstanding, further requests are rejected as a whole. A peer that
 * refused this endpoint's property messages gets no answer at all.
 *
 * Return: 0 when @ans is to be sent now, 1 when it is deferred, or
 * -EOPNOTSUPP (counted as ignored) when the peer lacks the extension.
 */
int rpcrdma_xchar_ep_recv_reqprop(struct rpcrdma_xchar_ep *ep, u32 xid,
				  const struct rpcrdma_xchar_reqprop *msg,
				  struct rpcrdma_xchar_answer *ans)
{
	const struct rpcrdma_xchar_propset *set = &msg->want;
	u32 n = min(set->count, RPCRDMA_XCHAR_SET_MAX);
	bool busy = ep->raise_to && ep->raise_answer;
	bool deferred = false;
	u32 i, which, pos;

	memset(ans, 0, sizeof(*ans));
	ans->xid = xid;
	if (ep->peer_lacks) {
		ep->ignored++;
		return -EOPNOTSUPP;
	}
	for (which = 1; which <= RPCRDMA_XCHAR_PROP_MAX; which++) {
		if (!rpcrdma_xchar_propset_has(set, which))
			continue;
		pos = set->pos[which];
		if (busy || (ep->lim.fixed & BIT(which)))
			continue;
		if (which == RPCRDMA_XCHAR_PROP_RBSIZ)
			deferred = xchar_answer_rbsiz(ep, pos, set->val.rbsiz,
						      ans);
		else
			xchar_answer_flag(ep, which, pos,
					  xchar_get(&set->val, which), ans);
	}
	/* Whatever was not granted, in part or whole, is rejected */
	for (i = 0; i < n; i++)
		if (!rpcrdma_xchar_mask_test(&ans->done, i))
			rpcrdma_xchar_mask_set(&ans->rej, i);
	for (i = 0; i < ans->nother; i++) {
		pos = set->pos[ans->other[i].which];
		ans->rej.w[pos / 32] &= ~BIT(pos % 32);
	}
	if (!deferred)
		return 0;
	ep->raise_answer = true;
	ep->deferred = *ans;
	return 1;
}

/**
 * rpcrdma_xchar_ep_raise_rbsiz - Raise this endpoint's Receive Buffer Size
 * @ep: endpoint
 * @size: the new size
 *
 * Unsolicited: once the old receives are gone the peer is told with an
 * ROPT_UPDPROP (rpcrdma_xchar_ep_receives_posted()). Lowering without
 * the peer's request is not allowed (Section 3.1).
 *
 * Return: 0; -EOPNOTSUPP when the peer lacks the extension, so could
 * never be told; -EBUSY while a raise is under way; -EPERM to lower,
 * or when the size was announced as fixed; -EINVAL for no change or
 * more than this endpoint can post.
 */
int rpcrdma_xchar_ep_raise_rbsiz(struct rpcrdma_xchar_ep *ep, u32 size)
{
	if (ep->peer_lacks)
		return -EOPNOTSUPP;
	if (ep->raise_to)
		return -EBUSY;
	if (size < ep->local.rbsiz ||
	    (ep->lim.fixed & BIT(RPCRDMA_XCHAR_PROP_RBSIZ)))
		return -EPERM;
	if (size == ep->local.rbsiz || size > ep->lim.rbsiz_max)
		return -EINVAL;
	ep->raise_to = size;
	ep->raise_answer = false;
	return 0;
}

/**
 * rpcrdma_xchar_ep_post_size - Size of the next receive buffer to post
 * @ep: endpoint
 *
 * Return: the size being raised to, if any, else the current size.
 */
u32 rpcrdma_xchar_ep_post_size(const struct rpcrdma_xchar_ep *ep)
{
	return ep->raise_to ? ep->raise_to : ep->local.rbsiz;
}

/**
 * rpcrdma_xchar_ep_receives_posted - Finish a raise once old receives are gone
 * @ep: endpoint
 * @smallest: the smallest receive buffer now posted, octets
 * @ans: output: what to send when the raise completes
 *
 * Section 3.1: "the partner should not be informed of the change until
 * all pending receives using the older value have been eliminated".
 * The caller reports the smallest receive it has posted each time it
 * reposts; when that reaches the new size, the raise is in force.
 *
 * Return: 0 when nothing is to be sent; %RPCRDMA_XCHAR_ROPT_RESPROP
 * (the deferred answer) or %RPCRDMA_XCHAR_ROPT_UPDPROP (@ans->other
 * holds the new size) when @ans is to be sent now.
 */
int rpcrdma_xchar_ep_receives_posted(struct rpcrdma_xchar_ep *ep,
				     u32 smallest,
				     struct rpcrdma_xchar_answer *ans)
{
	if (!ep->raise_to || smallest < ep->raise_to)
		return 0;
	ep->local.rbsiz = ep->raise_to;
	ep->raise_to = 0;
	if (ep->raise_answer) {
		ep->raise_answer = false;
		*ans = ep->deferred;
		return RPCRDMA_XCHAR_ROPT_RESPROP;
	}
	memset(ans, 0, sizeof(*ans));
	xchar_answer_other(ans, RPCRDMA_XCHAR_PROP_RBSIZ, ep->local.rbsiz);
	return RPCRDMA_XCHAR_ROPT_UPDPROP;
}

/**
 * rpcrdma_xchar_ep_send_limit - Largest message this endpoint may Send
 * @ep: endpoint
 *
 * Return: the peer's Receive Buffer Size, or the size this endpoint
 * asked it to lower to while that request is pending.
 */
u32 rpcrdma_xchar_ep_send_limit(const struct rpcrdma_xchar_ep *ep)
{
	if (ep->req_rbsiz && ep->req_rbsiz < ep->peer.rbsiz)
		return ep->req_rbsiz;
	return ep->peer.rbsiz;
}

/**
 * rpcrdma_xchar_ep_call_needs_pos0 - Must a Call go by Position-Zero chunk
 * @ep: endpoint, as requester
 * @call_len: the whole Call message, transport header included
 *
 * Return: true when it does not fit the peer's receive buffers.
 */
bool rpcrdma_xchar_ep_call_needs_pos0(const struct rpcrdma_xchar_ep *ep,
				      u32 call_len)
{
	return call_len > rpcrdma_xchar_ep_send_limit(ep);
}

/**
 * rpcrdma_xchar_ep_call_needs_reply_chunk - Must a Call offer a Reply chunk
 * @ep: endpoint, as requester
 * @max_reply_len: the largest Reply possible, transport header included
 *
 * The responder judges by the Receive Buffer Size it believes this
 * endpoint has. A peer that sent no CONNPROP may not have taken in
 * ours either, and one that refused a property message did not, so it
 * is then assumed to believe the default.
 *
 * Return: true when such a Reply might not be sent inline.
 */
bool rpcrdma_xchar_ep_call_needs_reply_chunk(const struct rpcrdma_xchar_ep *ep,
					     u32 max_reply_len)
{
	u32 limit = ep->local.rbsiz;

	if (!ep->peer_connprop || ep->peer_lacks)
		limit = min(limit, RPCRDMA_XCHAR_DEFAULT_RBSIZ);
	return max_reply_len > limit;
}

/**
 * rpcrdma_xchar_ep_reply_needs_chunk - Must a Reply use the Reply chunk
 * @ep: endpoint, as responder
 * @reply_len: the Reply message, transport header included
 *
 * Return: true when it does not fit the peer's receive buffers.
 */
bool rpcrdma_xchar_ep_reply_needs_chunk(const struct rpcrdma_xchar_ep *ep,
					u32 reply_len)
{
	return reply_len > rpcrdma_xchar_ep_send_limit(ep);
}

/**
 * rpcrdma_xchar_ep_may_send_inv - May a Reply go by Send With Invalidate
 * @ep: endpoint, as responder
 * @inv_handle: rdma_inv_handle of the Call answered
 *
 * Section 3.2: only when the requester set Requester Remote
 * Invalidation, and only for a handle it offers, which @inv_handle
 * names (0: none).
 *
 * Return: true when Send With Invalidate is allowed.
 */
bool rpcrdma_xchar_ep_may_send_inv(const struct rpcrdma_xchar_ep *ep,
				   u32 inv_handle)
{
	return ep->peer.reqreminv && inv_handle;
}

/**
 * rpcrdma_xchar_ep_reply_inv - rdma_inv_handle of a Reply, and how to send it
 * @ep: endpoint, as responder
 * @call_inv: the handle the Call offers: its rdma_inv_handle under the
 *	working copy; under -01, which has no such field, one of its
 *	chunks' handles; 0 for none
 * @swi: output: send the Reply by Send With Invalidate of @call_inv
 *
 * The working copy's Remote Invalidation section: "the responder
 * copies the value of the rdma_inv_handle field set by the requester"
 * into the Reply. That holds when Send With Invalidate is not allowed
 * too: the requester learns from its receive completion, not from the
 * header, whether the handle is gone. Whether it is allowed is Section
 * 3.2's rule, rpcrdma_xchar_ep_may_send_inv().
 *
 * Return: the value for the Reply's rdma_inv_handle.
 */
u32 rpcrdma_xchar_ep_reply_inv(const struct rpcrdma_xchar_ep *ep,
			       u32 call_inv, bool *swi)
{
	*swi = rpcrdma_xchar_ep_may_send_inv(ep, call_inv);
	return call_inv;
}

/**
 * rpcrdma_xchar_ep_may_send_backward - May a backward-direction message go
 * @ep: endpoint, as the server
 * @chunks: the message would carry chunks (explicit RDMA)
 *
 * Section 3.3: nothing with BKREQSUP_NONE, inline only with
 * BKREQSUP_INLINE (the default), anything with BKREQSUP_GENL.
 *
 * Return: true when the client's property allows it.
 */
bool rpcrdma_xchar_ep_may_send_backward(const struct rpcrdma_xchar_ep *ep,
					bool chunks)
{
	switch (ep->peer.brs) {
	case RPCRDMA_XCHAR_BKREQSUP_GENL:
		return true;
	case RPCRDMA_XCHAR_BKREQSUP_INLINE:
		return !chunks;
	default:
		return false;
	}
}
