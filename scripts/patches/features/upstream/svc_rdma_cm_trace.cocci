// SPDX-License-Identifier: GPL-2.0
/// The server's events in the rpcrdma trace system, named svcrdma_cm_
/// like svcrdma's own (rpcrdma_cm_trace.cocci); it traces the outcome
/// of its exchange once per connection, at accept.
//
// Target: net/sunrpc/xprtrdma/svc_rdma_cm.c
// Expect: net/sunrpc/xprtrdma/svc_rdma_cm.c #include <trace/events/rpcrdma.h>
// Expect: net/sunrpc/xprtrdma/svc_rdma_cm.c trace_svcrdma_cm_negotiate(conn);
// Absent: net/sunrpc/xprtrdma/svc_rdma_cm.c trace_rpcrdma_cm_
// Absent: net/sunrpc/xprtrdma/svc_rdma_cm.c trace_svc_rdma_cm_

@@
@@
- #include <trace/events/rpcrdma_cm.h>
+ #include "xprt_rdma.h"
+ #include <trace/events/rpcrdma.h>

@@
identifier conn;
@@
 svc_rdma_cm_accept(...)
 {
 ...
 rpcrdma_cm_negotiate(conn);
+trace_svcrdma_cm_negotiate(conn);
 ...
 }

@@
expression list L;
@@
(
- trace_rpcrdma_cm_inline_too_large(L)
+ trace_svcrdma_cm_inline_too_large(L)
|
- trace_rpcrdma_cm_short_reply(L)
+ trace_svcrdma_cm_short_reply(L)
|
- trace_rpcrdma_cm_reply_chunk(L)
+ trace_svcrdma_cm_reply_chunk(L)
|
- trace_svc_rdma_cm_refuse_unaccepted(L)
+ trace_svcrdma_cm_refuse_unaccepted(L)
)
