// SPDX-License-Identifier: GPL-2.0
/*
 * The arithmetic of the server hooks (svc_rdma_cm.c).
 *
 * Transport header sizes, the inline threshold test, the Send Size
 * offered to a client and the timing of a detach's drain, as functions
 * of plain values. The hooks read those values from svcrdma's
 * structures; kept apart from them, the same code links into a KUnit
 * kernel that has neither sunrpc nor RDMA.
 */

#include <linux/types.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/sunrpc/xdr.h>
#include <linux/sunrpc/rpc_rdma.h>
#include <linux/sunrpc/rpcrdma_cm.h>

/**
 * svc_rdma_cm_chunk_hdrlen - Octets one chunk takes in a transport header
 * @segcount: the chunk's number of segments
 *
 * A Write chunk of the Write list, or the Reply chunk (RFC 8166
 * Section 4.2.1): the item discriminator, the segment count, then one
 * handle, length and offset per segment.
 *
 * Return: the length in octets.
 */
unsigned int svc_rdma_cm_chunk_hdrlen(u32 segcount)
{
	return (2 + segcount * rpcrdma_segment_maxsz) * sizeof(__be32);
}

/**
 * svc_rdma_cm_short_hdrlen - Transport header of a short Reply
 * @write_hdrlen: octets of the Write list's chunks, each counted by
 *		  svc_rdma_cm_chunk_hdrlen()
 * @reply_segcount: segments of the Reply chunk, echoed with zero lengths
 *
 * Return: the octets of xid, vers, credits and proc, the empty Read
 * list, the Write list with its end marker, and the Reply chunk.
 */
unsigned int svc_rdma_cm_short_hdrlen(unsigned int write_hdrlen,
				      u32 reply_segcount)
{
	/* the Read list's and the Write list's end discriminators */
	return (rpcrdma_fixed_maxsz + 2) * sizeof(__be32) + write_hdrlen +
	       svc_rdma_cm_chunk_hdrlen(reply_segcount);
}

/**
 * svc_rdma_cm_inline_fits - Does a Send fit the server-to-client threshold
 * @hdrlen: octets of the transport header
 * @msglen: octets of the RPC message the Send carries with it
 * @send_thresh: min(server Send Size, client Receive Size)
 *
 * Return: true when @hdrlen + @msglen is at most @send_thresh (a sum
 * that would wrap does not fit).
 */
bool svc_rdma_cm_inline_fits(unsigned int hdrlen, unsigned int msglen,
			     u32 send_thresh)
{
	return hdrlen <= send_thresh && msglen <= send_thresh - hdrlen;
}

/**
 * svc_rdma_cm_bc_payload - Largest backchannel Call for a threshold
 * @send_thresh: the negotiated server-to-client threshold; 0 before
 *		 accept has negotiated one
 *
 * Return: @send_thresh, never below the RPC-over-RDMA Version 1
 * minimum of 1024, less the transport header of a backchannel Call.
 */
unsigned int svc_rdma_cm_bc_payload(u32 send_thresh)
{
	return max_t(u32, send_thresh, RPCRDMA_PDATA_SIZE_MIN) -
	       RPCRDMA_HDRLEN_MIN;
}

/**
 * svc_rdma_cm_offer_send - The Send Size a server offers one client
 * @wanted: the largest Send Size the server offers, octets (0: none)
 * @peer_recv: the client's Receive Size from its private data, octets
 *	       (0 when it sent none)
 *
 * The server never Sends more than the client's Receive Size (RFC 8797
 * Section 3.3.1), so send buffers longer than that would only pin
 * memory: a client that Receives no more than max_req_size keeps
 * buffers of max_req_size. A client's claim, which is unauthenticated,
 * never makes the buffers longer than %SVC_RDMA_CM_SEND_SIZE_MAX.
 *
 * Return: min(@wanted, @peer_recv, %SVC_RDMA_CM_SEND_SIZE_MAX), rounded
 * down to a multiple of 1024 as the codec encodes it; 0 when none.
 */
u32 svc_rdma_cm_offer_send(u32 wanted, u32 peer_recv)
{
	u32 size = min3(wanted, peer_recv, SVC_RDMA_CM_SEND_SIZE_MAX);

	return rounddown(size, RPCRDMA_PDATA_UNIT);
}

/**
 * svc_rdma_cm_drain_time - How long a detach waits for a live peer
 * @now: the current time, in jiffies
 * @end: when the latest such wait ends or ended, in jiffies
 * @shared: output: the wait shares that latest wait
 *
 * nfsd's shutdown detaches its transports one after another, in one
 * thread, while the Work Requests posted on all of them progress at
 * once: a reply posted before an earlier detach's wait has had that
 * wait to leave. A detach that starts less than
 * %SVC_RDMA_CM_DRAIN_TIMEOUT after @end shares that wait: it waits
 * until @end, and at least %SVC_RDMA_CM_DRAIN_SHARED. Otherwise N
 * clients that went silent with replies posted would hold the shutdown
 * N seconds.
 *
 * No wait ends more than %SVC_RDMA_CM_DRAIN_TIMEOUT after it began, so
 * an @end further ahead is not a wait to share: it is a value from
 * before jiffies wrapped, or the initial one.
 *
 * Return: the wait, in jiffies, never more than
 * %SVC_RDMA_CM_DRAIN_TIMEOUT.
 */
long svc_rdma_cm_drain_time(unsigned long now, unsigned long end,
			    bool *shared)
{
	*shared = time_in_range_open(now, end - SVC_RDMA_CM_DRAIN_TIMEOUT,
				     end + SVC_RDMA_CM_DRAIN_TIMEOUT);
	if (!*shared)
		return SVC_RDMA_CM_DRAIN_TIMEOUT;
	return clamp_t(long, (long)(end - now), SVC_RDMA_CM_DRAIN_SHARED,
		       SVC_RDMA_CM_DRAIN_TIMEOUT);
}
