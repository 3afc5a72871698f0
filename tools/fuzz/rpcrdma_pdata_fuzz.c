// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the RFC 8797 private data codec.
 *
 * The codec source (net/sunrpc/xprtrdma/rpcrdma_pdata.c) is compiled
 * unmodified next to this file, with tools/fuzz/include standing in for
 * the three kernel headers it uses. Each input is taken as the private
 * data a peer's CM delivered. It is copied into a heap buffer of
 * exactly its own length, so AddressSanitizer reports any read past
 * the length the CM reported, and then checked against the RFC:
 *
 *  - rpcrdma_pdata_parse() agrees with a plain reference scan written
 *    here (first valid candidate wins; otherwise the first candidate's
 *    reason; no identifier, no data), never writes to the buffer and
 *    never touches the output unless it returns PRESENT;
 *  - a PRESENT message lies wholly inside the buffer, starts with the
 *    Format Identifier, is Version 1 and decodes to sizes in
 *    1024..262144 that are multiples of 1024;
 *  - rpcrdma_pdata_negotiate() takes the smaller of the right pair in
 *    each direction (RFC 8797 Section 4.2), treats a missing message as
 *    R clear with both sizes 1024 (Section 5.1), and gives both ends of
 *    a connection the same pair of thresholds whichever role each has;
 *  - rpcrdma_pdata_build() output parses back to what was advertised;
 *  - encode/decode/clamp of sizes are consistent with each other.
 *
 * Any violation prints what went wrong and aborts, which libFuzzer
 * records as a crash together with the input.
 */

#include <stdio.h>
#include <stdlib.h>
#include <linux/types.h>
#include <linux/string.h>
#include <linux/sunrpc/rpcrdma_pdata.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

static const u8 fuzz_ident[4] = { 0xf6, 0xab, 0x0e, 0x18 };

/* Local limits every input is negotiated against, besides the ones
 * taken from the input itself: the edges of the representable range,
 * values that must be rounded or clamped, and typical settings.
 */
static const u32 fuzz_sizes[] = {
	0, 1, 1023, 1024, 1025, 2047, 4096, 4097, 65536,
	262143, 262144, 262145, 263168, 0x7fffffff, 0xffffffff,
};

static u32 fuzz_get_u32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static bool fuzz_size_ok(u32 size)
{
	return size >= RPCRDMA_PDATA_SIZE_MIN &&
	       size <= RPCRDMA_PDATA_SIZE_MAX &&
	       size % RPCRDMA_PDATA_UNIT == 0;
}

/* The RFC 8797 Section 4.2 rounding, spelled out independently */
static u32 fuzz_expect_clamp(u32 bytes)
{
	if (bytes < 1024)
		return 1024;
	if (bytes > 262144)
		return 262144;
	return bytes / 1024 * 1024;
}

static u32 fuzz_min(u32 a, u32 b)
{
	return a < b ? a : b;
}

/* Reference scan, written without the codec's helpers: the outcome
 * RFC 8797 Section 5.2 asks for, and where a valid message starts.
 */
static enum rpcrdma_pdata_status fuzz_expect_parse(const u8 *p, size_t len,
						   size_t *found)
{
	enum rpcrdma_pdata_status first = RPCRDMA_PDATA_NO_IDENT;
	enum rpcrdma_pdata_status cur;
	size_t i;

	if (!len)
		return RPCRDMA_PDATA_NO_DATA;
	for (i = 0; i + 4 <= len; i++) {
		if (p[i] != 0xf6 || p[i + 1] != 0xab ||
		    p[i + 2] != 0x0e || p[i + 3] != 0x18)
			continue;
		if (i + 8 > len)
			cur = RPCRDMA_PDATA_TRUNCATED;
		else if (p[i + 4] != 1)
			cur = RPCRDMA_PDATA_BAD_VERSION;
		else
			cur = RPCRDMA_PDATA_PRESENT;
		if (cur == RPCRDMA_PDATA_PRESENT) {
			*found = i;
			return cur;
		}
		if (first == RPCRDMA_PDATA_NO_IDENT)
			first = cur;
	}
	return first;
}

