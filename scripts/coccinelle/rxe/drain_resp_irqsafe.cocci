// SPDX-License-Identifier: GPL-2.0
/// rxe (6.12 and later): rxe_completer() frees the response packets still
/// queued on a QP in ERR or RESET (drain_resp_pkts()) while it holds
/// qp->state_lock with interrupts disabled, as rxe_receiver() does with
/// request packets (rule drain_req_irqsafe, where 7.3's debug kernel
/// caught it: page_pool_put_unrefed_netmem() asserts that hard interrupts
/// are enabled; Documentation/investigations/rxe-drain-irqs-off.md).
/// Free them with dev_kfree_skb_any(), as there. 6.1 drains without that
/// lock, so it needs no fix (the Upstream: line below finds its form).
//
// Fix: drain-resp-irqsafe
// Target: rxe_comp.c
// When: drivers/infiniband/sw/rxe/rxe_comp.c ^[[:space:]]*drain_resp_pkts\(qp\);
// Upstream: drivers/infiniband/sw/rxe/rxe_comp.c ^[[:space:]]*rxe_drain_resp_pkts\(qp, qp->valid &&
// Expect: rxe_comp.c dev_kfree_skb_any(skb);

#spatch --smpl-spacing
@@
symbol skb;
@@
 static void drain_resp_pkts(...)
 {
 <...
-kfree_skb(skb);
+dev_kfree_skb_any(skb);
 ...>
 }
