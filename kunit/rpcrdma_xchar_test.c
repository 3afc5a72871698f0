// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the transport property codec of
 * draft-dnoveck-nfsv4-rpcrdma-xcharext-03 and the Version Two headers
 * around it: those of version-two-01, the default, and of the working
 * copy of 2016-11-10 where they differ. Every vector is laid out by
 * hand, word by word, from the drafts' XDR: the encoder is checked
 * against them, never against itself. Received data is always copied
 * to an odd address into a buffer of exactly its length, so the codec
 * runs on unaligned storage and any read past the end lands outside
 * what the test handed over.
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

#include <linux/sunrpc/rpcrdma_xchar.h>

/* One XDR word. Vectors are arrays of them; tests see octets. */
#define W(v)	cpu_to_be32(v)

static u8 *xchar_test_copy_odd(struct kunit *test, const void *data,
			       size_t len)
{
	u8 *p = kunit_kzalloc(test, len + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	if (len)
		memcpy(p + 1, data, len);
	return p + 1;
}

/*
 * Section 2.1: one propval and the pv_data of the three basic
 * properties (Table 1, Sections 3.1 to 3.3)
 */

struct xchar_value_param {
	const char			*desc;
	u32				which;
	const u8			*data;
	u32				len;
	enum rpcrdma_xchar_status	status;
	u32				value;
};

static void xchar_value_get_desc(const struct xchar_value_param *param,
				 char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const __be32 xchar_d_4096[] = { W(4096) };
static const __be32 xchar_d_zero[] = { W(0) };
static const __be32 xchar_d_max[] = { W(0xffffffff) };
static const __be32 xchar_d_true[] = { W(1) };
static const __be32 xchar_d_two[] = { W(2) };
static const __be32 xchar_d_none[] = { W(0) };
static const __be32 xchar_d_genl[] = { W(2) };
static const __be32 xchar_d_three[] = { W(3) };
static const __be32 xchar_d_top_bit[] = { W(0x80000001) };
static const u8 xchar_d_short[] = { 0x00, 0x00, 0x10 };
static const __be32 xchar_d_long[] = { W(8192), W(0xdeadbeef) };

static const struct xchar_value_param xchar_value_vectors[] = {
	{ "RBSIZ 4096", RPCRDMA_XCHAR_PROP_RBSIZ, (const u8 *)xchar_d_4096, 4,
	  RPCRDMA_XCHAR_OK, 4096 },
	{ "RBSIZ 0 is a uint32 like any other", RPCRDMA_XCHAR_PROP_RBSIZ,
	  (const u8 *)xchar_d_zero, 4, RPCRDMA_XCHAR_OK, 0 },
	{ "RBSIZ 0xffffffff", RPCRDMA_XCHAR_PROP_RBSIZ, (const u8 *)xchar_d_max, 4,
	  RPCRDMA_XCHAR_OK, 0xffffffff },
	{ "RBSIZ zero-length: default 4096", RPCRDMA_XCHAR_PROP_RBSIZ,
	  NULL, 0, RPCRDMA_XCHAR_OK, 4096 },
	{ "RBSIZ 1 octet: too short", RPCRDMA_XCHAR_PROP_RBSIZ,
	  xchar_d_short, 1, RPCRDMA_XCHAR_BAD_PROPVAL },
	{ "RBSIZ 2 octets: too short", RPCRDMA_XCHAR_PROP_RBSIZ,
	  xchar_d_short, 2, RPCRDMA_XCHAR_BAD_PROPVAL },
	{ "RBSIZ 3 octets: too short", RPCRDMA_XCHAR_PROP_RBSIZ,
	  xchar_d_short, 3, RPCRDMA_XCHAR_BAD_PROPVAL },
	{ "RBSIZ 8 octets: first word, rest ignored",
	  RPCRDMA_XCHAR_PROP_RBSIZ, (const u8 *)xchar_d_long, 8, RPCRDMA_XCHAR_OK, 8192 },
	{ "REQREMINV TRUE", RPCRDMA_XCHAR_PROP_REQREMINV, (const u8 *)xchar_d_true, 4,
	  RPCRDMA_XCHAR_OK, 1 },
	{ "REQREMINV FALSE", RPCRDMA_XCHAR_PROP_REQREMINV, (const u8 *)xchar_d_zero, 4,
	  RPCRDMA_XCHAR_OK, 0 },
	{ "REQREMINV zero-length: default FALSE",
	  RPCRDMA_XCHAR_PROP_REQREMINV, NULL, 0, RPCRDMA_XCHAR_OK, 0 },
	{ "REQREMINV 2 is no XDR bool", RPCRDMA_XCHAR_PROP_REQREMINV,
	  (const u8 *)xchar_d_two, 4, RPCRDMA_XCHAR_BAD_PROPVAL },
	{ "REQREMINV 0x80000001 is no XDR bool",
	  RPCRDMA_XCHAR_PROP_REQREMINV, (const u8 *)xchar_d_top_bit, 4,
	  RPCRDMA_XCHAR_BAD_PROPVAL },
	{ "REQREMINV 3 octets: too short", RPCRDMA_XCHAR_PROP_REQREMINV,
	  xchar_d_short, 3, RPCRDMA_XCHAR_BAD_PROPVAL },
	{ "BRS NONE", RPCRDMA_XCHAR_PROP_BRS, (const u8 *)xchar_d_none, 4,
	  RPCRDMA_XCHAR_OK, RPCRDMA_XCHAR_BKREQSUP_NONE },
	{ "BRS INLINE", RPCRDMA_XCHAR_PROP_BRS, (const u8 *)xchar_d_true, 4,
	  RPCRDMA_XCHAR_OK, RPCRDMA_XCHAR_BKREQSUP_INLINE },
	{ "BRS GENL", RPCRDMA_XCHAR_PROP_BRS, (const u8 *)xchar_d_genl, 4,
	  RPCRDMA_XCHAR_OK, RPCRDMA_XCHAR_BKREQSUP_GENL },
	{ "BRS zero-length: default INLINE", RPCRDMA_XCHAR_PROP_BRS, NULL, 0,
	  RPCRDMA_XCHAR_OK, RPCRDMA_XCHAR_BKREQSUP_INLINE },
	{ "BRS 3 is no bkreqsup", RPCRDMA_XCHAR_PROP_BRS, (const u8 *)xchar_d_three, 4,
	  RPCRDMA_XCHAR_BAD_PROPVAL },
	{ "BRS 2 octets: too short", RPCRDMA_XCHAR_PROP_BRS, xchar_d_short,
	  2, RPCRDMA_XCHAR_BAD_PROPVAL },
	{ "propid 0: unknown, skipped", 0, (const u8 *)xchar_d_4096, 4,
	  RPCRDMA_XCHAR_UNKNOWN },
	{ "propid 4: unknown, skipped", 4, (const u8 *)xchar_d_three, 4,
	  RPCRDMA_XCHAR_UNKNOWN },
	{ "unknown propid with 3 octets: no error", 0x1234, xchar_d_short, 3,
	  RPCRDMA_XCHAR_UNKNOWN },
	{ "experimental 0xffffff00: unknown", 0xffffff00, (const u8 *)xchar_d_4096, 4,
	  RPCRDMA_XCHAR_UNKNOWN },
	{ "experimental 0xffffffff zero-length: unknown", 0xffffffff, NULL,
	  0, RPCRDMA_XCHAR_UNKNOWN },
};

KUNIT_ARRAY_PARAM(xchar_value_vectors, xchar_value_vectors,
		  xchar_value_get_desc);

static void prop_value_case(struct kunit *test)
{
	const struct xchar_value_param *param = test->param_value;
	struct rpcrdma_xchar_propval pv = {
		.which	= param->which,
		.len	= param->len,
	};
	u32 value = 0xa5a5a5a5;

	pv.data = xchar_test_copy_odd(test, param->data, param->len);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_prop_value(&pv, &value),
			param->status);
	if (param->status == RPCRDMA_XCHAR_OK)
		KUNIT_EXPECT_EQ(test, value, param->value);
	else
		KUNIT_EXPECT_EQ(test, value, 0xa5a5a5a5);
}

struct xchar_propval_param {
	const char			*desc;
	const u8			*wire;
	size_t				len;
	enum rpcrdma_xchar_status	status;
	u32				which;
	u32				pv_len;
	/* octets the cursor must have consumed */
	size_t				used;
};

static void xchar_propval_get_desc(const struct xchar_propval_param *param,
				   char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const __be32 xchar_pv_rbsiz[] = { W(1), W(4), W(4096) };
static const __be32 xchar_pv_empty[] = { W(2), W(0) };
/* "abcde", padded */
static const __be32 xchar_pv_pad5[] = {
	W(0xffffff01), W(5), W(0x61626364), W(0x65000000),
};

static const __be32 xchar_pv_then_more[] = { W(3), W(4), W(2), W(0x55) };
static const __be32 xchar_pv_past_end[] = { W(1), W(8), W(4096) };
static const __be32 xchar_pv_huge[] = { W(0x77), W(0xffffffff), W(0) };
static const __be32 xchar_pv_huge_minus3[] = { W(0x77), W(0xfffffffd), W(0) };
static const __be32 xchar_pv_no_len[] = { W(1) };

static const struct xchar_propval_param xchar_propval_vectors[] = {
	{ "RBSIZ 4096", (const u8 *)xchar_pv_rbsiz, sizeof(xchar_pv_rbsiz),
	  RPCRDMA_XCHAR_OK, 1, 4, 12 },
	{ "zero-length pv_data", (const u8 *)xchar_pv_empty, sizeof(xchar_pv_empty),
	  RPCRDMA_XCHAR_OK, 2, 0, 8 },
	{ "5 octets padded to 8", (const u8 *)xchar_pv_pad5, sizeof(xchar_pv_pad5),
	  RPCRDMA_XCHAR_OK, 0xffffff01, 5, 16 },
	{ "5 octets, padding missing", (const u8 *)xchar_pv_pad5, 13,
	  RPCRDMA_XCHAR_BAD_XDR },
	{ "stops after itself", (const u8 *)xchar_pv_then_more,
	  sizeof(xchar_pv_then_more), RPCRDMA_XCHAR_OK, 3, 4, 12 },
	{ "pv_data past the message", (const u8 *)xchar_pv_past_end,
	  sizeof(xchar_pv_past_end), RPCRDMA_XCHAR_BAD_XDR },
	{ "pv_data length 0xffffffff", (const u8 *)xchar_pv_huge, sizeof(xchar_pv_huge),
	  RPCRDMA_XCHAR_BAD_XDR },
	{ "pv_data length 0xfffffffd (padding wraps)", (const u8 *)xchar_pv_huge_minus3,
	  sizeof(xchar_pv_huge_minus3), RPCRDMA_XCHAR_BAD_XDR },
	{ "no pv_data length", (const u8 *)xchar_pv_no_len, sizeof(xchar_pv_no_len),
	  RPCRDMA_XCHAR_BAD_XDR },
	{ "empty message", (const u8 *)xchar_pv_rbsiz, 0, RPCRDMA_XCHAR_BAD_XDR },
	{ "3 octets", (const u8 *)xchar_pv_rbsiz, 3, RPCRDMA_XCHAR_BAD_XDR },
};

KUNIT_ARRAY_PARAM(xchar_propval_vectors, xchar_propval_vectors,
		  xchar_propval_get_desc);

static void propval_decode_case(struct kunit *test)
{
	const struct xchar_propval_param *param = test->param_value;
	struct rpcrdma_xchar_propval pv = { };
	struct rpcrdma_xchar_xdr xdr;
	u8 *buf;

	buf = xchar_test_copy_odd(test, param->wire, param->len);
	rpcrdma_xchar_xdr_init(&xdr, buf, param->len);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_propval(&xdr, &pv),
			param->status);
	if (param->status != RPCRDMA_XCHAR_OK)
		return;
	KUNIT_EXPECT_EQ(test, pv.which, param->which);
	KUNIT_EXPECT_EQ(test, pv.len, param->pv_len);
	KUNIT_EXPECT_PTR_EQ(test, pv.data, (const u8 *)buf + 8);
	KUNIT_EXPECT_EQ(test, param->len - xdr.left, param->used);
	KUNIT_EXPECT_PTR_EQ(test, xdr.p, (const u8 *)buf + param->used);
}

static void defaults_case(struct kunit *test)
{
	struct rpcrdma_xchar_props val;

	memset(&val, 0xff, sizeof(val));
	rpcrdma_xchar_defaults(&val);
	/* Table 1 */
	KUNIT_EXPECT_EQ(test, val.rbsiz, 4096);
	KUNIT_EXPECT_FALSE(test, val.reqreminv);
	KUNIT_EXPECT_EQ(test, val.brs, RPCRDMA_XCHAR_BKREQSUP_INLINE);
}

static struct kunit_case xchar_propval_cases[] = {
	KUNIT_CASE_PARAM(prop_value_case, xchar_value_vectors_gen_params),
	KUNIT_CASE_PARAM(propval_decode_case,
			 xchar_propval_vectors_gen_params),
	KUNIT_CASE(defaults_case),
	{}
};

static struct kunit_suite xchar_propval_suite = {
	.name		= "rpcrdma_xchar_propval",
	.test_cases	= xchar_propval_cases,
};

/*
 * Section 2.1: propvalset and propvalsubset
 */

/* Where each basic property sits in a decoded set; -1 for absent */
struct xchar_set_param {
	const char			*desc;
	const u8			*wire;
	size_t				len;
	enum rpcrdma_xchar_status	status;
	u32				count;
	int				pos[RPCRDMA_XCHAR_PROP_MAX + 1];
	u32				dflt;
	struct rpcrdma_xchar_props	val;
	u32				err_pos;
	u32				dup;
};

static void xchar_set_get_desc(const struct xchar_set_param *param,
			       char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const __be32 xchar_set_empty[] = { W(0) };

static const __be32 xchar_set_three[] = {
	W(3),
	W(1), W(4), W(4096),		/* PROP_RBSIZ 4096 */
	W(2), W(4), W(1),		/* PROP_REQREMINV TRUE */
	W(3), W(4), W(2),		/* PROP_BRS BKREQSUP_GENL */
};

/* Unknown propvals are counted: subsets name positions */
static const __be32 xchar_set_unknown_between[] = {
	W(4),
	W(0xffffff01), W(5), W(0x61626364), W(0x65000000), /* "abcde" */
	W(1), W(4), W(8192),		/* PROP_RBSIZ 8192, position 1 */
	W(9), W(0),			/* propid 9, zero-length */
	W(3), W(4), W(0),		/* PROP_BRS NONE, position 3 */
};

static const __be32 xchar_set_defaults[] = {
	W(2),
	W(2), W(0),			/* PROP_REQREMINV default */
	W(1), W(0),			/* PROP_RBSIZ default */
};

static const __be32 xchar_set_dup[] = {
	W(2),
	W(1), W(4), W(4096),
	W(1), W(4), W(8192),
};

/* A property named again is judged like any other propval */
static const __be32 xchar_set_dup_bad_bool[] = {
	W(3),
	W(2), W(4), W(1),
	W(1), W(4), W(4096),
	W(2), W(4), W(2),
};

static const __be32 xchar_set_dup_unknown[] = {
	W(2),
	W(7), W(4), W(1),
	W(7), W(4), W(2),
};

static const __be32 xchar_set_bad_bool_second[] = {
	W(2),
	W(1), W(4), W(2048),
	W(2), W(4), W(7),		/* not an XDR bool */
};

static const __be32 xchar_set_short_brs[] = {
	W(1),
	W(3), W(2), W(0x00010000),	/* 2 octets: too short */
};

static const __be32 xchar_set_unknown_past_end[] = {
	W(2),
	W(1), W(4), W(4096),
	W(0x99), W(12), W(1),		/* 12 octets announced, 4 sent */
};

static const __be32 xchar_set_count_huge[] = {
	W(0xffffffff),
	W(1), W(4), W(4096),
};

static const __be32 xchar_set_count_short[] = {
	W(3),
	W(1), W(4), W(4096),
	W(2), W(4), W(1),
};

#define XCHAR_POS(r, i, b)	{ -1, (r), (i), (b) }
#define XCHAR_VAL(r, i, b)	{ .rbsiz = (r), .reqreminv = (i), .brs = (b) }
#define XCHAR_DEFAULTS		XCHAR_VAL(4096, false, 1)

static const struct xchar_set_param xchar_set_vectors[] = {
	{ "empty set", (const u8 *)xchar_set_empty, sizeof(xchar_set_empty),
	  RPCRDMA_XCHAR_OK, 0, XCHAR_POS(-1, -1, -1), 0, XCHAR_DEFAULTS },
	{ "RBSIZ, REQREMINV, BRS", (const u8 *)xchar_set_three, sizeof(xchar_set_three),
	  RPCRDMA_XCHAR_OK, 3, XCHAR_POS(0, 1, 2), 0,
	  XCHAR_VAL(4096, true, 2) },
	{ "unknown and experimental propvals between",
	  (const u8 *)xchar_set_unknown_between, sizeof(xchar_set_unknown_between),
	  RPCRDMA_XCHAR_OK, 4, XCHAR_POS(1, -1, 3), 0,
	  XCHAR_VAL(8192, false, 0) },
	{ "zero-length values are defaults", (const u8 *)xchar_set_defaults,
	  sizeof(xchar_set_defaults), RPCRDMA_XCHAR_OK, 2,
	  XCHAR_POS(1, 0, -1), BIT(1) | BIT(2), XCHAR_DEFAULTS },
	{ "a known propid twice: the first counts", (const u8 *)xchar_set_dup,
	  sizeof(xchar_set_dup), RPCRDMA_XCHAR_OK, 2, XCHAR_POS(0, -1, -1), 0,
	  XCHAR_DEFAULTS, 0, BIT(1) },
	{ "REQREMINV again, as 2: no XDR bool",
	  (const u8 *)xchar_set_dup_bad_bool, sizeof(xchar_set_dup_bad_bool),
	  RPCRDMA_XCHAR_BAD_PROPVAL, 3, XCHAR_POS(1, 0, -1), 0,
	  XCHAR_DEFAULTS, 2 },
	{ "an unknown propid twice: skipped", (const u8 *)xchar_set_dup_unknown,
	  sizeof(xchar_set_dup_unknown), RPCRDMA_XCHAR_OK, 2,
	  XCHAR_POS(-1, -1, -1), 0, XCHAR_DEFAULTS },
	{ "invalid bool at position 1", (const u8 *)xchar_set_bad_bool_second,
	  sizeof(xchar_set_bad_bool_second), RPCRDMA_XCHAR_BAD_PROPVAL, 2,
	  XCHAR_POS(0, -1, -1), 0, XCHAR_DEFAULTS, 1 },
	{ "BRS of 2 octets", (const u8 *)xchar_set_short_brs, sizeof(xchar_set_short_brs),
	  RPCRDMA_XCHAR_BAD_PROPVAL, 1, XCHAR_POS(-1, -1, -1), 0,
	  XCHAR_DEFAULTS, 0 },
	{ "unknown propval past the message", (const u8 *)xchar_set_unknown_past_end,
	  sizeof(xchar_set_unknown_past_end), RPCRDMA_XCHAR_BAD_XDR, 2,
	  XCHAR_POS(0, -1, -1), 0, XCHAR_DEFAULTS, 1 },
	{ "count 0xffffffff", (const u8 *)xchar_set_count_huge,
	  sizeof(xchar_set_count_huge), RPCRDMA_XCHAR_BAD_XDR, 0xffffffff,
	  XCHAR_POS(-1, -1, -1), 0, XCHAR_DEFAULTS, 1 },
	{ "count 3, two propvals", (const u8 *)xchar_set_count_short,
	  sizeof(xchar_set_count_short), RPCRDMA_XCHAR_BAD_XDR, 3,
	  XCHAR_POS(0, 1, -1), 0, XCHAR_DEFAULTS, 2 },
	{ "no count word", (const u8 *)xchar_set_three, 3, RPCRDMA_XCHAR_BAD_XDR, 0,
	  XCHAR_POS(-1, -1, -1), 0, XCHAR_DEFAULTS },
};

KUNIT_ARRAY_PARAM(xchar_set_vectors, xchar_set_vectors, xchar_set_get_desc);

static void propset_decode_case(struct kunit *test)
{
	const struct xchar_set_param *param = test->param_value;
	struct rpcrdma_xchar_propset set;
	struct rpcrdma_xchar_xdr xdr;
	u32 which;
	u8 *buf;

	buf = xchar_test_copy_odd(test, param->wire, param->len);
	rpcrdma_xchar_xdr_init(&xdr, buf, param->len);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_propset(&xdr, &set),
			param->status);
	KUNIT_EXPECT_EQ(test, set.count, param->count);
	if (param->status != RPCRDMA_XCHAR_OK) {
		KUNIT_EXPECT_EQ(test, set.err_pos, param->err_pos);
		return;
	}
	KUNIT_EXPECT_EQ(test, xdr.left, 0);
	KUNIT_EXPECT_EQ(test, set.dflt, param->dflt);
	KUNIT_EXPECT_EQ(test, set.dup, param->dup);
	for (which = 1; which <= RPCRDMA_XCHAR_PROP_MAX; which++) {
		KUNIT_EXPECT_EQ_MSG(test,
				    rpcrdma_xchar_propset_has(&set, which),
				    param->pos[which] >= 0, "propid %u", which);
		if (param->pos[which] >= 0)
			KUNIT_EXPECT_EQ_MSG(test, set.pos[which],
					    (u32)param->pos[which],
					    "propid %u", which);
	}
	KUNIT_EXPECT_EQ(test, set.val.rbsiz, param->val.rbsiz);
	KUNIT_EXPECT_EQ(test, set.val.reqreminv, param->val.reqreminv);
	KUNIT_EXPECT_EQ(test, set.val.brs, param->val.brs);
}

static void propset_has_case(struct kunit *test)
{
	struct rpcrdma_xchar_propset set = { .present = ~0U };

	/* Only basic properties can be "held"; present bits say nothing
	 * about propid 0 or about propids past the last one.
	 */
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_propset_has(&set, 0));
	KUNIT_EXPECT_TRUE(test, rpcrdma_xchar_propset_has(&set, 1));
	KUNIT_EXPECT_TRUE(test, rpcrdma_xchar_propset_has(&set, 3));
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_propset_has(&set, 4));
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_propset_has(&set, 31));
	KUNIT_EXPECT_FALSE(test,
			   rpcrdma_xchar_propset_has(&set, 0xffffffff));
}

