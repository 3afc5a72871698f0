// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the RPC-over-RDMA Version 1 RDMA-CM private data
 * codec (RFC 8797). Each suite covers one area of the RFC and names
 * the section it checks; vectors are written out byte by byte rather
 * than produced by the builder, so a builder bug cannot hide a parser
 * bug.
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

#include <linux/sunrpc/rpcrdma_pdata.h>

/* Private data an IB/RoCE passive side sees of a CM REQ once rdma_cm's
 * own header is removed, and of a CM REP (IBTA CM private data sizes).
 */
#define RPCRDMA_TEST_REQ_LEN	56
#define RPCRDMA_TEST_REP_LEN	196

/* Lay out a message by hand, independent of rpcrdma_pdata_build() */
static void rpcrdma_test_put_msg(u8 *p, u8 version, u8 flags, u8 send,
				 u8 recv)
{
	p[0] = 0xf6;
	p[1] = 0xab;
	p[2] = 0x0e;
	p[3] = 0x18;
	p[4] = version;
	p[5] = flags;
	p[6] = send;
	p[7] = recv;
}

/* Bytes below 0x80 can never begin the identifier (0xf6), so filler
 * made of them cannot create a match the test did not place.
 */
static void rpcrdma_test_fill(u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (i * 37 + 11) & 0x7f;
}

/* Return a buffer whose first octet sits at an odd address, so every
 * parse below also runs on storage with no alignment at all.
 */
static u8 *rpcrdma_test_alloc_odd(struct kunit *test, size_t len)
{
	u8 *p = kunit_kzalloc(test, len + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	return p + 1;
}

/*
 * RFC 8797 Section 4.2: Send Size and Receive Size encoding
 */

/* One entry per possible encoded octet, filled on first use */
static u8 rpcrdma_test_encodings[256];

static const void *rpcrdma_test_encoding_gen_params(const void *prev,
						    char *desc)
{
	const u8 *next;
	size_t i;

	if (!prev) {
		for (i = 0; i < ARRAY_SIZE(rpcrdma_test_encodings); i++)
			rpcrdma_test_encodings[i] = i;
		next = rpcrdma_test_encodings;
	} else {
		next = (const u8 *)prev + 1;
	}
	if (next - rpcrdma_test_encodings >= ARRAY_SIZE(rpcrdma_test_encodings))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "encoded %u = %u octets",
		 *next, (*next + 1) * 1024);
	return next;
}

static void size_decode_case(struct kunit *test)
{
	const u8 *encoded = test->param_value;

	KUNIT_EXPECT_EQ(test, rpcrdma_pdata_decode_size(*encoded),
			((u32)*encoded + 1) * 1024);
}

static void size_round_trip_case(struct kunit *test)
{
	const u8 *encoded = test->param_value;
	u32 bytes = rpcrdma_pdata_decode_size(*encoded);

	KUNIT_EXPECT_EQ(test, rpcrdma_pdata_encode_size(bytes), *encoded);
}

static void size_clamp_representable_case(struct kunit *test)
{
	const u8 *encoded = test->param_value;
	u32 bytes = rpcrdma_pdata_decode_size(*encoded);

	/* A size the field can carry must be advertised unchanged */
	KUNIT_EXPECT_EQ(test, rpcrdma_pdata_clamp_size(bytes), bytes);
}

struct rpcrdma_size_param {
	const char	*desc;
	u32		bytes;
	u8		encoded;
	u32		clamped;
};

