// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for one endpoint's transport property state
 * (draft-dnoveck-nfsv4-rpcrdma-xcharext-03): the peer's properties as
 * known from ROPT_CONNPROP and ROPT_UPDPROP, a property request and
 * its answer, the Receive Buffer Size rules of Section 3.1, a peer
 * that refuses the extension (Section 4) and what each property lets
 * a sender do. Messages reach the state machine as
 * the codec decodes them from octets laid out here by hand.
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

#include <linux/sunrpc/rpcrdma_xchar.h>
#include <linux/sunrpc/rpcrdma_xchar_sm.h>

#define W(v)	cpu_to_be32(v)

#define RBSIZ		RPCRDMA_XCHAR_PROP_RBSIZ
#define REQREMINV	RPCRDMA_XCHAR_PROP_REQREMINV
#define BRS		RPCRDMA_XCHAR_PROP_BRS

/* An endpoint with 4096-octet receives that can go to 65536, accepts
 * Send With Invalidate, takes inline backward requests, and keeps
 * REQREMINV and BRS fixed: what rpcrdma-cm-probe --v2 advertises.
 */
static const struct rpcrdma_xchar_limits sm_lim = {
	.rbsiz		= 4096,
	.rbsiz_max	= 65536,
	.reqreminv	= true,
	.brs		= RPCRDMA_XCHAR_BKREQSUP_INLINE,
	.fixed		= BIT(REQREMINV) | BIT(BRS),
};

static void sm_init(struct kunit *test, struct rpcrdma_xchar_ep *ep)
{
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_init(ep, &sm_lim), 0);
}

static u8 *sm_copy_odd(struct kunit *test, const void *data, size_t len)
{
	u8 *p = kunit_kzalloc(test, len + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	memcpy(p + 1, data, len);
	return p + 1;
}

static void sm_connprop(struct kunit *test, struct rpcrdma_xchar_ep *ep,
			const void *wire, size_t len, int expect)
{
	struct rpcrdma_xchar_connprop msg;
	u8 *buf = sm_copy_odd(test, wire, len);

	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_connprop(buf, len, &msg),
			RPCRDMA_XCHAR_OK);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_recv_connprop(ep, &msg),
			expect);
}

static void sm_updprop(struct kunit *test, struct rpcrdma_xchar_ep *ep,
		       const void *wire, size_t len, int expect)
{
	struct rpcrdma_xchar_updprop msg;
	u8 *buf = sm_copy_odd(test, wire, len);

	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_updprop(buf, len, &msg),
			RPCRDMA_XCHAR_OK);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_recv_updprop(ep, &msg),
			expect);
}

/* A server: 8192-octet receives that may change, R set, GENL, with
 * REQREMINV and BRS in opticonnpr_nochg.
 */
static const __be32 sm_server_connprop[] = {
	W(3),
	W(1), W(4), W(8192),
	W(2), W(4), W(1),
	W(3), W(4), W(2),
	W(1), W(0x00000006),
};

/* A peer that names only its Receive Buffer Size, changeable */
static const __be32 sm_rbsiz_only_connprop[] = {
	W(1),
	W(1), W(4), W(16384),
	W(0),
};

/*
 * Section 4.1 and 4.4: the peer's properties
 */

static void peer_defaults_case(struct kunit *test)
{
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	/* Table 1 until a CONNPROP arrives */
	KUNIT_EXPECT_FALSE(test, ep.peer_connprop);
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, 4096);
	KUNIT_EXPECT_FALSE(test, ep.peer.reqreminv);
	KUNIT_EXPECT_EQ(test, ep.peer.brs, RPCRDMA_XCHAR_BKREQSUP_INLINE);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 4096);
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_ep_may_send_inv(&ep, 0x1234));
}

static void peer_connprop_case(struct kunit *test)
{
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_server_connprop, sizeof(sm_server_connprop),
		    0);
	KUNIT_EXPECT_TRUE(test, ep.peer_connprop);
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, 8192);
	KUNIT_EXPECT_TRUE(test, ep.peer.reqreminv);
	KUNIT_EXPECT_EQ(test, ep.peer.brs, RPCRDMA_XCHAR_BKREQSUP_GENL);
	/* opticonnpr_nochg: positions 1 and 2 */
	KUNIT_EXPECT_EQ(test, ep.peer_nochg, BIT(REQREMINV) | BIT(BRS));
	KUNIT_EXPECT_EQ(test, ep.peer_absent, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 8192);
}

static void peer_connprop_partial_case(struct kunit *test)
{
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_rbsiz_only_connprop,
		    sizeof(sm_rbsiz_only_connprop), 0);
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, 16384);
	/* left out: default, and may not change */
	KUNIT_EXPECT_FALSE(test, ep.peer.reqreminv);
	KUNIT_EXPECT_EQ(test, ep.peer.brs, RPCRDMA_XCHAR_BKREQSUP_INLINE);
	KUNIT_EXPECT_EQ(test, ep.peer_absent, BIT(REQREMINV) | BIT(BRS));
	KUNIT_EXPECT_EQ(test, ep.peer_nochg, 0);
}

static void peer_nochg_past_set_case(struct kunit *test)
{
	/* an unknown propid, RBSIZ at position 1; nochg names 33 only */
	static const __be32 wide[] = {
		W(2),
		W(0xffffff10), W(0),
		W(1), W(4), W(65536),
		W(2), W(0), W(0x00000002),
	};
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	sm_connprop(test, &ep, wide, sizeof(wide), 0);
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, 65536);
	KUNIT_EXPECT_EQ(test, ep.peer_nochg, 0);
	KUNIT_EXPECT_EQ(test, ep.peer_absent, BIT(REQREMINV) | BIT(BRS));
}

static void peer_second_connprop_case(struct kunit *test)
{
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_server_connprop, sizeof(sm_server_connprop),
		    0);
	sm_connprop(test, &ep, sm_rbsiz_only_connprop,
		    sizeof(sm_rbsiz_only_connprop), -EALREADY);
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, 8192);
	KUNIT_EXPECT_TRUE(test, ep.peer.reqreminv);
	KUNIT_EXPECT_EQ(test, ep.ignored, 1);
}

/* REQREMINV FALSE and RBSIZ 32768 */
static const __be32 sm_upd_reqreminv[] = {
	W(2),
	W(2), W(4), W(0),
	W(1), W(4), W(32768),
};

static void peer_updprop_case(struct kunit *test)
{
	struct rpcrdma_xchar_ep ep;

	/* REQREMINV was in nochg: "not expected to change", yet it did */
	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_server_connprop, sizeof(sm_server_connprop),
		    0);
	sm_updprop(test, &ep, sm_upd_reqreminv, sizeof(sm_upd_reqreminv), 0);
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, 32768);
	KUNIT_EXPECT_FALSE(test, ep.peer.reqreminv);
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_ep_may_send_inv(&ep, 0x1234));
	KUNIT_EXPECT_EQ(test, ep.ignored, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 32768);
}

