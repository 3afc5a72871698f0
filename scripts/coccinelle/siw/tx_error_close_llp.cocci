// SPDX-License-Identifier: GPL-2.0
/// siw: when a Work Request fails to send (the peer has closed its
/// socket, say), siw_qp_sq_process() drops the connection at once,
/// siw_qp_cm_drop(qp, 0), which reports CLOSE and releases the socket
/// but leaves the QP in RTS with nothing flushed. An RDMA Read already
/// sent sits in the ORQ for a response that cannot come, and completes
/// only when the consumer moves the QP to ERROR. svcrdma up to 6.1
/// waits for that completion in the nfsd thread, holding the transport
/// whose release would move the QP: the thread and the transport stayed
/// for good (make soak SOAK_REPRO=readwait: 3 of 3 runs, within 10 to
/// 47 forced reconnects). The receive side already takes the scheduled
/// path on an error, siw_qp_cm_drop(qp, 1), whose LLP close moves the
/// QP to ERROR and flushes the ORQ, the SQ and the RQ; the send side
/// now does the same. The same rule makes the patch for siw's
/// maintainers (make patches); it changes the argument only, since
/// spatch braces an unbraced if whose statement it replaces.
//
// Target: siw_qp_tx.c
// Expect: siw_qp_tx.c siw_qp_cm_drop(qp, 1);

@@
identifier qp;
@@
 siw_qp_sq_process(struct siw_qp *qp)
 {
 <...
 siw_qp_cm_drop(qp,
-0
+1
 );
 ...>
 }
