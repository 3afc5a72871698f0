// SPDX-License-Identifier: GPL-2.0
/// siw, passive side: hand the socket's receive upcall to the QP before
/// the MPA Reply goes out, not after. siw_accept() moves the QP to RTS
/// and the endpoint to RDMA mode, sends the MPA Reply, and only then
/// points sk_data_ready at the QP (siw_qp_socket_assoc()). A peer that
/// answers the Reply within that window (a few milliseconds under QEMU
/// TCG) has its first FPDU taken by the CM's upcall, which ignores data
/// in RDMA mode; the FPDU then waits in the socket until more data
/// arrives. An RPC-over-RDMA client has one credit until its first
/// Reply, so nothing more arrives: the mount stalled until the RPC
/// timed out (60 s) and reconnected. Seen 3 times in one 60-fault soak
/// (Documentation/siw.md). Data cannot precede the Reply (the peer
/// waits for it), so associating first changes nothing else; the
/// RTR-negotiated path (wait_for_peer_rts) keeps its own upcalls.
//
// Target: siw_cm.c
// Expect: siw_cm.c /* rpcrdma-cm: the QP takes the peer's first FPDU */

@ exists @
identifier cep, qp, params, wait;
expression rv;
@@
 siw_accept(...)
 {
 ...
+/* rpcrdma-cm: the QP takes the peer's first FPDU */
+if (!wait)
+	siw_qp_socket_assoc(cep, qp);
 rv = siw_send_mpareqrep(cep, params->private_data,
 			params->private_data_len);
 ...
 if (wait) {
 	siw_sk_assign_rtr_upcalls(cep);
 } else {
-	siw_qp_socket_assoc(cep, qp);
 	...
 }
 ...
 }
