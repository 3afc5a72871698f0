// SPDX-License-Identifier: GPL-2.0
/// Give the server's Send context (struct svc_rdma_send_ctxt, svc_rdma.h)
/// a bool sc_cm_short: svc_rdma_sendto() decides that a Reply goes
/// inline although the client offered a Reply chunk (short replies,
/// RFC 8166 Section 4.3.3), and svc_rdma_map_reply_msg() reads that
/// decision when it maps the Send. The field goes before sc_cur_sge_no:
/// the structure ends with the flexible array sc_sges[]. Only
/// rpcrdma.ko uses this structure: no file outside net/sunrpc/xprtrdma
/// includes svc_rdma.h.
//
// Target: include/linux/sunrpc/svc_rdma.h
// Expect: include/linux/sunrpc/svc_rdma.h bool sc_cm_short;

@@
@@
 struct svc_rdma_send_ctxt {
 ...
+	bool sc_cm_short;
 	int sc_cur_sge_no;
 ...
 };
