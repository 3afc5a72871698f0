// SPDX-License-Identifier: GPL-2.0
/// Server teardown, 6.12 only: svc_rdma_free() waits for svcrdma_wq
/// once, after draining the QP. The last Send contexts are released by
/// work on that queue, and each release queues the release of its Write
/// chunk's rw contexts on the same queue: flush_workqueue() does not
/// wait for work queued while it runs. Such a batch came back to
/// sc_rw_ctxts after svc_rdma_destroy_rw_ctxts() had emptied it, and
/// was lost with the transport (kmemleak, under the 6.12 debug kernel:
/// five 2048-octet svc_rdma_rw_ctxt from svc_rdma_build_writes());
/// later still, it would touch a freed QP and a freed transport. A
/// second flush waits for that nested work, which queues nothing more.
/// 6.1 releases Write chunk contexts synchronously, and 7.x releases
/// Send contexts without the workqueue, so the rule runs only where the
/// nested queueing exists ("// When:", scripts/build-module.sh).
//
// Target: svc_rdma_transport.c
// When: svc_rdma_rw.c queue_work\(svcrdma_wq, &info->wi_work\)
// Expect: svc_rdma_transport.c /* rpcrdma-cm: the releases run by that flush queue more */

@@
symbol svcrdma_wq;
@@
 svc_rdma_free(...)
 {
 ...
 flush_workqueue(svcrdma_wq);
+/* rpcrdma-cm: the releases run by that flush queue more */
+flush_workqueue(svcrdma_wq);
 ...
 }
