// SPDX-License-Identifier: GPL-2.0
/// Client parse and negotiate: replace the body of
/// rpcrdma_update_cm_private(), which the ESTABLISHED handler calls
/// and which looked for the server's message only at offset 0 without
/// checking private_data_len, with rpcrdma_cm_client_established(). The
/// glue searches the whole buffer with the codec, applies
/// re_inline_send/re_inline_recv, calls rpcrdma_set_max_header_sizes()
/// and records the connection for debugfs. The ESTABLISHED handler
/// still fires rpcrdma:xprtrdma_inline_thresh right after, so existing
/// tools see the negotiated values.
//
// Target: verbs.c
// Expect: verbs.c rpcrdma_cm_client_established(ep, param);
// Expect: verbs.c trace_xprtrdma_inline_thresh(ep);
// Absent: verbs.c rpcrdma_decode_buffer_size

@@
identifier ep, param;
@@
 rpcrdma_update_cm_private(struct rpcrdma_ep *ep, struct rdma_conn_param *param)
 {
-...
+rpcrdma_cm_client_established(ep, param);
 }
