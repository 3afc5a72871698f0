// SPDX-License-Identifier: GPL-2.0
/// Client teardown: call rpcrdma_cm_client_destroy() just before
/// rpcrdma_ep_destroy() frees the endpoint, so its line leaves
/// <debugfs>/rpcrdma_cm/connections before the memory is reused.
//
// Target: verbs.c
// Expect: verbs.c rpcrdma_cm_client_destroy(ep);

@@
identifier ep;
@@
 rpcrdma_ep_destroy(...)
 {
 ...
+rpcrdma_cm_client_destroy(ep);
 kfree(ep);
 ...
 }
