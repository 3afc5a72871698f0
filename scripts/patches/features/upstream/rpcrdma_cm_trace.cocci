// SPDX-License-Identifier: GPL-2.0
/// Tracepoints in the features series are events of the rpcrdma system
/// (include/trace/events/rpcrdma.h, scripts/patches/features/trace/),
/// not of the drop-in module's own rpcrdma_cm system. The shared glue
/// traces no step of its own: each role traces the outcome of its
/// exchange once, xprtrdma_cm_negotiate and svcrdma_cm_negotiate
/// (rpcrdma_cm_client_trace.cocci, svc_rdma_cm_trace.cocci). What a
/// client Receive shows of its server becomes two xprtrdma_cm_ events.
//
// Target: net/sunrpc/xprtrdma/rpcrdma_cm.c
// Expect: net/sunrpc/xprtrdma/rpcrdma_cm.c #include <trace/events/rpcrdma.h>
// Expect: net/sunrpc/xprtrdma/rpcrdma_cm.c trace_xprtrdma_cm_swi_without_r(conn, inv_rkey);
// Absent: net/sunrpc/xprtrdma/rpcrdma_cm.c trace_rpcrdma_cm_

@@
@@
- #include <trace/events/rpcrdma_cm.h>
+ #include <linux/sunrpc/svc_rdma.h>
+ #include "xprt_rdma.h"
+ #include <trace/events/rpcrdma.h>

@@
expression list L;
@@
(
- trace_rpcrdma_cm_advertise(L);
|
- trace_rpcrdma_cm_parse(L);
|
- trace_rpcrdma_cm_negotiate(L);
)

@@
expression list L;
@@
(
- trace_rpcrdma_cm_recv_too_long(L)
+ trace_xprtrdma_cm_recv_too_long(L)
|
- trace_rpcrdma_cm_swi_without_r(L)
+ trace_xprtrdma_cm_swi_without_r(L)
)
