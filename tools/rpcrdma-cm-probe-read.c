// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm-probe --read: one RPC-over-RDMA Call on the connection the
 * probe just set up, to see whether the server honours the Receive Size
 * this host advertised (RFC 8797 Section 4.2, RFC 8166 Section 4.5.3).
 *
 * The Call is an NFSv4.0 COMPOUND { PUTROOTFH, LOOKUP..., READ } with
 * the anonymous stateid and AUTH_SYS root credentials, sent as RDMA_MSG
 * with no chunks at all: whatever the server answers must come back
 * inline, in one Receive of exactly the advertised Receive Size. A
 * server that bounds its Sends by that size answers a Reply that does
 * not fit with RDMA_ERROR/ERR_CHUNK; one that ignores it sends more
 * than the buffer holds and the Receive completes in error (the
 * connection is then lost).
 *
 * Everything received is decoded with explicit bounds: the probe meets
 * servers it does not trust.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "rpcrdma-cm-probe.h"

/* RPC-over-RDMA Version 1 (RFC 8166) */
#define RDMA_VERSION	1
#define RDMA_MSG	0
#define RDMA_NOMSG	1
#define RDMA_ERROR	4
/* ONC RPC (RFC 5531) */
#define RPC_CALL	0
#define RPC_REPLY	1
#define RPC_VERSION	2
#define RPC_AUTH_NONE	0
#define RPC_AUTH_SYS	1
/* NFSv4.0 (RFC 7530) */
#define NFS_PROGRAM	100003
#define NFS_V4		4
#define NFSPROC4_COMPOUND 1
#define OP_LOOKUP	15
#define OP_PUTROOTFH	24
#define OP_READ		25

/* The Call: header, credential and a path of a few components */
#define PROBE_CALL_MAX	1024
#define PROBE_OPS_MAX	16

/* XDR writer and bounds-checked reader */
struct probe_xdr {
	__u8 *buf;
	size_t len;
	size_t pos;
	bool bad;
};

static void probe_put32(struct probe_xdr *x, __u32 v)
{
	__be32 be = htonl(v);

	if (x->pos + 4 > x->len) {
		x->bad = true;
		return;
	}
	memcpy(x->buf + x->pos, &be, 4);
	x->pos += 4;
}

static void probe_put_opaque(struct probe_xdr *x, const void *p, size_t n)
{
	size_t padded = (n + 3) & ~(size_t)3;

	probe_put32(x, n);
	if (x->bad || x->pos + padded > x->len) {
		x->bad = true;
		return;
	}
	memset(x->buf + x->pos, 0, padded);
	memcpy(x->buf + x->pos, p, n);
	x->pos += padded;
}

static __u32 probe_get32(struct probe_xdr *x)
{
	__be32 be;

	if (x->bad || x->pos + 4 > x->len) {
		x->bad = true;
		return 0;
	}
	memcpy(&be, x->buf + x->pos, 4);
	x->pos += 4;
	return ntohl(be);
}

/* Step over a variable-length opaque; its length comes from the peer */
static __u32 probe_skip_opaque(struct probe_xdr *x)
{
	__u32 n = probe_get32(x);
	size_t padded = ((size_t)n + 3) & ~(size_t)3;

	if (x->bad || padded > x->len - x->pos) {
		x->bad = true;
		return 0;
	}
	x->pos += padded;
	return n;
}

/* Encode the whole Call; return its length, or 0 if @rd does not fit */
static size_t probe_encode_call(__u8 *buf, size_t len,
				const struct probe_read *rd, __u32 xid)
{
	static const char machine[] = "rpcrdma-cm-probe";
	struct probe_xdr x = { .buf = buf, .len = len };
	const char *comp[PROBE_OPS_MAX];
	size_t ncomp = 0, i, cred_at;
	char path[sizeof(rd->path)];
	char *s, *save = NULL;

	snprintf(path, sizeof(path), "%s", rd->path);
	for (s = strtok_r(path, "/", &save); s; s = strtok_r(NULL, "/", &save)) {
		if (ncomp == PROBE_OPS_MAX - 2)
			return 0;
		comp[ncomp++] = s;
	}

	/* transport header: no Read list, no Write list, no Reply chunk */
	probe_put32(&x, xid);
	probe_put32(&x, RDMA_VERSION);
	probe_put32(&x, 1);		/* credits requested */
	probe_put32(&x, RDMA_MSG);
	probe_put32(&x, 0);
	probe_put32(&x, 0);
	probe_put32(&x, 0);

	probe_put32(&x, xid);
	probe_put32(&x, RPC_CALL);
	probe_put32(&x, RPC_VERSION);
	probe_put32(&x, NFS_PROGRAM);
	probe_put32(&x, NFS_V4);
	probe_put32(&x, NFSPROC4_COMPOUND);
	probe_put32(&x, RPC_AUTH_SYS);
	cred_at = x.pos;
	probe_put32(&x, 0);		/* body length, set below */
	probe_put32(&x, 0);		/* stamp */
	probe_put_opaque(&x, machine, strlen(machine));
	probe_put32(&x, 0);		/* uid */
	probe_put32(&x, 0);		/* gid */
	probe_put32(&x, 0);		/* no supplementary groups */
	if (x.bad)
		return 0;
	*(__be32 *)(buf + cred_at) = htonl(x.pos - cred_at - 4);
	probe_put32(&x, RPC_AUTH_NONE);
	probe_put32(&x, 0);

	probe_put_opaque(&x, "", 0);	/* tag */
	probe_put32(&x, 0);		/* minorversion */
	probe_put32(&x, ncomp + 2);
	probe_put32(&x, OP_PUTROOTFH);
	for (i = 0; i < ncomp; i++) {
		probe_put32(&x, OP_LOOKUP);
		probe_put_opaque(&x, comp[i], strlen(comp[i]));
	}
	probe_put32(&x, OP_READ);
	for (i = 0; i < 4; i++)		/* anonymous stateid: all zero */
		probe_put32(&x, 0);
	probe_put32(&x, 0);		/* offset, 64 bits */
	probe_put32(&x, 0);
	probe_put32(&x, rd->count);
	return x.bad ? 0 : x.pos;
}

