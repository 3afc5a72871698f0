// SPDX-License-Identifier: GPL-2.0
/// The features series has no module parameters: the drop-in module's
/// pdata and remote_invalidate switches (for testing against peers)
/// are taken at their defaults, 1, and the code they guard goes. What
/// is left of them at file level (the variables, module_param_named(),
/// rpcrdma_cm_pdata_enabled(), the pdata field) is carved out by
/// ALWAYS_HOLD in scripts/patches.sh.
//
// Target: net/sunrpc/xprtrdma/rpcrdma_cm.c
// Expect: net/sunrpc/xprtrdma/rpcrdma_cm.c conn->status = rpcrdma_pdata_parse(param->private_data,
// Absent: net/sunrpc/xprtrdma/rpcrdma_cm.c conn->pdata
// Absent: net/sunrpc/xprtrdma/rpcrdma_cm.c rpcrdma_cm_remote_invalidate)

@@
identifier conn, buf, len;
@@
 rpcrdma_cm_advertise(struct rpcrdma_cm_conn *conn, void *buf, u8 *len)
 {
 ...
-if (conn->pdata) {
 rpcrdma_pdata_build(buf, &conn->local);
 *len = RPCRDMA_PDATA_V1_LEN;
-} else {
-  conn->local.remote_inv = false;
-  *len = 0;
-}
 ...
 }

@@
identifier conn;
expression E;
@@
 rpcrdma_cm_parse(...)
 {
-if (!conn->pdata)
-	conn->status = RPCRDMA_PDATA_DISABLED;
-else
 conn->status = E;
 ...
 }

@@
identifier conn;
@@
 rpcrdma_cm_begin(...)
 {
 ...
-conn->pdata = rpcrdma_cm_pdata_enabled();
 ...
 }

@@
@@
 rpcrdma_cm_reminv_allowed(...)
 {
-if (!READ_ONCE(rpcrdma_cm_remote_invalidate))
-	return false;
 ...
 }
