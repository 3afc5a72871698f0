// SPDX-License-Identifier: GPL-2.0
/// Give the server transport (struct svcxprt_rdma, svc_rdma.h) a
/// struct rpcrdma_cm_conn sc_cm holding the client's private data, what
/// the server advertised and what was negotiated: the server-to-client
/// threshold and the Send With Invalidate decision are read from it on
/// every Reply. Only rpcrdma.ko uses this structure (no file outside
/// net/sunrpc/xprtrdma includes svc_rdma.h); the build puts the
/// transformed copy ahead of the installed header.
//
// Target: include/linux/sunrpc/svc_rdma.h
// Expect: include/linux/sunrpc/svc_rdma.h #include <linux/sunrpc/rpcrdma_cm.h>
// Expect: include/linux/sunrpc/svc_rdma.h struct rpcrdma_cm_conn sc_cm;

@@
@@
 #include <linux/sunrpc/rpc_rdma.h>
+#include <linux/sunrpc/rpcrdma_cm.h>

@@
@@
 struct svcxprt_rdma {
 ...
+	struct rpcrdma_cm_conn sc_cm;
 	bool sc_snd_w_inv;
 ...
 };