static void peer_updprop_absent_case(struct kunit *test)
{
	static const __be32 upd[] = {
		W(2),
		W(2), W(4), W(1),
		W(1), W(4), W(32768),
	};
	struct rpcrdma_xchar_ep ep;

	/* REQREMINV was left out: "not allowed to change", so ignored */
	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_rbsiz_only_connprop,
		    sizeof(sm_rbsiz_only_connprop), 0);
	sm_updprop(test, &ep, upd, sizeof(upd), 0);
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, 32768);
	KUNIT_EXPECT_FALSE(test, ep.peer.reqreminv);
	KUNIT_EXPECT_EQ(test, ep.ignored, 1);
}

static void peer_updprop_first_case(struct kunit *test)
{
	static const __be32 upd[] = { W(1), W(1), W(4), W(32768) };
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	sm_updprop(test, &ep, upd, sizeof(upd), -EPROTO);
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, 4096);
	KUNIT_EXPECT_EQ(test, ep.ignored, 1);
}

static void own_connprop_case(struct kunit *test)
{
	static const __be32 expect[] = {
		W(3),
		W(1), W(4), W(4096),
		W(2), W(4), W(1),
		W(3), W(4), W(1),
		W(1), W(0x00000006),
	};
	struct rpcrdma_xchar_ep ep;
	u8 buf[64];
	int ret;

	sm_init(test, &ep);
	ret = rpcrdma_xchar_ep_connprop(&ep, 1, buf, sizeof(buf));
	KUNIT_ASSERT_EQ(test, ret, (int)sizeof(expect));
	KUNIT_EXPECT_EQ(test, memcmp(buf, expect, sizeof(expect)), 0);
	/* Section 4.1: it must fit the Version One default of 1024 */
	KUNIT_EXPECT_LE(test, ret + RPCRDMA_XCHAR_OPTHDR_LEN, 1024);
}

struct sm_init_param {
	const char			*desc;
	struct rpcrdma_xchar_limits	lim;
	int				ret;
};

static void sm_init_get_desc(const struct sm_init_param *param, char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct sm_init_param sm_init_vectors[] = {
	{ "4096 of 65536", { 4096, 65536, true, 1, 0 }, 0 },
	{ "4096 of 4096", { 4096, 4096, false, 0, BIT(RBSIZ) }, 0 },
	{ "2048: below the default", { 2048, 65536, true, 1, 0 }, -EINVAL },
	{ "8192 of 4096", { 8192, 4096, true, 1, 0 }, -EINVAL },
	{ "BRS 3", { 4096, 4096, true, 3, 0 }, -EINVAL },
	{ "fixed propid 4", { 4096, 4096, true, 1, BIT(4) }, -EINVAL },
};

KUNIT_ARRAY_PARAM(sm_init_vectors, sm_init_vectors, sm_init_get_desc);

static void init_limits_case(struct kunit *test)
{
	const struct sm_init_param *param = test->param_value;
	struct rpcrdma_xchar_ep ep;

	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_init(&ep, &param->lim),
			param->ret);
}

static struct kunit_case sm_peer_cases[] = {
	KUNIT_CASE(peer_defaults_case),
	KUNIT_CASE(peer_connprop_case),
	KUNIT_CASE(peer_connprop_partial_case),
	KUNIT_CASE(peer_nochg_past_set_case),
	KUNIT_CASE(peer_second_connprop_case),
	KUNIT_CASE(peer_updprop_case),
	KUNIT_CASE(peer_updprop_absent_case),
	KUNIT_CASE(peer_updprop_first_case),
	KUNIT_CASE(own_connprop_case),
	KUNIT_CASE_PARAM(init_limits_case, sm_init_vectors_gen_params),
	{}
};

static struct kunit_suite sm_peer_suite = {
	.name		= "rpcrdma_xchar_peer",
	.test_cases	= sm_peer_cases,
};

/*
 * Sections 4.2 and 4.3, requester side: a request and its answer
 */

static const struct rpcrdma_xchar_prop sm_want_2048[] = {
	{ RBSIZ, false, 2048 },
};

/* The peer's answers to a one-propval request for RBSIZ 2048 */
static const __be32 sm_res_done[] = { W(1), W(1), W(0), W(0) };
static const __be32 sm_res_rej[] = { W(0), W(1), W(1), W(0) };
static const __be32 sm_res_other[] = {
	W(0), W(0), W(1), W(1), W(4), W(3072),
};

static const __be32 sm_res_overlap[] = { W(1), W(1), W(1), W(1), W(0) };
static const __be32 sm_res_missing[] = { W(0), W(0), W(0) };
static const __be32 sm_res_done_and_other[] = {
	W(1), W(1), W(0), W(1), W(1), W(4), W(3072),
};

/* An unrequested BRS in optrespr_other is ignored */
static const __be32 sm_res_unasked[] = {
	W(1), W(1), W(0), W(1), W(3), W(4), W(0),
};

struct sm_res_param {
	const char	*desc;
	const u8	*wire;
	size_t		len;
	u32		rbsiz;
	u32		accepted;
	u32		ignored;
};

static void sm_res_get_desc(const struct sm_res_param *param, char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct sm_res_param sm_res_vectors[] = {
	{ "done", (const u8 *)sm_res_done, sizeof(sm_res_done), 2048,
	  BIT(RBSIZ) },
	{ "rejected", (const u8 *)sm_res_rej, sizeof(sm_res_rej), 16384, 0 },
	{ "partial, 3072 in other", (const u8 *)sm_res_other,
	  sizeof(sm_res_other), 3072, BIT(RBSIZ) },
	{ "done and rejected: rejected", (const u8 *)sm_res_overlap,
	  sizeof(sm_res_overlap), 16384, 0 },
	{ "in neither: rejected", (const u8 *)sm_res_missing,
	  sizeof(sm_res_missing), 16384, 0 },
	{ "done and in other: rejected", (const u8 *)sm_res_done_and_other,
	  sizeof(sm_res_done_and_other), 16384, 0 },
	{ "done, unrequested BRS ignored", (const u8 *)sm_res_unasked,
	  sizeof(sm_res_unasked), 2048, BIT(RBSIZ), 1 },
};

KUNIT_ARRAY_PARAM(sm_res_vectors, sm_res_vectors, sm_res_get_desc);

static void sm_resprop(struct kunit *test, struct rpcrdma_xchar_ep *ep,
		       u32 xid, const void *wire, size_t len, int expect,
		       u32 *accepted)
{
	struct rpcrdma_xchar_resprop msg;
	u8 *buf = sm_copy_odd(test, wire, len);

	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_resprop(buf, len, &msg),
			RPCRDMA_XCHAR_OK);
	KUNIT_EXPECT_EQ(test,
			rpcrdma_xchar_ep_recv_resprop(ep, xid, &msg, accepted),
			expect);
}

