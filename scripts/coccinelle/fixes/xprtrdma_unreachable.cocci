// SPDX-License-Identifier: GPL-2.0
/// xprtrdma: rdma_cm reports RDMA_CM_EVENT_UNREACHABLE for an
/// established connection too, when the peer's neighbour entry changes
/// or fails to resolve. The handler took it for a failed connect: it set
/// re_connect_status to -ENETUNREACH on the live connection and did
/// nothing else, after which rpcrdma_mrs_refresh() never makes MRs
/// again and the first marshal that finds none leaves the transport
/// waiting for write space for good. Close the connection instead, as
/// RDMA_CM_EVENT_ADDR_CHANGE does.
//
// Target: verbs.c
// Expect: verbs.c if (xchg(&ep->re_connect_status, -ENETUNREACH) == 1) {

@@
identifier ep;
@@
-ep->re_connect_status = -ENETUNREACH;
+/* rdma_cm also reports a neighbour that changed or failed to
+		 * resolve on a connection that is established. Leaving
+		 * re_connect_status other than 1 on that connection would stop
+		 * rpcrdma_mrs_refresh() for good; close it instead, as for
+		 * ADDR_CHANGE. The DISCONNECTED event that follows puts the
+		 * ESTABLISHED reference.
+		 */
+if (xchg(&ep->re_connect_status, -ENETUNREACH) == 1) {
+	rpcrdma_force_disconnect(ep);
+	return 0;
+}
