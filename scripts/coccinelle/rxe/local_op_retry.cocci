// SPDX-License-Identifier: GPL-2.0
/// rxe (6.1, 6.12 and 7.3 alike): a retry must not execute a local
/// operation a second time. When the retransmit timer fires, req_retry()
/// rewinds the requester to the oldest WQE not yet acknowledged and
/// marks the WQEs after it posted again, except those already done: a
/// FastReg or a local invalidate behind an unacknowledged Send has taken
/// effect and waits, done, for the completer to reach it. The requester
/// then walks forward from the rewound index and executes every WQE it
/// meets, done or not, so it registers that MR again. rxe refuses, the
/// MR being valid already ("rxe_reg_fast_mr: mr->lkey = ... not free"),
/// and the QP goes to its error path with nothing wrong on the wire. An
/// NFS/RDMA client whose Send was lost while a link was down saw it at
/// every retransmission that crossed a FastReg: on 6.12 and later the
/// connection is lost and made again; on 6.1 the send queue stalled for
/// the RPC timeout, 60 s (make soak SOAK_TRACE=1, s-link 57.5 s;
/// Documentation/investigations/rxe-local-op-retry.md). Step over a local
/// operation that is already done. The same rule makes the patch for
/// linux-rdma (make patches: build/patches/rxe/).
//
// Fix: local-op-retry
// Target: rxe_req.c
// Expect: rxe_req.c static bool rxe_req_local_op_done(struct rxe_qp *qp, struct rxe_send_wqe *wqe)
// Expect: rxe_req.c if (rxe_req_local_op_done(qp, wqe))

#spatch --smpl-spacing
@ req exists @
identifier qp, wqe, err;
@@
 rxe_requester(...)
 {
 ...
 if (wqe->mask & WR_LOCAL_OP_MASK) {
+	if (rxe_req_local_op_done(qp, wqe))
+		goto done;
 	err = rxe_do_local_ops(qp, wqe);
 	...
 }
 ...
 }

@ depends on req @
typedef bool;
@@
+/*
+ * A retry rewinds the requester to the oldest unacknowledged WQE. A local
+ * operation behind it has already taken effect and only waits for the
+ * completer: running it again would register a valid MR a second time.
+ */
+static bool rxe_req_local_op_done(struct rxe_qp *qp, struct rxe_send_wqe *wqe)
+{
+	if (wqe->state != wqe_state_done)
+		return false;
+	qp->req.wqe_index = queue_next_index(qp->sq.queue, qp->req.wqe_index);
+	return true;
+}
+
 int rxe_requester(...)
 {
 ...
 }
