// SPDX-License-Identifier: GPL-2.0
/// rxe (6.1: a requester, completer and responder state of its own per
/// QP): a send on a UD or GSI QP that cannot go out (no route while the
/// link is down, no GID entry, no skb) fails that Work Request only. The
/// requester's error exit marks the WQE and the requester ERROR whatever
/// the QP type, and the completer then moves the whole QP to ERROR
/// (rxe_qp_error()): the responder too, and every posted receive is
/// flushed. On QP1 the MAD layer takes the failed send for an IB send
/// queue error and moves the QP from SQE back to RTS, which in rxe re-arms
/// the requester and completer only: the responder stays in ERROR, the
/// flushed receive buffers are never reposted, and check_type_state()
/// drops every later CM MAD. One failed CM DREQ during a link drop
/// stopped the port's CM for good (make soak SOAK_REPRO=qp1: 3 of 3
/// runs hung; Documentation/investigations/rxe-gsi-qp-link-drop.md).
/// A UD send the port MTU does not allow already completes without
/// touching the QP (C10-93.1.1); a failed one now completes the same way
/// with its error status, and the requester goes on with the next WQE.
/// The flush of a QP already in ERROR keeps its path. The same rule
/// makes the patch for linux-rdma (make patches: build/patches/rxe/).
//
// Fix: ud-send-error
// Target: rxe_req.c
// When: drivers/infiniband/sw/rxe/rxe_req.c qp->req\.state = QP_STATE_ERROR;
// Expect: rxe_req.c static bool rxe_req_fail_wqe_only(struct rxe_qp *qp, struct rxe_send_wqe *wqe)
// Expect: rxe_req.c if (rxe_req_fail_wqe_only(qp, wqe))

#spatch --smpl-spacing
@ req exists @
identifier qp, wqe;
symbol wqe_state_error;
@@
 rxe_requester(...)
 {
 ...
+if (rxe_req_fail_wqe_only(qp, wqe))
+	goto done;
 wqe->state = wqe_state_error;
 qp->req.state = QP_STATE_ERROR;
 ...
 }

@ depends on req @
typedef bool;
@@
+/*
+ * A UD or GSI send that cannot go out (no route while the link is down)
+ * fails its WR only, as one too long for the MTU succeeds without
+ * touching the QP: moving the QP to ERROR would flush its receive queue,
+ * and on QP1 the MAD layer recovers the send queue only.
+ */
+static bool rxe_req_fail_wqe_only(struct rxe_qp *qp, struct rxe_send_wqe *wqe)
+{
+	if (qp_type(qp) != IB_QPT_UD && qp_type(qp) != IB_QPT_GSI)
+		return false;
+	if (wqe->status == IB_WC_WR_FLUSH_ERR)
+		return false;
+	wqe->state = wqe_state_done;
+	rxe_run_task(&qp->comp.task);
+	return true;
+}
+
 int rxe_requester(...)
 {
 ...
 }
