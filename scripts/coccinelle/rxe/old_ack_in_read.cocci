// SPDX-License-Identifier: GPL-2.0
/// rxe (6.2 and later, so 6.12 and 7.3 here): check_psn() lets an RC
/// ACKNOWLEDGE whose PSN is older than the next expected one through to
/// check_ack() while a multi-packet RDMA Read response is under way, so
/// that a NAK sent in the middle of the Read can end it (mainline
/// 5ac814e02ece). It does not look at the AETH, and a plain ACK takes the
/// same road: check_ack() sends it to COMPST_WRITE_SEND, the completer
/// notes the end of a response (comp.opcode -1), and the Read's next
/// response, a MIDDLE or LAST, is then a broken sequence: COMPST_ERROR
/// with the WQE's status still IB_WC_SUCCESS, the WARN_ON_ONCE there, the
/// Read completed as a success without the rest of its data, and the QP
/// in error. A responder sends such an old ACK for a duplicate Send or
/// Write, which a retried send queue produces after a link came back: the
/// 2-hour make soak on 7.3 hit it (rxe_comp.c:827, overlap fault), and
/// scenario 14's LD_REPRO=old-ack replays one on demand
/// (Documentation/investigations/rxe-comp-error-success-61.md). Let only
/// a NAK or an RNR NAK through, which is what that commit was for; an old
/// ACK acknowledges nothing new and is dropped, as before it. 6.1 predates
/// it and drops every old response (with read_reply_nak, NAKs excepted):
/// the Upstream: line finds 6.1's series by its completer's signature,
/// which 6.4 changed.
//
// Fix: old-ack-in-read
// Target: rxe_comp.c
// When: drivers/infiniband/sw/rxe/rxe_comp.c ^[[:space:]]*else if \(pkt->opcode == IB_OPCODE_RC_ACKNOWLEDGE &&$
// Upstream: drivers/infiniband/sw/rxe/rxe_comp.c ^int rxe_completer\(void \*arg\)$
// Expect: rxe_comp.c static bool rxe_comp_old_nak(struct rxe_pkt_info *pkt)
// Expect: rxe_comp.c else if (rxe_comp_old_nak(pkt) &&

#spatch --smpl-spacing
@ psn @
identifier pkt;
@@
 check_psn(struct rxe_qp *qp, struct rxe_pkt_info *pkt, ...)
 {
 <...
-pkt->opcode == IB_OPCODE_RC_ACKNOWLEDGE
+rxe_comp_old_nak(pkt)
 ...>
 }

@ depends on psn @
typedef bool;
@@
+/*
+ * An acknowledge older than the next expected response, in the middle of
+ * a Read's responses: a NAK or an RNR NAK for the Read ends or delays it,
+ * but a plain ACK is a duplicate's and acknowledges nothing new.
+ */
+static bool rxe_comp_old_nak(struct rxe_pkt_info *pkt)
+{
+	if (pkt->opcode != IB_OPCODE_RC_ACKNOWLEDGE)
+		return false;
+	return (aeth_syn(pkt) & AETH_TYPE_MASK) != AETH_ACK;
+}
+
 static inline enum comp_state check_psn(...)
 {
 ...
 }
