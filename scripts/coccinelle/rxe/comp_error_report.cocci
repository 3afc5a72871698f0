// SPDX-License-Identifier: GPL-2.0
/// rxe (every series here): say which packet sent the completer to
/// COMPST_ERROR without a status. Such an error completes the WQE with
/// IB_WC_SUCCESS and errors the QP, and the completer's WARN_ON_ONCE is
/// all that is left of it: no packet, no sequence state. The old-ACK path
/// (old_ack_in_read) is one way there; the 2-hour make soak on 7.3 found
/// another, as a client's link came back (rxe_comp.c:839 with that fix,
/// like 6.1's two sightings), and the warning alone cannot tell which of
/// check_ack()'s status-less returns fired
/// (Documentation/investigations/rxe-comp-error-success-61.md). Print the
/// completer's sequence state, the packet and the WQE next to the
/// warning: the pair (comp.opcode, packet opcode) names the return, and
/// comp.psn against the WQE's PSNs and received length shows how the
/// sequence got there. It changes no state and no outcome; it is a
/// diagnostic of the rig's rxe and not part of the fixes series.
//
// Fix: comp-error-report
// Target: rxe_comp.c
// Expect: rxe_comp.c static void rxe_comp_report(struct rxe_qp *qp, struct rxe_pkt_info *pkt, struct rxe_send_wqe *wqe)
// Expect: rxe_comp.c rxe_comp_report(qp, pkt, wqe);

#spatch --smpl-spacing
@ rep @
identifier wqe;
@@
 int rxe_completer(...)
 {
 <...
+rxe_comp_report(qp, pkt, wqe);
 WARN_ON_ONCE(wqe->status == IB_WC_SUCCESS);
 ...>
 }

@ depends on rep @
@@
+/*
+ * A status-less error completes its WQE as a success: print what led
+ * there, since the warning that follows carries no sequence state.
+ */
+static void rxe_comp_report(struct rxe_qp *qp, struct rxe_pkt_info *pkt, struct rxe_send_wqe *wqe)
+{
+	struct rxe_comp_info *c = &qp->comp;
+	struct rxe_dma_info *dma = &wqe->dma;
+	struct rxe_req_info *req = &qp->req;
+	struct rxe_send_wr *wr = &wqe->wr;
+	int n = qp_num(qp);
+	int op = pkt ? pkt->opcode : -1;
+	u32 psn = pkt ? pkt->psn : 0;
+	int syn = -1;
+
+	if (wqe->status != IB_WC_SUCCESS)
+		return;
+	if (pkt && (pkt->mask & RXE_AETH_MASK))
+		syn = aeth_syn(pkt);
+	pr_warn("rxe: qp#%d no-status error: comp opcode %d psn %u\n", n, c->opcode, c->psn);
+	pr_warn("rxe: qp#%d no-status error: pkt opcode %d psn %u syn %d\n", n, op, psn, syn);
+	pr_warn("rxe: qp#%d no-status error: wqe opcode %u state %u\n", n, wr->opcode, wqe->state);
+	pr_warn("rxe: qp#%d no-status error: wqe psn %u..%u\n", n, wqe->first_psn, wqe->last_psn);
+	pr_warn("rxe: qp#%d no-status error: wqe resid %u of %u\n", n, dma->resid, dma->length);
+	pr_warn("rxe: qp#%d no-status error: req psn %u opcode %d\n", n, req->psn, req->opcode);
+}
+
 int rxe_completer(...)
 {
 ...
 }