static void rpcrdma_size_get_desc(const struct rpcrdma_size_param *param,
				  char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

/* Sizes around the edges of 1024..262144. Below 1024 the field still
 * says 1024, the Version 1 minimum every peer handles; above 262144 it
 * must not wrap to a small value; in between it rounds down so the
 * advertisement never exceeds what the caller can handle.
 */
static const struct rpcrdma_size_param rpcrdma_size_boundaries[] = {
	{ .desc = "0 octets",		.bytes = 0,
	  .encoded = 0,			.clamped = 1024, },
	{ .desc = "1 octet",		.bytes = 1,
	  .encoded = 0,			.clamped = 1024, },
	{ .desc = "1023 octets",	.bytes = 1023,
	  .encoded = 0,			.clamped = 1024, },
	{ .desc = "1024 octets",	.bytes = 1024,
	  .encoded = 0,			.clamped = 1024, },
	{ .desc = "1025 octets",	.bytes = 1025,
	  .encoded = 0,			.clamped = 1024, },
	{ .desc = "2047 octets",	.bytes = 2047,
	  .encoded = 0,			.clamped = 1024, },
	{ .desc = "2048 octets",	.bytes = 2048,
	  .encoded = 1,			.clamped = 2048, },
	{ .desc = "4096 octets",	.bytes = 4096,
	  .encoded = 3,			.clamped = 4096, },
	{ .desc = "5000 octets",	.bytes = 5000,
	  .encoded = 3,			.clamped = 4096, },
	{ .desc = "262143 octets",	.bytes = 262143,
	  .encoded = 254,		.clamped = 261120, },
	{ .desc = "262144 octets",	.bytes = 262144,
	  .encoded = 255,		.clamped = 262144, },
	{ .desc = "262145 octets",	.bytes = 262145,
	  .encoded = 255,		.clamped = 262144, },
	{ .desc = "1 MiB",		.bytes = 1048576,
	  .encoded = 255,		.clamped = 262144, },
	{ .desc = "UINT_MAX octets",	.bytes = UINT_MAX,
	  .encoded = 255,		.clamped = 262144, },
};

KUNIT_ARRAY_PARAM(rpcrdma_size_boundaries, rpcrdma_size_boundaries,
		  rpcrdma_size_get_desc);

static void size_encode_boundary_case(struct kunit *test)
{
	const struct rpcrdma_size_param *param = test->param_value;

	KUNIT_EXPECT_EQ(test, rpcrdma_pdata_encode_size(param->bytes),
			param->encoded);
}

static void size_clamp_boundary_case(struct kunit *test)
{
	const struct rpcrdma_size_param *param = test->param_value;

	KUNIT_EXPECT_EQ(test, rpcrdma_pdata_clamp_size(param->bytes),
			param->clamped);
}

static struct kunit_case rpcrdma_size_cases[] = {
	KUNIT_CASE_PARAM(size_decode_case, rpcrdma_test_encoding_gen_params),
	KUNIT_CASE_PARAM(size_round_trip_case,
			 rpcrdma_test_encoding_gen_params),
	KUNIT_CASE_PARAM(size_clamp_representable_case,
			 rpcrdma_test_encoding_gen_params),
	KUNIT_CASE_PARAM(size_encode_boundary_case,
			 rpcrdma_size_boundaries_gen_params),
	KUNIT_CASE_PARAM(size_clamp_boundary_case,
			 rpcrdma_size_boundaries_gen_params),
	{}
};

static struct kunit_suite rpcrdma_size_suite = {
	.name		= "rpcrdma_pdata_size",
	.test_cases	= rpcrdma_size_cases,
};

/*
 * RFC 8797 Section 4: building the Version 1 message
 */

struct rpcrdma_build_param {
	const char			*desc;
	struct rpcrdma_pdata_limits	limits;
	u8				wire[RPCRDMA_PDATA_V1_LEN];
};

static void rpcrdma_build_get_desc(const struct rpcrdma_build_param *param,
				   char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct rpcrdma_build_param rpcrdma_build_vectors[] = {
	{
		.desc	= "Linux client: 4096/4096, R",
		.limits	= { .max_send = 4096, .max_recv = 4096,
			    .remote_inv = true, },
		.wire	= { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x03, 0x03 },
	},
	{
		.desc	= "send 8192, receive 2048, no R",
		.limits	= { .max_send = 8192, .max_recv = 2048, },
		.wire	= { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0x07, 0x01 },
	},
	{
		.desc	= "zero limits advertise 1024",
		.limits	= { .max_send = 0, .max_recv = 0, },
		.wire	= { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0x00, 0x00 },
	},
	{
		.desc	= "5000/9000 round down to 4096/8192",
		.limits	= { .max_send = 5000, .max_recv = 9000,
			    .remote_inv = true, },
		.wire	= { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x03, 0x07 },
	},
	{
		.desc	= "262143 rounds down to 261120",
		.limits	= { .max_send = 262143, .max_recv = 262143, },
		.wire	= { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0xfe, 0xfe },
	},
	{
		.desc	= "262144 is the largest",
		.limits	= { .max_send = 262144, .max_recv = 262144, },
		.wire	= { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0xff, 0xff },
	},
	{
		.desc	= "UINT_MAX clamps to 262144, no wrap",
		.limits	= { .max_send = UINT_MAX, .max_recv = UINT_MAX,
			    .remote_inv = true, },
		.wire	= { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0xff, 0xff },
	},
};

KUNIT_ARRAY_PARAM(rpcrdma_build_vectors, rpcrdma_build_vectors,
		  rpcrdma_build_get_desc);

static void build_wire_case(struct kunit *test)
{
	const struct rpcrdma_build_param *param = test->param_value;
	u8 buf[RPCRDMA_PDATA_V1_LEN];
	unsigned int i;

	memset(buf, 0xcc, sizeof(buf));
	rpcrdma_pdata_build(buf, &param->limits);

	/* Octet by octet, so a failure names the field that is wrong */
	for (i = 0; i < RPCRDMA_PDATA_V1_LEN; i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], param->wire[i],
				    "octet %u", i);
}

static void build_parse_round_trip_case(struct kunit *test)
{
	const struct rpcrdma_build_param *param = test->param_value;
	u8 buf[RPCRDMA_PDATA_V1_LEN];
	struct rpcrdma_pdata msg;

	rpcrdma_pdata_build(buf, &param->limits);

	KUNIT_ASSERT_EQ(test, rpcrdma_pdata_parse(buf, sizeof(buf), &msg),
			RPCRDMA_PDATA_PRESENT);
	KUNIT_EXPECT_EQ(test, msg.version, 1);
	KUNIT_EXPECT_EQ(test, msg.offset, 0);
	KUNIT_EXPECT_EQ(test, msg.remote_inv, param->limits.remote_inv);
	KUNIT_EXPECT_EQ(test, msg.send_size,
			rpcrdma_pdata_clamp_size(param->limits.max_send));
	KUNIT_EXPECT_EQ(test, msg.recv_size,
			rpcrdma_pdata_clamp_size(param->limits.max_recv));
}

static void build_stays_in_eight_octets_case(struct kunit *test)
{
	static const struct rpcrdma_pdata_limits limits = {
		.max_send = UINT_MAX, .max_recv = UINT_MAX, .remote_inv = true,
	};
	u8 buf[RPCRDMA_PDATA_V1_LEN + 4];
	unsigned int i;

	/* Callers place the message inside a larger CM buffer */
	memset(buf, 0xcc, sizeof(buf));
	rpcrdma_pdata_build(buf, &limits);

	for (i = RPCRDMA_PDATA_V1_LEN; i < sizeof(buf); i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], 0xcc, "octet %u", i);
}

static struct kunit_case rpcrdma_build_cases[] = {
	KUNIT_CASE_PARAM(build_wire_case, rpcrdma_build_vectors_gen_params),
	KUNIT_CASE_PARAM(build_parse_round_trip_case,
			 rpcrdma_build_vectors_gen_params),
	KUNIT_CASE(build_stays_in_eight_octets_case),
	{}
};

static struct kunit_suite rpcrdma_build_suite = {
	.name		= "rpcrdma_pdata_build",
	.test_cases	= rpcrdma_build_cases,
};

/*
 * RFC 8797 Sections 4, 5.2 and 6: finding and parsing received data
 */

struct rpcrdma_parse_param {
	const char			*desc;
	const u8			*data;
	size_t				len;
	enum rpcrdma_pdata_status	status;
	/* The rest is checked only when status is RPCRDMA_PDATA_PRESENT */
	u32				offset;
	bool				remote_inv;
	u32				send_size;
	u32				recv_size;
};

static void rpcrdma_parse_get_desc(const struct rpcrdma_parse_param *param,
				   char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const u8 rpcrdma_vec_linux_client[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x03, 0x03,
};

static const u8 rpcrdma_vec_defaults[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0x00, 0x00,
};

static const u8 rpcrdma_vec_largest[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0xff, 0xff,
};

/* Distinct sizes catch Send Size and Receive Size being swapped */
static const u8 rpcrdma_vec_send_recv_order[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0x07, 0x01,
};

static const u8 rpcrdma_vec_reserved_and_r[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0xff, 0x03, 0x03,
};

static const u8 rpcrdma_vec_reserved_no_r[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0xfe, 0x03, 0x03,
};

static const u8 rpcrdma_vec_reserved_top[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x80, 0x03, 0x03,
};

static const u8 rpcrdma_vec_version0[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x00, 0x01, 0x03, 0x03,
};

static const u8 rpcrdma_vec_version2[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x02, 0x01, 0x03, 0x03,
};

static const u8 rpcrdma_vec_version255[] = {
	0xf6, 0xab, 0x0e, 0x18, 0xff, 0x01, 0x03, 0x03,
};

/* A future version with fields after octet 8 (Section 6) */
static const u8 rpcrdma_vec_version2_extended[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x02, 0x01, 0x03, 0x03,
	0xde, 0xad, 0xbe, 0xef,
};

/* Version 1 followed by octets a Version 1 receiver must ignore */
static const u8 rpcrdma_vec_trailing_octets[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x03, 0x03,
	0xde, 0xad, 0xbe, 0xef,
};

/* The message at the start of a zero-padded CM REQ private data area */
static const u8 rpcrdma_vec_req_padded[RPCRDMA_TEST_REQ_LEN] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x03, 0x03,
};

