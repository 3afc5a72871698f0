// SPDX-License-Identifier: GPL-2.0
/// siw: a consumer's graceful disconnect moves the QP from RTS to
/// CLOSING (the iWARP CM's SQD). siw flushes the SQ and the ORQ there
/// only when a Work Request is being transmitted, and its own comment
/// asks for ERROR unless both the SQ and the ORQ are empty. An RDMA
/// Read whose request has gone out leaves the transmit side idle but
/// sits in the ORQ; the connection is then dropped at once
/// (siw_qp_cm_drop(qp, 0)), which detaches the QP from its endpoint,
/// so a close scheduled earlier (tx_error_close_llp: a Send failed as
/// the peer went) finds no QP to flush. The Read completes only in the
/// consumer's drain. svcrdma in 6.1 waits for it in an nfsd thread that
/// holds the transport the drain belongs to: Debian's 6.1 server with
/// this module's client still blocked nfsd threads for good, 3 of 3
/// runs of make soak SOAK_REPRO=readwait within 35 to 92 reconnects,
/// the disconnect coming 0.3 ms after siw's QP_FATAL; with this rule,
/// none in 150, twice. Take a non-empty ORQ as the comment says: ERROR,
/// and flush. The same rule makes the patch for siw's maintainers (make
/// patches).
//
// Target: siw_qp.c
// Expect: siw_qp.c if (tx_wqe(qp)->wr_status == SIW_WR_IDLE && !siw_orq_busy(qp)) {
// Expect: siw_qp.c return qp->attrs.orq_size && !siw_orq_empty(qp);

#spatch --smpl-spacing
@@
identifier qp;
statement S1, S2;
@@
 siw_qp_nextstate_from_rts(struct siw_qp *qp, ...)
 {
 <...
-if (tx_wqe(qp)->wr_status == SIW_WR_IDLE)
+if (tx_wqe(qp)->wr_status == SIW_WR_IDLE && !siw_orq_busy(qp))
 S1 else S2
 ...>
 }

@@
typedef bool;
@@
+/* An RDMA Read already sent leaves tx_wqe idle but waits in the ORQ */
+static bool siw_orq_busy(struct siw_qp *qp)
+{
+	return qp->attrs.orq_size && !siw_orq_empty(qp);
+}
+
 static int siw_qp_nextstate_from_rts(...)
 {
 ...
 }