static void resprop_case(struct kunit *test)
{
	const struct sm_res_param *param = test->param_value;
	struct rpcrdma_xchar_ep ep;
	u32 accepted = 0xff;

	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_rbsiz_only_connprop,
		    sizeof(sm_rbsiz_only_connprop), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_request(&ep, 77, sm_want_2048,
						       1), 0);
	/* Section 3.1: the lower size while the request is pending */
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 2048);

	sm_resprop(test, &ep, 77, param->wire, param->len, 0, &accepted);
	KUNIT_EXPECT_EQ(test, accepted, param->accepted);
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, param->rbsiz);
	KUNIT_EXPECT_FALSE(test, ep.req_pending);
	KUNIT_EXPECT_EQ(test, ep.ignored, param->ignored);
	/* no longer pending: the peer's size is the limit again */
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), param->rbsiz);
}

static void resprop_wrong_xid_case(struct kunit *test)
{
	struct rpcrdma_xchar_ep ep;
	u32 accepted;

	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_rbsiz_only_connprop,
		    sizeof(sm_rbsiz_only_connprop), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_request(&ep, 77, sm_want_2048,
						       1), 0);
	sm_resprop(test, &ep, 78, sm_res_done, sizeof(sm_res_done), -ENOENT,
		   &accepted);
	KUNIT_EXPECT_TRUE(test, ep.req_pending);
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, 16384);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 2048);
	KUNIT_EXPECT_EQ(test, ep.ignored, 1);
}

static void resprop_unsolicited_case(struct kunit *test)
{
	struct rpcrdma_xchar_ep ep;
	u32 accepted;

	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_rbsiz_only_connprop,
		    sizeof(sm_rbsiz_only_connprop), 0);
	sm_resprop(test, &ep, 77, sm_res_done, sizeof(sm_res_done), -ENOENT,
		   &accepted);
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, 16384);
}

enum sm_req_peer {
	SM_REQ_NO_CONNPROP,
	SM_REQ_SERVER,		/* sm_server_connprop: nochg REQREMINV, BRS */
	SM_REQ_RBSIZ_ONLY,	/* sm_rbsiz_only_connprop: the rest left out */
};

struct sm_req_param {
	const char			*desc;
	enum sm_req_peer		connprop;
	bool				pending;
	struct rpcrdma_xchar_prop	want[2];
	u32				n;
	int				ret;
};

static void sm_req_get_desc(const struct sm_req_param *param, char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct sm_req_param sm_req_vectors[] = {
	{ "RBSIZ 2048", SM_REQ_SERVER, false, { { RBSIZ, false, 2048 } }, 1,
	  0 },
	{ "RBSIZ default", SM_REQ_SERVER, false, { { RBSIZ, true, 0 } }, 1,
	  0 },
	{ "RBSIZ 1024, the floor", SM_REQ_SERVER, false,
	  { { RBSIZ, false, 1024 } }, 1, 0 },
	{ "RBSIZ 1023", SM_REQ_SERVER, false, { { RBSIZ, false, 1023 } }, 1,
	  -EINVAL },
	{ "before the peer's CONNPROP", SM_REQ_NO_CONNPROP, false,
	  { { RBSIZ, false, 2048 } }, 1, 0 },
	{ "REQREMINV, in nochg: the peer may reject it", SM_REQ_SERVER, false,
	  { { REQREMINV, false, 0 } }, 1, 0 },
	{ "BRS, in nochg: the peer may reject it", SM_REQ_SERVER, false,
	  { { BRS, false, 2 } }, 1, 0 },
	{ "REQREMINV, left out of the CONNPROP", SM_REQ_RBSIZ_ONLY, false,
	  { { REQREMINV, false, 1 } }, 1, -EPERM },
	{ "RBSIZ and BRS, BRS left out", SM_REQ_RBSIZ_ONLY, false,
	  { { RBSIZ, false, 8192 }, { BRS, false, 2 } }, 2, -EPERM },
	{ "while another is pending", SM_REQ_SERVER, true,
	  { { RBSIZ, false, 2048 } }, 1, -EBUSY },
	{ "RBSIZ twice", SM_REQ_SERVER, false,
	  { { RBSIZ, false, 2048 }, { RBSIZ, false, 4096 } }, 2, -EINVAL },
	{ "unknown propid", SM_REQ_SERVER, false, { { 9, false, 1 } }, 1,
	  -EINVAL },
	{ "nothing", SM_REQ_SERVER, false, { }, 0, -EINVAL },
};

KUNIT_ARRAY_PARAM(sm_req_vectors, sm_req_vectors, sm_req_get_desc);

static void request_rules_case(struct kunit *test)
{
	const struct sm_req_param *param = test->param_value;
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	if (param->connprop == SM_REQ_SERVER)
		sm_connprop(test, &ep, sm_server_connprop,
			    sizeof(sm_server_connprop), 0);
	if (param->connprop == SM_REQ_RBSIZ_ONLY)
		sm_connprop(test, &ep, sm_rbsiz_only_connprop,
			    sizeof(sm_rbsiz_only_connprop), 0);
	if (param->pending)
		KUNIT_ASSERT_EQ(test,
				rpcrdma_xchar_ep_request(&ep, 1, sm_want_2048,
							 1), 0);
	KUNIT_EXPECT_EQ(test,
			rpcrdma_xchar_ep_request(&ep, 2, param->want,
						 param->n),
			param->ret);
	if (param->ret)
		KUNIT_EXPECT_EQ(test, ep.req_xid, param->pending ? 1 : 0);
}

static void request_before_connprop_case(struct kunit *test)
{
	struct rpcrdma_xchar_ep ep;
	u32 accepted;

	/* Table 1's 4096 until the CONNPROP, so asking for 2048 lowers */
	sm_init(test, &ep);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_request(&ep, 3, sm_want_2048,
						       1), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 2048);
	/* the peer's CONNPROP then crosses it: still 2048 while pending */
	sm_connprop(test, &ep, sm_server_connprop, sizeof(sm_server_connprop),
		    0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 2048);
	sm_resprop(test, &ep, 3, sm_res_done, sizeof(sm_res_done), 0,
		   &accepted);
	KUNIT_EXPECT_EQ(test, accepted, BIT(RBSIZ));
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 2048);
}

static void request_raise_limit_case(struct kunit *test)
{
	static const struct rpcrdma_xchar_prop want[] = {
		{ RBSIZ, false, 65536 },
	};
	struct rpcrdma_xchar_ep ep;
	u32 accepted;

	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_rbsiz_only_connprop,
		    sizeof(sm_rbsiz_only_connprop), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_request(&ep, 5, want, 1), 0);
	/* asking for more is no licence to send more before the answer */
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 16384);
	sm_resprop(test, &ep, 5, sm_res_done, sizeof(sm_res_done), 0,
		   &accepted);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 65536);
}

