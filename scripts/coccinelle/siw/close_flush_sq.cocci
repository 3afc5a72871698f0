// SPDX-License-Identifier: GPL-2.0
/// siw: moving a QP from CLOSING to ERROR flushes its Send Queue only
/// when a Work Request is in progress (tx_wqe not idle), but WRs can be
/// queued behind an idle tx_wqe: siw_qp_sq_process() completes a WR that
/// failed (a socket error as the connection goes) and leaves tx_wqe idle
/// without activating the next one, and a QP whose tx_wqe is idle goes
/// from RTS to CLOSING without a flush. ib_drain_qp() then moves it to
/// ERROR, its marker completes at once, and the queued WRs never
/// complete. xprtrdma lost LOCAL_INVs so on client-forced reconnects:
/// their RPCs stayed pinned and the mount hung (until
/// rpcrdma_cm_client_unpin_stranded(): 36 RPCs in 8 of 24 forced
/// reconnects of one soak; with this rule, none). siw_sq_flush() copes
/// with an idle tx_wqe, so flush unconditionally. The same rule makes
/// the patch for siw's maintainers (make patches).
//
// Target: siw_qp.c
// Expect: siw_qp.c /* WRs queued behind an idle one would never complete otherwise */

@@
identifier qp;
@@
 siw_qp_nextstate_from_close(struct siw_qp *qp, ...)
 {
 <...
-if (tx_wqe(qp)->wr_status != SIW_WR_IDLE)
-	siw_sq_flush(qp);
+/* WRs queued behind an idle one would never complete otherwise */
+siw_sq_flush(qp);
 ...>
 }
