// SPDX-License-Identifier: GPL-2.0
/// Client CQs: give the poll work of the transport's send and receive
/// CQs a lockdep class of their own, right after rpcrdma_ep_create()
/// allocates them. ib_core initialises every CQ's poll work at one
/// site, so lockdep files them with the MAD layer's CQ, whose
/// completions take an rdma_cm id's handler_mutex. When a CM event
/// drops the endpoint's last reference, xprtrdma frees its CQs inside
/// the CM handler, under that mutex, and lockdep reports a circular
/// dependency that cannot close: the transport's completion handlers
/// never reach rdma_cm. Once reported, lockdep turns itself off for the
/// rest of the boot (Documentation/investigations/
/// lockdep-cq-work-cm-handler.md). Compiled out without CONFIG_LOCKDEP.
//
// Target: verbs.c
// Expect: verbs.c rpcrdma_cm_cq_lockdep_class(ep->re_attr.send_cq);
// Expect: verbs.c rpcrdma_cm_cq_lockdep_class(ep->re_attr.recv_cq);

@@
identifier ep, fld;
statement S;
@@
 ep->re_attr.fld = ib_alloc_cq_any(...);
 if (IS_ERR(ep->re_attr.fld)) S
+rpcrdma_cm_cq_lockdep_class(ep->re_attr.fld);