static void request_lower_then_update_case(struct kunit *test)
{
	static const __be32 upd[] = { W(1), W(1), W(4), W(32768) };
	struct rpcrdma_xchar_ep ep;
	u32 accepted;

	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_rbsiz_only_connprop,
		    sizeof(sm_rbsiz_only_connprop), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_request(&ep, 5, sm_want_2048,
						       1), 0);
	/* Section 3.1: an update larger than asked for does not end the
	 * lower limit while the request is still pending
	 */
	sm_updprop(test, &ep, upd, sizeof(upd), 0);
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, 32768);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 2048);
	sm_resprop(test, &ep, 5, sm_res_rej, sizeof(sm_res_rej), 0,
		   &accepted);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 32768);
}

static struct kunit_case sm_request_cases[] = {
	KUNIT_CASE_PARAM(resprop_case, sm_res_vectors_gen_params),
	KUNIT_CASE(resprop_wrong_xid_case),
	KUNIT_CASE(resprop_unsolicited_case),
	KUNIT_CASE_PARAM(request_rules_case, sm_req_vectors_gen_params),
	KUNIT_CASE(request_before_connprop_case),
	KUNIT_CASE(request_raise_limit_case),
	KUNIT_CASE(request_lower_then_update_case),
	{}
};

static struct kunit_suite sm_request_suite = {
	.name		= "rpcrdma_xchar_request",
	.test_cases	= sm_request_cases,
};

/*
 * Sections 3.1 and 4.3, responder side: answering a request
 */

struct sm_ans_param {
	const char	*desc;
	const u8	*wire;
	size_t		len;
	int		ret;		/* 1: deferred until receives */
	u32		done;		/* word 0 of optrespr_done */
	u32		rej;		/* word 0 of optrespr_rej */
	u32		other_rbsiz;	/* 0: optrespr_other empty */
	u32		rbsiz;		/* in force after the answer */
	u32		post;		/* size of the next receive */
};

static void sm_ans_get_desc(const struct sm_ans_param *param, char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const __be32 sm_req_2048[] = { W(1), W(1), W(4), W(2048) };
static const __be32 sm_req_512[] = { W(1), W(1), W(4), W(512) };
static const __be32 sm_req_4096[] = { W(1), W(1), W(4), W(4096) };
static const __be32 sm_req_16384[] = { W(1), W(1), W(4), W(16384) };
static const __be32 sm_req_1m[] = { W(1), W(1), W(4), W(1048576) };
static const __be32 sm_req_default[] = { W(1), W(1), W(0) };

/* RBSIZ 2048, then RBSIZ 8192: the first counts, the second is
 * rejected like anything else not granted
 */
static const __be32 sm_req_twice[] = {
	W(2),
	W(1), W(4), W(2048),
	W(1), W(4), W(8192),
};

/* An unknown propid, RBSIZ 2048, and fixed REQREMINV */
static const __be32 sm_req_mixed[] = {
	W(3),
	W(0xffffff07), W(4), W(1),
	W(1), W(4), W(2048),
	W(2), W(4), W(0),
};

static const struct sm_ans_param sm_ans_vectors[] = {
	{ "lower to 2048: done at once", (const u8 *)sm_req_2048,
	  sizeof(sm_req_2048), 0, 0x1, 0, 0, 2048, 2048 },
	{ "lower to 512: 1024 in other", (const u8 *)sm_req_512,
	  sizeof(sm_req_512), 0, 0, 0, 1024, 1024, 1024 },
	{ "same size: done, nothing changes", (const u8 *)sm_req_4096,
	  sizeof(sm_req_4096), 0, 0x1, 0, 0, 4096, 4096 },
	{ "default (4096): done", (const u8 *)sm_req_default,
	  sizeof(sm_req_default), 0, 0x1, 0, 0, 4096, 4096 },
	{ "raise to 16384: deferred", (const u8 *)sm_req_16384,
	  sizeof(sm_req_16384), 1, 0x1, 0, 0, 4096, 16384 },
	{ "raise to 1 MiB: 65536 in other, deferred", (const u8 *)sm_req_1m,
	  sizeof(sm_req_1m), 1, 0, 0, 65536, 4096, 65536 },
	{ "unknown and fixed rejected, RBSIZ done", (const u8 *)sm_req_mixed,
	  sizeof(sm_req_mixed), 0, 0x2, 0x5, 0, 2048, 2048 },
	{ "RBSIZ twice: the first done, the second rejected",
	  (const u8 *)sm_req_twice, sizeof(sm_req_twice), 0, 0x1, 0x2, 0,
	  2048, 2048 },
};

KUNIT_ARRAY_PARAM(sm_ans_vectors, sm_ans_vectors, sm_ans_get_desc);

static int sm_reqprop(struct kunit *test, struct rpcrdma_xchar_ep *ep,
		      u32 xid, const void *wire, size_t len,
		      struct rpcrdma_xchar_answer *ans)
{
	struct rpcrdma_xchar_reqprop msg;
	u8 *buf = sm_copy_odd(test, wire, len);

	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_decode_reqprop(buf, len, &msg),
			RPCRDMA_XCHAR_OK);
	return rpcrdma_xchar_ep_recv_reqprop(ep, xid, &msg, ans);
}

static void answer_case(struct kunit *test)
{
	const struct sm_ans_param *param = test->param_value;
	struct rpcrdma_xchar_answer ans;
	struct rpcrdma_xchar_ep ep;
	unsigned int i;

	sm_init(test, &ep);
	KUNIT_ASSERT_EQ(test, sm_reqprop(test, &ep, 0x42, param->wire,
					 param->len, &ans), param->ret);
	KUNIT_EXPECT_EQ(test, ep.local.rbsiz, param->rbsiz);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_post_size(&ep), param->post);
	/* fixed, so a request for FALSE leaves it alone */
	KUNIT_EXPECT_TRUE(test, ep.local.reqreminv);
	if (param->ret)
		ans = ep.deferred;
	KUNIT_EXPECT_EQ(test, ans.xid, 0x42);
	KUNIT_EXPECT_EQ(test, ans.done.w[0], param->done);
	KUNIT_EXPECT_EQ(test, ans.rej.w[0], param->rej);
	for (i = 1; i < RPCRDMA_XCHAR_MASK_WORDS; i++) {
		KUNIT_EXPECT_EQ(test, ans.done.w[i], 0);
		KUNIT_EXPECT_EQ(test, ans.rej.w[i], 0);
	}
	KUNIT_ASSERT_EQ(test, ans.nother, param->other_rbsiz ? 1 : 0);
	if (param->other_rbsiz) {
		KUNIT_EXPECT_EQ(test, ans.other[0].which, RBSIZ);
		KUNIT_EXPECT_EQ(test, ans.other[0].value, param->other_rbsiz);
	}
}

