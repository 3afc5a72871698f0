// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for rpcrdma-cm's shared glue (rpcrdma_cm.c): what a
 * server or a client advertises and negotiates for a given device,
 * module parameters and peer private data, and the line each
 * connection then shows in <debugfs>/rpcrdma_cm/connections.
 *
 * The glue is included rather than linked: its module parameters are
 * static, and these tests set them. Nothing here touches RDMA
 * hardware or ib_core; a zeroed struct ib_device carries only the
 * capability bit the glue reads. NOTRACE compiles its tracepoints
 * out, so this module never registers trace events that would clash
 * with rpcrdma.ko's.
 */

#define NOTRACE
#include "rpcrdma_cm.c"

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/seq_file.h>

/* IBTA CM private data of a REQ (after rdma_cm's header) and a REP */
#define RPCRDMA_CM_TEST_REQ_LEN	56
#define RPCRDMA_CM_TEST_REP_LEN	196

/* The identifier, version 1, then flags and the two encoded sizes */
#define RPCRDMA_CM_TEST_MSG(flags, send, recv) \
	{ 0xf6, 0xab, 0x0e, 0x18, 0x01, (flags), (send), (recv) }

/**
 * struct rpcrdma_cm_test_param - one connection set up by the glue
 * @desc: what the case shows
 * @server: the accepting side (svcrdma) rather than the client
 * @frwr: the device has IB_DEVICE_MEM_MGT_EXTENSIONS
 * @pdata: the pdata module parameter as the connection begins
 * @flip: the pdata parameter is inverted between the connection's two
 *	CM events (the server's CONNECT_REQUEST and accept, the client's
 *	connect and ESTABLISHED); the connection keeps the first value
 * @reminv: the remote_invalidate module parameter
 * @max_send: what the role's hook passes as this side's Send limit
 * @max_recv: what the role's hook passes as this side's Receive limit
 * @peer: the peer's private data as the CM delivers it
 * @peer_len: octets of @peer the CM delivers
 * @adv: the message this side must hand to the CM
 * @adv_len: its length (0: no private data)
 * @status: the expected parse outcome
 * @send: expected threshold of this side's Sends
 * @recv: expected threshold of the peer's Sends
 * @remote_inv: expected Send With Invalidate decision
 * @line: the expected debugfs line, newline included
 */
struct rpcrdma_cm_test_param {
	const char			*desc;
	bool				server;
	bool				frwr;
	bool				pdata;
	bool				flip;
	bool				reminv;
	u32				max_send;
	u32				max_recv;
	u8				peer[RPCRDMA_CM_TEST_REP_LEN];
	u8				peer_len;
	u8				adv[RPCRDMA_PDATA_V1_LEN];
	u8				adv_len;
	enum rpcrdma_pdata_status	status;
	u32				send;
	u32				recv;
	bool				remote_inv;
	const char			*line;
};

/* The debugfs line of a connection: role and peer, then the peer's
 * message, then the negotiated values (and a server's counters)
 */
#define RPCRDMA_CM_TEST_SRV	"role=server peer=192.0.2.8:1023 "
#define RPCRDMA_CM_TEST_CLI	"role=client peer=192.0.2.7:20049 "
#define RPCRDMA_CM_TEST_PEER(psend, precv, pr) \
	"peer_pdata=present peer_send=" #psend " peer_recv=" #precv \
	" peer_r=" #pr " "
#define RPCRDMA_CM_TEST_NONE(status) \
	"peer_pdata=absent:" status " peer_send=1024 peer_recv=1024 peer_r=0 "
#define RPCRDMA_CM_TEST_RES(send, recv, inv) \
	"send=" #send " recv=" #recv " reminv=" #inv
#define RPCRDMA_CM_TEST_COUNTERS	" reply_chunks=0 short_replies=0\n"
#define RPCRDMA_CM_TEST_RECV(inv, swi, too_long) \
	" recv_inv=" #inv " swi_without_r=" #swi " recv_too_long=" #too_long "\n"

