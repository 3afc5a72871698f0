// SPDX-License-Identifier: GPL-2.0
/// The features series has no module parameters: short Replies are
/// always allowed, as the drop-in module's short_replies parameter
/// allows them by default.
//
// Target: net/sunrpc/xprtrdma/svc_rdma_cm.c
// Absent: net/sunrpc/xprtrdma/svc_rdma_cm.c rpcrdma_cm_short_replies_enabled

@@
@@
 svc_rdma_cm_short_reply(...)
 {
 ...
-if (!rpcrdma_cm_short_replies_enabled())
-	return false;
 ...
 }
