// SPDX-License-Identifier: GPL-2.0
/// READ payloads, 6.1 only: svc_rdma_result_payload() posts the Write
/// chunk while nfsd encodes the READ, and hands nfsd -ENOTCONN when the
/// post fails because the connection is going (siw refuses posts from
/// the moment a disconnect starts). nfsd's nfserrno() has no NFS status
/// for -ENOTCONN and WARNs ("nfsd: non-standard errno: -107"): the
/// soak over siw met it on forced reconnects and link drops. The reply
/// is dropped by svc_rdma_sendto() in any case, since the failed post
/// marked the transport to close, so svc_rdma_cm_payload_err() tells
/// nfsd the payload is done, as 6.12 and later do by posting the chunk
/// from svc_rdma_sendto(); the client sends the READ again on its next
/// connection.
//
// Target: svc_rdma_sendto.c
// When: svc_rdma_sendto.c svc_rdma_send_write_chunk\(rdma, chunk, &subbuf\)
// Expect: svc_rdma_sendto.c return svc_rdma_cm_payload_err(rdma, ret);

@@
identifier rdma, chunk, subbuf, ret;
@@
 svc_rdma_result_payload(...)
 {
 ...
 ret = svc_rdma_send_write_chunk(rdma, chunk, &subbuf);
 if (ret < 0)
-	return ret;
+	return svc_rdma_cm_payload_err(rdma, ret);
 ...
 }
