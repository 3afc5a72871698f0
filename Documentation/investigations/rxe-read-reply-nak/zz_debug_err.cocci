// SPDX-License-Identifier: GPL-2.0
/// Investigation only (rxe-read-reply-nak.md), not a make rxe fix:
/// log what reaches the completer's error state with no status
//
// Fix: debug-err
// Target: rxe_comp.c
// Expect: rxe_comp.c pr_warn("rxe-dbg: error

#spatch --smpl-spacing
@ err @
identifier wqe;
@@
+if (wqe->status == IB_WC_SUCCESS && pkt)
+	pr_warn("rxe-dbg: error qp#%d comp.op=%d op=%d mask=%x psn=%u comp.psn=%u first=%u last=%u wr=%d\n",
+		qp->ibqp.qp_num, qp->comp.opcode, pkt->opcode, pkt->mask,
+		pkt->psn, qp->comp.psn, wqe->first_psn, wqe->last_psn,
+		wqe->wr.opcode);
 WARN_ON_ONCE(wqe->status == IB_WC_SUCCESS);
