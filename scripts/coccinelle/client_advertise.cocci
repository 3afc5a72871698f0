// SPDX-License-Identifier: GPL-2.0
/// Client advertise: replace the private data message rpcrdma_ep_create()
/// builds by hand (always R set, never looking at the device or at a
/// parameter) with rpcrdma_cm_client_advertise(), which builds it with
/// the RFC 8797 codec: Send Size = max inline write, Receive Size = max
/// inline read, R only when the device and remote_invalidate allow, and
/// no private data at all when pdata=0.
//
// Target: verbs.c
// Expect: verbs.c rpcrdma_cm_client_advertise(ep, device);
// Absent: verbs.c RPCRDMA_CMP_F_SND_W_INV_OK

@@
identifier pmsg;
expression E;
symbol rpcrdma_cmp_magic;
@@
 rpcrdma_ep_create(...)
 {
 ...
-struct rpcrdma_connect_private *pmsg;
 ...
-pmsg = &E->re_cm_private;
-pmsg->cp_magic = rpcrdma_cmp_magic;
-pmsg->cp_version = RPCRDMA_CMP_VERSION;
-pmsg->cp_flags |= RPCRDMA_CMP_F_SND_W_INV_OK;
-pmsg->cp_send_size = rpcrdma_encode_buffer_size(E->re_inline_send);
-pmsg->cp_recv_size = rpcrdma_encode_buffer_size(E->re_inline_recv);
-E->re_remote_cma.private_data = pmsg;
-E->re_remote_cma.private_data_len = sizeof(*pmsg);
+rpcrdma_cm_client_advertise(E, device);
 ...
 }
