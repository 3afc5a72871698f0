// SPDX-License-Identifier: GPL-2.0
/// Server teardown: call svc_rdma_cm_destroy() just before
/// __svc_rdma_free() frees the transport (listeners included), so its
/// line leaves <debugfs>/rpcrdma_cm/connections before the memory is
/// reused.
//
// Target: svc_rdma_transport.c
// Expect: svc_rdma_transport.c svc_rdma_cm_destroy(rdma);

@@
identifier rdma;
@@
 __svc_rdma_free(...)
 {
 ...
+svc_rdma_cm_destroy(rdma);
 kfree(rdma);
 }