static const u8 rpcrdma_vec_req_zeros[RPCRDMA_TEST_REQ_LEN];
static const u8 rpcrdma_vec_rep_zeros[RPCRDMA_TEST_REP_LEN];

/* The identifier in host order on a little-endian machine */
static const u8 rpcrdma_vec_byte_swapped[] = {
	0x18, 0x0e, 0xab, 0xf6, 0x01, 0x01, 0x03, 0x03,
};

static const u8 rpcrdma_vec_ident_off_by_one[] = {
	0xf6, 0xab, 0x0e, 0x19, 0x01, 0x01, 0x03, 0x03,
};

/* Partial identifiers everywhere, never the whole one */
static const u8 rpcrdma_vec_near_misses[] = {
	0xf6, 0x00, 0xf6, 0xab, 0x00, 0xf6, 0xab, 0x0e,
	0x00, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x03, 0x03,
	0xf6, 0xf6, 0xab, 0xab, 0x0e, 0x0e, 0x18, 0x18,
	0x01, 0x01, 0x03, 0x03, 0xf6, 0xab, 0x0e,
};

/* Enhanced MPA (RFC 6581) puts IRD/ORD ahead of the ULP's data */
static const u8 rpcrdma_vec_mpa_ird_ord[] = {
	0x80, 0x10, 0x40, 0x10,
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x03, 0x03,
};

static const u8 rpcrdma_vec_odd_offset[] = {
	0x11, 0x22, 0x33,
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0x0f, 0x1f,
};

/* An identifier that is someone else's data, then the real message */
static const u8 rpcrdma_vec_invalid_then_valid[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x02, 0x00, 0x00, 0x00,
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x07, 0x01,
};

static const u8 rpcrdma_vec_valid_then_valid[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x03, 0x03,
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0x07, 0x07,
};

/* The first candidate's version octet is where a second one begins */
static const u8 rpcrdma_vec_overlapping[] = {
	0xf6, 0xab, 0x0e, 0x18,
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x03, 0x07,
};

static const u8 rpcrdma_vec_bad_version_then_truncated[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x00, 0x01, 0x03, 0x03,
	0xf6, 0xab, 0x0e, 0x18, 0x01,
};

