// SPDX-License-Identifier: GPL-2.0
/// svcrdma: the server dropped the client's Receive Size (a dprintk
/// only) and bounded its Sends by its own buffer size alone. A client
/// that advertised less than the server's 4096 octets, for instance
/// with rdma_max_inline_read=1024, lost its connection at the first
/// larger Reply. Keep the client's Receive Size (1024 when it sent no
/// private data, RFC 8797 Section 5.1) and answer a Reply that does not
/// fit it with ERR_CHUNK, as svc_rdma_sendto() already does for one
/// that does not fit the server's buffer (RFC 8797 Section 4.2).
//
// Target: include/linux/sunrpc/svc_rdma.h
// Target: svc_rdma_transport.c
// Target: svc_rdma_sendto.c
// Expect: include/linux/sunrpc/svc_rdma.h int sc_max_send_size;
// Expect: svc_rdma_transport.c newxprt->sc_max_send_size = RPCRDMA_V1_DEF_INLINE_SIZE;
// Expect: svc_rdma_transport.c newxprt->sc_max_send_size = newxprt->sc_max_req_size;
// Expect: svc_rdma_sendto.c if (args.pd_length > rdma->sc_max_send_size)

@@
@@
 struct svcxprt_rdma {
 ...
 int sc_max_req_size;
+	int                  sc_max_send_size;	/* Largest Send the client takes */
 ...
 };

@@
identifier newxprt, param;
expression E, F;
symbol pmsg;
@@
 svc_rdma_parse_connect_private(struct svcxprt_rdma *newxprt, struct rdma_conn_param *param)
 {
 ...
+newxprt->sc_max_send_size = RPCRDMA_V1_DEF_INLINE_SIZE;
 if (E) {
+	newxprt->sc_max_send_size =
+		rpcrdma_decode_buffer_size(pmsg->cp_recv_size);
 	newxprt->sc_snd_w_inv = F;
 ...
 }
 }

@@
identifier newxprt;
expression E;
@@
 newxprt->sc_max_req_size = E;
+if (newxprt->sc_max_send_size > newxprt->sc_max_req_size)
+	newxprt->sc_max_send_size = newxprt->sc_max_req_size;

@@
identifier rdma, args;
@@
 svc_rdma_check_pull_up(const struct svcxprt_rdma *rdma, ...)
 {
 ...
+if (args.pd_length > rdma->sc_max_send_size)
+	return -E2BIG;
 if (args.pd_length < RPCRDMA_PULLUP_THRESH)
 	return 1;
 ...
 }