static void fuzz_check_sizes(u32 bytes)
{
	u32 c = rpcrdma_pdata_clamp_size(bytes);
	u8 e = rpcrdma_pdata_encode_size(bytes);

	FUZZ_CHECK(c == fuzz_expect_clamp(bytes));
	FUZZ_CHECK(fuzz_size_ok(c));
	FUZZ_CHECK(rpcrdma_pdata_clamp_size(c) == c);
	FUZZ_CHECK(rpcrdma_pdata_decode_size(e) == c);
	FUZZ_CHECK(rpcrdma_pdata_encode_size(c) == e);
	/* never promise more than the caller has, above the floor */
	FUZZ_CHECK(bytes < RPCRDMA_PDATA_SIZE_MIN || c <= bytes);
}

static void fuzz_check_codes(void)
{
	static bool done;
	unsigned int e;

	if (done)
		return;
	done = true;
	for (e = 0; e < 256; e++) {
		u32 d = rpcrdma_pdata_decode_size(e);

		FUZZ_CHECK(d == (e + 1) * 1024);
		FUZZ_CHECK(fuzz_size_ok(d));
		FUZZ_CHECK(rpcrdma_pdata_encode_size(d) == e);
		fuzz_check_sizes(d - 1);
		fuzz_check_sizes(d);
		fuzz_check_sizes(d + 1);
	}
	for (e = RPCRDMA_PDATA_PRESENT; e <= RPCRDMA_PDATA_DISABLED; e++) {
		const char *name = rpcrdma_pdata_status_name(e);

		FUZZ_CHECK(name && strcmp(name, "unknown"));
	}
}

/* What a peer with these limits puts on the wire, as decoded. The
 * buffer is exactly one message long: ASan's stack redzones catch a
 * build() that writes, or a parse() that reads, past its end.
 */
static void fuzz_advertise(const struct rpcrdma_pdata_limits *lim,
			   struct rpcrdma_pdata *msg)
{
	u8 wire[RPCRDMA_PDATA_V1_LEN];

	memset(wire, 0x5a, sizeof(wire));
	rpcrdma_pdata_build(wire, lim);
	FUZZ_CHECK(!memcmp(wire, fuzz_ident, sizeof(fuzz_ident)));
	FUZZ_CHECK(wire[4] == RPCRDMA_PDATA_VERSION);
	FUZZ_CHECK((wire[5] & ~RPCRDMA_PDATA_FLAG_R) == 0);
	FUZZ_CHECK(rpcrdma_pdata_parse(wire, sizeof(wire), msg) ==
		   RPCRDMA_PDATA_PRESENT);

	FUZZ_CHECK(msg->offset == 0);
	FUZZ_CHECK(msg->version == RPCRDMA_PDATA_VERSION);
	FUZZ_CHECK(msg->remote_inv == lim->remote_inv);
	FUZZ_CHECK(msg->send_size == fuzz_expect_clamp(lim->max_send));
	FUZZ_CHECK(msg->recv_size == fuzz_expect_clamp(lim->max_recv));
}

/* @local negotiates with a peer that sent @peer (or nothing) */
static void fuzz_check_negotiate(const struct rpcrdma_pdata_limits *local,
				 const struct rpcrdma_pdata *peer)
{
	struct rpcrdma_pdata_limits far;
	struct rpcrdma_pdata_result res, far_res;
	struct rpcrdma_pdata mine;
	u32 peer_send = 1024, peer_recv = 1024;
	bool peer_inv = false;

	if (peer) {
		peer_send = peer->send_size;
		peer_recv = peer->recv_size;
		peer_inv = peer->remote_inv;
	}

	memset(&res, 0xa5, sizeof(res));
	rpcrdma_pdata_negotiate(local, peer, &res);
	FUZZ_CHECK(res.send_thresh ==
		   fuzz_min(fuzz_expect_clamp(local->max_send), peer_recv));
	FUZZ_CHECK(res.recv_thresh ==
		   fuzz_min(fuzz_expect_clamp(local->max_recv), peer_send));
	FUZZ_CHECK(res.remote_inv == (local->remote_inv && peer_inv));
	FUZZ_CHECK(fuzz_size_ok(res.send_thresh));
	FUZZ_CHECK(fuzz_size_ok(res.recv_thresh));

	/* The far end, with exactly the limits it advertised, sees our
	 * message and must reach the mirror image of our result.
	 */
	far.max_send = peer_send;
	far.max_recv = peer_recv;
	far.remote_inv = peer_inv;
	fuzz_advertise(local, &mine);
	memset(&far_res, 0xa5, sizeof(far_res));
	rpcrdma_pdata_negotiate(&far, &mine, &far_res);
	FUZZ_CHECK(far_res.send_thresh == res.recv_thresh);
	FUZZ_CHECK(far_res.recv_thresh == res.send_thresh);
	FUZZ_CHECK(far_res.remote_inv == res.remote_inv);
}

