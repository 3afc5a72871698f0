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
/// The same rule makes the patch for siw's maintainers (make patches:
/// build/patches/siw/), so the added lines are written as upstream
/// code (spatch misplaces a comment in front of an unbraced if, hence
/// the braces).
//
// Target: siw_cm.c
// Expect: siw_cm.c /* the peer's first FPDU may follow the MPA Reply at once */

@ exists @
identifier cep, qp, params;
symbol wait_for_peer_rts;
expression rv;
@@
 siw_accept(...)
 {
 ...
+if (!wait_for_peer_rts) {
+	/* the peer's first FPDU may follow the MPA Reply at once */
+	siw_qp_socket_assoc(cep, qp);
+}
 rv = siw_send_mpareqrep(cep, params->private_data,
 			params->private_data_len);
 ...
 if (wait_for_peer_rts) {
 	siw_sk_assign_rtr_upcalls(cep);
 } else {
-	siw_qp_socket_assoc(cep, qp);
 	...
 }
 ...
 }