static const struct rpcrdma_cm_test_param rpcrdma_cm_test_conns[] = {
	{
		.desc = "server: rxe defaults, client 4096/4096 with R",
		.server = true, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 3, 3),
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 4096, .recv = 4096, .remote_inv = true,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_PEER(4096, 4096, 1)
			RPCRDMA_CM_TEST_RES(4096, 4096, 1) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		/* Mainline uses Send With Invalidate whenever the client
		 * set R; RFC 8797 Section 4.1 wants both.
		 */
		.desc = "server: client R clear, no Send With Invalidate",
		.server = true, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x00, 3, 3),
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 4096, .recv = 4096, .remote_inv = false,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_PEER(4096, 4096, 0)
			RPCRDMA_CM_TEST_RES(4096, 4096, 0) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		.desc = "server: device without FRWR extensions, R clear",
		.server = true, .frwr = false, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 3, 3),
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x00, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 4096, .recv = 4096, .remote_inv = false,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_PEER(4096, 4096, 1)
			RPCRDMA_CM_TEST_RES(4096, 4096, 0) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		.desc = "server: remote_invalidate=0, R clear",
		.server = true, .frwr = true, .pdata = true, .reminv = false,
		.max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 3, 3),
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x00, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 4096, .recv = 4096, .remote_inv = false,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_PEER(4096, 4096, 1)
			RPCRDMA_CM_TEST_RES(4096, 4096, 0) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		.desc = "server: pdata=0 sends none and ignores the client's",
		.server = true, .frwr = true, .pdata = false, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 3, 3),
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv_len = 0,
		.status = RPCRDMA_PDATA_DISABLED,
		.send = 1024, .recv = 1024, .remote_inv = false,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_NONE("disabled")
			RPCRDMA_CM_TEST_RES(1024, 1024, 0) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		.desc = "server: RFC 8166-only client sends nothing: 1024 both ways",
		.server = true, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer_len = 0,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_NO_DATA,
		.send = 1024, .recv = 1024, .remote_inv = false,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_NONE("no_data")
			RPCRDMA_CM_TEST_RES(1024, 1024, 0) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		/* Mainline's server ignores the client's Receive Size */
		.desc = "server: client Receive Size 2048 bounds the server's Sends",
		.server = true, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 3, 1),
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 2048, .recv = 4096, .remote_inv = true,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_PEER(4096, 2048, 1)
			RPCRDMA_CM_TEST_RES(2048, 4096, 1) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		.desc = "server: client Send Size 1024 bounds what the server receives",
		.server = true, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 0, 3),
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 4096, .recv = 1024, .remote_inv = true,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_PEER(1024, 4096, 1)
			RPCRDMA_CM_TEST_RES(4096, 1024, 1) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		.desc = "server: buffer size 4097 is advertised as 4096",
		.server = true, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4097, .max_recv = 4097,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 7, 7),
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 4096, .recv = 4096, .remote_inv = true,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_PEER(8192, 8192, 1)
			RPCRDMA_CM_TEST_RES(4096, 4096, 1) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		.desc = "server: buffer size 1 MiB is advertised as 256 KiB",
		.server = true, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 1048576, .max_recv = 1048576,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 255, 255),
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 255, 255), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 262144, .recv = 262144, .remote_inv = true,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_PEER(262144, 262144, 1)
			RPCRDMA_CM_TEST_RES(262144, 262144, 1) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		/* Mainline reads the message at offset 0 only */
		.desc = "server: message at offset 5 of the REQ",
		.server = true, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = { 0x01, 0x02, 0x03, 0x04, 0x05,
			  0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x01, 0x07 },
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 4096, .recv = 2048, .remote_inv = true,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_PEER(2048, 8192, 1)
			RPCRDMA_CM_TEST_RES(4096, 2048, 1) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		/* Mainline reads 8 octets whatever private_data_len says */
		.desc = "server: identifier in the last 4 octets: truncated, defaults",
		.server = true, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = { 0x01, 0x02, 0x03, 0x04, 0xf6, 0xab, 0x0e, 0x18,
			  0x01, 0x01, 0x03, 0x03 },
		.peer_len = 8,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_TRUNCATED,
		.send = 1024, .recv = 1024, .remote_inv = false,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_NONE("truncated")
			RPCRDMA_CM_TEST_RES(1024, 1024, 0) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		.desc = "server: version 2: defaults",
		.server = true, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = { 0xf6, 0xab, 0x0e, 0x18, 0x02, 0x01, 0x03, 0x03 },
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_BAD_VERSION,
		.send = 1024, .recv = 1024, .remote_inv = false,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_NONE("bad_version")
			RPCRDMA_CM_TEST_RES(1024, 1024, 0) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		.desc = "server: other protocol's private data: defaults",
		.server = true, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = { 0x4e, 0x46, 0x53, 0x01, 0x00, 0x10, 0x00, 0x10 },
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_NO_IDENT,
		.send = 1024, .recv = 1024, .remote_inv = false,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_NONE("no_ident")
			RPCRDMA_CM_TEST_RES(1024, 1024, 0) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		/* Parsed the client's message, then advertises it too */
		.desc = "server: pdata 1 -> 0 between CONNECT_REQUEST and accept",
		.server = true, .frwr = true, .pdata = true, .flip = true,
		.reminv = true, .max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 3, 3),
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 4096, .recv = 4096, .remote_inv = true,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_PEER(4096, 4096, 1)
			RPCRDMA_CM_TEST_RES(4096, 4096, 1) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		.desc = "server: pdata 0 -> 1 between CONNECT_REQUEST and accept",
		.server = true, .frwr = true, .pdata = false, .flip = true,
		.reminv = true, .max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 3, 3),
		.peer_len = RPCRDMA_CM_TEST_REQ_LEN,
		.adv_len = 0,
		.status = RPCRDMA_PDATA_DISABLED,
		.send = 1024, .recv = 1024, .remote_inv = false,
		.line = RPCRDMA_CM_TEST_SRV
			RPCRDMA_CM_TEST_NONE("disabled")
			RPCRDMA_CM_TEST_RES(1024, 1024, 0) RPCRDMA_CM_TEST_COUNTERS,
	},
	{
		.desc = "client: defaults, server 4096/4096 with R",
		.server = false, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 3, 3),
		.peer_len = RPCRDMA_CM_TEST_REP_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 4096, .recv = 4096, .remote_inv = true,
		.line = RPCRDMA_CM_TEST_CLI
			RPCRDMA_CM_TEST_PEER(4096, 4096, 1)
			RPCRDMA_CM_TEST_RES(4096, 4096, 1) RPCRDMA_CM_TEST_RECV(0, 0, 0),
	},
	{
		/* What a mainline server answers: R never set */
		.desc = "client: server R clear, no remote invalidation",
		.server = false, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x00, 3, 3),
		.peer_len = RPCRDMA_CM_TEST_REP_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 4096, .recv = 4096, .remote_inv = false,
		.line = RPCRDMA_CM_TEST_CLI
			RPCRDMA_CM_TEST_PEER(4096, 4096, 0)
			RPCRDMA_CM_TEST_RES(4096, 4096, 0) RPCRDMA_CM_TEST_RECV(0, 0, 0),
	},
	{
		.desc = "client: RFC 8166-only server sends nothing: 1024 both ways",
		.server = false, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer_len = 0,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_NO_DATA,
		.send = 1024, .recv = 1024, .remote_inv = false,
		.line = RPCRDMA_CM_TEST_CLI
			RPCRDMA_CM_TEST_NONE("no_data")
			RPCRDMA_CM_TEST_RES(1024, 1024, 0) RPCRDMA_CM_TEST_RECV(0, 0, 0),
	},
	{
		.desc = "client: inline write 8192, read 2048, server 4096/4096",
		.server = false, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 8192, .max_recv = 2048,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 3, 3),
		.peer_len = RPCRDMA_CM_TEST_REP_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 7, 1), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 4096, .recv = 2048, .remote_inv = true,
		.line = RPCRDMA_CM_TEST_CLI
			RPCRDMA_CM_TEST_PEER(4096, 4096, 1)
			RPCRDMA_CM_TEST_RES(4096, 2048, 1) RPCRDMA_CM_TEST_RECV(0, 0, 0),
	},
	{
		.desc = "client: pdata=0 sends none and ignores the server's",
		.server = false, .frwr = true, .pdata = false, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 3, 3),
		.peer_len = RPCRDMA_CM_TEST_REP_LEN,
		.adv_len = 0,
		.status = RPCRDMA_PDATA_DISABLED,
		.send = 1024, .recv = 1024, .remote_inv = false,
		.line = RPCRDMA_CM_TEST_CLI
			RPCRDMA_CM_TEST_NONE("disabled")
			RPCRDMA_CM_TEST_RES(1024, 1024, 0) RPCRDMA_CM_TEST_RECV(0, 0, 0),
	},
	{
		/* Advertised 4096: the server's 4096 Replies must fit */
		.desc = "client: pdata 1 -> 0 between connect and ESTABLISHED",
		.server = false, .frwr = true, .pdata = true, .flip = true,
		.reminv = true, .max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 3, 3),
		.peer_len = RPCRDMA_CM_TEST_REP_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 4096, .recv = 4096, .remote_inv = true,
		.line = RPCRDMA_CM_TEST_CLI
			RPCRDMA_CM_TEST_PEER(4096, 4096, 1)
			RPCRDMA_CM_TEST_RES(4096, 4096, 1) RPCRDMA_CM_TEST_RECV(0, 0, 0),
	},
	{
		.desc = "client: pdata 0 -> 1 between connect and ESTABLISHED",
		.server = false, .frwr = true, .pdata = false, .flip = true,
		.reminv = true, .max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 3, 3),
		.peer_len = RPCRDMA_CM_TEST_REP_LEN,
		.adv_len = 0,
		.status = RPCRDMA_PDATA_DISABLED,
		.send = 1024, .recv = 1024, .remote_inv = false,
		.line = RPCRDMA_CM_TEST_CLI
			RPCRDMA_CM_TEST_NONE("disabled")
			RPCRDMA_CM_TEST_RES(1024, 1024, 0) RPCRDMA_CM_TEST_RECV(0, 0, 0),
	},
	{
		.desc = "client: iWARP reply of exactly 8 octets",
		.server = false, .frwr = true, .pdata = true, .reminv = true,
		.max_send = 4096, .max_recv = 4096,
		.peer = RPCRDMA_CM_TEST_MSG(0x01, 15, 3),
		.peer_len = RPCRDMA_PDATA_V1_LEN,
		.adv = RPCRDMA_CM_TEST_MSG(0x01, 3, 3), .adv_len = 8,
		.status = RPCRDMA_PDATA_PRESENT,
		.send = 4096, .recv = 4096, .remote_inv = true,
		.line = RPCRDMA_CM_TEST_CLI
			RPCRDMA_CM_TEST_PEER(16384, 4096, 1)
			RPCRDMA_CM_TEST_RES(4096, 4096, 1) RPCRDMA_CM_TEST_RECV(0, 0, 0),
	},
};

