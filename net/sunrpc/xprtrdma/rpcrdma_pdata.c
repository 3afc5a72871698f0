// SPDX-License-Identifier: GPL-2.0
/*
 * RPC-over-RDMA Version 1 RDMA-CM Private Data (RFC 8797): codec.
 *
 * Nothing here touches RDMA, sunrpc or svc structures. Callers hand in
 * the bytes the CM delivered and their own limits, and get back plain
 * values. That keeps every decision about untrusted connection-time
 * input in one small file that KUnit and a fuzzer can exercise alone.
 */

#include <linux/types.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/sunrpc/rpcrdma_pdata.h>

/* The Format Identifier as it appears in the message */
static const u8 rpcrdma_pdata_ident[4] = {
	(RPCRDMA_PDATA_FORMAT_ID >> 24) & 0xff,
	(RPCRDMA_PDATA_FORMAT_ID >> 16) & 0xff,
	(RPCRDMA_PDATA_FORMAT_ID >> 8) & 0xff,
	RPCRDMA_PDATA_FORMAT_ID & 0xff,
};

/**
 * rpcrdma_pdata_clamp_size - Reduce a buffer size to one RFC 8797 can carry
 * @bytes: a buffer size in octets
 *
 * Rounds down to a multiple of 1024 and clamps to 1024..262144, so that
 * an advertised value never promises more than @bytes (except below
 * 1024, the RPC-over-RDMA Version 1 minimum every peer must handle).
 *
 * Return: the size, in octets, that the encoded form represents.
 */
u32 rpcrdma_pdata_clamp_size(u32 bytes)
{
	bytes = clamp(bytes, RPCRDMA_PDATA_SIZE_MIN, RPCRDMA_PDATA_SIZE_MAX);
	return bytes - bytes % RPCRDMA_PDATA_UNIT;
}

/**
 * rpcrdma_pdata_encode_size - Encode a Send Size or Receive Size field
 * @bytes: a buffer size in octets
 *
 * RFC 8797 Section 4.2: the encoded value is the size divided by 1024,
 * minus one. @bytes is first clamped by rpcrdma_pdata_clamp_size(), so
 * the result never underflows below 1024 nor wraps above 262144.
 *
 * Return: the encoded octet, 0..255.
 */
u8 rpcrdma_pdata_encode_size(u32 bytes)
{
	return rpcrdma_pdata_clamp_size(bytes) / RPCRDMA_PDATA_UNIT - 1;
}

/**
 * rpcrdma_pdata_decode_size - Decode a Send Size or Receive Size field
 * @encoded: the octet received from the peer
 *
 * Return: the size in octets, 1024..262144.
 */
u32 rpcrdma_pdata_decode_size(u8 encoded)
{
	return ((u32)encoded + 1) * RPCRDMA_PDATA_UNIT;
}

/**
 * rpcrdma_pdata_build - Build a Version 1 private data message
 * @buf: output, at least %RPCRDMA_PDATA_V1_LEN octets
 * @local: this side's limits and remote invalidation support
 *
 * The reserved bits are always sent as zero (RFC 8797 Section 4).
 */
void rpcrdma_pdata_build(u8 *buf, const struct rpcrdma_pdata_limits *local)
{
	memcpy(buf, rpcrdma_pdata_ident, sizeof(rpcrdma_pdata_ident));
	buf[4] = RPCRDMA_PDATA_VERSION;
	buf[5] = local->remote_inv ? RPCRDMA_PDATA_FLAG_R : 0;
	buf[6] = rpcrdma_pdata_encode_size(local->max_send);
	buf[7] = rpcrdma_pdata_encode_size(local->max_recv);
}

/* Judge one candidate whose Format Identifier starts at @off. Only the
 * Version 1 fields are read; octets past the eighth belong to later
 * versions or other layers and are ignored (RFC 8797 Section 6).
 */
static enum rpcrdma_pdata_status
rpcrdma_pdata_decode_at(const u8 *p, size_t len, size_t off,
			struct rpcrdma_pdata *msg)
{
	if (len - off < RPCRDMA_PDATA_V1_LEN)
		return RPCRDMA_PDATA_TRUNCATED;
	if (p[off + 4] != RPCRDMA_PDATA_VERSION)
		return RPCRDMA_PDATA_BAD_VERSION;

	msg->version = p[off + 4];
	msg->remote_inv = p[off + 5] & RPCRDMA_PDATA_FLAG_R;
	msg->send_size = rpcrdma_pdata_decode_size(p[off + 6]);
	msg->recv_size = rpcrdma_pdata_decode_size(p[off + 7]);
	msg->offset = off;
	return RPCRDMA_PDATA_PRESENT;
}

