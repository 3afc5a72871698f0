// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the server hooks' arithmetic (svc_rdma_cm_calc.c):
 * the transport header of a short Reply, the inline threshold test,
 * the backchannel's largest Call, the Send Size offered to a client
 * and the timing of a detach's drain.
 * The header sizes are those of RFC 8166's XDR, counted by hand.
 */

#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/limits.h>
#include <linux/sunrpc/rpcrdma_cm.h>

/* One chunk in a transport header: discriminator, count, 16 per segment */
static void svc_rdma_cm_test_chunk_hdrlen(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_chunk_hdrlen(0), 8);
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_chunk_hdrlen(1), 24);
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_chunk_hdrlen(2), 40);
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_chunk_hdrlen(16), 264);
}

/**
 * struct svc_rdma_cm_test_short - the header of one short Reply
 * @desc: what the case shows
 * @write_segs: segments of each Write chunk, 0 ending the list
 * @reply_segs: segments of the Reply chunk
 * @hdrlen: its length: 16 fixed, 4 for the empty Read list, 8 + 16 per
 *	segment for each Write chunk, 4 for the Write list's end, then the
 *	Reply chunk's 8 + 16 per segment
 */
struct svc_rdma_cm_test_short {
	const char	*desc;
	u32		write_segs[4];
	u32		reply_segs;
	unsigned int	hdrlen;
};

static const struct svc_rdma_cm_test_short svc_rdma_cm_test_shorts[] = {
	{
		.desc = "no Write chunk, Reply chunk of 1 segment",
		.reply_segs = 1, .hdrlen = 48,
	},
	{
		.desc = "no Write chunk, Reply chunk of 3 segments",
		.reply_segs = 3, .hdrlen = 80,
	},
	{
		/* an NFS READ COMPOUND that also offered a Reply chunk */
		.desc = "one Write chunk of 1 segment, Reply chunk of 1",
		.write_segs = { 1 }, .reply_segs = 1, .hdrlen = 72,
	},
	{
		.desc = "Write chunks of 2 and 1 segments, Reply chunk of 2",
		.write_segs = { 2, 1 }, .reply_segs = 2, .hdrlen = 128,
	},
};

static void svc_rdma_cm_test_short_desc(const struct svc_rdma_cm_test_short *p,
					char *desc)
{
	strscpy(desc, p->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(svc_rdma_cm_test_shorts, svc_rdma_cm_test_shorts,
		  svc_rdma_cm_test_short_desc);

static void svc_rdma_cm_test_short_hdrlen(struct kunit *test)
{
	const struct svc_rdma_cm_test_short *p = test->param_value;
	unsigned int write_hdrlen = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(p->write_segs) && p->write_segs[i]; i++)
		write_hdrlen += svc_rdma_cm_chunk_hdrlen(p->write_segs[i]);
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_short_hdrlen(write_hdrlen,
						       p->reply_segs),
			p->hdrlen);
}

/* A Send fits when header and message together are at most the threshold */
static void svc_rdma_cm_test_inline_fits(struct kunit *test)
{
	/* a short Reply's 48-octet header and 4048 octets: exactly 4096 */
	KUNIT_EXPECT_TRUE(test, svc_rdma_cm_inline_fits(48, 4048, 4096));
	KUNIT_EXPECT_FALSE(test, svc_rdma_cm_inline_fits(48, 4049, 4096));
	/* scenario 7's READs of 1952 and 1953 octets: a 28-octet header
	 * and 2020 or 2024 octets of Reply, to a 2048-octet Receive
	 */
	KUNIT_EXPECT_TRUE(test, svc_rdma_cm_inline_fits(28, 2020, 2048));
	KUNIT_EXPECT_FALSE(test, svc_rdma_cm_inline_fits(28, 2024, 2048));
	KUNIT_EXPECT_TRUE(test, svc_rdma_cm_inline_fits(1024, 0, 1024));
	KUNIT_EXPECT_FALSE(test, svc_rdma_cm_inline_fits(1025, 0, 1024));
	KUNIT_EXPECT_FALSE(test, svc_rdma_cm_inline_fits(0, 1025, 1024));
	/* a sum that wraps is not a small message */
	KUNIT_EXPECT_FALSE(test, svc_rdma_cm_inline_fits(64, UINT_MAX - 31,
							 4096));
	KUNIT_EXPECT_FALSE(test, svc_rdma_cm_inline_fits(UINT_MAX, 2, 4096));
}