static void rpcrdma_cm_test_get_desc(const struct rpcrdma_cm_test_param *param,
				     char *desc)
{
	strscpy(desc, param->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rpcrdma_cm_test_conns, rpcrdma_cm_test_conns,
		  rpcrdma_cm_test_get_desc);

/* The parameters as found, put back after every case */
struct rpcrdma_cm_test_saved {
	bool	pdata;
	bool	reminv;
	bool	short_replies;
};

static int rpcrdma_cm_test_init(struct kunit *test)
{
	struct rpcrdma_cm_test_saved *saved;

	saved = kunit_kzalloc(test, sizeof(*saved), GFP_KERNEL);
	if (!saved)
		return -ENOMEM;
	saved->pdata = rpcrdma_cm_pdata;
	saved->reminv = rpcrdma_cm_remote_invalidate;
	saved->short_replies = rpcrdma_cm_short_replies;
	test->priv = saved;
	return 0;
}

static void rpcrdma_cm_test_exit(struct kunit *test)
{
	const struct rpcrdma_cm_test_saved *saved = test->priv;

	rpcrdma_cm_pdata = saved->pdata;
	rpcrdma_cm_remote_invalidate = saved->reminv;
	rpcrdma_cm_short_replies = saved->short_replies;
}

static struct ib_device *rpcrdma_cm_test_device(struct kunit *test, bool frwr)
{
	struct ib_device *device;

	device = kunit_kzalloc(test, sizeof(*device), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, device);
	if (frwr)
		device->attrs.device_cap_flags = IB_DEVICE_MEM_MGT_EXTENSIONS;
	return device;
}

/* A CM ID whose peer is the server (port 20049) or a client */
static struct rdma_cm_id *rpcrdma_cm_test_id(struct kunit *test, bool server)
{
	struct rdma_cm_id *id;
	struct sockaddr_in *sin;

	id = kunit_kzalloc(test, sizeof(*id), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, id);
	sin = (struct sockaddr_in *)&id->route.addr.dst_addr;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = server ? htonl(0xc0000208) : htonl(0xc0000207);
	sin->sin_port = server ? htons(1023) : htons(20049);
	return id;
}

/* Everything the registry shows, as <debugfs>/rpcrdma_cm/connections */
static const char *rpcrdma_cm_test_show(struct kunit *test)
{
	struct seq_file *m;

	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	m->size = 1024;
	m->buf = kunit_kzalloc(test, m->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m->buf);
	KUNIT_ASSERT_EQ(test, rpcrdma_cm_connections_show(m, NULL), 0);
	KUNIT_ASSERT_LT(test, m->count, m->size);
	return m->buf;
}

/*
 * Drive the shared helpers in the order each role's hooks call them:
 * the server parses the client's REQ before it accepts, the client
 * advertises before it connects and parses the server's REP once
 * established. A flip inverts the pdata parameter between the two.
 */
static void rpcrdma_cm_test_connect(struct kunit *test,
				    const struct rpcrdma_cm_test_param *p,
				    struct rpcrdma_cm_conn *conn, u8 *adv,
				    u8 *adv_len)
{
	const struct rdma_conn_param param = {
		.private_data		= p->peer_len ? p->peer : NULL,
		.private_data_len	= p->peer_len,
	};
	struct ib_device *device = rpcrdma_cm_test_device(test, p->frwr);

	rpcrdma_cm_begin(conn, rpcrdma_cm_test_id(test, p->server), p->server);
	if (p->server)
		rpcrdma_cm_parse(conn, &param);
	rpcrdma_cm_set_local(conn, device, p->max_send, p->max_recv);
	if (p->server && p->flip)
		rpcrdma_cm_pdata = !p->pdata;
	rpcrdma_cm_advertise(conn, adv, adv_len);
	if (!p->server && p->flip)
		rpcrdma_cm_pdata = !p->pdata;
	if (!p->server)
		rpcrdma_cm_parse(conn, &param);
	rpcrdma_cm_negotiate(conn);
}

static void rpcrdma_cm_test_conn_case(struct kunit *test)
{
	const struct rpcrdma_cm_test_param *p = test->param_value;
	struct rpcrdma_cm_conn *conn;
	u8 adv[RPCRDMA_PDATA_V1_LEN] = { };
	u8 adv_len = 0xff;

	rpcrdma_cm_pdata = p->pdata;
	rpcrdma_cm_remote_invalidate = p->reminv;
	conn = kunit_kzalloc(test, sizeof(*conn), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, conn);

	rpcrdma_cm_test_connect(test, p, conn, adv, &adv_len);

	KUNIT_ASSERT_EQ(test, adv_len, p->adv_len);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(adv, p->adv, sizeof(adv)), 0,
			    "advertised %*ph, want %*ph", (int)sizeof(adv),
			    adv, (int)sizeof(adv), p->adv);
	KUNIT_EXPECT_EQ(test, conn->status, p->status);
	KUNIT_EXPECT_EQ(test, conn->res.send_thresh, p->send);
	KUNIT_EXPECT_EQ(test, conn->res.recv_thresh, p->recv);
	KUNIT_EXPECT_EQ(test, conn->res.remote_inv, p->remote_inv);

	rpcrdma_cm_link(conn);
	KUNIT_EXPECT_STREQ(test, rpcrdma_cm_test_show(test), p->line);
	rpcrdma_cm_unlink(conn);
	KUNIT_EXPECT_STREQ(test, rpcrdma_cm_test_show(test), "");
}

