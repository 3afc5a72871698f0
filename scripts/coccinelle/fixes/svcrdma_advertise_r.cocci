// SPDX-License-Identifier: GPL-2.0
/// svcrdma: svc_rdma_accept() sent cp_flags = 0, yet the server posted
/// Send With Invalidate whenever the client set R. RFC 8797 Section 4.1
/// allows it only when both peers set R. Advertise R when the device
/// can post Send With Invalidate, the same test that already clears
/// sc_snd_w_inv; sc_snd_w_inv then holds exactly when both set R.
//
// Target: svc_rdma_transport.c
// Expect: svc_rdma_transport.c pmsg.cp_flags |= RPCRDMA_CMP_F_SND_W_INV_OK;

@cap disable paren@
identifier newxprt;
expression E;
symbol false;
@@
 if (!(E))
	newxprt->sc_snd_w_inv = false;

@depends on cap@
identifier pmsg;
expression cap.E;
@@
 pmsg.cp_flags = 0;
+if (E)
+	pmsg.cp_flags |= RPCRDMA_CMP_F_SND_W_INV_OK;
