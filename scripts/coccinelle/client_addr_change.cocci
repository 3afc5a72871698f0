// SPDX-License-Identifier: GPL-2.0
/// Client ADDR_CHANGE (6.1 only): the handler set re_connect_status
/// and jumped to the DISCONNECTED case's put of the endpoint. Before
/// ESTABLISHED no get balances it, so a connect that rdma_cm reports
/// ADDR_CHANGE to (a bond failing over to a slave with another MAC)
/// frees the endpoint in its teardown's drain and puts it again: a
/// refcount_t underflow, a use-after-free and a leaked cm_id. Mainline
/// fixed it in af9b65b29af3 (v7.2, in 6.12.97); 6.1.y never took it.
/// rpcrdma_cm_client_addr_change() does what that fix does: wake a
/// connect attempt, close an established connection without a put.
/// Kernels that have the fix keep their own code (When:).
//
// Target: verbs.c
// When: verbs.c re_connect_status = -ENODEV;
// Expect: verbs.c rpcrdma_cm_client_addr_change(ep);

@@
identifier ep;
@@
-ep->re_connect_status = -ENODEV;
-goto disconnected;
+rpcrdma_cm_client_addr_change(ep);
+return 0;