/* The R bit needs both the device's FRWR extensions and the parameter */
static void rpcrdma_cm_test_reminv_case(struct kunit *test)
{
	struct ib_device *frwr = rpcrdma_cm_test_device(test, true);
	struct ib_device *plain = rpcrdma_cm_test_device(test, false);

	rpcrdma_cm_remote_invalidate = true;
	KUNIT_EXPECT_TRUE(test, rpcrdma_cm_reminv_allowed(frwr));
	KUNIT_EXPECT_FALSE(test, rpcrdma_cm_reminv_allowed(plain));
	plain->attrs.device_cap_flags = ~(u64)IB_DEVICE_MEM_MGT_EXTENSIONS;
	KUNIT_EXPECT_FALSE(test, rpcrdma_cm_reminv_allowed(plain));

	rpcrdma_cm_remote_invalidate = false;
	KUNIT_EXPECT_FALSE(test, rpcrdma_cm_reminv_allowed(frwr));
	KUNIT_EXPECT_FALSE(test, rpcrdma_cm_reminv_allowed(plain));
}

/* An IPv6 peer is kept whole and shown in brackets with its port */
static void rpcrdma_cm_test_ipv6_case(struct kunit *test)
{
	struct rdma_cm_id *id = rpcrdma_cm_test_id(test, false);
	struct sockaddr_in6 *sin6;
	struct rpcrdma_cm_conn *conn;

	conn = kunit_kzalloc(test, sizeof(*conn), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, conn);
	sin6 = (struct sockaddr_in6 *)&id->route.addr.dst_addr;
	memset(sin6, 0, sizeof(*sin6));
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(20049);
	sin6->sin6_addr.s6_addr[0] = 0x20;
	sin6->sin6_addr.s6_addr[1] = 0x01;
	sin6->sin6_addr.s6_addr[2] = 0x0d;
	sin6->sin6_addr.s6_addr[3] = 0xb8;
	sin6->sin6_addr.s6_addr[15] = 0x07;

	rpcrdma_cm_begin(conn, id, false);
	conn->status = RPCRDMA_PDATA_NO_DATA;
	conn->local.max_send = 4096;
	conn->local.max_recv = 4096;
	rpcrdma_cm_negotiate(conn);
	KUNIT_EXPECT_EQ(test, memcmp(&conn->peer, &id->route.addr.dst_addr,
				     sizeof(conn->peer)), 0);

	rpcrdma_cm_link(conn);
	KUNIT_EXPECT_STREQ(test, rpcrdma_cm_test_show(test),
			   "role=client peer=[2001:db8::7]:20049 "
			   RPCRDMA_CM_TEST_NONE("no_data")
			   RPCRDMA_CM_TEST_RES(1024, 1024, 0) RPCRDMA_CM_TEST_RECV(0, 0, 0));
	rpcrdma_cm_unlink(conn);
}