static void fuzz_check_parse(const u8 *data, size_t size,
			     struct rpcrdma_pdata *msg,
			     enum rpcrdma_pdata_status *status)
{
	struct rpcrdma_pdata canary;
	size_t found = 0;
	u8 *buf;

	/* exactly @size octets, so that ASan sees any over-read */
	buf = malloc(size ? size : 1);
	FUZZ_CHECK(buf);
	if (size)
		memcpy(buf, data, size);

	memset(msg, 0xc3, sizeof(*msg));
	memcpy(&canary, msg, sizeof(canary));
	*status = rpcrdma_pdata_parse(buf, size, msg);

	FUZZ_CHECK(*status <= RPCRDMA_PDATA_BAD_VERSION);
	FUZZ_CHECK(*status == fuzz_expect_parse(data, size, &found));
	FUZZ_CHECK(!size || !memcmp(buf, data, size));
	if (*status != RPCRDMA_PDATA_PRESENT) {
		FUZZ_CHECK(!memcmp(msg, &canary, sizeof(canary)));
	} else {
		FUZZ_CHECK(msg->offset == found);
		FUZZ_CHECK(size >= RPCRDMA_PDATA_V1_LEN &&
			   msg->offset <= size - RPCRDMA_PDATA_V1_LEN);
		FUZZ_CHECK(!memcmp(data + msg->offset, fuzz_ident,
				   sizeof(fuzz_ident)));
		FUZZ_CHECK(msg->version == RPCRDMA_PDATA_VERSION);
		FUZZ_CHECK(msg->remote_inv ==
			   !!(data[msg->offset + 5] & RPCRDMA_PDATA_FLAG_R));
		FUZZ_CHECK(msg->send_size ==
			   (data[msg->offset + 6] + 1U) * 1024);
		FUZZ_CHECK(msg->recv_size ==
			   (data[msg->offset + 7] + 1U) * 1024);
		FUZZ_CHECK(fuzz_size_ok(msg->send_size));
		FUZZ_CHECK(fuzz_size_ok(msg->recv_size));
	}
	free(buf);

	/* NULL means no private data whatever length the CM reported */
	FUZZ_CHECK(rpcrdma_pdata_parse(NULL, size, &canary) ==
		   RPCRDMA_PDATA_NO_DATA);
}

/* libFuzzer's entry point, named through an asm label so that the
 * C identifier can follow kernel naming.
 */
int rpcrdma_pdata_fuzz_one(const u8 *data, size_t size)
	__asm__("LLVMFuzzerTestOneInput");

int rpcrdma_pdata_fuzz_one(const u8 *data, size_t size)
{
	struct rpcrdma_pdata_limits local;
	enum rpcrdma_pdata_status status;
	struct rpcrdma_pdata msg;
	const struct rpcrdma_pdata *peer;
	size_t i;

	fuzz_check_codes();
	fuzz_check_parse(data, size, &msg, &status);
	peer = status == RPCRDMA_PDATA_PRESENT ? &msg : NULL;

	/* Sizes taken from the input exercise clamp() at arbitrary values */
	for (i = 0; i + 4 <= size && i < 16; i += 4)
		fuzz_check_sizes(fuzz_get_u32(data + i));

	/* Local limits from the input's last octets, when there are any */
	if (size >= 9) {
		local.max_send = fuzz_get_u32(data + size - 9);
		local.max_recv = fuzz_get_u32(data + size - 5);
		local.remote_inv = data[size - 1] & 1;
		fuzz_check_negotiate(&local, peer);
		fuzz_check_negotiate(&local, NULL);
	}

	/* and from the table: every size once on each side, paired with a
	 * different one on the other, in both R settings
	 */
	for (i = 0; i < ARRAY_SIZE(fuzz_sizes); i++) {
		local.max_send = fuzz_sizes[i];
		local.max_recv = fuzz_sizes[(i * 7 + 3) % ARRAY_SIZE(fuzz_sizes)];
		local.remote_inv = i & 1;
		fuzz_check_negotiate(&local, peer);
	}
	return 0;
}
