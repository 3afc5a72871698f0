// SPDX-License-Identifier: GPL-2.0
/// The client traces the outcome of its RFC 8797 exchange once per
/// connection, in the rpcrdma trace system (rpcrdma_cm_trace.cocci),
/// whose prototypes name svcrdma's types too.
//
// Target: net/sunrpc/xprtrdma/rpcrdma_cm_client.c
// Expect: net/sunrpc/xprtrdma/rpcrdma_cm_client.c #include <trace/events/rpcrdma.h>
// Expect: net/sunrpc/xprtrdma/rpcrdma_cm_client.c trace_xprtrdma_cm_negotiate(conn);

@@
@@
 #include <linux/sunrpc/rpcrdma_cm.h>
+#include <linux/sunrpc/svc_rdma.h>

@@
@@
- #include <trace/events/rpcrdma_cm.h>
+ #include <trace/events/rpcrdma.h>

@@
identifier conn;
@@
 rpcrdma_cm_client_established(...)
 {
 ...
 rpcrdma_cm_negotiate(conn);
+trace_xprtrdma_cm_negotiate(conn);
 ...
 }
