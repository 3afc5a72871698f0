// SPDX-License-Identifier: GPL-2.0
/// ib_core's MAD layer (6.1 and 6.12): a request that waits for a
/// response (a CM REQ, REP or DREQ) ends at once when its send completes
/// in error. ib_mad_complete_send_wr() records the error, drops the
/// response's reference and calls the agent's send handler, so the
/// request is never resent: timeout_sends() retries only what it finds
/// on the wait list. A send that fails locally is what a RoCE port gives
/// while its link is down (no route), and one such DREQ was enough to
/// leave the peer's connection established for good (ib_cm turns the
/// error into a timed-out disconnect and the client forgets it; the
/// server never hears of it: Documentation/investigations/
/// stale-server-connection.md). Treat an error completion of a request
/// that still has retries like a send that the wire lost: it waits for
/// its response, and timeout_sends() resends it within its retries. A
/// request without retries, or without a response to wait for, ends as
/// before. Mainline's MAD state machine (7.3) already waits on every
/// send completion of such a request, so the rule does not run there.
//
// Fix: mad-send-error-wait
// Target: mad.c
// When: drivers/infiniband/core/mad.c ^[[:space:]]*mad_send_wr->refcount -= \(mad_send_wr->timeout > 0\);
// Upstream: drivers/infiniband/core/mad.c IB_MAD_STATE_SEND_START &&
// Expect: mad.c static bool ib_mad_send_error_waits(struct ib_mad_send_wr_private *mad_send_wr)
// Expect: mad.c !ib_mad_send_error_waits(mad_send_wr)

#spatch --smpl-spacing
@ fix @
identifier wr, wc;
@@
 void ib_mad_complete_send_wr(struct ib_mad_send_wr_private *wr,
			      struct ib_mad_send_wc *wc)
 {
 ...
 if (wc->status != IB_WC_SUCCESS &&
-    wr->status == IB_WC_SUCCESS
+    wr->status == IB_WC_SUCCESS &&
+    !ib_mad_send_error_waits(wr)
 ) {
 ...
 }
 ...
 }

@ depends on fix @
typedef bool;
@@
+/*
+ * A request that waits for a response and has retries left is not ended
+ * by an error completion of its send (a local one: no route while a RoCE
+ * link is down): it waits like a send the wire lost, and timeout_sends()
+ * resends it, so a DREQ is not lost to a link that comes back.
+ */
+static bool ib_mad_send_error_waits(struct ib_mad_send_wr_private *mad_send_wr)
+{
+	return mad_send_wr->timeout && mad_send_wr->retries_left > 0;
+}
+
 void ib_mad_complete_send_wr(...)
 {
 ...
 }