static void answer_wire_case(struct kunit *test)
{
	/* the mixed request's answer, as it goes out */
	static const __be32 expect[] = {
		W(1), W(0x00000002),
		W(1), W(0x00000005),
		W(0),
	};
	struct rpcrdma_xchar_answer ans;
	struct rpcrdma_xchar_ep ep;
	u8 buf[64];
	int ret;

	sm_init(test, &ep);
	KUNIT_ASSERT_EQ(test, sm_reqprop(test, &ep, 1, sm_req_mixed,
					 sizeof(sm_req_mixed), &ans), 0);
	ret = rpcrdma_xchar_encode_resprop(buf, sizeof(buf), &ans.done,
					   &ans.rej, ans.other, ans.nother);
	KUNIT_ASSERT_EQ(test, ret, (int)sizeof(expect));
	KUNIT_EXPECT_EQ(test, memcmp(buf, expect, sizeof(expect)), 0);
}

static void answer_flags_case(struct kunit *test)
{
	static const __be32 req[] = {
		W(2),
		W(2), W(4), W(1),	/* REQREMINV TRUE: can't */
		W(3), W(4), W(2),	/* BRS GENL: more than INLINE */
	};
	static const struct rpcrdma_xchar_limits lim = {
		.rbsiz = 4096, .rbsiz_max = 4096, .reqreminv = false,
		.brs = RPCRDMA_XCHAR_BKREQSUP_INLINE,
	};
	static const __be32 req_ok[] = {
		W(2),
		W(3), W(4), W(0),	/* BRS NONE */
		W(2), W(4), W(0),	/* REQREMINV FALSE */
	};
	struct rpcrdma_xchar_answer ans;
	struct rpcrdma_xchar_ep ep;

	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_init(&ep, &lim), 0);
	KUNIT_ASSERT_EQ(test, sm_reqprop(test, &ep, 1, req, sizeof(req),
					 &ans), 0);
	KUNIT_EXPECT_EQ(test, ans.done.w[0], 0);
	KUNIT_EXPECT_EQ(test, ans.rej.w[0], 0x3);
	KUNIT_ASSERT_EQ(test, sm_reqprop(test, &ep, 2, req_ok, sizeof(req_ok),
					 &ans), 0);
	KUNIT_EXPECT_EQ(test, ans.done.w[0], 0x3);
	KUNIT_EXPECT_EQ(test, ep.local.brs, RPCRDMA_XCHAR_BKREQSUP_NONE);
	KUNIT_EXPECT_FALSE(test, ep.local.reqreminv);
}

static void answer_fixed_rbsiz_case(struct kunit *test)
{
	static const struct rpcrdma_xchar_limits lim = {
		.rbsiz = 4096, .rbsiz_max = 65536, .reqreminv = true,
		.brs = RPCRDMA_XCHAR_BKREQSUP_INLINE, .fixed = BIT(RBSIZ),
	};
	struct rpcrdma_xchar_answer ans;
	struct rpcrdma_xchar_ep ep;

	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_init(&ep, &lim), 0);
	KUNIT_ASSERT_EQ(test, sm_reqprop(test, &ep, 1, sm_req_2048,
					 sizeof(sm_req_2048), &ans), 0);
	KUNIT_EXPECT_EQ(test, ans.rej.w[0], 0x1);
	KUNIT_EXPECT_EQ(test, ep.local.rbsiz, 4096);
}

static struct kunit_case sm_answer_cases[] = {
	KUNIT_CASE_PARAM(answer_case, sm_ans_vectors_gen_params),
	KUNIT_CASE(answer_wire_case),
	KUNIT_CASE(answer_flags_case),
	KUNIT_CASE(answer_fixed_rbsiz_case),
	{}
};

static struct kunit_suite sm_answer_suite = {
	.name		= "rpcrdma_xchar_answer",
	.test_cases	= sm_answer_cases,
};

/*
 * Section 3.1: raising this endpoint's Receive Buffer Size
 */

static void raise_requested_case(struct kunit *test)
{
	struct rpcrdma_xchar_answer ans;
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	KUNIT_ASSERT_EQ(test, sm_reqprop(test, &ep, 9, sm_req_16384,
					 sizeof(sm_req_16384), &ans), 1);
	/* old 4096-octet receives still posted: not yet */
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_receives_posted(&ep, 4096,
							       &ans), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_receives_posted(&ep, 16383,
							       &ans), 0);
	KUNIT_EXPECT_EQ(test, ep.local.rbsiz, 4096);
	/* every receive now 16384: answer, and the size is in force */
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_receives_posted(&ep, 16384,
							       &ans),
			RPCRDMA_XCHAR_ROPT_RESPROP);
	KUNIT_EXPECT_EQ(test, ans.xid, 9);
	KUNIT_EXPECT_EQ(test, ans.done.w[0], 0x1);
	KUNIT_EXPECT_EQ(test, ep.local.rbsiz, 16384);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_post_size(&ep), 16384);
	/* and only once */
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_receives_posted(&ep, 16384,
							       &ans), 0);
}

static void raise_busy_rejects_case(struct kunit *test)
{
	struct rpcrdma_xchar_answer ans;
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	KUNIT_ASSERT_EQ(test, sm_reqprop(test, &ep, 9, sm_req_16384,
					 sizeof(sm_req_16384), &ans), 1);
	/* a second request while the first answer waits: all rejected */
	KUNIT_ASSERT_EQ(test, sm_reqprop(test, &ep, 10, sm_req_2048,
					 sizeof(sm_req_2048), &ans), 0);
	KUNIT_EXPECT_EQ(test, ans.rej.w[0], 0x1);
	KUNIT_EXPECT_EQ(test, ans.done.w[0], 0);
	KUNIT_EXPECT_EQ(test, ep.local.rbsiz, 4096);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_post_size(&ep), 16384);
}

static void raise_own_case(struct kunit *test)
{
	struct rpcrdma_xchar_answer ans;
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_raise_rbsiz(&ep, 8192), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_post_size(&ep), 8192);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_raise_rbsiz(&ep, 16384),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_receives_posted(&ep, 4096,
							       &ans), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_receives_posted(&ep, 8192,
							       &ans),
			RPCRDMA_XCHAR_ROPT_UPDPROP);
	KUNIT_ASSERT_EQ(test, ans.nother, 1);
	KUNIT_EXPECT_EQ(test, ans.other[0].which, RBSIZ);
	KUNIT_EXPECT_EQ(test, ans.other[0].value, 8192);
	KUNIT_EXPECT_EQ(test, ep.local.rbsiz, 8192);
}

struct sm_raise_param {
	const char	*desc;
	u32		size;
	u32		fixed;
	int		ret;
};