/* The negotiated threshold less a backchannel Call's 28-octet header */
static void svc_rdma_cm_test_bc_payload(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_bc_payload(4096), 4068);
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_bc_payload(2048), 2020);
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_bc_payload(262144), 262116);
	/* never below the Version 1 minimum, even before accept */
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_bc_payload(1024), 996);
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_bc_payload(0), 996);
}

/**
 * struct svc_rdma_cm_test_drain - one detach's drain
 * @desc: what the case shows
 * @now: when the detach starts, in jiffies
 * @end: when the latest wait ends or ended
 * @wait: the wait expected
 * @shared: expected to share the latest wait
 */
struct svc_rdma_cm_test_drain {
	const char	*desc;
	unsigned long	now;
	unsigned long	end;
	long		wait;
	bool		shared;
};

#define T0	(INITIAL_JIFFIES + 600 * HZ)

static const struct svc_rdma_cm_test_drain svc_rdma_cm_test_drains[] = {
	{
		.desc = "the latest wait ended long ago: a whole second",
		.now = T0, .end = T0 - 60 * HZ,
		.wait = HZ, .shared = false,
	},
	{
		.desc = "the latest wait ended exactly a second ago: not shared",
		.now = T0, .end = T0 - HZ,
		.wait = HZ, .shared = false,
	},
	{
		.desc = "a wait runs for 0.9 s more: wait with it",
		.now = T0, .end = T0 + HZ - HZ / 10,
		.wait = HZ - HZ / 10, .shared = true,
	},
	{
		.desc = "a wait ends in 0.1 s: at least 0.2 s",
		.now = T0, .end = T0 + HZ / 10,
		.wait = HZ / 5, .shared = true,
	},
	{
		.desc = "the latest wait ended 0.5 s ago: 0.2 s",
		.now = T0, .end = T0 - HZ / 2,
		.wait = HZ / 5, .shared = true,
	},
	{
		/* 32 bits: jiffies starts 300 s before its wrap, and no
		 * detach has waited yet
		 */
		.desc = "an end 300 s ahead (0, before jiffies wrapped): a second",
		.now = -300UL * HZ, .end = 0,
		.wait = HZ, .shared = false,
	},
	{
		.desc = "an end 10 s ahead: never more than a second",
		.now = T0, .end = T0 + 10 * HZ,
		.wait = HZ, .shared = false,
	},
	{
		.desc = "an end exactly a second ahead: the whole second, shared",
		.now = T0, .end = T0 + HZ,
		.wait = HZ, .shared = true,
	},
	{
		.desc = "jiffies just wrapped past the latest wait's end",
		.now = 5, .end = ULONG_MAX - 4,
		.wait = HZ / 5, .shared = true,
	},
};

