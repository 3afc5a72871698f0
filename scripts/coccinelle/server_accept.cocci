// SPDX-License-Identifier: GPL-2.0
/// Server advertise and negotiate: in svc_rdma_accept(), replace the
/// hand-built private data (R always clear, both sizes sc_max_req_size)
/// and its assignment to conn_param with svc_rdma_cm_accept(). The glue
/// advertises Receive Size = receive buffer size, Send Size = largest
/// inline Send, R when the device and remote_invalidate allow,
/// negotiates against the client's message kept at CONNECT_REQUEST
/// (Send With Invalidate when both sides set R: rule server_reminv),
/// and records the connection for debugfs. With pdata=0 it sends no
/// private data.
//
// Target: svc_rdma_transport.c
// Expect: svc_rdma_transport.c svc_rdma_cm_accept(newxprt, &conn_param, &pmsg);
// Absent: svc_rdma_transport.c pmsg.cp_flags = 0;
// Absent: svc_rdma_transport.c conn_param.private_data = &pmsg;

@@
identifier newxprt, conn_param, pmsg;
expression E;
symbol rpcrdma_cmp_magic;
@@
 svc_rdma_accept(...)
 {
 ...
-pmsg.cp_magic = rpcrdma_cmp_magic;
-pmsg.cp_version = RPCRDMA_CMP_VERSION;
-pmsg.cp_flags = 0;
-pmsg.cp_send_size = pmsg.cp_recv_size = E;
 ...
-conn_param.private_data = &pmsg;
-conn_param.private_data_len = sizeof(pmsg);
+svc_rdma_cm_accept(newxprt, &conn_param, &pmsg);
 ...
 rdma_accept(newxprt->sc_cm_id, &conn_param)
 ...
 }
