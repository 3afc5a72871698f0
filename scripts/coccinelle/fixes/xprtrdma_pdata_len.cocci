// SPDX-License-Identifier: GPL-2.0
/// xprtrdma: rpcrdma_update_cm_private() read the server's message
/// without looking at private_data_len, so a short REP or MPA reply
/// was read past its end. Check the length first (RFC 8797 Section 5.2).
//
// Target: verbs.c
// Expect: verbs.c param->private_data_len >= sizeof(*pmsg)

@@
identifier ep, param, pmsg;
expression E1, E2;
@@
 rpcrdma_update_cm_private(struct rpcrdma_ep *ep, struct rdma_conn_param *param)
 {
 ...
 if (
-    pmsg
+    pmsg && param->private_data_len >= sizeof(*pmsg)
     && E1 && E2)
 {
 ...
 }
 ...
 }