/* Positions 0, 31 and 34: bit N mod 32 of word N div 32, bit 0 being
 * the least significant of the XDR uint32 (0x00000001)
 */
static const __be32 xchar_subset_two_words[] = {
	W(2), W(0x80000001), W(0x00000004),
};

struct xchar_bit_param {
	u32	pos;
	bool	set;
};

static void xchar_bit_get_desc(const struct xchar_bit_param *param,
			       char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "position %u %s", param->pos,
		 param->set ? "in" : "out");
}

static const struct xchar_bit_param xchar_bit_vectors[] = {
	{ 0, true }, { 1, false }, { 30, false }, { 31, true },
	{ 32, false }, { 33, false }, { 34, true }, { 35, false },
	{ 63, false },
	/* words beyond the last one sent are zero */
	{ 64, false }, { 66, false }, { 95, false }, { 4096, false },
	{ 0xffffffff, false },
};

KUNIT_ARRAY_PARAM(xchar_bit_vectors, xchar_bit_vectors, xchar_bit_get_desc);

static void subset_bit_case(struct kunit *test)
{
	const struct xchar_bit_param *param = test->param_value;
	struct rpcrdma_xchar_subset sub;
	struct rpcrdma_xchar_xdr xdr;
	u8 *buf;

	buf = xchar_test_copy_odd(test, (const u8 *)xchar_subset_two_words,
				  sizeof(xchar_subset_two_words));
	rpcrdma_xchar_xdr_init(&xdr, buf, sizeof(xchar_subset_two_words));
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_subset(&xdr, &sub),
			RPCRDMA_XCHAR_OK);
	KUNIT_EXPECT_EQ(test, sub.nwords, 2);
	KUNIT_EXPECT_EQ(test, xdr.left, 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_subset_test(&sub, param->pos),
			param->set);
}

