// SPDX-License-Identifier: GPL-2.0
/// Server detach: wait, for at most a second, until the Work Requests
/// posted on the QP have completed before rdma_disconnect() flushes
/// them. When nfsd stops, its threads post their last replies and exit,
/// then every transport is detached; a reply the device had not sent
/// yet was flushed, the client sent the call again on the session
/// that replaced the one the restart ended, and nfsd executed it twice
/// (EEXIST, ENOENT; make soak SOAK_REPRO=replay, Documentation/soak.md).
/// TCP delivers what its socket holds before the FIN.
//
// Target: svc_rdma_transport.c
// Expect: svc_rdma_transport.c svc_rdma_cm_drain_sends(rdma);

@@
identifier rdma;
@@
 svc_rdma_detach(...)
 {
 <...
+svc_rdma_cm_drain_sends(rdma);
 rdma_disconnect(rdma->sc_cm_id);
 ...>
 }
