/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RPC-over-RDMA Version 1 RDMA-CM Private Data (RFC 8797).
 *
 * A pure codec: it builds, finds, parses and negotiates the 8-octet
 * message exchanged in the CM REQ/REP (or MPA request/reply) when an
 * RPC-over-RDMA connection is set up. It depends on nothing but kernel
 * types so that the same source compiles into rpcrdma.ko, into a KUnit
 * kernel and into a userspace fuzzer.
 */
#ifndef _LINUX_SUNRPC_RPCRDMA_PDATA_H
#define _LINUX_SUNRPC_RPCRDMA_PDATA_H

#include <linux/types.h>

/*
 * RFC 8797 Section 4: the Format Identifier, as a number. The message
 * carries it most significant octet first: f6 ab 0e 18.
 */
#define RPCRDMA_PDATA_FORMAT_ID		0xf6ab0e18U
#define RPCRDMA_PDATA_VERSION		1
/* Length of a Version 1 message: identifier, version, flags, sizes */
#define RPCRDMA_PDATA_V1_LEN		8
/* The R bit: least significant bit of the flags octet (octet 5) */
#define RPCRDMA_PDATA_FLAG_R		0x01

/* RFC 8797 Section 4.2: representable inline thresholds */
#define RPCRDMA_PDATA_UNIT		1024U
#define RPCRDMA_PDATA_SIZE_MIN		1024U
#define RPCRDMA_PDATA_SIZE_MAX		262144U

/**
 * enum rpcrdma_pdata_status - outcome of searching received private data
 * @RPCRDMA_PDATA_PRESENT: a valid Version 1 message was found
 * @RPCRDMA_PDATA_NO_DATA: the CM delivered no private data at all
 * @RPCRDMA_PDATA_NO_IDENT: no Format Identifier anywhere in the buffer
 * @RPCRDMA_PDATA_TRUNCATED: an identifier was found too close to the end
 *	of the buffer to hold a whole Version 1 message
 * @RPCRDMA_PDATA_BAD_VERSION: an identifier was found, followed by a
 *	version this code does not recognise
 * @RPCRDMA_PDATA_DISABLED: the local side ignores private data (not
 *	produced by the codec; glue code reports it when pdata=0)
 */
enum rpcrdma_pdata_status {
	RPCRDMA_PDATA_PRESENT = 0,
	RPCRDMA_PDATA_NO_DATA,
	RPCRDMA_PDATA_NO_IDENT,
	RPCRDMA_PDATA_TRUNCATED,
	RPCRDMA_PDATA_BAD_VERSION,
	RPCRDMA_PDATA_DISABLED,
};

/**
 * struct rpcrdma_pdata - decoded RFC 8797 message
 * @version: the Version field
 * @remote_inv: the R bit
 * @send_size: the peer's Send Size, decoded to octets
 * @recv_size: the peer's Receive Size, decoded to octets
 * @offset: where the Format Identifier was found in the received buffer
 */
struct rpcrdma_pdata {
	u8		version;
	bool		remote_inv;
	u32		send_size;
	u32		recv_size;
	u32		offset;
};

/**
 * struct rpcrdma_pdata_limits - what one side can handle
 * @max_send: largest message this side can transmit with one Send, octets
 * @max_recv: largest message this side can accept with one Receive, octets
 * @remote_inv: this side takes part in remote invalidation
 */
struct rpcrdma_pdata_limits {
	u32		max_send;
	u32		max_recv;
	bool		remote_inv;
};

/**
 * struct rpcrdma_pdata_result - what a connection uses, per RFC 8797
 * @send_thresh: largest message this side may Send on the connection
 * @recv_thresh: largest message the peer may Send to this side
 * @remote_inv: the responder may use Send With Invalidate (both set R)
 */
struct rpcrdma_pdata_result {
	u32		send_thresh;
	u32		recv_thresh;
	bool		remote_inv;
};

u32 rpcrdma_pdata_clamp_size(u32 bytes);
u8 rpcrdma_pdata_encode_size(u32 bytes);
u32 rpcrdma_pdata_decode_size(u8 encoded);
void rpcrdma_pdata_build(u8 *buf, const struct rpcrdma_pdata_limits *local);
enum rpcrdma_pdata_status rpcrdma_pdata_parse(const void *buf, size_t len,
					      struct rpcrdma_pdata *msg);
void rpcrdma_pdata_negotiate(const struct rpcrdma_pdata_limits *local,
			     const struct rpcrdma_pdata *peer,
			     struct rpcrdma_pdata_result *res);
const char *rpcrdma_pdata_status_name(enum rpcrdma_pdata_status status);

#endif /* _LINUX_SUNRPC_RPCRDMA_PDATA_H */
