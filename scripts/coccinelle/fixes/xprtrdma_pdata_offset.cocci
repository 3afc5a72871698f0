// SPDX-License-Identifier: GPL-2.0
/// xprtrdma: rpcrdma_update_cm_private() looked for the server's
/// message at offset 0 only. RFC 8797 Section 5.2 has the receiver
/// search the private data for the Format Identifier at any offset,
/// without alignment, so that another layer may put its own data in
/// front. Search every offset within private_data_len, and copy the
/// message out, since it may sit at any alignment. The helper's text
/// is snippets/rpcrdma_find_connect_private.c.
//
// Target: verbs.c
// Expect: verbs.c pmsg = rpcrdma_find_connect_private(param, &msg);
// Expect: verbs.c rpcrdma_find_connect_private(const struct rdma_conn_param *param,

@p@
identifier ep, param, pmsg;
expression E1, E2, E3;
statement S;
@@
 rpcrdma_update_cm_private(struct rpcrdma_ep *ep, struct rdma_conn_param *param)
 {
-const struct rpcrdma_connect_private *pmsg = param->private_data;
+struct rpcrdma_connect_private msg;
+const struct rpcrdma_connect_private *pmsg;
 ...
(
-if (pmsg && E1 && E2 && E3)
+pmsg = rpcrdma_find_connect_private(param, &msg);
+if (pmsg)
 S
|
-if (pmsg && E1 && E2)
+pmsg = rpcrdma_find_connect_private(param, &msg);
+if (pmsg)
 S
)
 ...
 }

@depends on p@
@@
+/* fix-insert: rpcrdma_find_connect_private */
+
 rpcrdma_update_cm_private(...)
 {
 ...
 }
