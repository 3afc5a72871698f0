// SPDX-License-Identifier: GPL-2.0
/// rxe (6.1: a sent skb points to the QP's socket without holding it):
/// the destructor of a packet that outlived its QP must touch neither the
/// QP nor a freed socket. When a device queue stalls longer than
/// __rxe_cleanup() waits (50 s), the QP's cleanup releases its socket and
/// the RDMA core frees the QP while skbs it sent still sit in the qdisc.
/// Their destructor, rxe_skb_tx_dtor(), reads the freed socket's
/// sk_user_data and then the QP it finds there: a virtio-net queue that
/// stalled for over 120 s in VM scenario 14 ended in "BUG: kernel NULL
/// pointer dereference" at rxe_skb_tx_dtor+0x16, the decrement of
/// qp->skb_out, from qdisc_reset() at the next "ip link set eth0 down"
/// (Documentation/investigations/rxe-tx-dtor-uaf.md). Hold the socket for
/// each skb, as 6.12 and later do, so it outlives the QP; rule
/// tx_dtor_detach_qp clears its sk_user_data under sk_callback_lock
/// before the QP goes, and the destructor does its QP accounting under
/// the same lock only while the QP is attached, then drops the socket.
//
// Fix: tx-dtor-check
// Target: rxe_net.c
// When: drivers/infiniband/sw/rxe/rxe_net.c ^[[:space:]]*skb->sk = pkt->qp->sk->sk;
// Expect: rxe_net.c static void rxe_skb_tx_dtor_qp(struct sk_buff *skb)
// Expect: rxe_net.c if (sk->sk_user_data)
// Expect: rxe_net.c rxe_skb_tx_dtor_qp(skb);
// Expect: rxe_net.c sock_hold(skb->sk);

#spatch --smpl-spacing
@ dtor @
identifier skb;
@@
-static void rxe_skb_tx_dtor(struct sk_buff *skb)
+static void rxe_skb_tx_dtor_qp(struct sk_buff *skb)
 {
 ...
 }

@ send depends on dtor @
identifier skb, pkt;
@@
 rxe_send(struct sk_buff *skb, struct rxe_pkt_info *pkt)
 {
 ...
 skb->sk = pkt->qp->sk->sk;
+sock_hold(skb->sk);
 ...
 }

@ depends on send @
@@
+/*
+ * Each packet holds the QP's socket, which so outlives the QP; the QP's
+ * cleanup detaches it from that socket (rxe_qp_detach_sk()) when it can
+ * no longer wait for the packets it sent: do the QP's accounting only
+ * while it is attached, then drop the socket's reference outside its
+ * lock.
+ */
+static void rxe_skb_tx_dtor(struct sk_buff *skb)
+{
+	struct sock *sk = skb->sk;
+
+	read_lock(&sk->sk_callback_lock);
+	if (sk->sk_user_data)
+		rxe_skb_tx_dtor_qp(skb);
+	read_unlock(&sk->sk_callback_lock);
+	sock_put(sk);
+}
+
 static int rxe_send(...)
 {
 ...
 }