static void probe_why(struct probe_read_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->why, sizeof(res->why), fmt, ap);
	va_end(ap);
}

/* The COMPOUND4res after an accepted RPC Reply */
static void probe_decode_compound(struct probe_xdr *x,
				  struct probe_read_result *res)
{
	__u32 n, op, status;

	res->nfs_status = probe_get32(x);
	probe_skip_opaque(x);		/* tag */
	n = probe_get32(x);
	while (n-- && !x->bad) {
		op = probe_get32(x);
		status = probe_get32(x);
		if (status) {
			res->failed_op = op;
			break;
		}
		if (op == OP_READ) {
			res->eof = probe_get32(x);
			res->data = probe_skip_opaque(x);
			break;
		}
	}
}

/* An RDMA_MSG body: three empty chunk lists, then an RPC Reply */
static void probe_decode_msg(struct probe_xdr *x, __u32 xid,
			     struct probe_read_result *res)
{
	__u32 v;
	int i;

	for (i = 0; i < 3; i++) {
		if (probe_get32(x)) {
			probe_why(res, "the reply carries a chunk list; none was offered");
			return;
		}
	}
	if (probe_get32(x) != xid || probe_get32(x) != RPC_REPLY) {
		probe_why(res, "not an RPC Reply to this Call");
		return;
	}
	if (probe_get32(x)) {
		probe_why(res, "RPC Reply denied");
		return;
	}
	probe_get32(x);			/* verifier flavor */
	probe_skip_opaque(x);
	v = probe_get32(x);
	if (v) {
		probe_why(res, "RPC accept status %u", v);
		return;
	}
	probe_decode_compound(x, res);
}

static void probe_decode_reply(__u8 *buf, size_t len, __u32 xid,
			       struct probe_read_result *res)
{
	struct probe_xdr x = { .buf = buf, .len = len };
	__u32 proc;

	if (probe_get32(&x) != xid) {
		probe_why(res, "reply XID is not the Call's");
		return;
	}
	probe_get32(&x);		/* version */
	probe_get32(&x);		/* credits granted */
	proc = probe_get32(&x);
	switch (proc) {
	case RDMA_MSG:
		res->reply = "rdma_msg";
		probe_decode_msg(&x, xid, res);
		break;
	case RDMA_NOMSG:
		res->reply = "rdma_nomsg";
		probe_why(res, "RDMA_NOMSG although no Reply chunk was offered");
		break;
	case RDMA_ERROR:
		res->reply = "rdma_error";
		res->rdma_err = probe_get32(&x);
		break;
	default:
		probe_why(res, "unknown RPC-over-RDMA procedure %u", proc);
	}
	if (x.bad && !res->why[0])
		probe_why(res, "reply ends early (%zu octets)", len);
}

/* Work request IDs: a failed completion's opcode is undefined */
#define PROBE_WR_RECV	1
#define PROBE_WR_SEND	2

/* How a Receive ends when the Send into it is longer than the buffer:
 * a length error on most devices, a QP operation error on rxe
 */
static bool probe_too_long(const struct ibv_wc *wc)
{
	return wc->wr_id == PROBE_WR_RECV &&
	       (wc->status == IBV_WC_LOC_LEN_ERR ||
		wc->status == IBV_WC_LOC_QP_OP_ERR);
}

/* Wait for the Send's and, when @recv, the Receive's completions;
 * 0 or -errno
 */
static int probe_wait_cq(struct ibv_cq *cq, int timeout_ms, bool recv,
			 struct probe_read_result *res)
{
	long long deadline = probe_now_ms() + timeout_ms;
	bool sent = false, got = !recv;
	struct ibv_wc wc;
	int n;

