// SPDX-License-Identifier: GPL-2.0
/// rxe (every series here): a Read response packet that could not be
/// sent must be sent again as it was. read_reply() marks the response
/// as under way (rdatm_res_state_next) before it builds and transmits
/// the packet. When the first packet fails (no route while the link is
/// down, or the qdisc drops it: RESPST_ERR_RNR), the responder keeps the
/// response and resumes it with the next request that arrives, usually
/// the requester's retry of that Read; it then sends the first packet's
/// PSN as a MIDDLE (or a LAST), because the state already says "next".
/// The requester's completer, which has nothing of that Read yet, takes
/// a MIDDLE with no FIRST for a broken sequence: COMPST_ERROR with no
/// status, the WARN_ON_ONCE there, the Read completed as a success
/// without its data, and the QP in error. An NFS/RDMA server pulls a
/// client's WRITE payload with RDMA Reads, and a client whose link goes
/// down while it answers one does exactly this: the 2-hour make soak on
/// 7.3 logged that warning as the client's link came back, with
/// old_ack_in_read in place (6.1 twice before), and scenario 14's
/// LD_REPRO=unsent-first drops one FIRST on the client's egress
/// (Documentation/investigations/rxe-comp-error-success-61.md). Mark the
/// response as under way once a packet has gone, and when the first one
/// did not, look its MR up again by rkey on resume, as a replay does:
/// the reference it held went with the failed packet.
//
// Fix: read-reply-unsent
// Target: rxe_resp.c
// Expect: rxe_resp.c if (res->state == rdatm_res_state_new)
// Expect: rxe_resp.c res->replay = 1;
// Expect: rxe_resp.c * Only once the packet went: one that did not is sent again as it

#spatch --smpl-spacing
@ late @
@@
 read_reply(...)
 {
 ...
-res->state = rdatm_res_state_next;
 ...
 }

@ sent depends on late @
@@
 read_reply(...)
 {
 <...
+/*
+	 * Only once the packet went: one that did not is sent again as it
+	 * was. The first one's MR reference went with it, so the resumed
+	 * response looks the MR up by rkey, as a replay does.
+	 */
+res->state = rdatm_res_state_next;
 res->read.va += payload;
 ...>
 }

@ unsent depends on sent @
@@
 read_reply(...)
 {
 <...
(
+if (res->state == rdatm_res_state_new)
+	res->replay = 1;
 return RESPST_ERR_RNR;
|
+if (res->state == rdatm_res_state_new)
+	res->replay = 1;
 state = RESPST_ERR_RNR;
)
 ...>
 }
