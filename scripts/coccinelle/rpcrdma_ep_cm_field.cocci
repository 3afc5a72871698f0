// SPDX-License-Identifier: GPL-2.0
/// Give the client endpoint (struct rpcrdma_ep, xprt_rdma.h) a
/// struct rpcrdma_cm_conn re_cm holding its RFC 8797 state: what it
/// advertised, what the server sent and what was negotiated. The glue
/// reads and writes it; upstream code never does. xprt_rdma.h is
/// private to rpcrdma.ko, so the layout change stays inside the module.
//
// Target: xprt_rdma.h
// Expect: xprt_rdma.h #include <linux/sunrpc/rpcrdma_cm.h>
// Expect: xprt_rdma.h struct rpcrdma_cm_conn re_cm;

@@
@@
 #include <linux/sunrpc/rpc_rdma.h>
+#include <linux/sunrpc/rpcrdma_cm.h>

@@
@@
 struct rpcrdma_ep {
 ...
+	struct rpcrdma_cm_conn re_cm;
 	unsigned int re_inline_send;
 ...
 };
