// SPDX-License-Identifier: GPL-2.0
/// Client UNREACHABLE: rdma_cm also reports RDMA_CM_EVENT_UNREACHABLE
/// on an established RoCE connection, when a neighbour update for the
/// server fails or changes its address. The handler took it for a
/// failed connect and only set re_connect_status, after which
/// rpcrdma_mrs_refresh() never makes MRs again and the first marshal
/// that finds none hangs the mount. rpcrdma_cm_client_unreachable()
/// closes such a connection (traced, counted in debugfs) and leaves a
/// connect attempt as it was. The upstream form of the same change is
/// fixes/xprtrdma_unreachable.cocci (nfs patch 3).
//
// Target: verbs.c
// Expect: verbs.c if (rpcrdma_cm_client_unreachable(ep))

@@
identifier ep;
@@
-ep->re_connect_status = -ENETUNREACH;
+if (rpcrdma_cm_client_unreachable(ep))
+	return 0;
