/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RPC-over-RDMA Version Two transport properties: one endpoint's
 * property state (draft-dnoveck-nfsv4-rpcrdma-xcharext-03).
 *
 * What this endpoint has told its peer, what it knows of the peer,
 * the one property request it may have outstanding, a raise of its
 * own Receive Buffer Size waiting for the old receives to go, whether
 * the peer lacks the extension, and what all that allows a sender to
 * do. Pure C on top of the codec
 * (rpcrdma_xchar.h): the caller moves the messages and the buffers.
 */
#ifndef _LINUX_SUNRPC_RPCRDMA_XCHAR_SM_H
#define _LINUX_SUNRPC_RPCRDMA_XCHAR_SM_H

#include <linux/types.h>
#include <linux/sunrpc/rpcrdma_xchar.h>

/* The smallest Receive Buffer Size this code posts or agrees to: the
 * Version One default inline threshold, which the first message of a
 * connection (ROPT_CONNPROP) must fit anyway.
 */
#define RPCRDMA_XCHAR_RBSIZ_MIN		1024U

/**
 * struct rpcrdma_xchar_limits - what this endpoint can do
 * @rbsiz: Receive Buffer Size to start with; at least the default
 *	(4096), since a peer assumes that until it hears otherwise
 * @rbsiz_max: the largest receive buffers it can post
 * @reqreminv: it accepts Send With Invalidate for its requests
 * @brs: its Backward Request Support
 * @fixed: BIT(propid) of the properties it promises not to change;
 *	they are sent as opticonnpr_nochg
 */
struct rpcrdma_xchar_limits {
	u32				rbsiz;
	u32				rbsiz_max;
	bool				reqreminv;
	enum rpcrdma_xchar_bkreqsup	brs;
	u32				fixed;
};

/**
 * struct rpcrdma_xchar_answer - an ROPT_RESPROP or ROPT_UPDPROP to send
 * @xid: rdma_xid: that of the request answered (RESPROP)
 * @done: optrespr_done
 * @rej: optrespr_rej
 * @other: optrespr_other, or optupdpr_now for an UPDPROP
 * @nother: entries of @other
 */
struct rpcrdma_xchar_answer {
	u32				xid;
	struct rpcrdma_xchar_mask	done;
	struct rpcrdma_xchar_mask	rej;
	struct rpcrdma_xchar_prop	other[RPCRDMA_XCHAR_PROP_MAX];
	u32				nother;
};

/**
 * struct rpcrdma_xchar_ep - one endpoint's property state
 * @lim: its limits
 * @local: its properties as its peer may rely on them
 * @connprop_sent: its ROPT_CONNPROP went out
 * @connprop_xid: with that rdma_xid
 * @raise_to: a Receive Buffer Size being raised to, 0 when none
 * @raise_answer: the raise answers a request (a RESPROP is deferred
 *	in @deferred) rather than being this endpoint's own (UPDPROP)
 * @deferred: that RESPROP
 * @peer: the peer's properties as this endpoint knows them: defaults
 *	until its ROPT_CONNPROP arrives
 * @peer_connprop: that ROPT_CONNPROP arrived
 * @peer_absent: BIT(propid) of the properties its CONNPROP left out,
 *	which keep their default and may not change (Section 4.1)
 * @peer_nochg: BIT(propid) of those in its opticonnpr_nochg, which it
 *	does not expect to change
 * @req_pending: this endpoint's ROPT_REQPROP awaits its RESPROP
 * @req_xid: that request's rdma_xid
 * @req: what it asked for, in order
 * @nreq: entries of @req
 * @req_rbsiz: while a request to lower the peer's Receive Buffer Size
 *	is pending, the size asked for (the send limit); otherwise 0
 * @peer_lacks: the peer answered this endpoint's CONNPROP or REQPROP
 *	with RDMA2_ERR_INVAL_OPTION; no property message goes to it again
 * @ignored: messages or propvals received and not applied, because
 *	the draft does not allow them (a second CONNPROP, a change to a
 *	property the peer said would not change, a RESPROP to nothing)
 */
struct rpcrdma_xchar_ep {
	struct rpcrdma_xchar_limits	lim;
	struct rpcrdma_xchar_props	local;
	bool				connprop_sent;
	u32				connprop_xid;
	u32				raise_to;
	bool				raise_answer;
	struct rpcrdma_xchar_answer	deferred;

	struct rpcrdma_xchar_props	peer;
	bool				peer_connprop;
	u32				peer_absent;
	u32				peer_nochg;

	bool				req_pending;
	u32				req_xid;
	struct rpcrdma_xchar_prop	req[RPCRDMA_XCHAR_PROP_MAX];
	u32				nreq;
	u32				req_rbsiz;

	bool				peer_lacks;
	u32				ignored;
};

int rpcrdma_xchar_ep_init(struct rpcrdma_xchar_ep *ep,
			  const struct rpcrdma_xchar_limits *lim);
int rpcrdma_xchar_ep_connprop(struct rpcrdma_xchar_ep *ep, u32 xid, void *buf,
			      size_t len);
int rpcrdma_xchar_ep_recv_inval_option(struct rpcrdma_xchar_ep *ep, u32 xid);
int rpcrdma_xchar_ep_recv_connprop(struct rpcrdma_xchar_ep *ep,
				   const struct rpcrdma_xchar_connprop *msg);
int rpcrdma_xchar_ep_recv_updprop(struct rpcrdma_xchar_ep *ep,
				  const struct rpcrdma_xchar_updprop *msg);
int rpcrdma_xchar_ep_request(struct rpcrdma_xchar_ep *ep, u32 xid,
			     const struct rpcrdma_xchar_prop *want, u32 n);
int rpcrdma_xchar_ep_recv_resprop(struct rpcrdma_xchar_ep *ep, u32 xid,
				  const struct rpcrdma_xchar_resprop *msg,
				  u32 *accepted);
int rpcrdma_xchar_ep_recv_reqprop(struct rpcrdma_xchar_ep *ep, u32 xid,
				  const struct rpcrdma_xchar_reqprop *msg,
				  struct rpcrdma_xchar_answer *ans);
int rpcrdma_xchar_ep_raise_rbsiz(struct rpcrdma_xchar_ep *ep, u32 size);
u32 rpcrdma_xchar_ep_post_size(const struct rpcrdma_xchar_ep *ep);
int rpcrdma_xchar_ep_receives_posted(struct rpcrdma_xchar_ep *ep,
				     u32 smallest,
				     struct rpcrdma_xchar_answer *ans);

u32 rpcrdma_xchar_ep_send_limit(const struct rpcrdma_xchar_ep *ep);
bool rpcrdma_xchar_ep_call_needs_pos0(const struct rpcrdma_xchar_ep *ep,
				      u32 call_len);
bool rpcrdma_xchar_ep_call_needs_reply_chunk(const struct rpcrdma_xchar_ep *ep,
					     u32 max_reply_len);
bool rpcrdma_xchar_ep_reply_needs_chunk(const struct rpcrdma_xchar_ep *ep,
					u32 reply_len);
bool rpcrdma_xchar_ep_may_send_inv(const struct rpcrdma_xchar_ep *ep,
				   u32 inv_handle);
u32 rpcrdma_xchar_ep_reply_inv(const struct rpcrdma_xchar_ep *ep,
			       u32 call_inv, bool *swi);
bool rpcrdma_xchar_ep_may_send_backward(const struct rpcrdma_xchar_ep *ep,
					bool chunks);

#endif /* _LINUX_SUNRPC_RPCRDMA_XCHAR_SM_H */
