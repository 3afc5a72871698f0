// SPDX-License-Identifier: GPL-2.0
/// rxe (6.12 and later: each sent skb holds a reference on the QP's
/// socket, dropped by rxe_skb_tx_dtor()): the destructor of a packet that
/// outlived its QP must not touch the QP. When a device queue stalls
/// longer than __rxe_cleanup() waits (50 s), the QP is destroyed and
/// freed while skbs it sent still sit in the qdisc; each still points to
/// the QP's socket, whose sk_user_data still names the freed QP, and its
/// destructor decrements the freed QP's skb_out, may schedule its send
/// task and drops a reference in it (Documentation/investigations/
/// rxe-tx-dtor-uaf.md). Rule tx_dtor_detach_qp clears sk_user_data under
/// the socket's sk_callback_lock before the QP goes; here the destructor
/// does its QP accounting under the same lock, only while the QP is still
/// attached, and drops the socket reference after the lock, since that
/// may be the socket's last. The same rule makes the patch for linux-rdma
/// (make patches: build/patches/rxe/).
//
// Fix: tx-dtor-check
// Target: rxe_net.c
// When: drivers/infiniband/sw/rxe/rxe_net.c ^[[:space:]]*sock_put\(skb->sk\);
// Expect: rxe_net.c static void rxe_skb_tx_dtor_qp(struct sk_buff *skb)
// Expect: rxe_net.c if (sk->sk_user_data)
// Expect: rxe_net.c rxe_skb_tx_dtor_qp(skb);

#spatch --smpl-spacing
@ dtor @
identifier skb;
@@
-static void rxe_skb_tx_dtor(struct sk_buff *skb)
+static void rxe_skb_tx_dtor_qp(struct sk_buff *skb)
 {
 ...
-sock_put(skb->sk);
 }

@ depends on dtor @
@@
+/*
+ * The QP's cleanup detaches it from its socket (rxe_qp_detach_sk()) when
+ * it can no longer wait for the packets it sent: do the QP's accounting
+ * only while it is attached, then drop the socket's reference outside
+ * its lock.
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