static void sm_raise_get_desc(const struct sm_raise_param *param,
			      char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct sm_raise_param sm_raise_vectors[] = {
	{ "8192", 8192, 0, 0 },
	{ "65536, the most", 65536, 0, 0 },
	{ "65537", 65537, 0, -EINVAL },
	{ "4096, no change", 4096, 0, -EINVAL },
	{ "2048: lowering needs a request", 2048, 0, -EPERM },
	{ "8192 when RBSIZ is fixed", 8192, BIT(RBSIZ), -EPERM },
};

KUNIT_ARRAY_PARAM(sm_raise_vectors, sm_raise_vectors, sm_raise_get_desc);

static void raise_rules_case(struct kunit *test)
{
	const struct sm_raise_param *param = test->param_value;
	struct rpcrdma_xchar_limits lim = sm_lim;
	struct rpcrdma_xchar_ep ep;

	lim.fixed = param->fixed;
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_init(&ep, &lim), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_raise_rbsiz(&ep, param->size),
			param->ret);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_post_size(&ep),
			param->ret ? 4096 : param->size);
	KUNIT_EXPECT_EQ(test, ep.local.rbsiz, 4096);
}

static void lower_cancels_own_raise_case(struct kunit *test)
{
	struct rpcrdma_xchar_answer ans;
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_raise_rbsiz(&ep, 8192), 0);
	KUNIT_ASSERT_EQ(test, sm_reqprop(test, &ep, 3, sm_req_2048,
					 sizeof(sm_req_2048), &ans), 0);
	KUNIT_EXPECT_EQ(test, ans.done.w[0], 0x1);
	KUNIT_EXPECT_EQ(test, ep.local.rbsiz, 2048);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_post_size(&ep), 2048);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_receives_posted(&ep, 8192,
							       &ans), 0);
}

static struct kunit_case sm_rbsiz_cases[] = {
	KUNIT_CASE(raise_requested_case),
	KUNIT_CASE(raise_busy_rejects_case),
	KUNIT_CASE(raise_own_case),
	KUNIT_CASE_PARAM(raise_rules_case, sm_raise_vectors_gen_params),
	KUNIT_CASE(lower_cancels_own_raise_case),
	{}
};

static struct kunit_suite sm_rbsiz_suite = {
	.name		= "rpcrdma_xchar_rbsiz",
	.test_cases	= sm_rbsiz_cases,
};

/*
 * Section 4: a peer without the extension answers RDMA2_ERR_INVAL_OPTION
 */

/* This endpoint's CONNPROP, sent with rdma_xid @xid */
static void sm_send_connprop(struct kunit *test, struct rpcrdma_xchar_ep *ep,
			     u32 xid)
{
	u8 buf[64];

	KUNIT_ASSERT_GT(test, rpcrdma_xchar_ep_connprop(ep, xid, buf,
							sizeof(buf)), 0);
}

static void refused_connprop_case(struct kunit *test)
{
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	sm_send_connprop(test, &ep, 7);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_recv_inval_option(&ep, 7), 0);
	KUNIT_EXPECT_TRUE(test, ep.peer_lacks);
	KUNIT_EXPECT_EQ(test, ep.ignored, 0);
	/* Table 1 for the peer: 4096, no remote invalidation, inline */
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, 4096);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 4096);
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_ep_call_needs_pos0(&ep, 4096));
	KUNIT_EXPECT_TRUE(test, rpcrdma_xchar_ep_call_needs_pos0(&ep, 4097));
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_ep_may_send_inv(&ep, 0x1234));
	KUNIT_EXPECT_TRUE(test, rpcrdma_xchar_ep_may_send_backward(&ep, false));
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_ep_may_send_backward(&ep, true));
}

enum sm_after_op {
	SM_AFTER_CONNPROP,
	SM_AFTER_REQUEST,
	SM_AFTER_RAISE,
	SM_AFTER_ANSWER,
};

struct sm_after_param {
	const char	*desc;
	enum sm_after_op op;
	int		ret;
	u32		ignored;
};

static void sm_after_get_desc(const struct sm_after_param *param,
			      char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

/* Once the peer said no, nothing of the extension goes to it again */
static const struct sm_after_param sm_after_vectors[] = {
	{ "ROPT_CONNPROP again", SM_AFTER_CONNPROP, -EOPNOTSUPP, 0 },
	{ "ROPT_REQPROP", SM_AFTER_REQUEST, -EOPNOTSUPP, 0 },
	{ "a raise, to be announced by ROPT_UPDPROP", SM_AFTER_RAISE,
	  -EOPNOTSUPP, 0 },
	{ "a ROPT_RESPROP to its ROPT_REQPROP", SM_AFTER_ANSWER, -EOPNOTSUPP,
	  1 },
};

KUNIT_ARRAY_PARAM(sm_after_vectors, sm_after_vectors, sm_after_get_desc);

static void refused_then_case(struct kunit *test)
{
	const struct sm_after_param *param = test->param_value;
	struct rpcrdma_xchar_answer ans;
	struct rpcrdma_xchar_ep ep;
	u8 buf[64];
	int ret;

	sm_init(test, &ep);
	sm_send_connprop(test, &ep, 1);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_recv_inval_option(&ep, 1), 0);
	switch (param->op) {
	case SM_AFTER_CONNPROP:
		ret = rpcrdma_xchar_ep_connprop(&ep, 2, buf, sizeof(buf));
		break;
	case SM_AFTER_REQUEST:
		ret = rpcrdma_xchar_ep_request(&ep, 2, sm_want_2048, 1);
		break;
	case SM_AFTER_RAISE:
		ret = rpcrdma_xchar_ep_raise_rbsiz(&ep, 8192);
		break;
	default:
		ret = sm_reqprop(test, &ep, 2, sm_req_2048,
				 sizeof(sm_req_2048), &ans);
		break;
	}
	KUNIT_EXPECT_EQ(test, ret, param->ret);
	KUNIT_EXPECT_EQ(test, ep.ignored, param->ignored);
	KUNIT_EXPECT_FALSE(test, ep.req_pending);
	KUNIT_EXPECT_EQ(test, ep.local.rbsiz, 4096);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_post_size(&ep), 4096);
}

static void refused_request_case(struct kunit *test)
{
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_rbsiz_only_connprop,
		    sizeof(sm_rbsiz_only_connprop), 0);
	sm_send_connprop(test, &ep, 1);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_request(&ep, 2, sm_want_2048,
						       1), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 2048);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_recv_inval_option(&ep, 2), 0);
	/* rejected: the lower limit ends; what its CONNPROP said stays */
	KUNIT_EXPECT_FALSE(test, ep.req_pending);
	KUNIT_EXPECT_TRUE(test, ep.peer_lacks);
	KUNIT_EXPECT_EQ(test, ep.peer.rbsiz, 16384);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 16384);
}