static void subset_empty_case(struct kunit *test)
{
	static const __be32 wire[] = { W(0) };
	struct rpcrdma_xchar_subset sub;
	struct rpcrdma_xchar_xdr xdr;
	u8 *buf;

	buf = xchar_test_copy_odd(test, wire, sizeof(wire));
	rpcrdma_xchar_xdr_init(&xdr, buf, sizeof(wire));
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_subset(&xdr, &sub),
			RPCRDMA_XCHAR_OK);
	KUNIT_EXPECT_EQ(test, sub.nwords, 0);
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_subset_test(&sub, 0));
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_subset_test(&sub, 31));
}

static void subset_truncated_case(struct kunit *test)
{
	static const __be32 huge[] = { W(0x40000000), W(1) };
	struct rpcrdma_xchar_subset sub;
	struct rpcrdma_xchar_xdr xdr;
	size_t len;
	u8 *buf;

	/* Every prefix of a two-word subset, and a count whose words
	 * would take 4 GiB (count * 4 wraps a u32 to 0).
	 */
	for (len = 0; len < sizeof(xchar_subset_two_words); len++) {
		buf = xchar_test_copy_odd(test, (const u8 *)xchar_subset_two_words, len);
		rpcrdma_xchar_xdr_init(&xdr, buf, len);
		KUNIT_EXPECT_EQ_MSG(test,
				    rpcrdma_xchar_decode_subset(&xdr, &sub),
				    RPCRDMA_XCHAR_BAD_XDR, "%zu octets", len);
	}
	buf = xchar_test_copy_odd(test, huge, sizeof(huge));
	rpcrdma_xchar_xdr_init(&xdr, buf, sizeof(huge));
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_decode_subset(&xdr, &sub),
			RPCRDMA_XCHAR_BAD_XDR);
}

static void mask_case(struct kunit *test)
{
	struct rpcrdma_xchar_mask mask = { };

	rpcrdma_xchar_mask_set(&mask, 0);
	rpcrdma_xchar_mask_set(&mask, 33);
	rpcrdma_xchar_mask_set(&mask, RPCRDMA_XCHAR_SET_MAX - 1);
	/* beyond what a mask holds: ignored, never written */
	rpcrdma_xchar_mask_set(&mask, RPCRDMA_XCHAR_SET_MAX);

	KUNIT_EXPECT_EQ(test, mask.w[0], 0x00000001);
	KUNIT_EXPECT_EQ(test, mask.w[1], 0x00000002);
	KUNIT_EXPECT_EQ(test, mask.w[RPCRDMA_XCHAR_MASK_WORDS - 1],
			0x80000000);
	KUNIT_EXPECT_TRUE(test, rpcrdma_xchar_mask_test(&mask, 33));
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_mask_test(&mask, 32));
	KUNIT_EXPECT_FALSE(test,
			   rpcrdma_xchar_mask_test(&mask,
						   RPCRDMA_XCHAR_SET_MAX));
}

static struct kunit_case xchar_set_cases[] = {
	KUNIT_CASE_PARAM(propset_decode_case, xchar_set_vectors_gen_params),
	KUNIT_CASE(propset_has_case),
	KUNIT_CASE_PARAM(subset_bit_case, xchar_bit_vectors_gen_params),
	KUNIT_CASE(subset_empty_case),
	KUNIT_CASE(subset_truncated_case),
	KUNIT_CASE(mask_case),
	{}
};

static struct kunit_suite xchar_set_suite = {
	.name		= "rpcrdma_xchar_set",
	.test_cases	= xchar_set_cases,
};

/*
 * Section 4: optinfo_connprop, _reqprop, _resprop and _updprop
 */

/* What an endpoint with 4096-octet receives, remote invalidation and
 * inline backward requests says at connection: RBSIZ may change,
 * REQREMINV and BRS will not (opticonnpr_nochg = positions 1 and 2).
 */
static const __be32 xchar_connprop_vec[] = {
	W(3),
	W(1), W(4), W(4096),
	W(2), W(4), W(1),
	W(3), W(4), W(1),
	W(1), W(0x00000006),
};

static const __be32 xchar_connprop_empty[] = { W(0), W(0) };

/* A two-word nochg whose only bit is position 33 (bit 1 of word 1),
 * past the end of this 2-element set: decoded, and names nothing
 */
static const __be32 xchar_connprop_wide[] = {
	W(2),
	W(0xffffff10), W(0),
	W(1), W(4), W(65536),
	W(2), W(0), W(0x00000002),
};

static const __be32 xchar_reqprop_vec[] = {
	W(1),
	W(1), W(4), W(1024),		/* lower RBSIZ to 1024 */
};

/* Request positions 0 done, 1 rejected; RBSIZ now 2048 */
static const __be32 xchar_resprop_vec[] = {
	W(1), W(0x00000001),
	W(1), W(0x00000002),
	W(1),
	W(1), W(4), W(2048),
};

static const __be32 xchar_updprop_vec[] = {
	W(1),
	W(1), W(4), W(16384),
};

/* The optinfo of each message, with octets after the structure */
static const __be32 xchar_updprop_trailing[] = {
	W(1),
	W(1), W(4), W(16384),
	W(0xdeadbeef),
};

struct xchar_msg_param {
	const char	*desc;
	u32		opttype;
	const u8	*wire;
	size_t		len;
};

static void xchar_msg_get_desc(const struct xchar_msg_param *param,
			       char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct xchar_msg_param xchar_msg_vectors[] = {
	{ "CONNPROP RBSIZ/REQREMINV/BRS, nochg 1,2",
	  RPCRDMA_XCHAR_ROPT_CONNPROP, (const u8 *)xchar_connprop_vec,
	  sizeof(xchar_connprop_vec) },
	{ "CONNPROP empty", RPCRDMA_XCHAR_ROPT_CONNPROP,
	  (const u8 *)xchar_connprop_empty, sizeof(xchar_connprop_empty) },
	{ "CONNPROP two-word nochg", RPCRDMA_XCHAR_ROPT_CONNPROP,
	  (const u8 *)xchar_connprop_wide, sizeof(xchar_connprop_wide) },
	{ "REQPROP RBSIZ 1024", RPCRDMA_XCHAR_ROPT_REQPROP,
	  (const u8 *)xchar_reqprop_vec, sizeof(xchar_reqprop_vec) },
	{ "RESPROP done 0, rej 1, RBSIZ 2048", RPCRDMA_XCHAR_ROPT_RESPROP,
	  (const u8 *)xchar_resprop_vec, sizeof(xchar_resprop_vec) },
	{ "UPDPROP RBSIZ 16384", RPCRDMA_XCHAR_ROPT_UPDPROP,
	  (const u8 *)xchar_updprop_vec, sizeof(xchar_updprop_vec) },
};

KUNIT_ARRAY_PARAM(xchar_msg_vectors, xchar_msg_vectors, xchar_msg_get_desc);

/* Decode @len octets of @wire as optinfo of @opttype */
static enum rpcrdma_xchar_status xchar_test_decode(u32 opttype,
						   const u8 *wire, size_t len)
{
	struct rpcrdma_xchar_connprop cp;
	struct rpcrdma_xchar_reqprop rq;
	struct rpcrdma_xchar_resprop rs;
	struct rpcrdma_xchar_updprop up;

	switch (opttype) {
	case RPCRDMA_XCHAR_ROPT_CONNPROP:
		return rpcrdma_xchar_decode_connprop(wire, len, &cp);
	case RPCRDMA_XCHAR_ROPT_REQPROP:
		return rpcrdma_xchar_decode_reqprop(wire, len, &rq);
	case RPCRDMA_XCHAR_ROPT_RESPROP:
		return rpcrdma_xchar_decode_resprop(wire, len, &rs);
	}
	return rpcrdma_xchar_decode_updprop(wire, len, &up);
}

static void msg_decodes_case(struct kunit *test)
{
	const struct xchar_msg_param *param = test->param_value;
	u8 *buf = xchar_test_copy_odd(test, param->wire, param->len);

	KUNIT_EXPECT_EQ(test, xchar_test_decode(param->opttype, buf,
						param->len),
			RPCRDMA_XCHAR_OK);
}

static void msg_truncated_case(struct kunit *test)
{
	const struct xchar_msg_param *param = test->param_value;
	size_t len;
	u8 *buf;

	/* Every proper prefix ends inside some XDR item: each must be
	 * an XDR error, and none may read past its own length.
	 */
	for (len = 0; len < param->len; len++) {
		buf = xchar_test_copy_odd(test, param->wire, len);
		KUNIT_EXPECT_EQ_MSG(test,
				    xchar_test_decode(param->opttype, buf, len),
				    RPCRDMA_XCHAR_BAD_XDR, "%zu of %zu octets",
				    len, param->len);
	}
}

static void connprop_fields_case(struct kunit *test)
{
	struct rpcrdma_xchar_connprop msg;
	u8 *buf;

	buf = xchar_test_copy_odd(test, (const u8 *)xchar_connprop_vec,
				  sizeof(xchar_connprop_vec));
	KUNIT_ASSERT_EQ(test,
			rpcrdma_xchar_decode_connprop(buf,
						      sizeof(xchar_connprop_vec),
						      &msg),
			RPCRDMA_XCHAR_OK);
	KUNIT_EXPECT_EQ(test, msg.start.count, 3);
	KUNIT_EXPECT_EQ(test, msg.start.val.rbsiz, 4096);
	KUNIT_EXPECT_TRUE(test, msg.start.val.reqreminv);
	KUNIT_EXPECT_EQ(test, msg.start.val.brs,
			RPCRDMA_XCHAR_BKREQSUP_INLINE);
	KUNIT_EXPECT_EQ(test, msg.nochg.nwords, 1);
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_subset_test(&msg.nochg, 0));
	KUNIT_EXPECT_TRUE(test, rpcrdma_xchar_subset_test(&msg.nochg, 1));
	KUNIT_EXPECT_TRUE(test, rpcrdma_xchar_subset_test(&msg.nochg, 2));
}

