// SPDX-License-Identifier: GPL-2.0
/// rxe (6.1 only: 6.2 and later let it through, as the Upstream: line
/// below finds): an ACK or NAK that arrives while the completer is in
/// the middle of a multi-packet RDMA Read response must be judged by its
/// AETH. 6.1's check_ack() takes any packet other than the next Read
/// response for a broken sequence and goes to COMPST_ERROR with no status
/// set. That completes the Read with IB_WC_SUCCESS although part of its
/// data never came (the completer's WARN_ON_ONCE at the status check
/// says so), then errors the QP. An NFS/RDMA server pulls a client's
/// WRITE payload with RDMA Reads: when a client's link came back during
/// such a Read, the server logged that WARNING (make soak and VM scenario
/// 14, 2 runs in 4 on 6.1; Documentation/investigations/
/// rxe-read-reply-nak.md). A NAK or RNR NAK for the Read's request (a
/// responder that cannot send the rest, or whose MR is gone) is such a
/// packet; its PSN may also fall behind the next expected one, where
/// check_psn() drops it and the requester retries until the retry
/// counter runs out. Send both to the AETH checks: a sequence NAK or an
/// RNR NAK retries, any other NAK fails the Read with its status.
//
// Fix: read-reply-nak
// Target: rxe_comp.c
// Upstream: drivers/infiniband/sw/rxe/rxe_comp.c ^[[:space:]]*if \(pkt->opcode == IB_OPCODE_RC_ACKNOWLEDGE\)$
// Expect: rxe_comp.c static bool rxe_comp_nak_in_read(struct rxe_qp *qp, struct rxe_pkt_info *pkt)
// Expect: rxe_comp.c if (diff < 0 && rxe_comp_nak_in_read(qp, pkt))
// Expect: rxe_comp.c if (rxe_comp_nak_in_read(qp, pkt))

#spatch --smpl-spacing
@ psn exists @
identifier qp, pkt, diff;
@@
 check_psn(struct rxe_qp *qp, struct rxe_pkt_info *pkt, ...)
 {
 ...
 diff = psn_compare(pkt->psn, qp->comp.psn);
+if (diff < 0 && rxe_comp_nak_in_read(qp, pkt))
+	return COMPST_CHECK_ACK;
 ...
 }

@ ack exists @
identifier qp, pkt;
statement S;
@@
 check_ack(struct rxe_qp *qp, struct rxe_pkt_info *pkt, ...)
 {
 ...
+if (rxe_comp_nak_in_read(qp, pkt))
+	break;
 if (pkt->opcode != IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE &&
     pkt->opcode != IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST) S
 ...
 }

@ depends on psn && ack @
typedef bool;
@@
+/*
+ * A NAK or an RNR NAK for a Read's request can come in the middle of its
+ * multi-packet response (a responder that cannot send the rest, or whose
+ * MR is gone): its AETH decides what becomes of the Read, not the broken
+ * sequence of Read responses. A plain ACK there stays a sequence error.
+ */
+static bool rxe_comp_nak_in_read(struct rxe_qp *qp, struct rxe_pkt_info *pkt)
+{
+	if (pkt->opcode != IB_OPCODE_RC_ACKNOWLEDGE)
+		return false;
+	if ((aeth_syn(pkt) & AETH_TYPE_MASK) == AETH_ACK)
+		return false;
+	if (qp->comp.opcode == IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST)
+		return true;
+	return qp->comp.opcode == IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE;
+}
+
 static inline enum comp_state check_psn(...)
 {
 ...
 }
