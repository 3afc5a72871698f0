// SPDX-License-Identifier: GPL-2.0
/// Server parse: replace the body of svc_rdma_parse_connect_private(),
/// called from handle_connect_req() at CONNECT_REQUEST, with
/// svc_rdma_cm_parse(). Upstream looked only at offset 0, ignored
/// private_data_len, kept only the R bit (to set sc_snd_w_inv) and
/// dropped the client's sizes. The glue searches the whole buffer with
/// the codec and keeps the client's sizes and R for accept time.
//
// Target: svc_rdma_transport.c
// Expect: svc_rdma_transport.c svc_rdma_cm_parse(newxprt, param);
// Expect: svc_rdma_transport.c svc_rdma_parse_connect_private(newxprt, param);

@@
identifier newxprt, param;
@@
 svc_rdma_parse_connect_private(struct svcxprt_rdma *newxprt, struct rdma_conn_param *param)
 {
-...
+svc_rdma_cm_parse(newxprt, param);
 }