static void connprop_wide_case(struct kunit *test)
{
	struct rpcrdma_xchar_connprop msg;
	u8 *buf;

	buf = xchar_test_copy_odd(test, (const u8 *)xchar_connprop_wide,
				  sizeof(xchar_connprop_wide));
	KUNIT_ASSERT_EQ(test,
			rpcrdma_xchar_decode_connprop(buf,
						      sizeof(xchar_connprop_wide),
						      &msg),
			RPCRDMA_XCHAR_OK);
	KUNIT_EXPECT_EQ(test, msg.start.count, 2);
	KUNIT_EXPECT_EQ(test, msg.start.pos[RPCRDMA_XCHAR_PROP_RBSIZ], 1);
	KUNIT_EXPECT_EQ(test, msg.start.val.rbsiz, 65536);
	/* the second word of a two-word subset whose first is zero */
	KUNIT_EXPECT_EQ(test, msg.nochg.nwords, 2);
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_subset_test(&msg.nochg, 1));
	KUNIT_EXPECT_TRUE(test, rpcrdma_xchar_subset_test(&msg.nochg, 33));
}

static void resprop_fields_case(struct kunit *test)
{
	struct rpcrdma_xchar_resprop msg;
	u8 *buf;

	buf = xchar_test_copy_odd(test, (const u8 *)xchar_resprop_vec,
				  sizeof(xchar_resprop_vec));
	KUNIT_ASSERT_EQ(test,
			rpcrdma_xchar_decode_resprop(buf,
						     sizeof(xchar_resprop_vec),
						     &msg),
			RPCRDMA_XCHAR_OK);
	KUNIT_EXPECT_TRUE(test, rpcrdma_xchar_subset_test(&msg.done, 0));
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_subset_test(&msg.done, 1));
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_subset_test(&msg.rej, 0));
	KUNIT_EXPECT_TRUE(test, rpcrdma_xchar_subset_test(&msg.rej, 1));
	KUNIT_EXPECT_EQ(test, msg.other.count, 1);
	KUNIT_EXPECT_EQ(test, msg.other.val.rbsiz, 2048);
}

static void reqprop_updprop_fields_case(struct kunit *test)
{
	struct rpcrdma_xchar_reqprop rq;
	struct rpcrdma_xchar_updprop up;
	u8 *buf;

	buf = xchar_test_copy_odd(test, (const u8 *)xchar_reqprop_vec,
				  sizeof(xchar_reqprop_vec));
	KUNIT_ASSERT_EQ(test,
			rpcrdma_xchar_decode_reqprop(buf,
						     sizeof(xchar_reqprop_vec),
						     &rq),
			RPCRDMA_XCHAR_OK);
	KUNIT_EXPECT_EQ(test, rq.want.val.rbsiz, 1024);
	KUNIT_EXPECT_TRUE(test, rpcrdma_xchar_propset_has(&rq.want, 1));
	KUNIT_EXPECT_FALSE(test, rpcrdma_xchar_propset_has(&rq.want, 2));

	/* octets after the structure, inside rdma_optinfo: ignored */
	buf = xchar_test_copy_odd(test, (const u8 *)xchar_updprop_trailing,
				  sizeof(xchar_updprop_trailing));
	KUNIT_ASSERT_EQ(test,
			rpcrdma_xchar_decode_updprop(buf,
						     sizeof(xchar_updprop_trailing),
						     &up),
			RPCRDMA_XCHAR_OK);
	KUNIT_EXPECT_EQ(test, up.now.val.rbsiz, 16384);
}

static void msg_bad_propval_case(struct kunit *test)
{
	/* a REQPROP asking for REQREMINV = 5: an XDR error, not skipped */
	static const __be32 wire[] = { W(1), W(2), W(4), W(5) };
	struct rpcrdma_xchar_reqprop msg;
	u8 *buf = xchar_test_copy_odd(test, wire, sizeof(wire));

	KUNIT_EXPECT_EQ(test,
			rpcrdma_xchar_decode_reqprop(buf, sizeof(wire), &msg),
			RPCRDMA_XCHAR_BAD_PROPVAL);
}

static struct kunit_case xchar_msg_cases[] = {
	KUNIT_CASE_PARAM(msg_decodes_case, xchar_msg_vectors_gen_params),
	KUNIT_CASE_PARAM(msg_truncated_case, xchar_msg_vectors_gen_params),
	KUNIT_CASE(connprop_fields_case),
	KUNIT_CASE(connprop_wide_case),
	KUNIT_CASE(resprop_fields_case),
	KUNIT_CASE(reqprop_updprop_fields_case),
	KUNIT_CASE(msg_bad_propval_case),
	{}
};

static struct kunit_suite xchar_msg_suite = {
	.name		= "rpcrdma_xchar_msg",
	.test_cases	= xchar_msg_cases,
};

/*
 * Encoding: the same messages, produced by the encoders
 */

static const struct rpcrdma_xchar_prop xchar_p_connprop[] = {
	{ RPCRDMA_XCHAR_PROP_RBSIZ, false, 4096 },
	{ RPCRDMA_XCHAR_PROP_REQREMINV, false, 1 },
	{ RPCRDMA_XCHAR_PROP_BRS, false, RPCRDMA_XCHAR_BKREQSUP_INLINE },
};

static const struct rpcrdma_xchar_prop xchar_p_req1024[] = {
	{ RPCRDMA_XCHAR_PROP_RBSIZ, false, 1024 },
};

static const struct rpcrdma_xchar_prop xchar_p_2048[] = {
	{ RPCRDMA_XCHAR_PROP_RBSIZ, false, 2048 },
};

static const struct rpcrdma_xchar_prop xchar_p_16384[] = {
	{ RPCRDMA_XCHAR_PROP_RBSIZ, false, 16384 },
};

static const struct rpcrdma_xchar_prop xchar_p_wide[] = {
	{ 0xffffff10, true, 0 },
	{ RPCRDMA_XCHAR_PROP_RBSIZ, false, 65536 },
};

/* Build the message of @opttype @param names into @buf */
static int xchar_test_encode(u32 opttype, u8 *buf, size_t len)
{
	struct rpcrdma_xchar_mask nochg = { }, done = { }, rej = { };

	switch (opttype) {
	case RPCRDMA_XCHAR_ROPT_CONNPROP:
		rpcrdma_xchar_mask_set(&nochg, 1);
		rpcrdma_xchar_mask_set(&nochg, 2);
		return rpcrdma_xchar_encode_connprop(buf, len,
						     xchar_p_connprop, 3,
						     &nochg);
	case RPCRDMA_XCHAR_ROPT_REQPROP:
		return rpcrdma_xchar_encode_reqprop(buf, len, xchar_p_req1024,
						    1);
	case RPCRDMA_XCHAR_ROPT_RESPROP:
		rpcrdma_xchar_mask_set(&done, 0);
		rpcrdma_xchar_mask_set(&rej, 1);
		return rpcrdma_xchar_encode_resprop(buf, len, &done, &rej,
						    xchar_p_2048, 1);
	}
	return rpcrdma_xchar_encode_updprop(buf, len, xchar_p_16384, 1);
}

/* The vectors the encoders reproduce, one per message type */
static const struct xchar_msg_param xchar_enc_vectors[] = {
	{ "CONNPROP RBSIZ/REQREMINV/BRS, nochg 1,2",
	  RPCRDMA_XCHAR_ROPT_CONNPROP, (const u8 *)xchar_connprop_vec,
	  sizeof(xchar_connprop_vec) },
	{ "REQPROP RBSIZ 1024", RPCRDMA_XCHAR_ROPT_REQPROP,
	  (const u8 *)xchar_reqprop_vec, sizeof(xchar_reqprop_vec) },
	{ "RESPROP done 0, rej 1, RBSIZ 2048", RPCRDMA_XCHAR_ROPT_RESPROP,
	  (const u8 *)xchar_resprop_vec, sizeof(xchar_resprop_vec) },
	{ "UPDPROP RBSIZ 16384", RPCRDMA_XCHAR_ROPT_UPDPROP,
	  (const u8 *)xchar_updprop_vec, sizeof(xchar_updprop_vec) },
};

KUNIT_ARRAY_PARAM(xchar_enc_vectors, xchar_enc_vectors, xchar_msg_get_desc);

static void encode_wire_case(struct kunit *test)
{
	const struct xchar_msg_param *param = test->param_value;
	u8 buf[64];
	size_t i;
	int ret;

	memset(buf, 0xcc, sizeof(buf));
	ret = xchar_test_encode(param->opttype, buf, sizeof(buf));
	KUNIT_ASSERT_EQ(test, ret, (int)param->len);
	for (i = 0; i < param->len; i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], param->wire[i], "octet %zu",
				    i);
	/* nothing written past what it reports */
	KUNIT_EXPECT_EQ(test, buf[param->len], 0xcc);
}

