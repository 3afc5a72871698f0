// SPDX-License-Identifier: GPL-2.0
/// Investigation only (rxe-read-reply-nak.md), not a make rxe fix:
/// log each NAK that rule read_reply_nak lets in
//
// Fix: debug-nak
// Target: rxe_comp.c
// Expect: rxe_comp.c pr_warn("rxe-dbg: nak in read

#spatch --smpl-spacing
@ nak @
identifier qp, pkt;
@@
-if (rxe_comp_nak_in_read(qp, pkt))
-	break;
+if (rxe_comp_nak_in_read(qp, pkt)) {
+	pr_warn("rxe-dbg: nak in read qp#%d syn=%x psn=%u comp.psn=%u comp.op=%d\n",
+		qp->ibqp.qp_num, aeth_syn(pkt), pkt->psn, qp->comp.psn,
+		qp->comp.opcode);
+	break;
+}

