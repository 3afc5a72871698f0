// SPDX-License-Identifier: GPL-2.0
/// svcrdma: a connection request that reached a listener as nfsd shut
/// down stayed on its sc_accept_q when the listener was freed. Its CM
/// ID was never accepted, rejected or destroyed, so the CM answered
/// each REQ retry with an MRA, and the client's mount hung for up to 15
/// retries of about 68 s. Free those transports with the listener: the
/// destroyed CM ID rejects the request and the client retries at once.
/// The listener's CM ID is destroyed in the deferred __svc_rdma_free()
/// up to 6.1, in svc_rdma_free() from 6.12.
//
// Target: svc_rdma_transport.c
// Expect: svc_rdma_transport.c static void svc_rdma_free_accept_q(struct svcxprt_rdma *listener)
// Expect: svc_rdma_transport.c svc_rdma_free_accept_q(rdma);

@r@
identifier fn = {__svc_rdma_free, svc_rdma_free};
identifier rdma;
@@
 fn(...)
 {
 ...
 rdma_destroy_id(rdma->sc_cm_id);
+svc_rdma_free_accept_q(rdma);
 ...
 }

@depends on r@
identifier r.fn;
declarer name LIST_HEAD;
iterator name list_for_each_entry_safe;
@@
+/* Connection requests still queued on a listener being freed were never
+ * accepted: destroying their CM IDs rejects them, so that the clients
+ * retry at once instead of waiting out the CM's MRA timeouts.
+ */
+static void svc_rdma_free_accept_q(struct svcxprt_rdma *listener)
+{
+	struct svcxprt_rdma *newxprt;
+	struct svcxprt_rdma *next;
+	LIST_HEAD(pending);
+
+	spin_lock(&listener->sc_lock);
+	list_splice_init(&listener->sc_accept_q, &pending);
+	spin_unlock(&listener->sc_lock);
+
+	list_for_each_entry_safe(newxprt, next, &pending, sc_accept_q) {
+		list_del_init(&newxprt->sc_accept_q);
+		/* svc_xprt_free() drops the module reference that
+		 * svc_handle_xprt() takes when it accepts a transport.
+		 */
+		__module_get(newxprt->sc_xprt.xpt_class->xcl_owner);
+		svc_xprt_put(&newxprt->sc_xprt);
+	}
+}
+
 fn(...)
 {
 ...
 }