/*
 * Linking twice must not corrupt the list, and unlinking a connection
 * that never reached the registry (a failed connect) must be harmless:
 * the destroy hooks call unlink unconditionally.
 */
static void rpcrdma_cm_test_registry_case(struct kunit *test)
{
	struct rpcrdma_cm_conn *a, *b;

	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	a->server = true;

	rpcrdma_cm_unlink(b);
	KUNIT_EXPECT_FALSE(test, b->linked);
	rpcrdma_cm_link(a);
	rpcrdma_cm_link(a);
	rpcrdma_cm_link(b);
	KUNIT_EXPECT_TRUE(test, a->linked);
	KUNIT_EXPECT_PTR_EQ(test, rpcrdma_cm_conns.next, &a->list);
	KUNIT_EXPECT_PTR_EQ(test, a->list.next, &b->list);
	KUNIT_EXPECT_PTR_EQ(test, b->list.next, &rpcrdma_cm_conns);

	rpcrdma_cm_unlink(a);
	rpcrdma_cm_unlink(a);
	KUNIT_EXPECT_FALSE(test, a->linked);
	KUNIT_EXPECT_PTR_EQ(test, rpcrdma_cm_conns.next, &b->list);
	rpcrdma_cm_unlink(b);
	KUNIT_EXPECT_TRUE(test, list_empty(&rpcrdma_cm_conns));
}