static void encode_short_buffer_case(struct kunit *test)
{
	const struct xchar_msg_param *param = test->param_value;
	size_t len;
	u8 *buf;

	for (len = 0; len < param->len; len++) {
		buf = kunit_kzalloc(test, len + 1, GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
		buf[len] = 0xcc;
		KUNIT_EXPECT_EQ_MSG(test,
				    xchar_test_encode(param->opttype, buf, len),
				    -EMSGSIZE, "%zu of %zu octets", len,
				    param->len);
		KUNIT_EXPECT_EQ_MSG(test, buf[len], 0xcc, "%zu octets", len);
	}
}

static void encode_wide_mask_case(struct kunit *test)
{
	struct rpcrdma_xchar_mask nochg = { };
	u8 buf[64];
	int ret;

	rpcrdma_xchar_mask_set(&nochg, 33);
	ret = rpcrdma_xchar_encode_connprop(buf, sizeof(buf), xchar_p_wide,
					    ARRAY_SIZE(xchar_p_wide), &nochg);
	KUNIT_ASSERT_EQ(test, ret, (int)sizeof(xchar_connprop_wide));
	KUNIT_EXPECT_EQ(test, memcmp(buf, (const u8 *)xchar_connprop_wide, ret), 0);
}

static void encode_empty_case(struct kunit *test)
{
	u8 buf[16];
	int ret;

	/* NULL subsets and an empty set: two zero counts */
	ret = rpcrdma_xchar_encode_connprop(buf, sizeof(buf), NULL, 0, NULL);
	KUNIT_ASSERT_EQ(test, ret, (int)sizeof(xchar_connprop_empty));
	KUNIT_EXPECT_EQ(test, memcmp(buf, (const u8 *)xchar_connprop_empty, ret), 0);
}

struct xchar_refuse_param {
	const char			*desc;
	struct rpcrdma_xchar_prop	props[2];
	u32				n;
};

static void xchar_refuse_get_desc(const struct xchar_refuse_param *param,
				  char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct xchar_refuse_param xchar_refuse_vectors[] = {
	{ "REQREMINV 2", { { 2, false, 2 } }, 1 },
	{ "BRS 3", { { 3, false, 3 } }, 1 },
	{ "RBSIZ twice", { { 1, false, 1024 }, { 1, false, 2048 } }, 2 },
	{ "RBSIZ twice, one default", { { 1, true, 0 }, { 1, false, 1 } }, 2 },
	/* n is larger than the array on purpose: a count the encoder
	 * refuses must not be read (a debug kernel's KASAN reports it)
	 */
	{ "more than a mask can name", { { 1, false, 1024 } },
	  RPCRDMA_XCHAR_SET_MAX + 1 },
};

KUNIT_ARRAY_PARAM(xchar_refuse_vectors, xchar_refuse_vectors,
		  xchar_refuse_get_desc);

static void encode_refuses_case(struct kunit *test)
{
	const struct xchar_refuse_param *param = test->param_value;
	u8 buf[64];

	KUNIT_EXPECT_EQ(test,
			rpcrdma_xchar_encode_updprop(buf, sizeof(buf),
						     param->props, param->n),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			rpcrdma_xchar_encode_reqprop(buf, sizeof(buf),
						     param->props, param->n),
			-EINVAL);
}

/* No array at all for a count of one: refused, and not dereferenced */
static void encode_refuses_null_case(struct kunit *test)
{
	u8 buf[64];

	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_encode_updprop(buf, sizeof(buf),
							   NULL, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_encode_reqprop(buf, sizeof(buf),
							   NULL, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_encode_connprop(buf, sizeof(buf),
							    NULL, 1, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rpcrdma_xchar_encode_resprop(buf, sizeof(buf),
							   NULL, NULL, NULL, 1),
			-EINVAL);
}

static void encode_resprop_overlap_case(struct kunit *test)
{
	struct rpcrdma_xchar_mask done = { }, rej = { };
	u8 buf[64];

	/* Section 4.3: done and rejected must not overlap */
	rpcrdma_xchar_mask_set(&done, 0);
	rpcrdma_xchar_mask_set(&done, 40);
	rpcrdma_xchar_mask_set(&rej, 40);
	KUNIT_EXPECT_EQ(test,
			rpcrdma_xchar_encode_resprop(buf, sizeof(buf), &done,
						     &rej, NULL, 0),
			-EINVAL);
}

static void encode_round_trip_case(struct kunit *test)
{
	static const struct rpcrdma_xchar_prop props[] = {
		{ RPCRDMA_XCHAR_PROP_BRS, false, RPCRDMA_XCHAR_BKREQSUP_GENL },
		{ 0x42, false, 0x12345678 },
		{ RPCRDMA_XCHAR_PROP_RBSIZ, true, 0 },
		{ RPCRDMA_XCHAR_PROP_REQREMINV, false, 0 },
	};
	struct rpcrdma_xchar_updprop msg;
	u8 buf[64];
	int ret;

	ret = rpcrdma_xchar_encode_updprop(buf, sizeof(buf), props,
					   ARRAY_SIZE(props));
	KUNIT_ASSERT_EQ(test, ret, 4 + 3 * 12 + 8);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_updprop(buf, ret, &msg),
			RPCRDMA_XCHAR_OK);
	KUNIT_EXPECT_EQ(test, msg.now.count, 4);
	KUNIT_EXPECT_EQ(test, msg.now.pos[RPCRDMA_XCHAR_PROP_BRS], 0);
	KUNIT_EXPECT_EQ(test, msg.now.pos[RPCRDMA_XCHAR_PROP_RBSIZ], 2);
	KUNIT_EXPECT_EQ(test, msg.now.pos[RPCRDMA_XCHAR_PROP_REQREMINV], 3);
	KUNIT_EXPECT_EQ(test, msg.now.dflt, BIT(RPCRDMA_XCHAR_PROP_RBSIZ));
	KUNIT_EXPECT_EQ(test, msg.now.val.brs, RPCRDMA_XCHAR_BKREQSUP_GENL);
	KUNIT_EXPECT_EQ(test, msg.now.val.rbsiz, 4096);
	KUNIT_EXPECT_FALSE(test, msg.now.val.reqreminv);
}

static struct kunit_case xchar_encode_cases[] = {
	KUNIT_CASE_PARAM(encode_wire_case, xchar_enc_vectors_gen_params),
	KUNIT_CASE_PARAM(encode_short_buffer_case,
			 xchar_enc_vectors_gen_params),
	KUNIT_CASE(encode_wide_mask_case),
	KUNIT_CASE(encode_empty_case),
	KUNIT_CASE_PARAM(encode_refuses_case,
			 xchar_refuse_vectors_gen_params),
	KUNIT_CASE(encode_refuses_null_case),
	KUNIT_CASE(encode_resprop_overlap_case),
	KUNIT_CASE(encode_round_trip_case),
	{}
};

static struct kunit_suite xchar_encode_suite = {
	.name		= "rpcrdma_xchar_encode",
	.test_cases	= xchar_encode_cases,
};

/*
 * The RDMA2_OPTIONAL header (Version Two draft of 2016)
 */

/* xid 0x01020304, credit 32, CALL, ROPT_UPDPROP, then its optinfo */
static const __be32 xchar_hdr_updprop[] = {
	W(0x01020304), W(2), W(32), W(5),
	W(0), W(4), W(16),
	W(1), W(1), W(4), W(16384),
};

/* A REPLY-direction optinfo of 3 octets, padded */
static const __be32 xchar_hdr_pad3[] = {
	W(7), W(2), W(1), W(5),
	W(1), W(0x99), W(3), W(0xaabbcc00),
};

/* A Version One RDMA_MSG header and Version Two headers that are not
 * RDMA2_OPTIONAL, or whose optdir or optinfo is wrong
 */
static const __be32 xchar_hdr_v1[] = { W(7), W(1), W(32), W(0), W(0), W(0) };
static const __be32 xchar_hdr_v2_msg[] = { W(7), W(2), W(32), W(0), W(0) };
static const __be32 xchar_hdr_v2_error[] = { W(7), W(2), W(32), W(4), W(1) };
static const __be32 xchar_hdr_optdir2[] = {
	W(7), W(2), W(1), W(5), W(2), W(1), W(0),
};

static const __be32 xchar_hdr_info_past[] = {
	W(7), W(2), W(1), W(5), W(0), W(1), W(17),
	W(1), W(1), W(4), W(16384),
};

struct xchar_hdr_param {
	const char			*desc;
	const u8			*wire;
	size_t				len;
	enum rpcrdma_xchar_status	status;
	u32				xid;
	u32				credit;
	u32				optdir;
	u32				opttype;
	u32				infolen;
	u32				hdrlen;
};

static void xchar_hdr_get_desc(const struct xchar_hdr_param *param,
			       char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct xchar_hdr_param xchar_hdr_vectors[] = {
	{ "UPDPROP, CALL", (const u8 *)xchar_hdr_updprop, sizeof(xchar_hdr_updprop),
	  RPCRDMA_XCHAR_OK, 0x01020304, 32, 0, 4, 16, 44 },
	{ "3-octet optinfo, REPLY", (const u8 *)xchar_hdr_pad3, sizeof(xchar_hdr_pad3),
	  RPCRDMA_XCHAR_OK, 7, 1, 1, 0x99, 3, 32 },
	{ "3-octet optinfo, padding missing", (const u8 *)xchar_hdr_pad3,
	  sizeof(xchar_hdr_pad3) - 1, RPCRDMA_XCHAR_BAD_XDR },
	{ "Version One RDMA_MSG", (const u8 *)xchar_hdr_v1, sizeof(xchar_hdr_v1),
	  RPCRDMA_XCHAR_NOT_V2 },
	{ "Version One, rdma_vers only", (const u8 *)xchar_hdr_v1, 8,
	  RPCRDMA_XCHAR_NOT_V2 },
	{ "RDMA2_MSG", (const u8 *)xchar_hdr_v2_msg, sizeof(xchar_hdr_v2_msg),
	  RPCRDMA_XCHAR_NOT_OPTIONAL },
	{ "RDMA2_ERROR", (const u8 *)xchar_hdr_v2_error, sizeof(xchar_hdr_v2_error),
	  RPCRDMA_XCHAR_NOT_OPTIONAL },
	{ "rdma_optdir 2", (const u8 *)xchar_hdr_optdir2, sizeof(xchar_hdr_optdir2),
	  RPCRDMA_XCHAR_BAD_XDR },
	{ "optinfo past the message", (const u8 *)xchar_hdr_info_past,
	  sizeof(xchar_hdr_info_past), RPCRDMA_XCHAR_BAD_XDR },
	{ "7 octets", (const u8 *)xchar_hdr_updprop, 7, RPCRDMA_XCHAR_BAD_XDR },
	{ "no rdma_proc", (const u8 *)xchar_hdr_updprop, 12, RPCRDMA_XCHAR_BAD_XDR },
	{ "no optinfo length", (const u8 *)xchar_hdr_updprop, 24, RPCRDMA_XCHAR_BAD_XDR },
};

KUNIT_ARRAY_PARAM(xchar_hdr_vectors, xchar_hdr_vectors, xchar_hdr_get_desc);

static void opthdr_decode_case(struct kunit *test)
{
	const struct xchar_hdr_param *param = test->param_value;
	struct rpcrdma_xchar_opthdr hdr;
	u8 *buf;

	buf = xchar_test_copy_odd(test, param->wire, param->len);
	KUNIT_ASSERT_EQ(test, rpcrdma_xchar_decode_opthdr(buf, param->len,
							  &hdr),
			param->status);
	if (param->status != RPCRDMA_XCHAR_OK)
		return;
	KUNIT_EXPECT_EQ(test, hdr.xid, param->xid);
	KUNIT_EXPECT_EQ(test, hdr.credit, param->credit);
	KUNIT_EXPECT_EQ(test, hdr.optdir, param->optdir);
	KUNIT_EXPECT_EQ(test, hdr.opttype, param->opttype);
	KUNIT_EXPECT_EQ(test, hdr.infolen, param->infolen);
	KUNIT_EXPECT_PTR_EQ(test, hdr.info,
			    (const u8 *)buf + RPCRDMA_XCHAR_OPTHDR_LEN);
	KUNIT_EXPECT_EQ(test, hdr.hdrlen, param->hdrlen);
}

static void opthdr_encode_case(struct kunit *test)
{
	u8 buf[sizeof(xchar_hdr_pad3) + 1];
	static const u8 info[] = { 0xaa, 0xbb, 0xcc };
	size_t len;
	int ret;

	memset(buf, 0xee, sizeof(buf));
	ret = rpcrdma_xchar_encode_opthdr(buf, sizeof(buf), 7, 1,
					  RPCRDMA_XCHAR_REPLY, 0x99, info,
					  sizeof(info));
	/* the padding octet is written as zero */
	KUNIT_ASSERT_EQ(test, ret, (int)sizeof(xchar_hdr_pad3));
	KUNIT_EXPECT_EQ(test, memcmp(buf, (const u8 *)xchar_hdr_pad3, ret), 0);
	KUNIT_EXPECT_EQ(test, buf[ret], 0xee);

	for (len = 0; len < sizeof(xchar_hdr_pad3); len++)
		KUNIT_EXPECT_EQ_MSG(test,
				    rpcrdma_xchar_encode_opthdr(buf, len, 7, 1,
								RPCRDMA_XCHAR_REPLY,
								0x99, info,
								sizeof(info)),
				    -EMSGSIZE, "%zu octets", len);
	KUNIT_EXPECT_EQ(test,
			rpcrdma_xchar_encode_opthdr(buf, sizeof(buf), 7, 1, 2,
						    1, info, sizeof(info)),
			-EINVAL);
}

static void opthdr_encode_updprop_case(struct kunit *test)
{
	u8 info[32], buf[64];
	int ilen, ret;

	ilen = rpcrdma_xchar_encode_updprop(info, sizeof(info),
					    xchar_p_16384, 1);
	KUNIT_ASSERT_EQ(test, ilen, 16);
	ret = rpcrdma_xchar_encode_opthdr(buf, sizeof(buf), 0x01020304, 32,
					  RPCRDMA_XCHAR_CALL,
					  RPCRDMA_XCHAR_ROPT_UPDPROP, info,
					  ilen);
	KUNIT_ASSERT_EQ(test, ret, (int)sizeof(xchar_hdr_updprop));
	KUNIT_EXPECT_EQ(test, memcmp(buf, (const u8 *)xchar_hdr_updprop, ret), 0);
}

static struct kunit_case xchar_hdr_cases[] = {
	KUNIT_CASE_PARAM(opthdr_decode_case, xchar_hdr_vectors_gen_params),
	KUNIT_CASE(opthdr_encode_case),
	KUNIT_CASE(opthdr_encode_updprop_case),
	{}
};

static struct kunit_suite xchar_hdr_suite = {
	.name		= "rpcrdma_xchar_opthdr",
	.test_cases	= xchar_hdr_cases,
};

/*
 * The two Version Two texts: version-two-01 and the working copy
 */

struct xchar_base_param {
	const char			*desc;
	enum rpcrdma_xchar_base_id	id;
	const char			*name;
	bool				inv_handle;
	u32				msg_hdrlen;
	u32				err_bad_xdr;
	u32				err_inval_option;
	u32				err_inval_proc;
	u32				err_reply_resource;
};

static void xchar_base_get_desc(const struct xchar_base_param *param,
				char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

/* -01: RDMA2_ERR_BAD_HEADER = 2, INVAL_OPTION = 3 and nothing else, so
 * an unknown rdma_proc and a short Reply chunk are XDR errors as in
 * Version One; the working copy numbers six codes and adds
 * rdma_inv_handle to the chunk lists.
 */
static const struct xchar_base_param xchar_base_vectors[] = {
	{ "version-two-01", RPCRDMA_XCHAR_BASE_01, "01", false, 32, 2, 3, 2,
	  2 },
	{ "working copy 2016-11-10", RPCRDMA_XCHAR_BASE_WC, "2016-11-10",
	  true, 36, 2, 5, 4, 3 },
};

KUNIT_ARRAY_PARAM(xchar_base_vectors, xchar_base_vectors,
		  xchar_base_get_desc);

static void base_constants_case(struct kunit *test)
{
	const struct xchar_base_param *param = test->param_value;
	const struct rpcrdma_xchar_base *base;

	base = rpcrdma_xchar_base_get(param->id);
	KUNIT_ASSERT_NOT_NULL(test, base);
	KUNIT_EXPECT_EQ(test, base->id, param->id);
	KUNIT_EXPECT_STREQ(test, base->name, param->name);
	KUNIT_EXPECT_EQ(test, base->inv_handle, param->inv_handle);
	KUNIT_EXPECT_EQ(test, base->msg_hdrlen, param->msg_hdrlen);
	KUNIT_EXPECT_EQ(test, base->err_vers, 1);
	KUNIT_EXPECT_EQ(test, base->err_bad_xdr, param->err_bad_xdr);
	KUNIT_EXPECT_EQ(test, base->err_inval_option,
			param->err_inval_option);
	KUNIT_EXPECT_EQ(test, base->err_inval_proc, param->err_inval_proc);
	KUNIT_EXPECT_EQ(test, base->err_reply_resource,
			param->err_reply_resource);
}

static void base_unknown_case(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, rpcrdma_xchar_base_get(2));
	KUNIT_EXPECT_NULL(test, rpcrdma_xchar_base_get(-1));
}

/* -01: xid 9, credit 32, RDMA2_MSG, CALL, three empty lists */
static const __be32 xchar_hdr_msg_01[] = {
	W(9), W(2), W(32), W(0), W(0),
	W(0), W(0), W(0),
};

/* The working copy: the same with rdma_inv_handle 0x1234, REPLY */
static const __be32 xchar_hdr_msg_wc[] = {
	W(9), W(2), W(32), W(0), W(1), W(0x1234),
	W(0), W(0), W(0),
};

/* -01 RDMA2_NOMSG: a Read segment at position zero and a Reply chunk */
static const __be32 xchar_hdr_nomsg_01[] = {
	W(10), W(2), W(3), W(1), W(0),
	W(1), W(0), W(0x11111111), W(0x200), W(1), W(0x2000),
	W(0),
	W(0),
	W(1), W(1), W(0x22222222), W(0x1000), W(0), W(0x8000),
};

/* Two Read segments, the one at position zero second; two Write
 * chunks of one and no segment; a Reply chunk of no segment
 */
static const __be32 xchar_hdr_lists_01[] = {
	W(11), W(2), W(3), W(0), W(0),
	W(1), W(40), W(0x33), W(8), W(0), W(0),
	W(1), W(0), W(0x44), W(16), W(0), W(0x100),
	W(0),
	W(1), W(1), W(0x55), W(4), W(0), W(0),
	W(1), W(0),
	W(0),
	W(1), W(0),
};

/* An RPC payload follows the header */
static const __be32 xchar_hdr_msg_payload[] = {
	W(9), W(2), W(32), W(0), W(0), W(0), W(0), W(0),
	W(9), W(0),
};

static const __be32 xchar_hdr_msg_present2[] = {
	W(9), W(2), W(32), W(0), W(0), W(2), W(0), W(0),
};

static const __be32 xchar_hdr_msg_dir2[] = {
	W(9), W(2), W(32), W(0), W(2), W(0), W(0), W(0),
};

static const __be32 xchar_hdr_reply_huge[] = {
	W(9), W(2), W(32), W(0), W(0), W(0), W(0), W(1), W(0x10000000),
	W(1), W(2), W(0), W(0),
};

static const __be32 xchar_hdr_v1_msg[] = {
	W(9), W(1), W(32), W(0), W(0), W(0), W(0),
};

struct xchar_msghdr_param {
	const char			*desc;
	enum rpcrdma_xchar_base_id	base;
	const u8			*wire;
	size_t				len;
	enum rpcrdma_xchar_status	status;
	struct rpcrdma_xchar_msghdr	hdr;
};

static void xchar_msghdr_get_desc(const struct xchar_msghdr_param *param,
				  char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

#define XCHAR_SEG(h, l, o)	{ .handle = (h), .length = (l), .offset = (o) }

static const struct xchar_msghdr_param xchar_msghdr_vectors[] = {
	{ "-01 MSG: 32 octets", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_hdr_msg_01, sizeof(xchar_hdr_msg_01),
	  RPCRDMA_XCHAR_OK, { .xid = 9, .credit = 32, .hdrlen = 32 } },
	{ "-01 MSG read as the working copy", RPCRDMA_XCHAR_BASE_WC,
	  (const u8 *)xchar_hdr_msg_01, sizeof(xchar_hdr_msg_01),
	  RPCRDMA_XCHAR_BAD_XDR },
	{ "working copy MSG: 36 octets", RPCRDMA_XCHAR_BASE_WC,
	  (const u8 *)xchar_hdr_msg_wc, sizeof(xchar_hdr_msg_wc),
	  RPCRDMA_XCHAR_OK,
	  { .xid = 9, .credit = 32, .dir = 1, .inv_handle = 0x1234,
	    .hdrlen = 36 } },
	{ "working copy MSG read as -01", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_hdr_msg_wc, sizeof(xchar_hdr_msg_wc),
	  RPCRDMA_XCHAR_BAD_XDR },
	{ "-01 NOMSG, position-zero Read, Reply chunk",
	  RPCRDMA_XCHAR_BASE_01, (const u8 *)xchar_hdr_nomsg_01,
	  sizeof(xchar_hdr_nomsg_01), RPCRDMA_XCHAR_OK,
	  { .xid = 10, .credit = 3, .proc = 1, .nreads = 1, .pos0 = true,
	    .read = XCHAR_SEG(0x11111111, 0x200, 0x100002000ULL),
	    .reply = true, .nreply = 1,
	    .reply_seg = XCHAR_SEG(0x22222222, 0x1000, 0x8000),
	    .hdrlen = 76 } },
	{ "-01 lists of several entries", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_hdr_lists_01, sizeof(xchar_hdr_lists_01),
	  RPCRDMA_XCHAR_OK,
	  { .xid = 11, .credit = 3, .nreads = 2, .pos0 = true,
	    .read = XCHAR_SEG(0x44, 16, 0x100), .nwrites = 2, .reply = true,
	    .hdrlen = 116 } },
	{ "-01 MSG and its RPC payload", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_hdr_msg_payload, sizeof(xchar_hdr_msg_payload),
	  RPCRDMA_XCHAR_OK, { .xid = 9, .credit = 32, .hdrlen = 32 } },
	{ "list discriminant 2", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_hdr_msg_present2, sizeof(xchar_hdr_msg_present2),
	  RPCRDMA_XCHAR_BAD_XDR },
	{ "rdma_direction 2", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_hdr_msg_dir2, sizeof(xchar_hdr_msg_dir2),
	  RPCRDMA_XCHAR_BAD_XDR },
	{ "Reply chunk of 2^28 segments", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_hdr_reply_huge, sizeof(xchar_hdr_reply_huge),
	  RPCRDMA_XCHAR_BAD_XDR },
	{ "Version One RDMA_MSG", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_hdr_v1_msg, sizeof(xchar_hdr_v1_msg),
	  RPCRDMA_XCHAR_NOT_V2 },
	{ "RDMA2_OPTIONAL", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_hdr_updprop, sizeof(xchar_hdr_updprop),
	  RPCRDMA_XCHAR_OTHER_PROC },
	{ "RDMA2_ERROR", RPCRDMA_XCHAR_BASE_WC,
	  (const u8 *)xchar_hdr_v2_error, sizeof(xchar_hdr_v2_error),
	  RPCRDMA_XCHAR_OTHER_PROC },
	{ "no rdma_proc", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_hdr_msg_01, 12, RPCRDMA_XCHAR_BAD_XDR },
};

KUNIT_ARRAY_PARAM(xchar_msghdr_vectors, xchar_msghdr_vectors,
		  xchar_msghdr_get_desc);

static void xchar_expect_seg(struct kunit *test,
			     const struct rpcrdma_xchar_segment *got,
			     const struct rpcrdma_xchar_segment *want)
{
	KUNIT_EXPECT_EQ(test, got->handle, want->handle);
	KUNIT_EXPECT_EQ(test, got->length, want->length);
	KUNIT_EXPECT_EQ(test, got->offset, want->offset);
}

static void msghdr_decode_case(struct kunit *test)
{
	const struct xchar_msghdr_param *param = test->param_value;
	const struct rpcrdma_xchar_msghdr *want = &param->hdr;
	struct rpcrdma_xchar_msghdr hdr;
	u8 *buf;

	buf = xchar_test_copy_odd(test, param->wire, param->len);
	KUNIT_ASSERT_EQ(test,
			rpcrdma_xchar_decode_msghdr(rpcrdma_xchar_base_get(param->base),
						    buf, param->len, &hdr),
			param->status);
	if (param->status != RPCRDMA_XCHAR_OK)
		return;
	KUNIT_EXPECT_EQ(test, hdr.xid, want->xid);
	KUNIT_EXPECT_EQ(test, hdr.credit, want->credit);
	KUNIT_EXPECT_EQ(test, hdr.proc, want->proc);
	KUNIT_EXPECT_EQ(test, hdr.dir, want->dir);
	KUNIT_EXPECT_EQ(test, hdr.inv_handle, want->inv_handle);
	KUNIT_EXPECT_EQ(test, hdr.nreads, want->nreads);
	KUNIT_EXPECT_EQ(test, hdr.pos0, want->pos0);
	xchar_expect_seg(test, &hdr.read, &want->read);
	KUNIT_EXPECT_EQ(test, hdr.nwrites, want->nwrites);
	KUNIT_EXPECT_EQ(test, hdr.reply, want->reply);
	KUNIT_EXPECT_EQ(test, hdr.nreply, want->nreply);
	xchar_expect_seg(test, &hdr.reply_seg, &want->reply_seg);
	KUNIT_EXPECT_EQ(test, hdr.hdrlen, want->hdrlen);
}

static void msghdr_truncated_case(struct kunit *test)
{
	const struct rpcrdma_xchar_base *base;
	struct rpcrdma_xchar_msghdr hdr;
	size_t len;
	u8 *buf;

	base = rpcrdma_xchar_base_get(RPCRDMA_XCHAR_BASE_01);
	for (len = 8; len < sizeof(xchar_hdr_nomsg_01); len++) {
		buf = xchar_test_copy_odd(test, xchar_hdr_nomsg_01, len);
		KUNIT_EXPECT_EQ_MSG(test,
				    rpcrdma_xchar_decode_msghdr(base, buf, len,
								&hdr),
				    RPCRDMA_XCHAR_BAD_XDR, "%zu octets", len);
	}
}

struct xchar_msgenc_param {
	const char			*desc;
	enum rpcrdma_xchar_base_id	base;
	struct rpcrdma_xchar_msghdr	hdr;
	const u8			*wire;
	int				ret;
};

static void xchar_msgenc_get_desc(const struct xchar_msgenc_param *param,
				  char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct xchar_msgenc_param xchar_msgenc_vectors[] = {
	{ "-01 MSG", RPCRDMA_XCHAR_BASE_01, { .xid = 9, .credit = 32 },
	  (const u8 *)xchar_hdr_msg_01, sizeof(xchar_hdr_msg_01) },
	{ "working copy MSG with rdma_inv_handle", RPCRDMA_XCHAR_BASE_WC,
	  { .xid = 9, .credit = 32, .dir = 1, .inv_handle = 0x1234 },
	  (const u8 *)xchar_hdr_msg_wc, sizeof(xchar_hdr_msg_wc) },
	{ "-01 NOMSG, position-zero Read, Reply chunk",
	  RPCRDMA_XCHAR_BASE_01,
	  { .xid = 10, .credit = 3, .proc = 1, .nreads = 1, .pos0 = true,
	    .read = XCHAR_SEG(0x11111111, 0x200, 0x100002000ULL),
	    .reply = true, .nreply = 1,
	    .reply_seg = XCHAR_SEG(0x22222222, 0x1000, 0x8000) },
	  (const u8 *)xchar_hdr_nomsg_01, sizeof(xchar_hdr_nomsg_01) },
	{ "rdma_inv_handle under -01", RPCRDMA_XCHAR_BASE_01,
	  { .xid = 9, .inv_handle = 0x1234 }, NULL, -EINVAL },
	{ "RDMA2_OPTIONAL", RPCRDMA_XCHAR_BASE_01,
	  { .xid = 9, .proc = 5 }, NULL, -EINVAL },
	{ "direction 2", RPCRDMA_XCHAR_BASE_01, { .xid = 9, .dir = 2 }, NULL,
	  -EINVAL },
	{ "a Write chunk", RPCRDMA_XCHAR_BASE_01,
	  { .xid = 9, .nwrites = 1 }, NULL, -EINVAL },
	{ "a Read segment not at position zero", RPCRDMA_XCHAR_BASE_01,
	  { .xid = 9, .nreads = 1 }, NULL, -EINVAL },
	{ "a Reply chunk of two segments", RPCRDMA_XCHAR_BASE_01,
	  { .xid = 9, .reply = true, .nreply = 2 }, NULL, -EINVAL },
};

KUNIT_ARRAY_PARAM(xchar_msgenc_vectors, xchar_msgenc_vectors,
		  xchar_msgenc_get_desc);

static void msghdr_encode_case(struct kunit *test)
{
	const struct xchar_msgenc_param *param = test->param_value;
	const struct rpcrdma_xchar_base *base;
	u8 buf[128];
	int len;

	base = rpcrdma_xchar_base_get(param->base);
	memset(buf, 0xee, sizeof(buf));
	KUNIT_ASSERT_EQ(test,
			rpcrdma_xchar_encode_msghdr(base, buf, sizeof(buf),
						    &param->hdr),
			param->ret);
	if (param->ret < 0)
		return;
	KUNIT_EXPECT_EQ(test, memcmp(buf, param->wire, param->ret), 0);
	KUNIT_EXPECT_EQ(test, buf[param->ret], 0xee);
	for (len = 0; len < param->ret; len++)
		KUNIT_EXPECT_EQ_MSG(test,
				    rpcrdma_xchar_encode_msghdr(base, buf, len,
								&param->hdr),
				    -EMSGSIZE, "%d octets", len);
}

/* RDMA2_ERROR/INVAL_OPTION under -01, the same under the working
 * copy, ERR_VERS 2..2, and the working copy's REPLY_RESOURCE
 */
static const __be32 xchar_err_inval_01[] = {
	W(5), W(2), W(3), W(4), W(3),
};

static const __be32 xchar_err_inval_wc[] = {
	W(5), W(2), W(3), W(4), W(5),
};

static const __be32 xchar_err_vers[] = {
	W(1), W(2), W(3), W(4), W(1), W(2), W(2),
};

/* What a Version One server answers a Version Two message with */
static const __be32 xchar_err_vers_v1[] = {
	W(1), W(1), W(0), W(4), W(1), W(1), W(1),
};

static const __be32 xchar_err_resource_wc[] = {
	W(8), W(2), W(3), W(4), W(3), W(1), W(6000),
};

struct xchar_err_param {
	const char			*desc;
	enum rpcrdma_xchar_base_id	base;
	const u8			*wire;
	size_t				len;
	enum rpcrdma_xchar_status	status;
	u32				vers;
	u32				err;
	u32				arg[2];
	const char			*name;
};

static void xchar_err_get_desc(const struct xchar_err_param *param,
			       char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct xchar_err_param xchar_err_vectors[] = {
	{ "-01 INVAL_OPTION (3)", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_err_inval_01, sizeof(xchar_err_inval_01),
	  RPCRDMA_XCHAR_OK, 2, 3, { 0, 0 }, "RDMA2_ERR_INVAL_OPTION" },
	{ "working copy INVAL_OPTION (5)", RPCRDMA_XCHAR_BASE_WC,
	  (const u8 *)xchar_err_inval_wc, sizeof(xchar_err_inval_wc),
	  RPCRDMA_XCHAR_OK, 2, 5, { 0, 0 }, "RDMA2_ERR_INVAL_OPTION" },
	{ "working copy's 5 read as -01: unknown", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_err_inval_wc, sizeof(xchar_err_inval_wc),
	  RPCRDMA_XCHAR_OK, 2, 5, { 0, 0 }, "unknown" },
	{ "-01's 3 read as the working copy: REPLY_RESOURCE, short",
	  RPCRDMA_XCHAR_BASE_WC, (const u8 *)xchar_err_inval_01,
	  sizeof(xchar_err_inval_01), RPCRDMA_XCHAR_BAD_XDR },
	{ "ERR_VERS 2..2", RPCRDMA_XCHAR_BASE_01, (const u8 *)xchar_err_vers,
	  sizeof(xchar_err_vers), RPCRDMA_XCHAR_OK, 2, 1, { 2, 2 },
	  "RDMA2_ERR_VERS" },
	{ "Version One ERR_VERS 1..1", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_err_vers_v1, sizeof(xchar_err_vers_v1),
	  RPCRDMA_XCHAR_OK, 1, 1, { 1, 1 }, "RDMA2_ERR_VERS" },
	{ "working copy REPLY_RESOURCE 1, 6000", RPCRDMA_XCHAR_BASE_WC,
	  (const u8 *)xchar_err_resource_wc, sizeof(xchar_err_resource_wc),
	  RPCRDMA_XCHAR_OK, 2, 3, { 1, 6000 }, "RDMA2_ERR_REPLY_RESOURCE" },
	{ "ERR_VERS without its range", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_err_vers, 24, RPCRDMA_XCHAR_BAD_XDR },
	{ "no rdma_err", RPCRDMA_XCHAR_BASE_01,
	  (const u8 *)xchar_err_inval_01, 16, RPCRDMA_XCHAR_BAD_XDR },
	{ "RDMA2_MSG", RPCRDMA_XCHAR_BASE_01, (const u8 *)xchar_hdr_msg_01,
	  sizeof(xchar_hdr_msg_01), RPCRDMA_XCHAR_OTHER_PROC },
};

KUNIT_ARRAY_PARAM(xchar_err_vectors, xchar_err_vectors, xchar_err_get_desc);

static void error_decode_case(struct kunit *test)
{
	const struct xchar_err_param *param = test->param_value;
	const struct rpcrdma_xchar_base *base;
	struct rpcrdma_xchar_errhdr err;
	u8 *buf;

	base = rpcrdma_xchar_base_get(param->base);
	buf = xchar_test_copy_odd(test, param->wire, param->len);
	KUNIT_ASSERT_EQ(test,
			rpcrdma_xchar_decode_error(base, buf, param->len, &err),
			param->status);
	if (param->status != RPCRDMA_XCHAR_OK)
		return;
	KUNIT_EXPECT_EQ(test, err.vers, param->vers);
	KUNIT_EXPECT_EQ(test, err.err, param->err);
	KUNIT_EXPECT_EQ(test, err.arg[0], param->arg[0]);
	KUNIT_EXPECT_EQ(test, err.arg[1], param->arg[1]);
	KUNIT_EXPECT_STREQ(test, rpcrdma_xchar_err_name(base, err.err),
			   param->name);
}

struct xchar_errenc_param {
	const char			*desc;
	enum rpcrdma_xchar_base_id	base;
	struct rpcrdma_xchar_errhdr	err;
	const u8			*wire;
	int				ret;
};

static void xchar_errenc_get_desc(const struct xchar_errenc_param *param,
				  char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct xchar_errenc_param xchar_errenc_vectors[] = {
	{ "-01 INVAL_OPTION", RPCRDMA_XCHAR_BASE_01,
	  { 5, 2, 3, RPCRDMA_XCHAR_ERR_INVAL_OPTION },
	  (const u8 *)xchar_err_inval_01, sizeof(xchar_err_inval_01) },
	{ "working copy INVAL_OPTION", RPCRDMA_XCHAR_BASE_WC,
	  { 5, 2, 3, RPCRDMA_XCHAR_WC_ERR_INVAL_OPTION },
	  (const u8 *)xchar_err_inval_wc, sizeof(xchar_err_inval_wc) },
	{ "ERR_VERS 2..2", RPCRDMA_XCHAR_BASE_01,
	  { 1, 2, 3, RPCRDMA_XCHAR_ERR_VERS, { 2, 2 } },
	  (const u8 *)xchar_err_vers, sizeof(xchar_err_vers) },
	{ "working copy REPLY_RESOURCE", RPCRDMA_XCHAR_BASE_WC,
	  { 8, 2, 3, RPCRDMA_XCHAR_WC_ERR_REPLY_RESOURCE, { 1, 6000 } },
	  (const u8 *)xchar_err_resource_wc, sizeof(xchar_err_resource_wc) },
	{ "the working copy's INVAL_PROC under -01", RPCRDMA_XCHAR_BASE_01,
	  { 5, 2, 3, RPCRDMA_XCHAR_WC_ERR_INVAL_PROC }, NULL, -EINVAL },
	{ "rdma_err 7 in the working copy", RPCRDMA_XCHAR_BASE_WC,
	  { 5, 2, 3, 7 }, NULL, -EINVAL },
	{ "rdma_err 0", RPCRDMA_XCHAR_BASE_01, { 5, 2, 3, 0 }, NULL,
	  -EINVAL },
};

KUNIT_ARRAY_PARAM(xchar_errenc_vectors, xchar_errenc_vectors,
		  xchar_errenc_get_desc);

static void error_encode_case(struct kunit *test)
{
	const struct xchar_errenc_param *param = test->param_value;
	const struct rpcrdma_xchar_base *base;
	u8 buf[64];
	int len;

	base = rpcrdma_xchar_base_get(param->base);
	memset(buf, 0xee, sizeof(buf));
	KUNIT_ASSERT_EQ(test,
			rpcrdma_xchar_encode_error(base, buf, sizeof(buf),
						   &param->err),
			param->ret);
	if (param->ret < 0)
		return;
	KUNIT_EXPECT_EQ(test, memcmp(buf, param->wire, param->ret), 0);
	KUNIT_EXPECT_EQ(test, buf[param->ret], 0xee);
	for (len = 0; len < param->ret; len++)
		KUNIT_EXPECT_EQ_MSG(test,
				    rpcrdma_xchar_encode_error(base, buf, len,
							       &param->err),
				    -EMSGSIZE, "%d octets", len);
}

struct xchar_errname_param {
	enum rpcrdma_xchar_base_id	base;
	u32				err;
	const char			*name;
};

static void xchar_errname_get_desc(const struct xchar_errname_param *param,
				   char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %u: %s",
		 param->base == RPCRDMA_XCHAR_BASE_01 ? "-01" : "wc",
		 param->err, param->name);
}

static const struct xchar_errname_param xchar_errname_vectors[] = {
	{ RPCRDMA_XCHAR_BASE_01, 0, "unknown" },
	{ RPCRDMA_XCHAR_BASE_01, 1, "RDMA2_ERR_VERS" },
	{ RPCRDMA_XCHAR_BASE_01, 2, "RDMA2_ERR_BAD_HEADER" },
	{ RPCRDMA_XCHAR_BASE_01, 3, "RDMA2_ERR_INVAL_OPTION" },
	{ RPCRDMA_XCHAR_BASE_01, 4, "unknown" },
	{ RPCRDMA_XCHAR_BASE_01, 6, "unknown" },
	{ RPCRDMA_XCHAR_BASE_WC, 0, "unknown" },
	{ RPCRDMA_XCHAR_BASE_WC, 1, "RDMA2_ERR_VERS" },
	{ RPCRDMA_XCHAR_BASE_WC, 2, "RDMA2_ERR_BAD_XDR" },
	{ RPCRDMA_XCHAR_BASE_WC, 3, "RDMA2_ERR_REPLY_RESOURCE" },
	{ RPCRDMA_XCHAR_BASE_WC, 4, "RDMA2_ERR_INVAL_PROC" },
	{ RPCRDMA_XCHAR_BASE_WC, 5, "RDMA2_ERR_INVAL_OPTION" },
	{ RPCRDMA_XCHAR_BASE_WC, 6, "RDMA2_ERR_SYSTEM" },
	{ RPCRDMA_XCHAR_BASE_WC, 7, "unknown" },
	{ RPCRDMA_XCHAR_BASE_WC, 0xffffffff, "unknown" },
};

KUNIT_ARRAY_PARAM(xchar_errname_vectors, xchar_errname_vectors,
		  xchar_errname_get_desc);

static void error_name_case(struct kunit *test)
{
	const struct xchar_errname_param *param = test->param_value;

	KUNIT_EXPECT_STREQ(test,
			   rpcrdma_xchar_err_name(rpcrdma_xchar_base_get(param->base),
						  param->err),
			   param->name);
}

static struct kunit_case xchar_base_cases[] = {
	KUNIT_CASE_PARAM(base_constants_case, xchar_base_vectors_gen_params),
	KUNIT_CASE(base_unknown_case),
	KUNIT_CASE_PARAM(msghdr_decode_case, xchar_msghdr_vectors_gen_params),
	KUNIT_CASE(msghdr_truncated_case),
	KUNIT_CASE_PARAM(msghdr_encode_case, xchar_msgenc_vectors_gen_params),
	KUNIT_CASE_PARAM(error_decode_case, xchar_err_vectors_gen_params),
	KUNIT_CASE_PARAM(error_encode_case, xchar_errenc_vectors_gen_params),
	KUNIT_CASE_PARAM(error_name_case, xchar_errname_vectors_gen_params),
	{}
};

static struct kunit_suite xchar_base_suite = {
	.name		= "rpcrdma_xchar_base",
	.test_cases	= xchar_base_cases,
};

/*
 * Names: the probe and the logs print these
 */

struct xchar_name_param {
	int		kind;	/* 0 status, 1 property, 2 opttype */
	u32		value;
	const char	*name;
};

static void xchar_name_get_desc(const struct xchar_name_param *param,
				char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", param->name);
}

static const struct xchar_name_param xchar_name_vectors[] = {
	{ 0, RPCRDMA_XCHAR_OK, "ok" },
	{ 0, RPCRDMA_XCHAR_UNKNOWN, "unknown_prop" },
	{ 0, RPCRDMA_XCHAR_BAD_XDR, "xdr_overrun" },
	{ 0, RPCRDMA_XCHAR_BAD_PROPVAL, "bad_propval" },
	{ 0, RPCRDMA_XCHAR_NOT_V2, "not_version_2" },
	{ 0, RPCRDMA_XCHAR_NOT_OPTIONAL, "not_optional" },
	{ 0, RPCRDMA_XCHAR_OTHER_PROC, "other_proc" },
	{ 0, 99, "unknown" },
	{ 1, 1, "PROP_RBSIZ" },
	{ 1, 2, "PROP_REQREMINV" },
	{ 1, 3, "PROP_BRS" },
	{ 1, 0, "unknown" },
	{ 1, 0xfffffeff, "unknown" },
	{ 1, 0xffffff00, "experimental" },
	{ 1, 0xffffffff, "experimental" },
	{ 2, 1, "ROPT_CONNPROP" },
	{ 2, 2, "ROPT_REQPROP" },
	{ 2, 3, "ROPT_RESPROP" },
	{ 2, 4, "ROPT_UPDPROP" },
	{ 2, 5, "unknown" },
};

KUNIT_ARRAY_PARAM(xchar_name_vectors, xchar_name_vectors,
		  xchar_name_get_desc);

static void name_case(struct kunit *test)
{
	const struct xchar_name_param *param = test->param_value;
	const char *got;

	if (param->kind == 0)
		got = rpcrdma_xchar_status_name(param->value);
	else if (param->kind == 1)
		got = rpcrdma_xchar_prop_name(param->value);
	else
		got = rpcrdma_xchar_opt_name(param->value);
	KUNIT_EXPECT_STREQ(test, got, param->name);
}

static struct kunit_case xchar_name_cases[] = {
	KUNIT_CASE_PARAM(name_case, xchar_name_vectors_gen_params),
	{}
};

static struct kunit_suite xchar_name_suite = {
	.name		= "rpcrdma_xchar_names",
	.test_cases	= xchar_name_cases,
};

kunit_test_suites(&xchar_propval_suite, &xchar_set_suite, &xchar_msg_suite,
		  &xchar_encode_suite, &xchar_hdr_suite, &xchar_base_suite,
		  &xchar_name_suite);