static void svc_rdma_cm_test_drain_desc(const struct svc_rdma_cm_test_drain *p,
					char *desc)
{
	strscpy(desc, p->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(svc_rdma_cm_test_drains, svc_rdma_cm_test_drains,
		  svc_rdma_cm_test_drain_desc);

static void svc_rdma_cm_test_drain_time(struct kunit *test)
{
	const struct svc_rdma_cm_test_drain *p = test->param_value;
	bool shared = !p->shared;

	KUNIT_EXPECT_EQ(test, svc_rdma_cm_drain_time(p->now, p->end, &shared),
			p->wait);
	KUNIT_EXPECT_EQ(test, shared, p->shared);
}

/* The first detach after boot, or long after, waits alone */
static void svc_rdma_cm_test_drain_start(struct kunit *test)
{
	bool shared = true;

	KUNIT_EXPECT_EQ(test, svc_rdma_cm_drain_time(INITIAL_JIFFIES,
						     SVC_RDMA_CM_DRAIN_START,
						     &shared), HZ);
	KUNIT_EXPECT_FALSE(test, shared);
	shared = true;
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_drain_time(INITIAL_JIFFIES + HZ / 2,
						     SVC_RDMA_CM_DRAIN_START,
						     &shared), HZ);
	KUNIT_EXPECT_FALSE(test, shared);
	shared = true;
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_drain_time(T0, SVC_RDMA_CM_DRAIN_START,
						     &shared), HZ);
	KUNIT_EXPECT_FALSE(test, shared);
}

/*
 * nfsd's shutdown detaching five transports in a row, each of whose
 * waits ends where the next detach reads it: the first three share one
 * second, the fourth its last 0.2 s, the fifth starts afresh.
 */
static void svc_rdma_cm_test_drain_sequence(struct kunit *test)
{
	static const struct {
		unsigned long	at;
		long		wait;
		bool		shared;
	} steps[] = {
		{ T0,			HZ,		false },
		{ T0 + HZ / 10,		HZ - HZ / 10,	true },
		{ T0 + HZ / 2,		HZ / 2,		true },
		{ T0 + HZ + HZ / 2,	HZ / 5,		true },
		{ T0 + 3 * HZ,		HZ,		false },
	};
	unsigned long end = T0 - 60 * HZ;
	bool shared;
	long wait;
	int i;

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		wait = svc_rdma_cm_drain_time(steps[i].at, end, &shared);
		KUNIT_EXPECT_EQ_MSG(test, wait, steps[i].wait, "detach %d", i);
		KUNIT_EXPECT_EQ_MSG(test, shared, steps[i].shared,
				    "detach %d", i);
		end = steps[i].at + wait;
	}
}

/*
 * The Send Size offered to a client: the smaller of the parameter and
 * the client's Receive Size, in units of 1024, never above 64 KiB.
 */
static void svc_rdma_cm_test_offer_send(struct kunit *test)
{
	/* the defaults against this module's client, and a stock one */
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_offer_send(8192, 8192), 8192);
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_offer_send(8192, 4096), 4096);
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_offer_send(8192, 65536), 8192);
	/* no private data from the client, or the parameter at 0 */
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_offer_send(8192, 0), 0);
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_offer_send(0, 8192), 0);
	/* what the codec can encode: multiples of 1024 */
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_offer_send(9000, 16384), 8192);
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_offer_send(1023, 16384), 0);
	/* a client claiming the codec's largest size gets 64 KiB */
	KUNIT_EXPECT_EQ(test, svc_rdma_cm_offer_send(U32_MAX, 262144), 65536);
}

static struct kunit_case svc_rdma_cm_calc_cases[] = {
	KUNIT_CASE(svc_rdma_cm_test_chunk_hdrlen),
	KUNIT_CASE_PARAM(svc_rdma_cm_test_short_hdrlen,
			 svc_rdma_cm_test_shorts_gen_params),
	KUNIT_CASE(svc_rdma_cm_test_inline_fits),
	KUNIT_CASE(svc_rdma_cm_test_bc_payload),
	KUNIT_CASE(svc_rdma_cm_test_offer_send),
	KUNIT_CASE_PARAM(svc_rdma_cm_test_drain_time,
			 svc_rdma_cm_test_drains_gen_params),
	KUNIT_CASE(svc_rdma_cm_test_drain_start),
	KUNIT_CASE(svc_rdma_cm_test_drain_sequence),
	{}
};

static struct kunit_suite svc_rdma_cm_calc_suite = {
	.name		= "rpcrdma_cm_svc",
	.test_cases	= svc_rdma_cm_calc_cases,
};

kunit_test_suite(svc_rdma_cm_calc_suite);