	while (!(sent && got)) {
		n = ibv_poll_cq(cq, 1, &wc);
		if (n < 0)
			return -EIO;
		if (!n) {
			if (probe_now_ms() > deadline) {
				probe_why(res, "no %s within %d ms",
					  sent ? "reply" : "Send completion",
					  timeout_ms);
				return -ETIMEDOUT;
			}
			usleep(1000);
			continue;
		}
		if (wc.status != IBV_WC_SUCCESS) {
			probe_why(res, "%s completed with '%s'%s",
				  wc.wr_id == PROBE_WR_RECV ? "the Receive" :
				  "the Send", ibv_wc_status_str(wc.status),
				  probe_too_long(&wc) ?
				  ": a Reply longer than the advertised Receive Size ends so" :
				  "");
			return -EIO;
		}
		if (wc.wr_id == PROBE_WR_RECV) {
			got = true;
			res->received = wc.byte_len;
		} else {
			sent = true;
		}
	}
	return 0;
}

/**
 * probe_read_run - Send one READ inline and decode what comes back
 * @pd: protection domain of the connection
 * @cq: the connection's only CQ (Send and Receive)
 * @qp: connected RC QP with room for one Send and one Receive
 * @recv_size: octets to post for the Reply: the advertised Receive Size;
 *             0 posts no Receive, and only the Send's completion is
 *             awaited: the server's Reply then stays on its Send Queue,
 *             retried (RNR) for as long as the connection lasts
 * @rd: what to read
 * @xid: RPC and RPC-over-RDMA XID
 * @timeout_ms: how long to wait for the Reply
 * @res: OUT: what happened
 *
 * Return: 0 when a Reply of any kind arrived (see @res) or, with a
 * @recv_size of 0, when the Call was sent; else -errno.
 */
int probe_read_run(struct ibv_pd *pd, struct ibv_cq *cq, struct ibv_qp *qp,
		   unsigned int recv_size, const struct probe_read *rd,
		   __u32 xid, int timeout_ms, struct probe_read_result *res)
{
	struct ibv_recv_wr rwr = { }, *bad_rwr;
	struct ibv_send_wr swr = { }, *bad_swr;
	struct ibv_sge rsge, ssge;
	struct ibv_mr *mr;
	size_t call_len;
	__u8 *buf;
	int ret = -ENOMEM;

	memset(res, 0, sizeof(*res));
	res->reply = "none";
	res->nfs_status = -1;
	res->buffer = recv_size;
	buf = calloc(1, (size_t)recv_size + PROBE_CALL_MAX);
	if (!buf) {
		probe_why(res, "out of memory");
		return ret;
	}
	call_len = probe_encode_call(buf + recv_size, PROBE_CALL_MAX, rd, xid);
	if (!call_len) {
		probe_why(res, "path '%s' is too long for one Call", rd->path);
		ret = -EINVAL;
		goto out_free;
	}
	mr = ibv_reg_mr(pd, buf, (size_t)recv_size + PROBE_CALL_MAX,
			IBV_ACCESS_LOCAL_WRITE);
	if (!mr) {
		ret = -errno;
		probe_why(res, "ibv_reg_mr: %s", strerror(errno));
		goto out_free;
	}

	rsge = (struct ibv_sge){ (uintptr_t)buf, recv_size, mr->lkey };
	rwr.wr_id = PROBE_WR_RECV;
	rwr.sg_list = &rsge;
	rwr.num_sge = 1;
	ssge = (struct ibv_sge){ (uintptr_t)buf + recv_size, call_len,
				 mr->lkey };
	swr.wr_id = PROBE_WR_SEND;
	swr.sg_list = &ssge;
	swr.num_sge = 1;
	swr.opcode = IBV_WR_SEND;
	swr.send_flags = IBV_SEND_SIGNALED;
	if ((recv_size && ibv_post_recv(qp, &rwr, &bad_rwr)) ||
	    ibv_post_send(qp, &swr, &bad_swr)) {
		ret = -EIO;
		probe_why(res, "cannot post the Receive or the Send");
		goto out_dereg;
	}
	ret = probe_wait_cq(cq, timeout_ms, recv_size, res);
	if (ret)
		goto out_dereg;
	if (recv_size)
		probe_decode_reply(buf, res->received, xid, res);
	else
		probe_why(res, "the Call was sent; no Receive posted for its Reply");
out_dereg:
	ibv_dereg_mr(mr);
out_free:
	free(buf);
	return ret;
}

/**
 * probe_read_error_name - Name an RDMA_ERROR code
 * @rdma_err: the code from the reply
 *
 * Return: a static string.
 */
const char *probe_read_error_name(int rdma_err)
{
	switch (rdma_err) {
	case 1:
		return "ERR_VERS";
	case 2:
		return "ERR_CHUNK";
	default:
		return "unknown";
	}
}
