// SPDX-License-Identifier: GPL-2.0
/// The features series has no debugfs: a detach's drain counts
/// nothing, so it keeps no result of its wait.
//
// Target: net/sunrpc/xprtrdma/svc_rdma_cm.c
// Absent: net/sunrpc/xprtrdma/svc_rdma_cm.c rpcrdma_cm_count_drained
// Absent: net/sunrpc/xprtrdma/svc_rdma_cm.c idle =

@@
identifier idle, shared;
expression E;
@@
 svc_rdma_cm_drain_sends(...)
 {
 ...
-bool idle;
 ...
-idle = E > 0;
+E;
-rpcrdma_cm_count_drained(idle, shared);
 }
