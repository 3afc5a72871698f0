// SPDX-License-Identifier: GPL-2.0
/// Client ADDR_CHANGE (6.1 only): the handler set re_connect_status
/// and jumped to the DISCONNECTED case's put of the endpoint. Before
/// ESTABLISHED no get balances it, so a connect that rdma_cm reports
/// ADDR_CHANGE to (a bond failing over to a slave with another MAC)
/// frees the endpoint in its teardown's drain and puts it again: a
/// refcount_t underflow, a use-after-free and a leaked cm_id. Mainline
/// fixed that in af9b65b29af3 (v7.2, in 6.12.97); 6.1.y never took it.
/// rpcrdma_cm_client_addr_change() wakes a connect attempt without the
/// put; an established connection still takes 6.1's path, whose put
/// no DISCONNECTED event would make after a failover (the DREQ cannot
/// be sent). Kernels that have mainline's fix keep their code (When:).
//
// Target: verbs.c
// When: verbs.c re_connect_status = -ENODEV;
// Expect: verbs.c if (rpcrdma_cm_client_addr_change(ep))

@@
identifier ep;
symbol disconnected;
@@
-ep->re_connect_status = -ENODEV;
-goto disconnected;
+if (rpcrdma_cm_client_addr_change(ep))
+	goto disconnected;
+return 0;
