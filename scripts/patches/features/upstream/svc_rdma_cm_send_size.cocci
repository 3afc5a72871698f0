// SPDX-License-Identifier: GPL-2.0
/// The features series has no module parameters: the server offers a
/// client the Send Size of the drop-in module's server_send_size
/// default, SVC_RDMA_CM_SEND_SIZE. The parameter and its getter are
/// carved out by ALWAYS_HOLD in scripts/patches.sh.
//
// Target: net/sunrpc/xprtrdma/svc_rdma_cm.c
// Expect: net/sunrpc/xprtrdma/svc_rdma_cm.c conn->send_size = svc_rdma_cm_offer_send(SVC_RDMA_CM_SEND_SIZE,
// Absent: net/sunrpc/xprtrdma/svc_rdma_cm.c rpcrdma_cm_server_send_size_wanted

@r@
identifier w;
@@
 svc_rdma_cm_parse(...)
 {
 ...
-u32 w = rpcrdma_cm_server_send_size_wanted();
 ...
 }

@@
identifier r.w;
@@
 svc_rdma_cm_parse(...)
 {
 <...
-w
+SVC_RDMA_CM_SEND_SIZE
 ...>
 }
