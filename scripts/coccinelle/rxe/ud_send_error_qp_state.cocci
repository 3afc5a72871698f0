// SPDX-License-Identifier: GPL-2.0
/// rxe (6.12 and later: one QP state, under qp->state_lock): a send on a
/// UD or GSI QP that cannot go out (no route while the link is down, a
/// failed ip_local_out(), no GID entry, no skb) fails that Work Request
/// only. The requester's error exit marks the WQE errored and moves the
/// whole QP to ERR whatever its type (rxe_qp_error()). The completer then
/// finds the QP in ERR and flushes the send queue, the failed WQE
/// included, so the consumer sees a flush error instead of the send's
/// own; the receive queue is flushed too. On QP1 the MAD layer recovers
/// a QP only from a send error that is not a flush (SQE -> RTS), and
/// reposts no flushed receive buffer: the port's CM neither sends nor
/// receives again until the device is re-created. One failed CM DREQ
/// during a link drop was enough (make soak SOAK_REPRO=qp1; Documentation/
/// investigations/rxe-gsi-qp-link-drop.md). A UD send the port MTU does
/// not allow already completes without touching the QP (C10-93.1.1); a
/// failed one now completes the same way with its error status (the
/// completer runs next in the same send task), and the requester goes
/// on with the next WQE. The flush of a QP already in ERR keeps its
/// path. The same rule makes the patch for linux-rdma (make patches:
/// build/patches/rxe/).
//
// Fix: ud-send-error
// Target: rxe_req.c
// When: drivers/infiniband/sw/rxe/rxe_req.c ^[[:space:]]*rxe_qp_error\(qp\);
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
 rxe_qp_error(qp);
 ...
 }

@ depends on req @
typedef bool;
@@
+/*
+ * A UD or GSI send that cannot go out (no route while the link is down)
+ * fails its WR only, as one too long for the MTU succeeds without
+ * touching the QP: moving the QP to ERR would flush its receive queue
+ * and report the send as flushed, which the MAD layer does not recover.
+ */
+static bool rxe_req_fail_wqe_only(struct rxe_qp *qp, struct rxe_send_wqe *wqe)
+{
+	if (qp_type(qp) != IB_QPT_UD && qp_type(qp) != IB_QPT_GSI)
+		return false;
+	if (wqe->status == IB_WC_WR_FLUSH_ERR)
+		return false;
+	wqe->state = wqe_state_done;
+	return true;
+}
+
 int rxe_requester(...)
 {
 ...
 }
