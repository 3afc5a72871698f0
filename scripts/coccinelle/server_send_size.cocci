// SPDX-License-Identifier: GPL-2.0
/// Server Send Size: svcrdma sizes its send buffers, and bounds the
/// Replies it pulls up into them, by sc_max_req_size, the same value
/// that sizes its Receives and that it advertised as both Send Size and
/// Receive Size. RFC 8797 lets the two differ. In svc_rdma_sendto.c,
/// where every use of sc_max_req_size is about a send buffer (its
/// allocation, DMA mapping, header stream and pull-up bound), read
/// svc_rdma_cm_send_size() instead: the larger of sc_max_req_size and
/// the Send Size offered to this client, fixed at CONNECT_REQUEST. A
/// client that Receives 8 KiB then gets 8 KiB Replies inline without the
/// server's Receives, one per credit, growing as well.
//
// Target: svc_rdma_sendto.c
// Expect: svc_rdma_sendto.c svc_rdma_cm_send_size(rdma)
// Expect: svc_rdma_sendto.c if (args.pd_length > svc_rdma_cm_send_size(rdma))
// Absent: svc_rdma_sendto.c ->sc_max_req_size

@@
struct svcxprt_rdma *rdma;
@@
- rdma->sc_max_req_size
+ svc_rdma_cm_send_size(rdma)
