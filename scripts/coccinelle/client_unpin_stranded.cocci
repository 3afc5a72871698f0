// SPDX-License-Identifier: GPL-2.0
/// Client disconnect: once rpcrdma_xprt_drain() has drained both
/// queues, call rpcrdma_cm_client_unpin_stranded() to release any RPC
/// still pinned by a Reply whose LOCAL_INV chain never completed (a
/// device that drops Work Requests without a flush completion, seen with
/// siw), before the MRs and Reply buffers are torn down. Without it the
/// RPC's retransmission waits on the pin forever and the mount hangs.
//
// Target: verbs.c
// Expect: verbs.c rpcrdma_cm_client_unpin_stranded(r_xprt);

@@
identifier r_xprt;
@@
 rpcrdma_xprt_disconnect(struct rpcrdma_xprt *r_xprt)
 {
 ...
 rpcrdma_xprt_drain(r_xprt);
+rpcrdma_cm_client_unpin_stranded(r_xprt);
 ...
 }