static void refused_twice_case(struct kunit *test)
{
	struct rpcrdma_xchar_ep ep;

	/* the REQPROP went out before the refusal of the CONNPROP came */
	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_rbsiz_only_connprop,
		    sizeof(sm_rbsiz_only_connprop), 0);
	sm_send_connprop(test, &ep, 1);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_request(&ep, 2, sm_want_2048,
						       1), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_recv_inval_option(&ep, 1), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&ep), 16384);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_recv_inval_option(&ep, 2), 0);
	KUNIT_EXPECT_EQ(test, ep.ignored, 0);
}

enum sm_stray_setup {
	SM_STRAY_NOTHING_SENT,
	SM_STRAY_OTHER_XID,
	SM_STRAY_ANSWERED,
};

struct sm_stray_param {
	const char		*desc;
	enum sm_stray_setup	setup;
	u32			xid;
};

static void sm_stray_get_desc(const struct sm_stray_param *param,
			      char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct sm_stray_param sm_stray_vectors[] = {
	{ "before any property message", SM_STRAY_NOTHING_SENT, 0 },
	{ "xid of no property message", SM_STRAY_OTHER_XID, 6 },
	{ "xid of a request already answered", SM_STRAY_ANSWERED, 2 },
};

KUNIT_ARRAY_PARAM(sm_stray_vectors, sm_stray_vectors, sm_stray_get_desc);

static void stray_inval_option_case(struct kunit *test)
{
	const struct sm_stray_param *param = test->param_value;
	struct rpcrdma_xchar_ep ep;
	u32 accepted;

	sm_init(test, &ep);
	if (param->setup != SM_STRAY_NOTHING_SENT) {
		sm_connprop(test, &ep, sm_rbsiz_only_connprop,
			    sizeof(sm_rbsiz_only_connprop), 0);
		sm_send_connprop(test, &ep, 5);
	}
	if (param->setup == SM_STRAY_ANSWERED) {
		KUNIT_ASSERT_EQ(test,
				rpcrdma_xchar_ep_request(&ep, 2, sm_want_2048,
							 1), 0);
		sm_resprop(test, &ep, 2, sm_res_done, sizeof(sm_res_done), 0,
			   &accepted);
	}
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_recv_inval_option(&ep,
								 param->xid),
			-ENOENT);
	KUNIT_EXPECT_FALSE(test, ep.peer_lacks);
	KUNIT_EXPECT_EQ(test, ep.ignored, 1);
}

static void refused_raise_case(struct kunit *test)
{
	struct rpcrdma_xchar_answer ans;
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_raise_rbsiz(&ep, 8192), 0);
	sm_send_connprop(test, &ep, 1);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_recv_inval_option(&ep, 1), 0);
	/* never to be announced: receives go back to the size in force */
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_post_size(&ep), 4096);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_receives_posted(&ep, 8192,
							       &ans), 0);
	KUNIT_EXPECT_EQ(test, ep.local.rbsiz, 4096);
}

static void refused_reply_chunk_case(struct kunit *test)
{
	struct rpcrdma_xchar_limits lim = sm_lim;
	struct rpcrdma_xchar_ep ep;

	lim.rbsiz = 16384;
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_init(&ep, &lim), 0);
	sm_connprop(test, &ep, sm_server_connprop, sizeof(sm_server_connprop),
		    0);
	sm_send_connprop(test, &ep, 1);
	KUNIT_EXPECT_FALSE(test,
			   rpcrdma_xchar_ep_call_needs_reply_chunk(&ep, 16384));
	/* our 16384 never reached it: it sends inline only up to 4096 */
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_recv_inval_option(&ep, 1), 0);
	KUNIT_EXPECT_FALSE(test,
			   rpcrdma_xchar_ep_call_needs_reply_chunk(&ep, 4096));
	KUNIT_EXPECT_TRUE(test,
			  rpcrdma_xchar_ep_call_needs_reply_chunk(&ep, 4097));
}

static struct kunit_case sm_refusal_cases[] = {
	KUNIT_CASE(refused_connprop_case),
	KUNIT_CASE_PARAM(refused_then_case, sm_after_vectors_gen_params),
	KUNIT_CASE(refused_request_case),
	KUNIT_CASE(refused_twice_case),
	KUNIT_CASE_PARAM(stray_inval_option_case,
			 sm_stray_vectors_gen_params),
	KUNIT_CASE(refused_raise_case),
	KUNIT_CASE(refused_reply_chunk_case),
	{}
};

static struct kunit_suite sm_refusal_suite = {
	.name		= "rpcrdma_xchar_refusal",
	.test_cases	= sm_refusal_cases,
};

/*
 * Sections 3.1 to 3.3: what a sender may do
 */

struct sm_size_param {
	const char	*desc;
	u32		len;
	bool		chunk;
};

static void sm_size_get_desc(const struct sm_size_param *param, char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

/* Against a peer whose Receive Buffer Size is 8192 */
static const struct sm_size_param sm_size_vectors[] = {
	{ "28 octets", 28, false },
	{ "4096 octets", 4096, false },
	{ "8191 octets", 8191, false },
	{ "8192 octets: fits exactly", 8192, false },
	{ "8193 octets", 8193, true },
	{ "1 MiB", 1048576, true },
};

KUNIT_ARRAY_PARAM(sm_size_vectors, sm_size_vectors, sm_size_get_desc);

static void call_pos0_case(struct kunit *test)
{
	const struct sm_size_param *param = test->param_value;
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_server_connprop, sizeof(sm_server_connprop),
		    0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_call_needs_pos0(&ep,
							       param->len),
			param->chunk);
}

static void reply_chunk_case(struct kunit *test)
{
	const struct sm_size_param *param = test->param_value;
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	sm_connprop(test, &ep, sm_server_connprop, sizeof(sm_server_connprop),
		    0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_reply_needs_chunk(&ep,
								 param->len),
			param->chunk);
}

static void call_reply_chunk_case(struct kunit *test)
{
	struct rpcrdma_xchar_answer ans;
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_raise_rbsiz(&ep, 16384), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_receives_posted(&ep, 16384,
							       &ans),
			RPCRDMA_XCHAR_ROPT_UPDPROP);
	/* the peer sent no CONNPROP: it may still believe 4096 */
	KUNIT_EXPECT_FALSE(test,
			   rpcrdma_xchar_ep_call_needs_reply_chunk(&ep, 4096));
	KUNIT_EXPECT_TRUE(test,
			  rpcrdma_xchar_ep_call_needs_reply_chunk(&ep, 4097));
	sm_connprop(test, &ep, sm_server_connprop, sizeof(sm_server_connprop),
		    0);
	KUNIT_EXPECT_FALSE(test,
			   rpcrdma_xchar_ep_call_needs_reply_chunk(&ep,
								   16384));
	KUNIT_EXPECT_TRUE(test,
			  rpcrdma_xchar_ep_call_needs_reply_chunk(&ep,
								  16385));
}

