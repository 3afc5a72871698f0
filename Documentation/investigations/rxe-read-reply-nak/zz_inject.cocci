// SPDX-License-Identifier: GPL-2.0
/// Investigation only (rxe-read-reply-nak.md), not a make rxe fix:
/// lose every 64th original Read response MIDDLE packet (the first 20),
/// as a link drop would, so the requester retries the Read from the
/// middle; then fail the first packet of the first 10 such replays as an
/// skb allocation failure would (RESPST_ERR_RNR): an RNR NAK whose PSN is
/// the completer's next one.
//
// Fix: debug-inject
// Target: rxe_resp.c
// Expect: rxe_resp.c static bool rxe_dbg_fail_replay(struct resp_res *res, struct rxe_pkt_info *pkt)

#spatch --smpl-spacing
@ rr exists @
identifier opcode, skb, err, req_pkt;
expression E1, E2, E4, E5, E6;
@@
 read_reply(struct rxe_qp *qp, struct rxe_pkt_info *req_pkt)
 {
 ...
+if (rxe_dbg_fail_replay(res, req_pkt)) {
+	rxe_put(mr);
+	return RESPST_ERR_RNR;
+}
 skb = prepare_ack_packet(E1, E2, opcode, E4, E5, E6);
 ...
-err = rxe_xmit_packet(qp, &ack_pkt, skb);
+if (rxe_dbg_lose(res, opcode)) {
+	kfree_skb(skb);
+	err = 0;
+} else {
+	err = rxe_xmit_packet(qp, &ack_pkt, skb);
+}
 ...
 }

@ depends on rr @
typedef bool;
@@
+static atomic_t rxe_dbg_middles = ATOMIC_INIT(0);
+static atomic_t rxe_dbg_replays = ATOMIC_INIT(0);
+
+static bool rxe_dbg_lose(struct resp_res *res, int opcode)
+{
+	int n;
+
+	if (res->replay || opcode != IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE)
+		return false;
+	n = atomic_inc_return(&rxe_dbg_middles);
+	if (n % 64 || n > 64 * 20)
+		return false;
+	pr_warn("rxe-dbg: lost a Read response psn=%u\n", res->cur_psn);
+	return true;
+}
+
+static bool rxe_dbg_fail_replay(struct resp_res *res, struct rxe_pkt_info *pkt)
+{
+	if (!res->replay || res->cur_psn != pkt->psn || res->cur_psn == res->first_psn)
+		return false;
+	if (atomic_inc_return(&rxe_dbg_replays) > 10)
+		return false;
+	pr_warn("rxe-dbg: failed a replay psn=%u\n", pkt->psn);
+	return true;
+}
+
 static enum resp_states read_reply(...)
 {
 ...
 }
