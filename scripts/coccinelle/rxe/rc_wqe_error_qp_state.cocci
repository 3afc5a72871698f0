// SPDX-License-Identifier: GPL-2.0
/// rxe (6.1: a requester, completer and responder state of its own per
/// QP): a Work Request that fails in the requester of an RC QP (a FastReg
/// of an MR rxe still holds valid, a failed local invalidate, a packet
/// that cannot be sent) moves the whole QP to ERROR, as 6.12 and later
/// do (their requester's error exit calls rxe_qp_error()). 6.1 puts the
/// requester alone in ERROR and kicks the completer. When an earlier WQE
/// is still waiting for its ACK, the completer never reaches the failed
/// one: the requester, in ERROR, neither retransmits nor clears the retry
/// it was asked for, so the completer's next pass stops at that retry,
/// and the send queue stalls with no completion at all. The consumer
/// learns nothing until it moves the QP to ERROR itself. xprtrdma does
/// so only when an RPC times out: 6.1 clients lost their mount for about
/// a minute after a link drop that a FastReg of a still-valid MR
/// followed (make soak, c-link 56.2 s and s-link 57.5 s; Documentation/
/// investigations/rxe-local-op-retry.md). UD and GSI QPs keep
/// their path (rule ud_send_error_req_state fails their WR only).
//
// Fix: rc-wqe-error
// Target: rxe_req.c
// When: drivers/infiniband/sw/rxe/rxe_req.c qp->req\.state = QP_STATE_ERROR;
// Upstream: drivers/infiniband/sw/rxe/rxe_req.c ^[[:space:]]*rxe_qp_error\(qp\);
// Expect: rxe_req.c static void rxe_req_error_qp(struct rxe_qp *qp)
// Expect: rxe_req.c rxe_req_error_qp(qp);

#spatch --smpl-spacing
@ req exists @
identifier qp;
@@
 rxe_requester(...)
 {
 ...
 qp->req.state = QP_STATE_ERROR;
-rxe_run_task(&qp->comp.task);
+rxe_req_error_qp(qp);
 ...
 }

@ depends on req @
@@
+/*
+ * A failed RC WQE errors the whole QP, so the completer flushes the send
+ * queue even when an earlier WQE still waits for an ACK that the
+ * requester, in ERROR, will never retransmit for.
+ */
+static void rxe_req_error_qp(struct rxe_qp *qp)
+{
+	if (qp_type(qp) == IB_QPT_RC) {
+		rxe_qp_error(qp);
+		return;
+	}
+	rxe_run_task(&qp->comp.task);
+}
+
 int rxe_requester(...)
 {
 ...
 }
