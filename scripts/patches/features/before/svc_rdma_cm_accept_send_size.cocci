// SPDX-License-Identifier: GPL-2.0
/// Before the server offers a Send Size of its own (patch "Offer a
/// Send Size larger than max_req_size"), svc_rdma_cm_accept()
/// advertises sc_max_req_size as its Send Size as well as its Receive
/// Size: the trees of the earlier patches carry that form of the call.
//
// Target: net/sunrpc/xprtrdma/svc_rdma_cm.c
// Absent: net/sunrpc/xprtrdma/svc_rdma_cm.c svc_rdma_cm_send_size(rdma)

@@
struct svcxprt_rdma *rdma;
@@
 svc_rdma_cm_accept(...)
 {
 <...
-svc_rdma_cm_send_size(rdma)
+rdma->sc_max_req_size
 ...>
 }
