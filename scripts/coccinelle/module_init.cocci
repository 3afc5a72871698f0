// SPDX-License-Identifier: GPL-2.0
/// Module lifetime: create <debugfs>/rpcrdma_cm before svcrdma and
/// xprtrdma register (rpc_rdma_init()), and remove it after both have
/// unregistered (rpc_rdma_cleanup()), or when rpc_rdma_init() fails.
//
// Target: module.c
// Expect: module.c rpcrdma_cm_init();
// Expect: module.c rpcrdma_cm_exit();

@@
identifier rc;
@@
 rpc_rdma_init(void)
 {
 int rc;
+
+rc = rpcrdma_cm_init();
+if (rc)
+	return rc;
 ...
+if (rc)
+	rpcrdma_cm_exit();
 return rc;
 }

@@
@@
 rpc_rdma_cleanup(void)
 {
 ...
 svc_rdma_cleanup();
+rpcrdma_cm_exit();
 }