struct sm_inv_param {
	const char	*desc;
	bool		reqreminv;
	u32		handle;
	bool		allowed;
};

static void sm_inv_get_desc(const struct sm_inv_param *param, char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct sm_inv_param sm_inv_vectors[] = {
	{ "REQREMINV FALSE, handle 0", false, 0, false },
	{ "REQREMINV FALSE, handle 0x1234", false, 0x1234, false },
	{ "REQREMINV TRUE, handle 0", true, 0, false },
	{ "REQREMINV TRUE, handle 0x1234", true, 0x1234, true },
};

KUNIT_ARRAY_PARAM(sm_inv_vectors, sm_inv_vectors, sm_inv_get_desc);

static void send_inv_case(struct kunit *test)
{
	const struct sm_inv_param *param = test->param_value;
	const __be32 connprop[] = {
		W(1), W(2), W(4), W(param->reqreminv), W(0),
	};
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	sm_connprop(test, &ep, connprop, sizeof(connprop), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_may_send_inv(&ep,
							    param->handle),
			param->allowed);
}

/* The Reply carries the Call's handle whether or not it invalidates */
static void reply_inv_case(struct kunit *test)
{
	const struct sm_inv_param *param = test->param_value;
	const __be32 connprop[] = {
		W(1), W(2), W(4), W(param->reqreminv), W(0),
	};
	struct rpcrdma_xchar_ep ep;
	bool swi = !param->allowed;

	sm_init(test, &ep);
	sm_connprop(test, &ep, connprop, sizeof(connprop), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_reply_inv(&ep, param->handle,
							 &swi),
			param->handle);
	KUNIT_EXPECT_EQ(test, swi, param->allowed);
}

struct sm_brs_param {
	const char	*desc;
	u32		brs;
	bool		inline_ok;
	bool		chunks_ok;
};

static void sm_brs_get_desc(const struct sm_brs_param *param, char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct sm_brs_param sm_brs_vectors[] = {
	{ "BKREQSUP_NONE", RPCRDMA_XCHAR_BKREQSUP_NONE, false, false },
	{ "BKREQSUP_INLINE", RPCRDMA_XCHAR_BKREQSUP_INLINE, true, false },
	{ "BKREQSUP_GENL", RPCRDMA_XCHAR_BKREQSUP_GENL, true, true },
};

KUNIT_ARRAY_PARAM(sm_brs_vectors, sm_brs_vectors, sm_brs_get_desc);

static void send_backward_case(struct kunit *test)
{
	const struct sm_brs_param *param = test->param_value;
	const __be32 connprop[] = {
		W(1), W(3), W(4), W(param->brs), W(0),
	};
	struct rpcrdma_xchar_ep ep;

	sm_init(test, &ep);
	sm_connprop(test, &ep, connprop, sizeof(connprop), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_may_send_backward(&ep, false),
			param->inline_ok);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_may_send_backward(&ep, true),
			param->chunks_ok);
}

/* Two endpoints through the codec: every message the one sends fits
 * what the other has posted at that moment.
 */
static void two_endpoints_case(struct kunit *test)
{
	static const struct rpcrdma_xchar_prop lower[] = {
		{ RBSIZ, false, 2048 },
	};
	struct rpcrdma_xchar_ep cl, sv;
	struct rpcrdma_xchar_connprop cp;
	struct rpcrdma_xchar_reqprop rq;
	struct rpcrdma_xchar_resprop rs;
	struct rpcrdma_xchar_updprop up;
	struct rpcrdma_xchar_answer ans;
	u8 buf[128];
	u32 accepted;
	int len;

	sm_init(test, &cl);
	sm_init(test, &sv);
	len = rpcrdma_xchar_ep_connprop(&cl, 1, buf, sizeof(buf));
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_connprop(buf, len, &cp),
			RPCRDMA_XCHAR_OK);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_recv_connprop(&sv, &cp), 0);
	len = rpcrdma_xchar_ep_connprop(&sv, 1, buf, sizeof(buf));
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_connprop(buf, len, &cp),
			RPCRDMA_XCHAR_OK);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_recv_connprop(&cl, &cp), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&cl), 4096);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&sv), 4096);

	/* the client asks the server to lower its receives to 2048 */
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_request(&cl, 100, lower, 1), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&cl), 2048);
	len = rpcrdma_xchar_encode_reqprop(buf, sizeof(buf), lower, 1);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_reqprop(buf, len, &rq),
			RPCRDMA_XCHAR_OK);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_recv_reqprop(&sv, 100, &rq,
							    &ans), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_post_size(&sv), 2048);
	len = rpcrdma_xchar_encode_resprop(buf, sizeof(buf), &ans.done,
					   &ans.rej, ans.other, ans.nother);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_resprop(buf, len, &rs),
			RPCRDMA_XCHAR_OK);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_recv_resprop(&cl, ans.xid, &rs,
							    &accepted), 0);
	KUNIT_EXPECT_EQ(test, accepted, BIT(RBSIZ));
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&cl),
			rpcrdma_xchar_ep_post_size(&sv));

	/* the server raises its own again, then tells the client */
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_raise_rbsiz(&sv, 8192), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_receives_posted(&sv, 2048,
							       &ans), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&cl), 2048);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_receives_posted(&sv, 8192,
							       &ans),
			RPCRDMA_XCHAR_ROPT_UPDPROP);
	len = rpcrdma_xchar_encode_updprop(buf, sizeof(buf), ans.other,
					   ans.nother);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_updprop(buf, len, &up),
			RPCRDMA_XCHAR_OK);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_ep_recv_updprop(&cl, &up), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_ep_send_limit(&cl), 8192);
	KUNIT_EXPECT_EQ(test, cl.ignored, 0);
	KUNIT_EXPECT_EQ(test, sv.ignored, 0);
}

static struct kunit_case sm_sender_cases[] = {
	KUNIT_CASE_PARAM(call_pos0_case, sm_size_vectors_gen_params),
	KUNIT_CASE_PARAM(reply_chunk_case, sm_size_vectors_gen_params),
	KUNIT_CASE(call_reply_chunk_case),
	KUNIT_CASE_PARAM(send_inv_case, sm_inv_vectors_gen_params),
	KUNIT_CASE_PARAM(reply_inv_case, sm_inv_vectors_gen_params),
	KUNIT_CASE_PARAM(send_backward_case, sm_brs_vectors_gen_params),
	KUNIT_CASE(two_endpoints_case),
	{}
};

static struct kunit_suite sm_sender_suite = {
	.name		= "rpcrdma_xchar_sender",
	.test_cases	= sm_sender_cases,
};

kunit_test_suites(&sm_peer_suite, &sm_request_suite, &sm_answer_suite,
		  &sm_rbsiz_suite, &sm_refusal_suite, &sm_sender_suite);
