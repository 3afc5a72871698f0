// SPDX-License-Identifier: GPL-2.0
/// rxe (6.12 and later): rxe_receiver() frees the request packets still
/// queued on a QP in ERR or RESET (drain_req_pkts()) while it holds
/// qp->state_lock with interrupts disabled. Freeing an skb is not allowed
/// there: a packet whose data came from the NIC's page pool (virtio_net
/// on 7.3) goes back to it through page_pool_put_unrefed_netmem(), which
/// asserts that hard interrupts are enabled, and then re-enables bottom
/// halves with them disabled. Under 7.3's debug kernel, scenario 14's
/// link drops gave "WARNING: net/core/page_pool.c:843" and
/// "kernel/softirq.c:453" from rxe_receiver() on the server, and lockdep
/// switched itself off (make debugtest KVER=trixie-backports
/// DEBUGTEST_SCENARIOS=14; Documentation/investigations/
/// rxe-drain-irqs-off.md). Free them with dev_kfree_skb_any(), the
/// idiom for a context that may have interrupts disabled: it hands such
/// an skb to the NET_TX softirq to free, and frees it at once otherwise.
/// The drain stays under the lock, with the state check. 6.1 drains
/// from the responder's RESET state without that lock, so it needs no
/// fix (the Upstream: line below finds its form).
//
// Fix: drain-req-irqsafe
// Target: rxe_resp.c
// When: drivers/infiniband/sw/rxe/rxe_resp.c ^[[:space:]]*drain_req_pkts\(qp\);
// Upstream: drivers/infiniband/sw/rxe/rxe_resp.c ^[[:space:]]*rxe_drain_req_pkts\(qp, false\);
// Expect: rxe_resp.c dev_kfree_skb_any(skb);

#spatch --smpl-spacing
@@
symbol skb;
@@
 static void drain_req_pkts(...)
 {
 <...
-kfree_skb(skb);
+dev_kfree_skb_any(skb);
 ...>
 }
