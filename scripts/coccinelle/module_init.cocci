// SPDX-License-Identifier: GPL-2.0
/// Module lifetime: create <debugfs>/rpcrdma_cm before svcrdma and
/// xprtrdma register (rpc_rdma_init()), and remove it after everything
/// else has unregistered (rpc_rdma_cleanup()), or when rpc_rdma_init()
/// fails. The failure path is found by its "return rc;", wherever the
/// kernel puts it: at the end of the function (6.1) or after the last
/// of several unwind labels (6.12, which also registers an IB client).
//
// Target: module.c
// Expect: module.c rpcrdma_cm_init();
// Expect: module.c rpcrdma_cm_exit();

// First, before the early return below exists: on every exit that
// returns the status, undo rpcrdma_cm_init() if it is an error.
@@
identifier rc;
@@
 rpc_rdma_init(void)
 {
 <...
+if (rc)
+	rpcrdma_cm_exit();
 return rc;
 ...>
 }

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
 }

@@
@@
 rpc_rdma_cleanup(void)
 {
 ...
+rpcrdma_cm_exit();
 }