static const struct rpcrdma_parse_param rpcrdma_parse_vectors[] = {
	{
		.desc		= "Linux client message",
		.data		= rpcrdma_vec_linux_client,
		.len		= sizeof(rpcrdma_vec_linux_client),
		.status		= RPCRDMA_PDATA_PRESENT,
		.remote_inv	= true,
		.send_size	= 4096,
		.recv_size	= 4096,
	},
	{
		.desc		= "encoded zero sizes are 1024",
		.data		= rpcrdma_vec_defaults,
		.len		= sizeof(rpcrdma_vec_defaults),
		.status		= RPCRDMA_PDATA_PRESENT,
		.send_size	= 1024,
		.recv_size	= 1024,
	},
	{
		.desc		= "encoded 255 sizes are 262144",
		.data		= rpcrdma_vec_largest,
		.len		= sizeof(rpcrdma_vec_largest),
		.status		= RPCRDMA_PDATA_PRESENT,
		.send_size	= 262144,
		.recv_size	= 262144,
	},
	{
		.desc		= "Send Size is octet 6, Receive Size octet 7",
		.data		= rpcrdma_vec_send_recv_order,
		.len		= sizeof(rpcrdma_vec_send_recv_order),
		.status		= RPCRDMA_PDATA_PRESENT,
		.send_size	= 8192,
		.recv_size	= 2048,
	},
	{
		.desc		= "reserved bits set are ignored, R set",
		.data		= rpcrdma_vec_reserved_and_r,
		.len		= sizeof(rpcrdma_vec_reserved_and_r),
		.status		= RPCRDMA_PDATA_PRESENT,
		.remote_inv	= true,
		.send_size	= 4096,
		.recv_size	= 4096,
	},
	{
		.desc		= "reserved bits set are ignored, R clear",
		.data		= rpcrdma_vec_reserved_no_r,
		.len		= sizeof(rpcrdma_vec_reserved_no_r),
		.status		= RPCRDMA_PDATA_PRESENT,
		.send_size	= 4096,
		.recv_size	= 4096,
	},
	{
		.desc		= "top reserved bit is not R",
		.data		= rpcrdma_vec_reserved_top,
		.len		= sizeof(rpcrdma_vec_reserved_top),
		.status		= RPCRDMA_PDATA_PRESENT,
		.send_size	= 4096,
		.recv_size	= 4096,
	},
	{
		.desc		= "version 0",
		.data		= rpcrdma_vec_version0,
		.len		= sizeof(rpcrdma_vec_version0),
		.status		= RPCRDMA_PDATA_BAD_VERSION,
	},
	{
		.desc		= "version 2",
		.data		= rpcrdma_vec_version2,
		.len		= sizeof(rpcrdma_vec_version2),
		.status		= RPCRDMA_PDATA_BAD_VERSION,
	},
	{
		.desc		= "version 255",
		.data		= rpcrdma_vec_version255,
		.len		= sizeof(rpcrdma_vec_version255),
		.status		= RPCRDMA_PDATA_BAD_VERSION,
	},
	{
		.desc		= "version 2 with extension fields",
		.data		= rpcrdma_vec_version2_extended,
		.len		= sizeof(rpcrdma_vec_version2_extended),
		.status		= RPCRDMA_PDATA_BAD_VERSION,
	},
	{
		.desc		= "version 1 with trailing octets",
		.data		= rpcrdma_vec_trailing_octets,
		.len		= sizeof(rpcrdma_vec_trailing_octets),
		.status		= RPCRDMA_PDATA_PRESENT,
		.remote_inv	= true,
		.send_size	= 4096,
		.recv_size	= 4096,
	},
	{
		.desc		= "message in zero-padded 56-octet REQ",
		.data		= rpcrdma_vec_req_padded,
		.len		= sizeof(rpcrdma_vec_req_padded),
		.status		= RPCRDMA_PDATA_PRESENT,
		.remote_inv	= true,
		.send_size	= 4096,
		.recv_size	= 4096,
	},
	{
		.desc		= "56 zero octets",
		.data		= rpcrdma_vec_req_zeros,
		.len		= sizeof(rpcrdma_vec_req_zeros),
		.status		= RPCRDMA_PDATA_NO_IDENT,
	},
	{
		.desc		= "196 zero octets",
		.data		= rpcrdma_vec_rep_zeros,
		.len		= sizeof(rpcrdma_vec_rep_zeros),
		.status		= RPCRDMA_PDATA_NO_IDENT,
	},
	{
		.desc		= "identifier in little-endian order",
		.data		= rpcrdma_vec_byte_swapped,
		.len		= sizeof(rpcrdma_vec_byte_swapped),
		.status		= RPCRDMA_PDATA_NO_IDENT,
	},
	{
		.desc		= "identifier off by one bit",
		.data		= rpcrdma_vec_ident_off_by_one,
		.len		= sizeof(rpcrdma_vec_ident_off_by_one),
		.status		= RPCRDMA_PDATA_NO_IDENT,
	},
	{
		.desc		= "partial identifiers only",
		.data		= rpcrdma_vec_near_misses,
		.len		= sizeof(rpcrdma_vec_near_misses),
		.status		= RPCRDMA_PDATA_NO_IDENT,
	},
	{
		.desc		= "after MPA IRD/ORD",
		.data		= rpcrdma_vec_mpa_ird_ord,
		.len		= sizeof(rpcrdma_vec_mpa_ird_ord),
		.status		= RPCRDMA_PDATA_PRESENT,
		.offset		= 4,
		.remote_inv	= true,
		.send_size	= 4096,
		.recv_size	= 4096,
	},
	{
		.desc		= "at odd offset 3",
		.data		= rpcrdma_vec_odd_offset,
		.len		= sizeof(rpcrdma_vec_odd_offset),
		.status		= RPCRDMA_PDATA_PRESENT,
		.offset		= 3,
		.send_size	= 16384,
		.recv_size	= 32768,
	},
	{
		.desc		= "invalid identifier, then valid: second wins",
		.data		= rpcrdma_vec_invalid_then_valid,
		.len		= sizeof(rpcrdma_vec_invalid_then_valid),
		.status		= RPCRDMA_PDATA_PRESENT,
		.offset		= 8,
		.remote_inv	= true,
		.send_size	= 8192,
		.recv_size	= 2048,
	},
	{
		.desc		= "valid identifier, then valid: first wins",
		.data		= rpcrdma_vec_valid_then_valid,
		.len		= sizeof(rpcrdma_vec_valid_then_valid),
		.status		= RPCRDMA_PDATA_PRESENT,
		.remote_inv	= true,
		.send_size	= 4096,
		.recv_size	= 4096,
	},
	{
		.desc		= "identifier where the version belongs",
		.data		= rpcrdma_vec_overlapping,
		.len		= sizeof(rpcrdma_vec_overlapping),
		.status		= RPCRDMA_PDATA_PRESENT,
		.offset		= 4,
		.remote_inv	= true,
		.send_size	= 4096,
		.recv_size	= 8192,
	},
	{
		.desc		= "bad version, then truncated: first reason",
		.data		= rpcrdma_vec_bad_version_then_truncated,
		.len		= sizeof(rpcrdma_vec_bad_version_then_truncated),
		.status		= RPCRDMA_PDATA_BAD_VERSION,
	},
};

KUNIT_ARRAY_PARAM(rpcrdma_parse_vectors, rpcrdma_parse_vectors,
		  rpcrdma_parse_get_desc);

static void parse_vector_case(struct kunit *test)
{
	const struct rpcrdma_parse_param *param = test->param_value;
	struct rpcrdma_pdata msg = { };
	u8 *buf;

	buf = rpcrdma_test_alloc_odd(test, param->len);
	memcpy(buf, param->data, param->len);

	KUNIT_ASSERT_EQ(test, rpcrdma_pdata_parse(buf, param->len, &msg),
			param->status);
	if (param->status != RPCRDMA_PDATA_PRESENT)
		return;
	KUNIT_EXPECT_EQ(test, msg.version, 1);
	KUNIT_EXPECT_EQ(test, msg.offset, param->offset);
	KUNIT_EXPECT_EQ(test, msg.remote_inv, param->remote_inv);
	KUNIT_EXPECT_EQ(test, msg.send_size, param->send_size);
	KUNIT_EXPECT_EQ(test, msg.recv_size, param->recv_size);
}

/* Where a message is placed inside a buffer of a given length */
struct rpcrdma_place_param {
	u32	len;
	u32	offset;
};

/* Every offset at which a whole message fits in a REQ, then a REP */
static struct rpcrdma_place_param
rpcrdma_test_places[RPCRDMA_TEST_REQ_LEN - RPCRDMA_PDATA_V1_LEN + 1 +
		    RPCRDMA_TEST_REP_LEN - RPCRDMA_PDATA_V1_LEN + 1];

static const void *rpcrdma_test_place_gen_params(const void *prev, char *desc)
{
	const struct rpcrdma_place_param *next;
	size_t i, n = 0;

	if (!prev) {
		for (i = 0; i <= RPCRDMA_TEST_REQ_LEN - RPCRDMA_PDATA_V1_LEN; i++) {
			rpcrdma_test_places[n].len = RPCRDMA_TEST_REQ_LEN;
			rpcrdma_test_places[n++].offset = i;
		}
		for (i = 0; i <= RPCRDMA_TEST_REP_LEN - RPCRDMA_PDATA_V1_LEN; i++) {
			rpcrdma_test_places[n].len = RPCRDMA_TEST_REP_LEN;
			rpcrdma_test_places[n++].offset = i;
		}
		next = rpcrdma_test_places;
	} else {
		next = (const struct rpcrdma_place_param *)prev + 1;
	}
	if (next - rpcrdma_test_places >= ARRAY_SIZE(rpcrdma_test_places))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u-octet %s, offset %u",
		 next->len, next->len == RPCRDMA_TEST_REQ_LEN ? "REQ" : "REP",
		 next->offset);
	return next;
}

