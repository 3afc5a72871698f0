// SPDX-License-Identifier: GPL-2.0
/// svcrdma: svc_rdma_parse_connect_private() looked for the client's
/// message at offset 0 only. RFC 8797 Section 5.2 has the receiver
/// search the private data for the Format Identifier at any offset,
/// without alignment, so that another layer may put its own data in
/// front. Search every offset within private_data_len, and copy the
/// message out, since it may sit at any alignment. The helper's text
/// is snippets/svc_rdma_find_connect_private.c.
//
// Target: svc_rdma_transport.c
// Expect: svc_rdma_transport.c pmsg = svc_rdma_find_connect_private(param, &msg);
// Expect: svc_rdma_transport.c svc_rdma_find_connect_private(const struct rdma_conn_param *param,

@p@
identifier newxprt, param, pmsg;
expression E1, E2, E3;
statement S;
@@
 svc_rdma_parse_connect_private(struct svcxprt_rdma *newxprt, struct rdma_conn_param *param)
 {
-const struct rpcrdma_connect_private *pmsg = param->private_data;
+struct rpcrdma_connect_private msg;
+const struct rpcrdma_connect_private *pmsg;
 ...
(
-if (pmsg && E1 && E2 && E3)
+pmsg = svc_rdma_find_connect_private(param, &msg);
+if (pmsg)
 S
|
-if (pmsg && E1 && E2)
+pmsg = svc_rdma_find_connect_private(param, &msg);
+if (pmsg)
 S
)
 ...
 }

@depends on p@
@@
+/* fix-insert: svc_rdma_find_connect_private */
+
 svc_rdma_parse_connect_private(...)
 {
 ...
 }