/**
 * rpcrdma_pdata_parse - Find and decode RFC 8797 private data
 * @buf: the private data the CM delivered, or NULL
 * @len: its length in octets as reported by the CM
 * @msg: output, filled only when %RPCRDMA_PDATA_PRESENT is returned
 *
 * RFC 8797 Section 5.2: the Format Identifier may sit at any offset,
 * with no alignment, because other layers (MPAv2, for one) may put
 * their own data first. Every offset is tried. A candidate counts only
 * if its version is 1 and all eight octets lie inside @len.
 *
 * An invalid candidate does not end the search: the identifier can
 * appear by chance inside someone else's data ahead of the real
 * message, and stopping there would hide a valid message the peer did
 * send. The first valid candidate wins. When none is valid, the reason
 * reported is that of the first candidate, since that is where the
 * peer's message most likely began. A buffer that merely ends in a
 * prefix of the identifier holds no identifier.
 *
 * Return: %RPCRDMA_PDATA_PRESENT with @msg filled in, or the reason
 * the peer must be treated as sending no private data.
 */
enum rpcrdma_pdata_status rpcrdma_pdata_parse(const void *buf, size_t len,
					      struct rpcrdma_pdata *msg)
{
	enum rpcrdma_pdata_status first = RPCRDMA_PDATA_NO_IDENT;
	enum rpcrdma_pdata_status status;
	const u8 *p = buf;
	size_t off;

	if (!buf || !len)
		return RPCRDMA_PDATA_NO_DATA;

	for (off = 0; len - off >= sizeof(rpcrdma_pdata_ident); off++) {
		if (memcmp(p + off, rpcrdma_pdata_ident,
			   sizeof(rpcrdma_pdata_ident)))
			continue;
		status = rpcrdma_pdata_decode_at(p, len, off, msg);
		if (status == RPCRDMA_PDATA_PRESENT)
			return status;
		if (first == RPCRDMA_PDATA_NO_IDENT)
			first = status;
	}
	return first;
}

/**
 * rpcrdma_pdata_negotiate - Compute one connection's RFC 8797 settings
 * @local: this side's limits, as advertised
 * @peer: the peer's decoded message, or NULL when it sent none that
 *	rpcrdma_pdata_parse() accepted
 * @res: output
 *
 * RFC 8797 Section 4.2: each direction's threshold is the smaller of
 * the sender's Send Size and the receiver's Receive Size. Section 5.1:
 * a peer without a valid message counts as R clear and both sizes 1024.
 * Section 4.1: remote invalidation only when both sides set R.
 *
 * Local limits are reduced exactly as rpcrdma_pdata_build() advertises
 * them, so both ends of a connection compute the same pair of values
 * whichever role each plays.
 */
void rpcrdma_pdata_negotiate(const struct rpcrdma_pdata_limits *local,
			     const struct rpcrdma_pdata *peer,
			     struct rpcrdma_pdata_result *res)
{
	u32 peer_send = RPCRDMA_PDATA_SIZE_MIN;
	u32 peer_recv = RPCRDMA_PDATA_SIZE_MIN;
	bool peer_inv = false;

	if (peer) {
		peer_send = peer->send_size;
		peer_recv = peer->recv_size;
		peer_inv = peer->remote_inv;
	}

	res->send_thresh = min(rpcrdma_pdata_clamp_size(local->max_send),
			       rpcrdma_pdata_clamp_size(peer_recv));
	res->recv_thresh = min(rpcrdma_pdata_clamp_size(local->max_recv),
			       rpcrdma_pdata_clamp_size(peer_send));
	res->remote_inv = local->remote_inv && peer_inv;
}

/**
 * rpcrdma_pdata_status_name - Name a parse outcome for logs and tools
 * @status: a value returned by rpcrdma_pdata_parse(), or
 *	%RPCRDMA_PDATA_DISABLED
 *
 * Return: a short, stable, lower-case token.
 */
const char *rpcrdma_pdata_status_name(enum rpcrdma_pdata_status status)
{
	switch (status) {
	case RPCRDMA_PDATA_PRESENT:
		return "present";
	case RPCRDMA_PDATA_NO_DATA:
		return "no_data";
	case RPCRDMA_PDATA_NO_IDENT:
		return "no_ident";
	case RPCRDMA_PDATA_TRUNCATED:
		return "truncated";
	case RPCRDMA_PDATA_BAD_VERSION:
		return "bad_version";
	case RPCRDMA_PDATA_DISABLED:
		return "disabled";
	}
	return "unknown";
}