static void parse_any_offset_case(struct kunit *test)
{
	const struct rpcrdma_place_param *param = test->param_value;
	struct rpcrdma_pdata msg = { };
	u8 *buf;

	buf = rpcrdma_test_alloc_odd(test, param->len);
	rpcrdma_test_fill(buf, param->len);
	rpcrdma_test_put_msg(buf + param->offset, 1, 0x01, 0x07, 0x0f);

	KUNIT_ASSERT_EQ(test, rpcrdma_pdata_parse(buf, param->len, &msg),
			RPCRDMA_PDATA_PRESENT);
	KUNIT_EXPECT_EQ(test, msg.offset, param->offset);
	KUNIT_EXPECT_EQ(test, msg.version, 1);
	KUNIT_EXPECT_TRUE(test, msg.remote_inv);
	KUNIT_EXPECT_EQ(test, msg.send_size, 8192);
	KUNIT_EXPECT_EQ(test, msg.recv_size, 16384);
}

/* The first @kept octets of a message at the very end of a buffer */
struct rpcrdma_trunc_param {
	const char			*desc;
	u32				len;
	u32				kept;
	enum rpcrdma_pdata_status	status;
};

static void rpcrdma_trunc_get_desc(const struct rpcrdma_trunc_param *param,
				   char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

/* Fewer than four octets is only a prefix of the identifier: no
 * identifier at all. Four to seven hold the identifier but not the
 * whole message, which Section 5.2 says must not overrun the buffer.
 */
static const struct rpcrdma_trunc_param rpcrdma_trunc_vectors[] = {
	{ "alone, 1 octet", 1, 1, RPCRDMA_PDATA_NO_IDENT },
	{ "alone, 2 octets", 2, 2, RPCRDMA_PDATA_NO_IDENT },
	{ "alone, 3 octets", 3, 3, RPCRDMA_PDATA_NO_IDENT },
	{ "alone, 4 octets", 4, 4, RPCRDMA_PDATA_TRUNCATED },
	{ "alone, 5 octets", 5, 5, RPCRDMA_PDATA_TRUNCATED },
	{ "alone, 6 octets", 6, 6, RPCRDMA_PDATA_TRUNCATED },
	{ "alone, 7 octets", 7, 7, RPCRDMA_PDATA_TRUNCATED },
	{ "end of REQ, 1 octet", 56, 1, RPCRDMA_PDATA_NO_IDENT },
	{ "end of REQ, 2 octets", 56, 2, RPCRDMA_PDATA_NO_IDENT },
	{ "end of REQ, 3 octets", 56, 3, RPCRDMA_PDATA_NO_IDENT },
	{ "end of REQ, 4 octets", 56, 4, RPCRDMA_PDATA_TRUNCATED },
	{ "end of REQ, 5 octets", 56, 5, RPCRDMA_PDATA_TRUNCATED },
	{ "end of REQ, 6 octets", 56, 6, RPCRDMA_PDATA_TRUNCATED },
	{ "end of REQ, 7 octets", 56, 7, RPCRDMA_PDATA_TRUNCATED },
	{ "end of REP, 4 octets", 196, 4, RPCRDMA_PDATA_TRUNCATED },
	{ "end of REP, 7 octets", 196, 7, RPCRDMA_PDATA_TRUNCATED },
};

KUNIT_ARRAY_PARAM(rpcrdma_trunc_vectors, rpcrdma_trunc_vectors,
		  rpcrdma_trunc_get_desc);

static void parse_truncated_case(struct kunit *test)
{
	const struct rpcrdma_trunc_param *param = test->param_value;
	struct rpcrdma_pdata msg = { };
	u8 whole[RPCRDMA_PDATA_V1_LEN];
	u8 *buf;

	rpcrdma_test_put_msg(whole, 1, 0x01, 0x03, 0x03);
	/* Allocate exactly @len (plus the odd-address octet) so an
	 * overrun would read past what the test handed over.
	 */
	buf = rpcrdma_test_alloc_odd(test, param->len);
	rpcrdma_test_fill(buf, param->len);
	memcpy(buf + param->len - param->kept, whole, param->kept);

	KUNIT_EXPECT_EQ(test, rpcrdma_pdata_parse(buf, param->len, &msg),
			param->status);
}

static void parse_null_buffer_case(struct kunit *test)
{
	struct rpcrdma_pdata msg = { };

	KUNIT_EXPECT_EQ(test, rpcrdma_pdata_parse(NULL, 0, &msg),
			RPCRDMA_PDATA_NO_DATA);
}

static void parse_null_buffer_with_length_case(struct kunit *test)
{
	struct rpcrdma_pdata msg = { };

	/* A CM that reports a length but no buffer delivered nothing */
	KUNIT_EXPECT_EQ(test,
			rpcrdma_pdata_parse(NULL, RPCRDMA_TEST_REQ_LEN, &msg),
			RPCRDMA_PDATA_NO_DATA);
}

static void parse_zero_length_case(struct kunit *test)
{
	struct rpcrdma_pdata msg = { };

	/* A valid message the CM says has no length is not delivered */
	KUNIT_EXPECT_EQ(test, rpcrdma_pdata_parse(rpcrdma_vec_linux_client,
						  0, &msg),
			RPCRDMA_PDATA_NO_DATA);
}

static void parse_garbage_case(struct kunit *test)
{
	struct rpcrdma_pdata msg = { };
	u32 state = 0x8797;
	size_t i;
	u8 *buf;

	/* Every octet value, including 0xf6, in a fixed pseudo-random
	 * order (a 32-bit LCG) that holds no identifier.
	 */
	buf = rpcrdma_test_alloc_odd(test, RPCRDMA_TEST_REP_LEN);
	for (i = 0; i < RPCRDMA_TEST_REP_LEN; i++) {
		state = state * 1664525 + 1013904223;
		buf[i] = state >> 24;
	}

	KUNIT_EXPECT_EQ(test,
			rpcrdma_pdata_parse(buf, RPCRDMA_TEST_REP_LEN, &msg),
			RPCRDMA_PDATA_NO_IDENT);
}

static void parse_absent_leaves_msg_case(struct kunit *test)
{
	struct rpcrdma_pdata msg, before;

	/* Callers may keep defaults in @msg; an absent result must not
	 * clobber them with a half-parsed candidate.
	 */
	memset(&msg, 0x5a, sizeof(msg));
	before = msg;

	KUNIT_ASSERT_EQ(test,
			rpcrdma_pdata_parse(rpcrdma_vec_version2,
					    sizeof(rpcrdma_vec_version2), &msg),
			RPCRDMA_PDATA_BAD_VERSION);
	KUNIT_EXPECT_EQ(test, memcmp(&msg, &before, sizeof(msg)), 0);
}

static struct kunit_case rpcrdma_parse_cases[] = {
	KUNIT_CASE_PARAM(parse_vector_case, rpcrdma_parse_vectors_gen_params),
	KUNIT_CASE_PARAM(parse_any_offset_case,
			 rpcrdma_test_place_gen_params),
	KUNIT_CASE_PARAM(parse_truncated_case,
			 rpcrdma_trunc_vectors_gen_params),
	KUNIT_CASE(parse_null_buffer_case),
	KUNIT_CASE(parse_null_buffer_with_length_case),
	KUNIT_CASE(parse_zero_length_case),
	KUNIT_CASE(parse_garbage_case),
	KUNIT_CASE(parse_absent_leaves_msg_case),
	{}
};

static struct kunit_suite rpcrdma_parse_suite = {
	.name		= "rpcrdma_pdata_parse",
	.test_cases	= rpcrdma_parse_cases,
};

/*
 * RFC 8797 Sections 4.1, 4.2 and 5.1: negotiation
 */

/* One side's computation: @local against what it received, if any */
struct rpcrdma_role_param {
	const char			*desc;
	struct rpcrdma_pdata_limits	local;
	bool				peer_present;
	struct rpcrdma_pdata		peer;
	struct rpcrdma_pdata_result	expect;
};

static void rpcrdma_role_get_desc(const struct rpcrdma_role_param *param,
				  char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

#define RPCRDMA_TEST_LIMITS(s, r, inv) \
	{ .max_send = (s), .max_recv = (r), .remote_inv = (inv), }
#define RPCRDMA_TEST_PEER(s, r, inv) \
	{ .version = 1, .send_size = (s), .recv_size = (r), .remote_inv = (inv), }
#define RPCRDMA_TEST_RESULT(s, r, inv) \
	{ .send_thresh = (s), .recv_thresh = (r), .remote_inv = (inv), }

static const struct rpcrdma_role_param rpcrdma_role_vectors[] = {
	/* Client side: local is the client, the peer is the server */
	{ "client 4096/4096 R, server 8192/2048 R",
	  RPCRDMA_TEST_LIMITS(4096, 4096, true), true,
	  RPCRDMA_TEST_PEER(8192, 2048, true),
	  RPCRDMA_TEST_RESULT(2048, 4096, true) },
	{ "client R, server without R",
	  RPCRDMA_TEST_LIMITS(4096, 4096, true), true,
	  RPCRDMA_TEST_PEER(8192, 2048, false),
	  RPCRDMA_TEST_RESULT(2048, 4096, false) },
	{ "client without R, server R",
	  RPCRDMA_TEST_LIMITS(4096, 4096, false), true,
	  RPCRDMA_TEST_PEER(8192, 2048, true),
	  RPCRDMA_TEST_RESULT(2048, 4096, false) },
	{ "client and server without R",
	  RPCRDMA_TEST_LIMITS(4096, 4096, false), true,
	  RPCRDMA_TEST_PEER(8192, 2048, false),
	  RPCRDMA_TEST_RESULT(2048, 4096, false) },
	{ "client R, server sent nothing",
	  RPCRDMA_TEST_LIMITS(4096, 4096, true), false, { },
	  RPCRDMA_TEST_RESULT(1024, 1024, false) },
	{ "client without R, server sent nothing",
	  RPCRDMA_TEST_LIMITS(4096, 4096, false), false, { },
	  RPCRDMA_TEST_RESULT(1024, 1024, false) },
	{ "client R, server 1024/1024 R: R still counts",
	  RPCRDMA_TEST_LIMITS(4096, 4096, true), true,
	  RPCRDMA_TEST_PEER(1024, 1024, true),
	  RPCRDMA_TEST_RESULT(1024, 1024, true) },
	{ "client larger than server",
	  RPCRDMA_TEST_LIMITS(65536, 65536, true), true,
	  RPCRDMA_TEST_PEER(4096, 4096, true),
	  RPCRDMA_TEST_RESULT(4096, 4096, true) },
	{ "client smaller than server",
	  RPCRDMA_TEST_LIMITS(2048, 2048, false), true,
	  RPCRDMA_TEST_PEER(262144, 262144, false),
	  RPCRDMA_TEST_RESULT(2048, 2048, false) },
	{ "client equal to server",
	  RPCRDMA_TEST_LIMITS(8192, 8192, true), true,
	  RPCRDMA_TEST_PEER(8192, 8192, true),
	  RPCRDMA_TEST_RESULT(8192, 8192, true) },
	{ "client 16384/2048, server 4096/32768: crossed",
	  RPCRDMA_TEST_LIMITS(16384, 2048, false), true,
	  RPCRDMA_TEST_PEER(4096, 32768, false),
	  RPCRDMA_TEST_RESULT(16384, 2048, false) },
	{ "client 512/0 below minimum counts as 1024",
	  RPCRDMA_TEST_LIMITS(512, 0, true), true,
	  RPCRDMA_TEST_PEER(8192, 8192, true),
	  RPCRDMA_TEST_RESULT(1024, 1024, true) },
	{ "client 5000/9000 round down",
	  RPCRDMA_TEST_LIMITS(5000, 9000, false), true,
	  RPCRDMA_TEST_PEER(262144, 262144, false),
	  RPCRDMA_TEST_RESULT(4096, 8192, false) },
	{ "client UINT_MAX against 262144",
	  RPCRDMA_TEST_LIMITS(UINT_MAX, UINT_MAX, true), true,
	  RPCRDMA_TEST_PEER(262144, 262144, true),
	  RPCRDMA_TEST_RESULT(262144, 262144, true) },
	/* Server side: local is the server, the peer is the client */
	{ "server 8192/2048 R, client 4096/4096 R",
	  RPCRDMA_TEST_LIMITS(8192, 2048, true), true,
	  RPCRDMA_TEST_PEER(4096, 4096, true),
	  RPCRDMA_TEST_RESULT(4096, 2048, true) },
	{ "server without R, client R",
	  RPCRDMA_TEST_LIMITS(8192, 2048, false), true,
	  RPCRDMA_TEST_PEER(4096, 4096, true),
	  RPCRDMA_TEST_RESULT(4096, 2048, false) },
	{ "server R, client without R",
	  RPCRDMA_TEST_LIMITS(8192, 2048, true), true,
	  RPCRDMA_TEST_PEER(4096, 4096, false),
	  RPCRDMA_TEST_RESULT(4096, 2048, false) },
	{ "server and client without R",
	  RPCRDMA_TEST_LIMITS(8192, 2048, false), true,
	  RPCRDMA_TEST_PEER(4096, 4096, false),
	  RPCRDMA_TEST_RESULT(4096, 2048, false) },
	{ "server R, client sent nothing",
	  RPCRDMA_TEST_LIMITS(8192, 2048, true), false, { },
	  RPCRDMA_TEST_RESULT(1024, 1024, false) },
	{ "server without R, client sent nothing",
	  RPCRDMA_TEST_LIMITS(8192, 2048, false), false, { },
	  RPCRDMA_TEST_RESULT(1024, 1024, false) },
	{ "server larger than client",
	  RPCRDMA_TEST_LIMITS(262144, 262144, true), true,
	  RPCRDMA_TEST_PEER(4096, 4096, true),
	  RPCRDMA_TEST_RESULT(4096, 4096, true) },
	{ "server smaller than client",
	  RPCRDMA_TEST_LIMITS(2048, 2048, true), true,
	  RPCRDMA_TEST_PEER(65536, 65536, true),
	  RPCRDMA_TEST_RESULT(2048, 2048, true) },
	{ "server 4096/32768, client 16384/2048: crossed",
	  RPCRDMA_TEST_LIMITS(4096, 32768, false), true,
	  RPCRDMA_TEST_PEER(16384, 2048, false),
	  RPCRDMA_TEST_RESULT(2048, 16384, false) },
	{ "server 0/1023 below minimum counts as 1024",
	  RPCRDMA_TEST_LIMITS(0, 1023, false), true,
	  RPCRDMA_TEST_PEER(8192, 8192, false),
	  RPCRDMA_TEST_RESULT(1024, 1024, false) },
	{ "server 9000/5000 round down",
	  RPCRDMA_TEST_LIMITS(9000, 5000, true), true,
	  RPCRDMA_TEST_PEER(262144, 262144, true),
	  RPCRDMA_TEST_RESULT(8192, 4096, true) },
	{ "server 262144/262144, client 262144/262144",
	  RPCRDMA_TEST_LIMITS(262144, 262144, true), true,
	  RPCRDMA_TEST_PEER(262144, 262144, true),
	  RPCRDMA_TEST_RESULT(262144, 262144, true) },
};

KUNIT_ARRAY_PARAM(rpcrdma_role_vectors, rpcrdma_role_vectors,
		  rpcrdma_role_get_desc);

static void negotiate_role_case(struct kunit *test)
{
	const struct rpcrdma_role_param *param = test->param_value;
	struct rpcrdma_pdata_result res;

	memset(&res, 0xcc, sizeof(res));
	rpcrdma_pdata_negotiate(&param->local,
				param->peer_present ? &param->peer : NULL,
				&res);

	KUNIT_EXPECT_EQ(test, res.send_thresh, param->expect.send_thresh);
	KUNIT_EXPECT_EQ(test, res.recv_thresh, param->expect.recv_thresh);
	KUNIT_EXPECT_EQ(test, res.remote_inv, param->expect.remote_inv);
}

/* A whole connection: both sides run the codec on what the other sent */
struct rpcrdma_conn_param {
	const char			*desc;
	struct rpcrdma_pdata_limits	client;
	struct rpcrdma_pdata_limits	server;
	/* false: neither message arrived (pdata off, or no CM) */
	bool				exchanged;
	u32				c2s;
	u32				s2c;
	bool				remote_inv;
};

static void rpcrdma_conn_get_desc(const struct rpcrdma_conn_param *param,
				  char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct rpcrdma_conn_param rpcrdma_conn_vectors[] = {
	{ "client 4096/4096 R, server 8192/2048 R",
	  RPCRDMA_TEST_LIMITS(4096, 4096, true),
	  RPCRDMA_TEST_LIMITS(8192, 2048, true), true, 2048, 4096, true },
	{ "client R, server without R (mainline server)",
	  RPCRDMA_TEST_LIMITS(4096, 4096, true),
	  RPCRDMA_TEST_LIMITS(8192, 2048, false), true, 2048, 4096, false },
	{ "client without R, server R",
	  RPCRDMA_TEST_LIMITS(4096, 4096, false),
	  RPCRDMA_TEST_LIMITS(8192, 2048, true), true, 2048, 4096, false },
	{ "client larger than server",
	  RPCRDMA_TEST_LIMITS(65536, 65536, true),
	  RPCRDMA_TEST_LIMITS(4096, 4096, true), true, 4096, 4096, true },
	{ "client smaller than server",
	  RPCRDMA_TEST_LIMITS(2048, 2048, true),
	  RPCRDMA_TEST_LIMITS(262144, 262144, true), true, 2048, 2048, true },
	{ "client 16384/2048, server 4096/32768: crossed",
	  RPCRDMA_TEST_LIMITS(16384, 2048, false),
	  RPCRDMA_TEST_LIMITS(4096, 32768, false), true, 16384, 2048, false },
	{ "client 5000/9000 unaligned, server 262144/262144",
	  RPCRDMA_TEST_LIMITS(5000, 9000, true),
	  RPCRDMA_TEST_LIMITS(262144, 262144, true), true, 4096, 8192, true },
	{ "client UINT_MAX, server 0/0",
	  RPCRDMA_TEST_LIMITS(UINT_MAX, UINT_MAX, true),
	  RPCRDMA_TEST_LIMITS(0, 0, true), true, 1024, 1024, true },
	{ "both 262144/262144",
	  RPCRDMA_TEST_LIMITS(262144, 262144, false),
	  RPCRDMA_TEST_LIMITS(262144, 262144, false), true,
	  262144, 262144, false },
	{ "no exchange, both R",
	  RPCRDMA_TEST_LIMITS(4096, 4096, true),
	  RPCRDMA_TEST_LIMITS(8192, 2048, true), false, 1024, 1024, false },
	{ "no exchange, limits below 1024",
	  RPCRDMA_TEST_LIMITS(0, 512, false),
	  RPCRDMA_TEST_LIMITS(1, 1023, false), false, 1024, 1024, false },
};

KUNIT_ARRAY_PARAM(rpcrdma_conn_vectors, rpcrdma_conn_vectors,
		  rpcrdma_conn_get_desc);

/* What one side computes from the other's message as it would arrive:
 * built into a REQ-sized buffer behind four octets of other data, then
 * found and parsed, so the whole path is exercised.
 */
static void rpcrdma_test_side(struct kunit *test,
			      const struct rpcrdma_pdata_limits *local,
			      const struct rpcrdma_pdata_limits *remote,
			      bool exchanged,
			      struct rpcrdma_pdata_result *res)
{
	struct rpcrdma_pdata msg;
	u8 *buf;

	if (!exchanged) {
		rpcrdma_pdata_negotiate(local, NULL, res);
		return;
	}
	buf = rpcrdma_test_alloc_odd(test, RPCRDMA_TEST_REQ_LEN);
	rpcrdma_test_fill(buf, RPCRDMA_TEST_REQ_LEN);
	rpcrdma_pdata_build(buf + 4, remote);
	KUNIT_ASSERT_EQ(test,
			rpcrdma_pdata_parse(buf, RPCRDMA_TEST_REQ_LEN, &msg),
			RPCRDMA_PDATA_PRESENT);
	rpcrdma_pdata_negotiate(local, &msg, res);
}

static void negotiate_client_view_case(struct kunit *test)
{
	const struct rpcrdma_conn_param *param = test->param_value;
	struct rpcrdma_pdata_result res;

	rpcrdma_test_side(test, &param->client, &param->server,
			  param->exchanged, &res);

	KUNIT_EXPECT_EQ(test, res.send_thresh, param->c2s);
	KUNIT_EXPECT_EQ(test, res.recv_thresh, param->s2c);
	KUNIT_EXPECT_EQ(test, res.remote_inv, param->remote_inv);
}

static void negotiate_server_view_case(struct kunit *test)
{
	const struct rpcrdma_conn_param *param = test->param_value;
	struct rpcrdma_pdata_result res;

	rpcrdma_test_side(test, &param->server, &param->client,
			  param->exchanged, &res);

	KUNIT_EXPECT_EQ(test, res.send_thresh, param->s2c);
	KUNIT_EXPECT_EQ(test, res.recv_thresh, param->c2s);
	KUNIT_EXPECT_EQ(test, res.remote_inv, param->remote_inv);
}

static void negotiate_symmetry_case(struct kunit *test)
{
	const struct rpcrdma_conn_param *param = test->param_value;
	struct rpcrdma_pdata_result client, server;

	rpcrdma_test_side(test, &param->client, &param->server,
			  param->exchanged, &client);
	rpcrdma_test_side(test, &param->server, &param->client,
			  param->exchanged, &server);

	/* Each direction's threshold is one number both ends agree on */
	KUNIT_EXPECT_EQ(test, client.send_thresh, server.recv_thresh);
	KUNIT_EXPECT_EQ(test, client.recv_thresh, server.send_thresh);
	KUNIT_EXPECT_EQ(test, client.remote_inv, server.remote_inv);
}

static void negotiate_null_peer_is_defaults_case(struct kunit *test)
{
	static const struct rpcrdma_pdata_limits local =
		RPCRDMA_TEST_LIMITS(65536, 65536, true);
	static const struct rpcrdma_pdata defaults =
		RPCRDMA_TEST_PEER(1024, 1024, false);
	struct rpcrdma_pdata_result absent, zero;

	/* Section 5.1: no message means R clear and both sizes encoded
	 * as zero; the two must be indistinguishable.
	 */
	rpcrdma_pdata_negotiate(&local, NULL, &absent);
	rpcrdma_pdata_negotiate(&local, &defaults, &zero);

	KUNIT_EXPECT_EQ(test, absent.send_thresh, zero.send_thresh);
	KUNIT_EXPECT_EQ(test, absent.recv_thresh, zero.recv_thresh);
	KUNIT_EXPECT_EQ(test, absent.remote_inv, zero.remote_inv);
}

static struct kunit_case rpcrdma_negotiate_cases[] = {
	KUNIT_CASE_PARAM(negotiate_role_case,
			 rpcrdma_role_vectors_gen_params),
	KUNIT_CASE_PARAM(negotiate_client_view_case,
			 rpcrdma_conn_vectors_gen_params),
	KUNIT_CASE_PARAM(negotiate_server_view_case,
			 rpcrdma_conn_vectors_gen_params),
	KUNIT_CASE_PARAM(negotiate_symmetry_case,
			 rpcrdma_conn_vectors_gen_params),
	KUNIT_CASE(negotiate_null_peer_is_defaults_case),
	{}
};

static struct kunit_suite rpcrdma_negotiate_suite = {
	.name		= "rpcrdma_pdata_negotiate",
	.test_cases	= rpcrdma_negotiate_cases,
};

/*
 * Status names: glue code logs these, so they are a stable interface
 */

struct rpcrdma_status_param {
	enum rpcrdma_pdata_status	status;
	const char			*name;
};

static void rpcrdma_status_get_desc(const struct rpcrdma_status_param *param,
				    char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "status %d", param->status);
}

static const struct rpcrdma_status_param rpcrdma_status_vectors[] = {
	{ RPCRDMA_PDATA_PRESENT,	"present" },
	{ RPCRDMA_PDATA_NO_DATA,	"no_data" },
	{ RPCRDMA_PDATA_NO_IDENT,	"no_ident" },
	{ RPCRDMA_PDATA_TRUNCATED,	"truncated" },
	{ RPCRDMA_PDATA_BAD_VERSION,	"bad_version" },
	{ RPCRDMA_PDATA_DISABLED,	"disabled" },
	{ (enum rpcrdma_pdata_status)99, "unknown" },
};

KUNIT_ARRAY_PARAM(rpcrdma_status_vectors, rpcrdma_status_vectors,
		  rpcrdma_status_get_desc);

static void status_name_case(struct kunit *test)
{
	const struct rpcrdma_status_param *param = test->param_value;

	KUNIT_EXPECT_STREQ(test, rpcrdma_pdata_status_name(param->status),
			   param->name);
}

static struct kunit_case rpcrdma_status_cases[] = {
	KUNIT_CASE_PARAM(status_name_case, rpcrdma_status_vectors_gen_params),
	{}
};

static struct kunit_suite rpcrdma_status_suite = {
	.name		= "rpcrdma_pdata_status",
	.test_cases	= rpcrdma_status_cases,
};

kunit_test_suites(&rpcrdma_size_suite, &rpcrdma_build_suite,
		  &rpcrdma_parse_suite, &rpcrdma_negotiate_suite,
		  &rpcrdma_status_suite);

MODULE_DESCRIPTION("KUnit tests for the RFC 8797 private data codec");
MODULE_LICENSE("GPL");
