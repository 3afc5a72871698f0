// SPDX-License-Identifier: GPL-2.0
/// Server teardown: once a listener's CM ID is destroyed, refuse the
/// connection requests still on its accept queue
/// (svc_rdma_cm_refuse_unaccepted()). Upstream frees the listener with
/// them: their CM IDs are never accepted or rejected, and the clients
/// wait on MRAs for minutes after an nfsd restart. The CM ID is
/// destroyed in the deferred __svc_rdma_free() work up to 6.1 and in
/// svc_rdma_free() itself from 6.12; whichever does it gets the call.
//
// Target: svc_rdma_transport.c
// Expect: svc_rdma_transport.c svc_rdma_cm_refuse_unaccepted(rdma);

@@
identifier fn = {__svc_rdma_free, svc_rdma_free};
identifier rdma;
@@
 fn(...)
 {
 ...
 rdma_destroy_id(rdma->sc_cm_id);
+svc_rdma_cm_refuse_unaccepted(rdma);
 ...
 }
