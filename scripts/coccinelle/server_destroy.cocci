// SPDX-License-Identifier: GPL-2.0
/// Server teardown: call svc_rdma_cm_destroy() just before the
/// transport (listeners included) is freed, so its line leaves
/// <debugfs>/rpcrdma_cm/connections before the memory is reused. The
/// kfree() is in the deferred __svc_rdma_free() work up to 6.1 and in
/// svc_rdma_free() itself in 6.12; whichever frees it gets the call.
//
// Target: svc_rdma_transport.c
// Expect: svc_rdma_transport.c svc_rdma_cm_destroy(rdma);

@@
identifier fn = {__svc_rdma_free, svc_rdma_free};
identifier rdma;
@@
 fn(...)
 {
 ...
+svc_rdma_cm_destroy(rdma);
 kfree(rdma);
 }
