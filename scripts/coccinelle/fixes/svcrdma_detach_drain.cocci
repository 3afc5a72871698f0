// SPDX-License-Identifier: GPL-2.0
/// svcrdma: svc_rdma_detach() called rdma_disconnect() at once, and the
/// QP's move to ERROR flushed the Replies nfsd's threads had just
/// posted. After an nfsd restart the client sent those calls again on
/// its new session, and nfsd executed them twice (mkdir EEXIST, unlink
/// ENOENT). Wait, at most a second, until the Send Queue is empty;
/// not at all when nothing is posted or when the client disconnected
/// first (its QP is in ERROR already, so nothing posted can reach it).
//
// Target: include/linux/sunrpc/svc_rdma.h
// Target: svc_rdma_transport.c
// Expect: include/linux/sunrpc/svc_rdma.h #define RDMAXPRT_CONN_CLOSED	4
// Expect: svc_rdma_transport.c set_bit(RDMAXPRT_CONN_CLOSED, &rdma->sc_flags);
// Expect: svc_rdma_transport.c static bool svc_rdma_sq_idle(const struct svcxprt_rdma *rdma)
// Expect: svc_rdma_transport.c svc_rdma_drain_sq(rdma);

@@
@@
 #define RDMAXPRT_CONN_PENDING 3
+#define RDMAXPRT_CONN_CLOSED	4

@@
expression X;
@@
 svc_rdma_cma_handler(...)
 {
 <...
(
+set_bit(RDMAXPRT_CONN_CLOSED, &rdma->sc_flags);
 svc_xprt_deferred_close(X);
|
+set_bit(RDMAXPRT_CONN_CLOSED, &rdma->sc_flags);
 svc_rdma_xprt_deferred_close(X);
)
 ...>
 }

@d@
identifier rdma;
@@
 svc_rdma_detach(...)
 {
 <...
+svc_rdma_drain_sq(rdma);
 rdma_disconnect(rdma->sc_cm_id);
 ...>
 }

@depends on d@
typedef bool;
@@
+static bool svc_rdma_sq_idle(const struct svcxprt_rdma *rdma)
+{
+	return atomic_read(&rdma->sc_sq_avail) >= (int)rdma->sc_sq_depth;
+}
+
+/* Let the last Replies reach the client before rdma_disconnect()
+ * flushes them. A client that disconnected first takes none.
+ */
+static void svc_rdma_drain_sq(struct svcxprt_rdma *rdma)
+{
+	if (test_bit(RDMAXPRT_CONN_CLOSED, &rdma->sc_flags))
+		return;
+	wait_event_timeout(rdma->sc_send_wait, svc_rdma_sq_idle(rdma), HZ);
+}
+
 svc_rdma_detach(...)
 {
 ...
 }
