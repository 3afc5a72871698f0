// SPDX-License-Identifier: GPL-2.0
/// svcrdma: svc_rdma_parse_connect_private() read the client's message
/// without looking at private_data_len. A REQ whose private data is
/// shorter than the message (an iWARP peer sends exactly what it has)
/// was read past its end. Check the length first (RFC 8797 Section 5.2).
//
// Target: svc_rdma_transport.c
// Expect: svc_rdma_transport.c param->private_data_len >= sizeof(*pmsg)

@@
identifier newxprt, param, pmsg;
expression E1, E2;
@@
 svc_rdma_parse_connect_private(struct svcxprt_rdma *newxprt, struct rdma_conn_param *param)
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
