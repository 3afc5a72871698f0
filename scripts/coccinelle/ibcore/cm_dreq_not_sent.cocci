// SPDX-License-Identifier: GPL-2.0
/// ib_cm (6.1, 6.12, 7.3): a DREQ that cannot be sent is never reported.
/// When ib_send_cm_dreq() gets no MAD for the DREQ (cm_alloc_priv_msg()
/// fails: after a bond failover the RoCE GID code has deleted and added
/// the port's GIDs again, and rdma_create_ah() refuses the connection's
/// old address vector) or cannot post it, the id enters TIMEWAIT and the
/// error goes back to the caller. rdma_disconnect() ignores it, so
/// rdma_cm's id stays in CONNECT: no RDMA_CM_EVENT_DISCONNECTED ever
/// comes, and the later TIMEWAIT_EXIT is dropped too. A ULP that frees
/// the connection on that event (xprtrdma since af9b65b29af3) keeps its
/// QP, CQs, PD and cm_id for good, and the peer is never told.
/// A DREQ that was sent but never answered takes the same step in
/// cm_process_send_error() and then reports IB_CM_DREQ_ERROR, which
/// rdma_cm turns into DISCONNECTED. Report the unsent DREQ the same way,
/// from the CM's work queue: the caller may hold locks that its own
/// event handler takes. Both failures are reached only from ESTABLISHED,
/// so a connection that never was established gets no such event
/// (Documentation/investigations/addr-change-kref.md says why the event
/// is not made in rdma_cm instead). The work delivers it only while the
/// id is still in TIMEWAIT: cm_destroy_id() (which on 6.1 and 6.12 also
/// sends its DREQ through cm_send_dreq_locked()) moves it to IDLE under
/// the same lock first.
//
// Fix: cm-dreq-not-sent
// Target: cm.c
// When: drivers/infiniband/core/cm.c msg = cm_alloc_priv_msg\(cm_id_priv
// Expect: cm.c static void cm_dreq_not_sent(struct cm_id_private *cm_id_priv)
// Expect: cm.c work->cm_event.event = IB_CM_DREQ_ERROR;
// Expect: cm.c cm_dreq_not_sent(cm_id_priv);

#spatch --smpl-spacing
@ fix @
identifier f = {cm_send_dreq_locked, ib_send_cm_dreq};
expression E;
@@
 f(...)
 {
 <+...
-cm_enter_timewait(E);
+cm_dreq_not_sent(E);
 ...+>
 }

@ depends on fix @
identifier fix.f;
@@
+/*
+ * The user hears of a DREQ that could not be sent as of one that was
+ * never answered, unless the id left TIMEWAIT (destroyed) meanwhile.
+ */
+static void cm_dreq_error_work(struct work_struct *_work)
+{
+	struct cm_work *work = container_of(_work, struct cm_work, work.work);
+	struct cm_id_private *cm_id_priv;
+
+	cm_id_priv = cm_acquire_id(work->local_id, work->remote_id);
+	if (!cm_id_priv)
+		goto free;
+	spin_lock_irq(&cm_id_priv->lock);
+	if (cm_id_priv->id.state != IB_CM_TIMEWAIT) {
+		spin_unlock_irq(&cm_id_priv->lock);
+		cm_deref_id(cm_id_priv);
+		goto free;
+	}
+	cm_queue_work_unlock(cm_id_priv, work);
+	return;
+free:
+	cm_free_work(work);
+}
+
+/*
+ * No DREQ could be built or posted: the id waits out TIMEWAIT as after
+ * a DREQ that timed out, and, as then, its user gets IB_CM_DREQ_ERROR,
+ * or it would wait for a disconnect event that never comes. Called
+ * with the id's lock held, so the event goes through the work queue.
+ */
+static void cm_dreq_not_sent(struct cm_id_private *cm_id_priv)
+{
+	struct cm_work *work;
+
+	cm_enter_timewait(cm_id_priv);
+	work = kzalloc(sizeof(*work), GFP_ATOMIC);
+	if (!work)
+		return;
+	INIT_DELAYED_WORK(&work->work, cm_dreq_error_work);
+	work->local_id = cm_id_priv->id.local_id;
+	work->remote_id = cm_id_priv->id.remote_id;
+	work->cm_event.event = IB_CM_DREQ_ERROR;
+	work->cm_event.param.send_status = IB_WC_GENERAL_ERR;
+	queue_delayed_work(cm.wq, &work->work, 0);
+}
+
 f(...)
 {
 ...
 }

// The allocation in the idiom of the series: 7.x's cm.c allocates with
// kzalloc_obj() (checkpatch asks for it there); 6.1's and 6.12's cannot.
@ has_obj @
expression E;
@@
 kzalloc_obj(E)

@ depends on fix && has_obj @
@@
 cm_dreq_not_sent(...)
 {
 <...
-kzalloc(sizeof(*work), GFP_ATOMIC)
+kzalloc_obj(*work, GFP_ATOMIC)
 ...>
 }
