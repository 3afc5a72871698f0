// SPDX-License-Identifier: GPL-2.0
/// Client Receive Size: start the rdma_max_inline_read sysctl, the
/// Receive Size the client advertises and sizes its Receive buffers
/// to, at RPCRDMA_CM_CLIENT_RECV_SIZE (8192) instead of 4096. The Linux
/// client offers a Reply chunk for every Call whose largest possible
/// reply exceeds what it can Receive; OPEN's estimate is above 4 KiB on
/// every kernel, GETATTR's from 7.x on, and 8 KiB holds both. The
/// sysctl, and the client_recv_size parameter, still change it.
//
// Target: transport.c
// Expect: transport.c unsigned int xprt_rdma_max_inline_read = RPCRDMA_CM_CLIENT_RECV_SIZE;

@@
@@
 unsigned int xprt_rdma_max_inline_read =
- RPCRDMA_DEF_INLINE
+ RPCRDMA_CM_CLIENT_RECV_SIZE
 ;
