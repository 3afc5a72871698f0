// SPDX-License-Identifier: GPL-2.0
/// rxe (6.1, 6.12 and 7.3 alike): a QP's cleanup must leave no pointer
/// to itself where a packet it sent can still find it. rxe_send() points
/// each skb at the QP's own socket, whose sk_user_data is the QP, and the
/// skb holds a reference on the QP until its destructor,
/// rxe_skb_tx_dtor(), drops it. A packet can sit in a qdisc for as long
/// as the device's queue is stopped: a virtio-net transmit queue that
/// stalled held them for over 120 s (VM scenario 14 on 6.1, issue 53).
/// Destroying the QP meanwhile, __rxe_cleanup() waits 50 s for those
/// references, WARNs, and goes on: it releases the socket and returns,
/// and the RDMA core frees the QP. The skb's destructor then reads the
/// QP from the socket's sk_user_data and writes to the freed QP (6.12,
/// 7.3: the skb holds the socket), or first reads the freed socket (6.1),
/// which crashed the client at the next "ip link set eth0 down" (NULL
/// dereference in rxe_skb_tx_dtor from qdisc_reset;
/// Documentation/investigations/rxe-tx-dtor-uaf.md). Clear the socket's
/// sk_user_data under its sk_callback_lock before the QP's tasks, queues
/// and memory go; the destructor (rule tx_dtor_detach_net, or its 6.1
/// variant) takes that lock and leaves a detached QP alone. Once all
/// references are gone no packet is left, so this costs nothing else.
/// The same rule makes the patch for linux-rdma (make patches:
/// build/patches/rxe/).
//
// Fix: tx-dtor-detach
// Target: rxe_qp.c
// Expect: rxe_qp.c static void rxe_qp_detach_sk(struct rxe_qp *qp)
// Expect: rxe_qp.c rxe_qp_detach_sk(qp);

#spatch --smpl-spacing
@ cleanup exists @
identifier qp;
@@
 rxe_qp_do_cleanup(...)
 {
 ...
 qp->qp_timeout_jiffies = 0;
+rxe_qp_detach_sk(qp);
 ...
 }

@ depends on cleanup @
@@
+/*
+ * A packet the QP sent may outlive it in a stopped device queue after
+ * __rxe_cleanup() gave up waiting for it: detach the QP from the socket
+ * such a packet points to, so its destructor does not reach a freed QP.
+ */
+static void rxe_qp_detach_sk(struct rxe_qp *qp)
+{
+	struct sock *sk;
+
+	if (!qp->sk)
+		return;
+	sk = qp->sk->sk;
+	write_lock_bh(&sk->sk_callback_lock);
+	sk->sk_user_data = NULL;
+	write_unlock_bh(&sk->sk_callback_lock);
+}
+
 static void rxe_qp_do_cleanup(...)
 {
 ...
 }
