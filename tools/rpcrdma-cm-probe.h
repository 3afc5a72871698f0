/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcrdma-cm-probe: the parts shared by the probe's source files.
 */
#ifndef RPCRDMA_CM_PROBE_H
#define RPCRDMA_CM_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <infiniband/verbs.h>
#include <linux/types.h>

/* --read: at most this many per connection */
#define PROBE_READS_MAX		4

/* One --read PATH:COUNT: an NFSv4.0 READ sent inline, without chunks */
struct probe_read {
	char path[256];		/* from the server's NFSv4 root, '/' separated */
	unsigned int count;
};

/* What came back for one --read */
struct probe_read_result {
	const char *reply;	/* rdma_msg, rdma_error, rdma_nomsg, none */
	unsigned int received;	/* octets the Receive completed with */
	unsigned int buffer;	/* octets posted for the Receive */
	int rdma_err;		/* RDMA_ERROR: ERR_VERS 1, ERR_CHUNK 2 */
	int nfs_status;		/* COMPOUND status, -1 without one */
	unsigned int failed_op;	/* op that set a non-zero status */
	unsigned int data;	/* octets READ returned */
	bool eof;
	char why[256];		/* reply "none" or malformed: what happened */
};

int probe_read_run(struct ibv_pd *pd, struct ibv_cq *cq, struct ibv_qp *qp,
		   unsigned int recv_size, const struct probe_read *rd,
		   __u32 xid, int timeout_ms, struct probe_read_result *res);
const char *probe_read_error_name(int rdma_err);

#endif /* RPCRDMA_CM_PROBE_H */