/*
 * What a client's Receive completions show of its server: remote
 * invalidation counted, and flagged when it was not negotiated (as
 * mainline's server does, advertising R=0); Sends too long for the
 * Receive counted; anything else ignored.
 */
static void rpcrdma_cm_test_recv_case(struct kunit *test)
{
	int swi0 = atomic_read(&rpcrdma_cm_swi_without_r);
	int long0 = atomic_read(&rpcrdma_cm_recv_too_long);
	struct rpcrdma_cm_conn *ours, *stock;

	ours = kunit_kzalloc(test, sizeof(*ours), GFP_KERNEL);
	stock = kunit_kzalloc(test, sizeof(*stock), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ours);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, stock);
	rpcrdma_cm_begin(stock, rpcrdma_cm_test_id(test, false), false);
	ours->res.remote_inv = true;
	stock->res.remote_inv = false;

	rpcrdma_cm_recv_done(ours, IB_WC_SUCCESS, IB_WC_WITH_INVALIDATE, 1);
	rpcrdma_cm_recv_done(ours, IB_WC_SUCCESS, IB_WC_WITH_INVALIDATE, 2);
	rpcrdma_cm_recv_done(ours, IB_WC_SUCCESS, 0, 0);
	/* a flushed Receive's flags mean nothing */
	rpcrdma_cm_recv_done(ours, IB_WC_WR_FLUSH_ERR, IB_WC_WITH_INVALIDATE, 3);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&ours->recv_inv), 2);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&ours->swi_without_r), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rpcrdma_cm_swi_without_r), swi0);

	rpcrdma_cm_recv_done(stock, IB_WC_SUCCESS, IB_WC_WITH_INVALIDATE, 4);
	rpcrdma_cm_recv_done(stock, IB_WC_SUCCESS,
			     IB_WC_WITH_INVALIDATE | IB_WC_GRH, 5);
	rpcrdma_cm_recv_done(stock, IB_WC_SUCCESS, IB_WC_WITH_IMM, 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&stock->recv_inv), 2);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&stock->swi_without_r), 2);
	/* the connection is counted once, not each Receive */
	KUNIT_EXPECT_EQ(test, atomic_read(&rpcrdma_cm_swi_without_r), swi0 + 1);

	rpcrdma_cm_recv_done(stock, IB_WC_LOC_LEN_ERR, 0, 0);
	rpcrdma_cm_recv_done(ours, IB_WC_LOC_QP_OP_ERR, 0, 0);
	rpcrdma_cm_recv_done(ours, IB_WC_REM_ACCESS_ERR, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&stock->recv_too_long), 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&ours->recv_too_long), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&rpcrdma_cm_recv_too_long), long0 + 2);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&stock->recv_inv), 2);

	stock->status = RPCRDMA_PDATA_PRESENT;
	stock->peer_msg.send_size = 4096;
	stock->peer_msg.recv_size = 4096;
	stock->res.send_thresh = 4096;
	stock->res.recv_thresh = 4096;
	rpcrdma_cm_link(stock);
	KUNIT_EXPECT_STREQ(test, rpcrdma_cm_test_show(test),
			   RPCRDMA_CM_TEST_CLI
			   RPCRDMA_CM_TEST_PEER(4096, 4096, 0)
			   RPCRDMA_CM_TEST_RES(4096, 4096, 0)
			   RPCRDMA_CM_TEST_RECV(2, 2, 1));
	rpcrdma_cm_unlink(stock);
}

static struct kunit_case rpcrdma_cm_glue_cases[] = {
	KUNIT_CASE_PARAM(rpcrdma_cm_test_conn_case,
			 rpcrdma_cm_test_conns_gen_params),
	KUNIT_CASE(rpcrdma_cm_test_reminv_case),
	KUNIT_CASE(rpcrdma_cm_test_ipv6_case),
	KUNIT_CASE(rpcrdma_cm_test_registry_case),
	KUNIT_CASE(rpcrdma_cm_test_recv_case),
	{}
};

static struct kunit_suite rpcrdma_cm_glue_suite = {
	.name		= "rpcrdma_cm_glue",
	.init		= rpcrdma_cm_test_init,
	.exit		= rpcrdma_cm_test_exit,
	.test_cases	= rpcrdma_cm_glue_cases,
};

kunit_test_suite(rpcrdma_cm_glue_suite);
